/*
 * Unit tests for the text of frames (src/sink/srcloc.c), the profile tree
 * and its reports (src/sink/profile.c) and the skip patterns
 * (src/dwarf/skip.c), on events built by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dwarf/skip.h"
#include "event.h"
#include "sink/flamesvg.h"
#include "sink/profile.h"
#include "sink/srcloc.h"
#include "util/strbuf.h"

#include "util/banned.h"

static struct frame fr(const char *fn, const char *file, uint32_t line, const char *mod,
		       uint8_t flags)
{
	struct frame f;

	memset(&f, 0, sizeof(f));
	f.pc = 0x401000;
	f.function = fn;
	f.symbol = fn;
	f.file = file;
	f.line = line;
	f.module = mod;
	f.offset = 0x1000;
	f.symoff = 0x1d;
	f.flags = flags;
	return f;
}

static struct event call(const char *name, const struct frame *frames, uint32_t n, uint64_t ns)
{
	struct event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SYSCALL;
	ev.name = name;
	ev.pid = ev.tid = 7;
	ev.ts_ns = 1000;
	ev.end_ns = 1000 + ns;
	ev.frames = frames;
	ev.nframes = n;
	return ev;
}

static void test_srcloc(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct frame f = fr("load", "src/config.c", 88, "/bin/p", FRAME_OWN);

	srcloc_render(&sb, &f);
	assert_string_equal(sb.buf, "src/config.c:88 in load");
	strbuf_reset(&sb);
	f.file = NULL;
	f.line = 0;
	srcloc_render(&sb, &f);
	assert_string_equal(sb.buf, "in load");
	strbuf_reset(&sb);
	f.function = NULL;
	srcloc_render(&sb, &f);
	assert_string_equal(sb.buf, "p+0x1000");
	strbuf_reset(&sb);
	srcloc_render(&sb, NULL);
	assert_string_equal(sb.buf, "?");
	strbuf_release(&sb);
}

static void test_strace_stack(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct frame f[4];

	/* an inlined call and its function are one line, with the inner line */
	f[0] = fr("__write", NULL, 0, "/lib/libc.so.6", 0);
	f[1] = fr("helper", "src/a.c", 19, "/bin/p", FRAME_OWN | FRAME_INLINED);
	f[1].symbol = "main";
	f[2] = fr("main", "src/a.c", 48, "/bin/p", FRAME_OWN);
	f[3] = fr(NULL, NULL, 0, NULL, 0);     /* outside any module: not shown */
	f[3].symbol = NULL;
	stack_render_strace(&sb, f, 4, "too many stack frames", true);
	assert_string_equal(sb.buf,
		" > /lib/libc.so.6(__write+0x1d) [0x1000]\n"
		" > /bin/p(main+0x1d) [0x1000] src/a.c:19\n"
		" > too many stack frames\n");
	strbuf_reset(&sb);
	f[0].symbol = NULL;
	stack_render_strace(&sb, f, 1, NULL, false);
	assert_string_equal(sb.buf, " > /lib/libc.so.6() [0x1000]\n");
	/* a frame rebuilt from a tail call, inlined call and all: marked with
	 * source lines, left out of strace's own format */
	f[1].flags |= FRAME_TAILCALL;
	f[2].flags |= FRAME_TAILCALL;
	f[0].symbol = "__write";
	strbuf_reset(&sb);
	stack_render_strace(&sb, f, 3, NULL, true);
	assert_string_equal(sb.buf,
		" > /lib/libc.so.6(__write+0x1d) [0x1000]\n"
		" > /bin/p(main+0x1d) [0x1000] src/a.c:19 (tail call)\n");
	strbuf_reset(&sb);
	stack_render_strace(&sb, f, 3, NULL, false);
	assert_string_equal(sb.buf, " > /lib/libc.so.6(__write+0x1d) [0x1000]\n");
	strbuf_release(&sb);
}

static void test_profile_tree(void **state)
{
	struct profile *p = profile_new();
	struct strbuf sb = STRBUF_INIT;
	struct frame a[4], b[5], c[1];
	struct event ev;

	/* write from main > load > read_config, libc frame left out */
	a[0] = fr("__write", NULL, 0, "/lib/libc.so.6", 0);
	a[1] = fr("read_config", "src/c.c", 3, "/bin/p", FRAME_OWN);
	a[2] = fr("load", "src/c.c", 9, "/bin/p", FRAME_OWN);
	a[3] = fr("main", "src/m.c", 5, "/bin/p", FRAME_OWN);
	ev = call("write", a, 4, 3000);
	profile_add(p, &ev);
	profile_add(p, &ev);
	/* recursion: main > walk > walk > walk, each edge counted once */
	b[0] = fr("__read", NULL, 0, "/lib/libc.so.6", 0);
	b[1] = fr("walk", "src/w.c", 1, "/bin/p", FRAME_OWN);
	b[2] = fr("walk", "src/w.c", 2, "/bin/p", FRAME_OWN);
	b[3] = fr("walk", "src/w.c", 2, "/bin/p", FRAME_OWN);
	b[4] = fr("main", "src/m.c", 6, "/bin/p", FRAME_OWN);
	ev = call("read", b, 5, 400);
	profile_add(p, &ev);
	/* no own frame: under the innermost module; no stack: [unknown] */
	c[0] = fr("_dl_start", NULL, 0, "/lib64/ld-linux-x86-64.so.2", 0);
	ev = call("mmap", c, 1, 100);
	profile_add(p, &ev);
	ev = call("execve", NULL, 0, 200);
	assert_non_null(profile_add(p, &ev));
	ev.type = EV_SIGNAL;
	assert_null(profile_add(p, &ev));

	profile_folded(p, &sb, false);
	assert_string_equal(sb.buf,
		"[ld-linux-x86-64.so.2];[mmap] 1\n"
		"[unknown];[execve] 1\n"
		"main;load;read_config;[write] 6\n"
		"main;walk;walk;walk;[read] 1\n");
	strbuf_reset(&sb);
	profile_folded(p, &sb, true);
	assert_string_equal(sb.buf,
		"[ld-linux-x86-64.so.2];[mmap] 1\n"
		"[unknown];[execve] 1\n"
		"main;load;read_config;[write] 2\n"
		"main;walk;walk;walk;[read] 1\n");
	strbuf_reset(&sb);
	profile_json(p, &sb, "function_profile");
	assert_non_null(strstr(sb.buf, "{\"type\": \"function_profile\", \"total_syscalls\": 5, "
				       "\"total_us\": 6.700, \"functions\": ["));
	assert_non_null(strstr(sb.buf, "{\"function\": \"read_config\", \"file\": \"src/c.c\", "
				       "\"calls\": 2, \"total_us\": 6.000, \"avg_us\": 3.000, "
				       "\"io_calls\": 2, \"slow_io_calls\": 0}"));
	/* main -> walk and walk -> walk once each, though the stack repeats walk */
	assert_non_null(strstr(sb.buf, "{\"caller\": \"walk\", \"callee\": \"walk\", \"calls\": 1, "
				       "\"total_us\": 0.400}"));
	assert_non_null(strstr(sb.buf, "{\"caller\": \"main\", \"callee\": \"walk\", \"calls\": 1,"));
	assert_null(strchr(sb.buf, '\n'));      /* JSON Lines: one line */
	assert_non_null(strstr(sb.buf, "\"hot_paths\": [{\"stack\": [\"main\", \"load\", "
				       "\"read_config\", \"[write]\"], \"calls\": 2, \"total_us\": 6.000, "
				       "\"share\": 0.8955}"));
	strbuf_reset(&sb);
	profile_table(p, &sb);
	assert_non_null(strstr(sb.buf, "      0.006          2      3.000         2         0  read_config (src/c.c)\n"));
	assert_non_null(strstr(sb.buf, "   89.6%      0.006          2  main > load > read_config > [write]\n"));
	assert_non_null(strstr(sb.buf, "      0.006          2  main -> load\n"));
	assert_int_equal(profile_root(p)->calls, 5);
	strbuf_release(&sb);
	profile_free(p);
}

static void test_svg(void **state)
{
	struct profile *p = profile_new();
	struct strbuf sb = STRBUF_INIT;
	struct frame a[2];
	struct event ev;

	a[0] = fr("a<b>&c", "x.c", 1, "/bin/p", FRAME_OWN);
	a[1] = fr("main", "m.c", 2, "/bin/p", FRAME_OWN);
	ev = call("write", a, 2, 5000);
	profile_add(p, &ev);
	profile_svg(p, &sb, false, "prog \"x\"");
	/* names are escaped; the root spans the width; nothing is fetched */
	assert_non_null(strstr(sb.buf, "data-n=\"a&lt;b&gt;&amp;c\""));
	assert_non_null(strstr(sb.buf, "<text id=\"title\" x=\"600\" y=\"24\" text-anchor=\"middle\">prog &quot;x&quot; (syscall time)</text>"));
	assert_non_null(strstr(sb.buf, "data-n=\"all\"><title>all (0.005 ms, 1 calls, 100.00%)</title><rect x=\"10.00\""));
	assert_null(strstr(sb.buf, "href"));
	strbuf_release(&sb);
	profile_free(p);
}

static void test_skip(void **state)
{
	struct srcskip *s = srcskip_new();

	assert_true(srcskip_match(s, "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, NULL));
	assert_true(srcskip_match(s, "/lib64/ld-linux-x86-64.so.2", NULL, NULL));
	assert_true(srcskip_match(s, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30", NULL, NULL));
	assert_true(srcskip_match(s, "[vdso]", NULL, NULL));
	assert_true(srcskip_match(s, NULL, "std::io::stdio::_print", NULL));
	assert_true(srcskip_match(s, NULL, "<&std::io::stdio::Stdout as std::io::Write>::write_fmt", NULL));
	assert_true(srcskip_match(s, NULL, NULL, "/rustc/abc/library/std/src/io/mod.rs"));
	assert_true(srcskip_match(s, NULL, NULL, "library/core/src/fmt/mod.rs"));
	assert_true(srcskip_match(s, NULL, NULL, "/usr/include/c++/12/ostream"));
	assert_true(srcskip_match(s, NULL, "_start", NULL));
	assert_false(srcskip_match(s, "/tmp/prog", "main", "src/main.c"));
	assert_false(srcskip_match(s, "/usr/lib/libcurl.so.4", "curl_easy_perform", NULL));
	assert_false(srcskip_match(s, NULL, "<mycrate::Foo as core::fmt::Display>::fmt", "src/foo.rs"));
	assert_false(srcskip_match(s, "/tmp/libcx.so", NULL, NULL));
	/* modules: which patterns match, and where the system's libraries are */
	assert_int_equal(srcskip_module(s, "/usr/lib/x86_64-linux-gnu/libc.so.6"), SRCSKIP_BUILTIN);
	assert_int_equal(srcskip_module(s, "/home/u/proj/build/libutil.so"), SRCSKIP_BUILTIN);
	assert_int_equal(srcskip_module(s, "/home/u/proj/build/libplug.so"), SRCSKIP_NONE);
	assert_int_equal(srcskip_module(s, NULL), SRCSKIP_NONE);
	assert_true(srcskip_system_path("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	assert_true(srcskip_system_path("/lib64/ld-linux-x86-64.so.2"));
	assert_true(srcskip_system_path("/usr/lib32/libm.so.6"));
	assert_true(srcskip_system_path("[vdso]"));
	assert_false(srcskip_system_path("/usr/local/lib/libutil.so"));
	assert_false(srcskip_system_path("/usr/libexec/x"));
	assert_false(srcskip_system_path("/home/u/lib/libc.so"));
	assert_false(srcskip_system_path("/opt/lib64x/libm.so"));
	assert_int_equal(srcskip_add(s, "^log_"), 0);
	assert_true(srcskip_match(s, NULL, "log_write", NULL));
	assert_int_equal(srcskip_module(s, "/usr/lib/x86_64-linux-gnu/libc.so.6"), SRCSKIP_BUILTIN);
	assert_int_equal(srcskip_add(s, "/libc\\."), 0);
	assert_int_equal(srcskip_module(s, "/usr/lib/x86_64-linux-gnu/libc.so.6"), SRCSKIP_ADDED);
	assert_int_equal(srcskip_add(s, ""), 0);
	assert_int_equal(srcskip_count(s), 0);
	assert_false(srcskip_match(s, "/usr/lib/x86_64-linux-gnu/libc.so.6", "log_write", NULL));
	assert_int_equal(srcskip_add(s, "(unclosed"), -1);
	srcskip_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srcloc),
		cmocka_unit_test(test_strace_stack),
		cmocka_unit_test(test_profile_tree),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_skip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
