/*
 * Synthetic event streams for the assertion tests: builds events as the
 * tracer makes them (typed values) or as the trace reader makes them
 * (V_TEXT strace text), so each measurement is checked on both.
 */
#ifndef ASSERT_EVGEN_H
#define ASSERT_EVGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "event.h"
#include "assert/assert.h"

#define MS 1000000ULL

/* A syscall event; args are set with gen_int/gen_str/gen_text. */
static inline struct event gen_sc(pid_t pid, const char *name, uint64_t ts, uint64_t dur, int64_t ret)
{
	struct event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SYSCALL;
	ev.pid = ev.tid = pid;
	ev.nr = -1;
	ev.name = name;
	ev.ts_ns = ts;
	ev.end_ns = ts + dur;
	ev.retval = ret;
	if (ret < 0 && ret >= -4095)
		ev.err = (int)-ret;
	return ev;
}

static inline void gen_int(struct event *ev, unsigned i, int64_t v)
{
	ev->args[i].kind = V_INT;
	ev->args[i].i = v;
	ev->raw[i] = ev->karg[i] = (uint64_t)v;
	if (ev->nargs <= i)
		ev->nargs = (uint8_t)(i + 1);
}

static inline void gen_hex(struct event *ev, unsigned i, uint64_t v)
{
	ev->args[i].kind = V_PTR;
	ev->args[i].u = v;
	ev->raw[i] = ev->karg[i] = v;
	if (ev->nargs <= i)
		ev->nargs = (uint8_t)(i + 1);
}

static inline void gen_str(struct event *ev, unsigned i, const char *s)
{
	ev->args[i].kind = V_STR;
	ev->args[i].s.p = s;
	ev->args[i].s.len = (uint32_t)strlen(s);
	if (ev->nargs <= i)
		ev->nargs = (uint8_t)(i + 1);
}

static inline void gen_text(struct event *ev, unsigned i, const char *s)
{
	ev->args[i].kind = V_TEXT;
	ev->args[i].s.p = s;
	ev->args[i].s.len = (uint32_t)strlen(s);
	if (ev->nargs <= i)
		ev->nargs = (uint8_t)(i + 1);
}

static inline void gen_proc(struct analysis *a, int type, pid_t pid, pid_t ppid, uint64_t ts)
{
	struct event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = (uint8_t)type;
	ev.pid = ev.tid = pid;
	ev.ppid = ppid;
	ev.ts_ns = ev.end_ns = ts;
	ev.nr = -1;
	analysis_event(a, &ev);
}

static inline void gen_exit(struct analysis *a, pid_t pid, uint64_t ts, uint64_t rss_kb)
{
	struct event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_EXIT;
	ev.pid = ev.tid = pid;
	ev.ts_ns = ev.end_ns = ts;
	ev.max_rss_kb = rss_kb;
	ev.nr = -1;
	analysis_event(a, &ev);
}

static inline void gen_exec(struct analysis *a, pid_t pid, const char *path, uint64_t ts)
{
	struct event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_EXEC;
	ev.pid = ev.tid = pid;
	ev.ts_ns = ev.end_ns = ts;
	ev.exec_path = path;
	ev.nr = -1;
	analysis_event(a, &ev);
}

#endif
