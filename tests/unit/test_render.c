/* Unit tests for src/sink/render.c: values and lines as strace prints them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "event.h"
#include "sink/render.h"
#include "util/strbuf.h"

#include "util/banned.h"

static const struct xlat_data open_mode_data[] = {
	{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 02000000, "O_CLOEXEC" },
};
static const struct xlat open_mode[1] = { { open_mode_data, 3, XT_FLAGS, "O_???" } };
static const struct xlat_data access_data[] = {
	{ 0, "F_OK" }, { 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" },
};
static const struct xlat access_xl[1] = { { access_data, 4, XT_FLAGS, "?_OK" } };
static const struct xlat_data sol_data[] = { { 1, "SOL_SOCKET" }, { 6, "SOL_TCP" } };
static const struct xlat sol_xl[1] = { { sol_data, 2, XT_ENUM, "SOL_???" } };
static const struct xlat sol_noun[1] = { { sol_data, 2, XT_ENUM, NULL } };

static struct strbuf sb = STRBUF_INIT;

static const char *rv(const struct val *v)
{
	strbuf_reset(&sb);
	val_render(&sb, v, NULL);
	return sb.buf;
}

static struct val str(const char *p, size_t len, uint8_t flags)
{
	struct val v = { .kind = V_STR, .flags = flags };
	v.s.p = p;
	v.s.len = (uint32_t)len;
	return v;
}

static void test_escape(void **state)
{
	struct val v;

	v = str("\1" "8\1" "9\1a\177\\\"\n\t\r\v\f\200\377x\0\0", 19, 0);
	assert_string_equal(rv(&v), "\"\\18\\19\\1a\\177\\\\\\\"\\n\\t\\r\\v\\f\\200\\377x\\0\\0\"");
	v = str("\1" "7", 2, 0);   /* next byte an octal digit: three digits */
	assert_string_equal(rv(&v), "\"\\0017\"");
	v = str("\177ELF\2\1\1\0", 8, 0);
	assert_string_equal(rv(&v), "\"\\177ELF\\2\\1\\1\\0\"");
	v = str("\0" "0", 2, 0);
	assert_string_equal(rv(&v), "\"\\0000\"");
	v = str("\x1b[0m", 4, 0);
	assert_string_equal(rv(&v), "\"\\33[0m\"");
	v = str("", 0, 0);
	assert_string_equal(rv(&v), "\"\"");
	/* the byte after the last one shown is not looked at */
	v = str("\1" "5", 1, VF_TRUNC);
	assert_string_equal(rv(&v), "\"\\1\"...");
	v = str("\x96\x05" "B", 3, VF_HEXSTR);
	assert_string_equal(rv(&v), "\"\\x96\\x05\\x42\"");
	v = str("abc", 3, VF_STR_UNTERM);
	assert_string_equal(rv(&v), "\"abc\"...");
}

static void test_escaped_path(void **state)
{
	strbuf_reset(&sb);
	render_escaped(&sb, "/tmp/a<b>\n", 10, "<>");
	assert_string_equal(sb.buf, "/tmp/a\\74b\\76\\n");
}

static void test_scalars(void **state)
{
	struct val v = { .kind = V_INT };

	v.i = -100;
	assert_string_equal(rv(&v), "-100");
	v.kind = V_UINT; v.u = 18446744073709551615ull;
	assert_string_equal(rv(&v), "18446744073709551615");
	v.kind = V_HEX; v.u = 0;
	assert_string_equal(rv(&v), "0");
	v.u = 0x7f00;
	assert_string_equal(rv(&v), "0x7f00");
	v.kind = V_PTR; v.u = 0;
	assert_string_equal(rv(&v), "NULL");
	v.u = 0x7ffd1234;
	assert_string_equal(rv(&v), "0x7ffd1234");
	v.kind = V_OCT; v.u = 0644;
	assert_string_equal(rv(&v), "0644");
	v.u = 0;
	assert_string_equal(rv(&v), "000");
	v.u = 07;
	assert_string_equal(rv(&v), "007");
	v.u = 04755;
	assert_string_equal(rv(&v), "04755");
	v.kind = V_NONE;
	assert_string_equal(rv(&v), "?");
}

static void test_flags(void **state)
{
	struct val v = { .kind = V_FLAGS };

	v.x.xl = open_mode;
	v.x.v = 0100 | 02000000;
	assert_string_equal(rv(&v), "O_CREAT|O_CLOEXEC");
	v.x.v = 0100 | 0x800000;
	assert_string_equal(rv(&v), "O_CREAT|0x800000");
	v.x.v = 0x800000;
	assert_string_equal(rv(&v), "0x800000 /* O_??? */");
	v.x.v = 0;
	assert_string_equal(rv(&v), "0");
	v.x.dflt = "O_RDONLY";
	assert_string_equal(rv(&v), "O_RDONLY");
	v.x.dflt = NULL;
	v.x.xl = access_xl;
	assert_string_equal(rv(&v), "F_OK");
	v.x.v = 4 | 1;
	assert_string_equal(rv(&v), "R_OK|X_OK");
	v.x.v = 0x80;
	assert_string_equal(rv(&v), "0x80 /* ?_OK */");
}

static void test_enum(void **state)
{
	struct val v = { .kind = V_ENUM };

	v.x.xl = sol_xl;
	v.x.v = 6;
	assert_string_equal(rv(&v), "SOL_TCP");
	v.x.v = 0x25;
	assert_string_equal(rv(&v), "0x25 /* SOL_??? */");
	v.x.xl = sol_noun;
	assert_string_equal(rv(&v), "0x25");
}

static void test_fd(void **state)
{
	struct val v = { .kind = V_FD };

	v.fd.fd = 3;
	assert_string_equal(rv(&v), "3");
	v.fd.path = "/etc/passwd";
	assert_string_equal(rv(&v), "3</etc/passwd>");
	v.fd.path = "/memfd:x (deleted)";
	assert_string_equal(rv(&v), "3</memfd:x>(deleted)");
	v.fd.fd = -100;
	v.fd.path = "/tmp";
	assert_string_equal(rv(&v), "AT_FDCWD</tmp>");
	v.fd.path = NULL;
	assert_string_equal(rv(&v), "AT_FDCWD");
}

static void test_struct_array(void **state)
{
	struct val mode[2] = { { .kind = V_TEXT }, { .kind = V_OCT } };
	struct val fields[3] = { { .kind = V_OP, .name = "st_mode" },
				 { .kind = V_INT, .name = "st_size" },
				 { .kind = V_INT, .name = "hidden", .flags = VF_EQ_ONLY } };
	struct val v = { .kind = V_STRUCT, .flags = VF_MORE };

	mode[0].s.p = "S_IFREG";
	mode[0].s.len = 7;
	mode[1].u = 0644;
	fields[0].c.items = mode;
	fields[0].c.n = 2;
	fields[0].c.op = "|";
	fields[1].i = 3052;
	fields[2].i = 7;
	v.c.items = fields;
	v.c.n = 2;
	assert_string_equal(rv(&v), "{st_mode=S_IFREG|0644, st_size=3052, ...}");
	v.c.n = 3;
	v.flags = 0;
	assert_string_equal(rv(&v), "{st_mode=S_IFREG|0644, st_size=3052, 7}");

	struct val fds[2] = { { .kind = V_FD }, { .kind = V_FD } };
	fds[0].fd.fd = 3;
	fds[1].fd.fd = 4;
	struct val a = { .kind = V_ARRAY };
	a.c.items = fds;
	a.c.n = 2;
	assert_string_equal(rv(&a), "[3, 4]");
	a.flags = VF_MORE;
	assert_string_equal(rv(&a), "[3, 4, ...]");
	a.c.n = 0;
	a.flags = 0;
	assert_string_equal(rv(&a), "[]");
	struct val s = { .kind = V_STRUCT, .flags = VF_MORE };
	assert_string_equal(rv(&s), "{...}");
}

static void test_comment_op(void **state)
{
	struct val parts[2] = { { .kind = V_PTR }, { .kind = V_COMMENT } };
	struct val v = { .kind = V_OP };

	parts[0].u = 0x5581;
	parts[1].s.p = "12 entries";
	parts[1].s.len = 10;
	v.c.items = parts;
	v.c.n = 2;
	v.c.op = " ";
	assert_string_equal(rv(&v), "0x5581 /* 12 entries */");
}

static void test_sigset(void **state)
{
	struct val v = { .kind = V_SIGSET };

	v.sig.mask = 0;
	assert_string_equal(rv(&v), "[]");
	v.sig.mask = (1ull << (2 - 1)) | (1ull << (15 - 1));
	assert_string_equal(rv(&v), "[INT TERM]");
	v.sig.mask = (1ull << 31) | (1ull << 32) | (1ull << 63);
	assert_string_equal(rv(&v), "[RTMIN RT_1 RT_32]");
	v.sig.mask = ~((1ull << 31) | (1ull << 32));
	v.flags = VF_SIGSET_NOT;
	assert_string_equal(rv(&v), "~[RTMIN RT_1]");
	v.sig.mask = ~0ull;
	assert_string_equal(rv(&v), "~[]");
}

static struct event mkev(const char *name, unsigned nargs)
{
	struct event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SYSCALL;
	ev.name = name;
	ev.nargs = (uint8_t)nargs;
	return ev;
}

static const char *call(const struct event *ev, const char *prefix)
{
	strbuf_reset(&sb);
	strbuf_addstr(&sb, prefix);
	event_render_call(&sb, ev, NULL, 0);
	return sb.buf;
}

static void test_results(void **state)
{
	struct event ev = mkev("close", 1);

	ev.args[0].kind = V_FD;
	ev.args[0].fd.fd = 3;
	assert_string_equal(call(&ev, ""), "close(3)                                = 0");
	/* the prefix counts for the column */
	assert_string_equal(call(&ev, "[pid 42] "), "[pid 42] close(3)                       = 0");
	ev.retval = -9;
	ev.err = 9;
	assert_string_equal(call(&ev, ""), "close(3)                                = -1 EBADF (Bad file descriptor)");
	ev.err = 512;
	assert_string_equal(call(&ev, ""), "close(3)                                = ? ERESTARTSYS (To be restarted if SA_RESTART is set)");
	ev.err = 0;
	ev.retval = 0x7f0000001000;
	ev.rv_fmt = RV_HEX;
	assert_string_equal(call(&ev, ""), "close(3)                                = 0x7f0000001000");
	ev.retval = 022;
	ev.rv_fmt = RV_OCT;
	assert_string_equal(call(&ev, ""), "close(3)                                = 022");
	ev.rv_fmt = RV_NONE;
	assert_string_equal(call(&ev, ""), "close(3)                                = ?");

	/* a long line still gets one space */
	struct event o = mkev("openat", 3);
	static const char path[] = "/a/very/long/path/name/that/goes/past/the/column";
	o.args[0].kind = V_FD;
	o.args[0].fd.fd = -100;
	o.args[1] = str(path, sizeof(path) - 1, 0);
	o.args[2].kind = V_FLAGS;
	o.args[2].x.xl = open_mode;
	o.args[2].x.dflt = "O_RDONLY";
	o.retval = 3;
	o.rv_fmt = RV_FD;
	o.ret_path = "/a/very";
	assert_string_equal(call(&o, ""), "openat(AT_FDCWD, \"/a/very/long/path/name/that/goes/past/the/column\", O_RDONLY) = 3</a/very>");

	/* aux text after the result */
	struct event f = mkev("fcntl", 2);
	struct val aux = { .kind = V_FLAGS, .name = "flags" };
	f.args[0].kind = V_FD;
	f.args[0].fd.fd = 3;
	f.args[1].kind = V_TEXT;
	f.args[1].s.p = "F_GETFL";
	f.args[1].s.len = 7;
	aux.x.v = 0100;
	aux.x.xl = open_mode;
	f.retval = 0100;
	f.rv_fmt = RV_HEX;
	f.ret_aux = &aux;
	assert_string_equal(call(&f, ""), "fcntl(3, F_GETFL)                       = 0x40 (flags O_CREAT)");
}

static void test_unfinished(void **state)
{
	struct event ev = mkev("read", 3);

	ev.args[0].kind = V_FD;
	ev.args[0].fd.fd = 0;
	ev.args[2].kind = V_UINT;
	ev.args[2].u = 8;
	/* at entry: arg 1 not decoded yet */
	assert_int_equal(event_entry_split(&ev), 1);
	strbuf_reset(&sb);
	event_render_unfinished(&sb, &ev, NULL);
	assert_string_equal(sb.buf, "read(0,  <unfinished ...>");

	/* died inside the call */
	ev.state = SC_UNFINISHED;
	assert_string_equal(call(&ev, ""), "read(0,  <unfinished ...>)              = ?");
	strbuf_reset(&sb);
	event_render_resumed(&sb, &ev, NULL, 0);
	assert_string_equal(sb.buf, "<... read resumed> <unfinished ...>)    = ?");

	/* finished: the resumed half from the first VF_EXIT argument */
	ev.state = SC_COMPLETE;
	ev.args[1] = str("hi\n", 3, VF_EXIT);
	ev.retval = 3;
	assert_int_equal(event_entry_split(&ev), 1);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "[pid 7] ");
	event_render_resumed(&sb, &ev, NULL, 0);
	assert_string_equal(sb.buf, "[pid 7] <... read resumed>\"hi\\n\", 8)    = 3");
	assert_string_equal(call(&ev, ""), "read(0, \"hi\\n\", 8)                      = 3");
	/* entry + rest == call */
	strbuf_reset(&sb);
	event_render_entry(&sb, &ev, NULL);
	event_render_rest(&sb, &ev, NULL, 0);
	assert_string_equal(sb.buf, "read(0, \"hi\\n\", 8)                      = 3");

	/* all arguments at entry */
	struct event c = mkev("close", 1);
	c.args[0].kind = V_FD;
	c.args[0].fd.fd = 3;
	strbuf_reset(&sb);
	event_render_unfinished(&sb, &c, NULL);
	assert_string_equal(sb.buf, "close(3 <unfinished ...>");
	strbuf_reset(&sb);
	event_render_resumed(&sb, &c, NULL, 0);
	assert_string_equal(sb.buf, "<... close resumed>)" "                    " "= 0");

	/* everything at exit */
	struct event p = mkev("pipe2", 2);
	strbuf_reset(&sb);
	event_render_unfinished(&sb, &p, NULL);
	assert_string_equal(sb.buf, "pipe2( <unfinished ...>");

	/* exit_group never returns */
	struct event e = mkev("exit_group", 1);
	e.args[0].kind = V_INT;
	e.state = SC_UNFINISHED;
	e.rv_fmt = RV_NONE;
	assert_string_equal(call(&e, ""), "exit_group(0)                           = ?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escaped_path),
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_enum),
		cmocka_unit_test(test_fd),
		cmocka_unit_test(test_struct_array),
		cmocka_unit_test(test_comment_op),
		cmocka_unit_test(test_sigset),
		cmocka_unit_test(test_results),
		cmocka_unit_test(test_unfinished),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	strbuf_release(&sb);
	return rc;
}
