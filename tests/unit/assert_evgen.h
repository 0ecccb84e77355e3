/*
 * Synthetic event streams for the assertion tests.  Events reach the
 * analysis as they do in a run: through a sink list, whose process and
 * descriptor tracker runs first.  Arguments are typed values as the tracer
 * makes them (gen_int, gen_hex, gen_str: a live event) or strace text read
 * back as the trace reader reads a text-only trace (gen_text: the event is
 * replayed), so each measurement is checked on both.
 */
#ifndef ASSERT_EVGEN_H
#define ASSERT_EVGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "event.h"
#include "assert/assert.h"
#include "replay/compat.h"
#include "sink/sink.h"
#include "sys/sysent.h"
#include "util/arena.h"

#define MS 1000000ULL

/* The sink list that feeds each analysis of a test (made on first use). */
static struct gen_feed {
	struct analysis *a;
	struct sink_list l;
} gen_feeds[8];
static struct arena gen_arena;

static inline struct sink_list *gen_list(struct analysis *a)
{
	for (size_t i = 0; i < sizeof(gen_feeds) / sizeof(gen_feeds[0]); i++) {
		if (gen_feeds[i].a == a)
			return &gen_feeds[i].l;
		if (!gen_feeds[i].a) {
			gen_feeds[i].a = a;
			memset(&gen_feeds[i].l, 0, sizeof(gen_feeds[i].l));
			sink_list_add(&gen_feeds[i].l, analysis_sink_new(a));
			return &gen_feeds[i].l;
		}
	}
	return NULL;
}

/* Delivers ev to a (through the tracker). */
static inline void gen_feed(struct analysis *a, struct event *ev)
{
	sink_list_event(gen_list(a), ev);
}

/* Frees a and the sink list that fed it. */
static inline void gen_free(struct analysis *a)
{
	for (size_t i = 0; i < sizeof(gen_feeds) / sizeof(gen_feeds[0]); i++)
		if (gen_feeds[i].a == a) {
			sink_list_release(&gen_feeds[i].l);
			gen_feeds[i].a = NULL;
		}
	analysis_free(a);
}

/* A syscall event; args are set with gen_int/gen_hex/gen_str/gen_text. */
static inline struct event gen_sc(pid_t pid, const char *name, uint64_t ts, uint64_t dur, int64_t ret)
{
	struct event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SYSCALL;
	ev.pid = ev.tid = pid;
	ev.nr = sysent_lookup(name);
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

/* Argument i as a text-only trace kept it (strace's text): ev is replayed. */
static inline void gen_text(struct event *ev, unsigned i, const char *s)
{
	compat_val(&gen_arena, &ev->args[i], NULL, s, strlen(s));
	ev->replayed = true;
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
	gen_feed(a, &ev);
}

/* A thread tid of process pid, started by task creator. */
static inline void gen_thread(struct analysis *a, pid_t tid, pid_t pid, pid_t creator, uint64_t ts)
{
	struct event ev;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_START;
	ev.pid = pid;
	ev.tid = tid;
	ev.ppid = creator;
	ev.is_thread = true;
	ev.ts_ns = ev.end_ns = ts;
	ev.nr = -1;
	gen_feed(a, &ev);
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
	gen_feed(a, &ev);
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
	gen_feed(a, &ev);
}

#endif
