/*
 * Synthetic event streams for the golden model's unit tests
 * (test_golden_model.c, test_golden_variation.c): syscalls with V_TEXT
 * arguments given as name, value pairs (as the trace reader gives them),
 * and process or thread starts.
 */
#ifndef RENACER_TEST_GOLDEN_EVENTS_H
#define RENACER_TEST_GOLDEN_EVENTS_H

#include <stdarg.h>
#include <string.h>

#include "event.h"
#include "sink/sink.h"

/* An EV_SYSCALL of tid in pid, from 1000 ns to end_ns; err, when not 0,
 * makes it fail with that errno (-err returned) instead of returning ret. */
static void ge_vsys(struct sink *s, pid_t pid, pid_t tid, const char *name, int64_t ret,
		    int err, uint64_t end_ns, int nargs, va_list ap)
{
	struct event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SYSCALL;
	ev.pid = pid;
	ev.tid = tid;
	ev.name = name;
	ev.nr = 1;
	ev.retval = err ? -err : ret;
	ev.err = err;
	ev.ts_ns = 1000;
	ev.end_ns = end_ns;
	for (int i = 0; i < nargs; i++) {
		ev.args[i].kind = V_TEXT;
		ev.args[i].name = va_arg(ap, const char *);
		ev.args[i].s.p = va_arg(ap, const char *);
		ev.args[i].s.len = (uint32_t)strlen(ev.args[i].s.p);
	}
	ev.nargs = (uint8_t)nargs;
	s->ops->event(s, &ev);
}

/* The start of tid in pid, created by creator. */
static void ge_start(struct sink *s, pid_t tid, pid_t pid, pid_t creator, bool thread)
{
	struct event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_START;
	ev.tid = tid;
	ev.pid = pid;
	ev.ppid = creator;
	ev.is_thread = thread;
	s->ops->event(s, &ev);
}

#endif
