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
#include "replay/compat.h"
#include "sink/sink.h"
#include "sys/sysent.h"
#include "track/track.h"

/*
 * Events reach a model as they reach it in a run: through the process and
 * descriptor tracker (one per sink, made on first use), with arguments read
 * back from text as the trace reader does.
 */
static struct ge_tr {
	struct sink *s;
	struct tracker *t;
} ge_trackers[16];
static struct arena ge_arena;

static struct tracker *ge_tracker(struct sink *s)
{
	struct tracker *t = NULL;
	for (size_t i = 0; i < sizeof(ge_trackers) / sizeof(ge_trackers[0]); i++) {
		if (ge_trackers[i].s == s) {
			t = ge_trackers[i].t;
			break;
		}
		if (!ge_trackers[i].s) {
			ge_trackers[i].s = s;
			t = ge_trackers[i].t = tracker_new();
			break;
		}
	}
	return t;
}

static void ge_deliver(struct sink *s, struct event *ev)
{
	struct tracker *t = ge_tracker(s);
	tracker_event(t, ev);
	s->ops->event(s, ev);
	tracker_after(t);
}

/* The start of a trace, as a sink list delivers it. */
static inline void ge_begin(struct sink *s, const struct trace_info *ti)
{
	tracker_begin(ge_tracker(s), ti);
	s->ops->begin(s, ti);
}

/* Forgets the tracker of a sink (call before the model is freed). */
static inline void ge_forget(struct sink *s)
{
	for (size_t i = 0; i < sizeof(ge_trackers) / sizeof(ge_trackers[0]); i++)
		if (ge_trackers[i].s == s) {
			tracker_free(ge_trackers[i].t);
			memmove(&ge_trackers[i], &ge_trackers[i + 1],
				(sizeof(ge_trackers) / sizeof(ge_trackers[0]) - i - 1) *
					sizeof(ge_trackers[0]));
			ge_trackers[sizeof(ge_trackers) / sizeof(ge_trackers[0]) - 1].s = NULL;
			return;
		}
}

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
	ev.nr = sysent_lookup(name);
	ev.replayed = true;
	ev.retval = err ? -err : ret;
	ev.err = err;
	ev.ts_ns = 1000;
	ev.end_ns = end_ns;
	for (int i = 0; i < nargs; i++) {
		const char *an = va_arg(ap, const char *), *text = va_arg(ap, const char *);
		compat_val(&ge_arena, &ev.args[i], an, text, strlen(text));
	}
	ev.nargs = (uint8_t)nargs;
	ev.endpoint = compat_endpoint(&ge_arena, &ev);
	ge_deliver(s, &ev);
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
	ge_deliver(s, &ev);
}

#endif
