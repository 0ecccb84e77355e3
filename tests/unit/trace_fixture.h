/*
 * Synthetic events for the structured-output and trace-reader tests: a
 * small two-process run with every kind of record, and helpers to send it
 * through sinks and to read files.
 */
#ifndef RENACER_TEST_TRACE_FIXTURE_H
#define RENACER_TEST_TRACE_FIXTURE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "sink/sink.h"
#include "util/strbuf.h"

static char *fx_argv[] = { "./prog", "arg with space", "x\"y", NULL };

static struct val fx_int(const char *name, int64_t i)
{
	struct val v = { .kind = V_INT, .name = name };
	v.i = i;
	return v;
}

static struct val fx_uint(const char *name, uint64_t u, uint8_t kind)
{
	struct val v = { .kind = kind, .name = name };
	v.u = u;
	return v;
}

static struct val fx_str(const char *name, const char *s, size_t len)
{
	struct val v = { .kind = V_STR, .name = name };
	v.s.p = s;
	v.s.len = (uint32_t)len;
	return v;
}

static struct event fx_sys(const char *name, long nr, pid_t pid, uint64_t ts_us, uint64_t dur_us,
			   int64_t ret, int err)
{
	struct event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SYSCALL;
	ev.name = name;
	ev.nr = nr;
	ev.pid = ev.tid = pid;
	ev.ts_ns = ts_us * 1000 + 123;
	ev.end_ns = ev.ts_ns + dur_us * 1000 + 7;
	ev.retval = err ? -err : ret;
	ev.err = err;
	return ev;
}

/* Sends the fixture run through l (begin, events, end). */
static int fx_run(struct sink_list *l)
{
	static const struct frame frames[2] = {
		{ 0x401000, "main", "prog.c", 12, "/tmp/prog", 0x1000, "main", 0x1c, FRAME_OWN },
		{ 0x7f0000001234, NULL, NULL, 0, "/lib/libc.so.6", 0x1234, NULL, 0, 0 },
	};
	struct trace_info ti = { "9.9.9", fx_argv, 1700000000123456789ull, 1 };
	struct trace_end te = { 0, 9, 5123456, 0 };
	struct val siginfo_items[2];
	struct val siginfo;
	struct event ev;
	int r;

	if (sink_list_begin(l, &ti) < 0)
		return -1;

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_START;
	ev.pid = ev.tid = 100;
	ev.ppid = 1;
	ev.ts_ns = 0;
	sink_list_event(l, &ev);

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_EXEC;
	ev.pid = ev.tid = 100;
	ev.ts_ns = 300000;
	ev.exec_path = "/tmp/prog";
	sink_list_event(l, &ev);

	ev = fx_sys("execve", 59, 100, 1, 300, 0, 0);
	ev.nargs = 3;
	ev.args[0] = fx_str("pathname", "./prog", 6);
	ev.args[1] = fx_uint("argv", 0x7ffd0000, V_PTR);
	ev.args[2] = fx_uint("envp", 0x7ffd0100, V_PTR);
	sink_list_event(l, &ev);

	ev = fx_sys("openat", 257, 100, 400, 12, 0, ENOENT);
	ev.nargs = 3;
	ev.args[0] = fx_int("dfd", -100);
	ev.args[1] = fx_str("filename", "/no/such,\"file\"\n\xff\xfe", 18);
	ev.args[2] = fx_uint("flags", 0, V_HEX);
	ev.lamport = 3;
	ev.nframes = 2;
	ev.frames = frames;
	ev.source = &frames[0];
	ev.stack_trace = true;
	sink_list_event(l, &ev);

	ev = fx_sys("mmap", 9, 100, 500, 3, 0x7f1234560000ll, 0);
	ev.rv_fmt = RV_HEX;
	ev.nargs = 2;
	ev.args[0] = fx_uint("addr", 0, V_PTR);
	ev.args[1] = fx_uint("length", 4096, V_UINT);
	sink_list_event(l, &ev);

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_START;
	ev.pid = ev.tid = 101;
	ev.ppid = 100;
	ev.ts_ns = 600000;
	sink_list_event(l, &ev);

	ev = fx_sys("clone", 56, 100, 590, 20, 101, 0);
	sink_list_event(l, &ev);

	for (int i = 0; i < 3; i++) {
		ev = fx_sys("write", 1, 101, 700 + 10 * (uint64_t)i, 2 + (uint64_t)i, 6, 0);
		ev.nargs = 3;
		ev.args[0] = fx_int("fd", 1);
		ev.args[1] = fx_str("buf", "hello\n", 6);
		ev.args[2] = fx_uint("count", 6, V_UINT);
		ev.lamport = 10 + (uint64_t)i;
		sink_list_event(l, &ev);
	}

	memset(siginfo_items, 0, sizeof(siginfo_items));
	siginfo_items[0] = fx_uint("si_signo", 17, V_UINT);
	siginfo_items[1] = fx_int("si_pid", 101);
	memset(&siginfo, 0, sizeof(siginfo));
	siginfo.kind = V_STRUCT;
	siginfo.c.items = siginfo_items;
	siginfo.c.n = 2;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SIGNAL;
	ev.pid = ev.tid = 100;
	ev.signo = 17;
	ev.siginfo = &siginfo;
	ev.ts_ns = 800000;
	sink_list_event(l, &ev);

	ev = fx_sys("exit_group", 231, 101, 900, 0, 0, 0);
	ev.state = SC_UNFINISHED;
	ev.rv_fmt = RV_NONE;
	ev.nargs = 1;
	ev.args[0] = fx_int("error_code", 0);
	sink_list_event(l, &ev);

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_EXIT;
	ev.pid = ev.tid = 101;
	ev.ts_ns = 950000;
	ev.max_rss_kb = 1234;
	sink_list_event(l, &ev);

	ev = fx_sys("wait4", 61, 100, 650, 400, 101, 0);
	sink_list_event(l, &ev);

	ev = fx_sys("read", 0, 100, 1100, 2000, 0, EINTR);
	ev.state = SC_UNFINISHED;
	sink_list_event(l, &ev);

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_EXIT;
	ev.pid = ev.tid = 100;
	ev.ts_ns = 3200000;
	ev.term_signal = 9;
	sink_list_event(l, &ev);

	r = sink_list_end(l, &te);
	return r;
}

/* Reads a whole file into a NUL-terminated string (caller frees). */
static char *fx_slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* A fresh temporary directory for this test binary (never removed: the
 * harness gives each test its own TMPDIR). */
static const char *fx_tmpdir(void)
{
	static char dir[4096];

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof(dir), "%s/fxXXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir))
			abort();
	}
	return dir;
}

static char *fx_path(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/%s", fx_tmpdir(), name);
	return strbuf_detach(&sb, NULL);
}

#endif
