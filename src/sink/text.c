/* strace-format text output (see text.h). */
#include "sink/text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sink/render.h"
#include "sink/sinkout.h"
#include "sink/srcloc.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

struct text_sink {
	struct sink base;
	struct text_opts o;
	struct sinkout out;
	struct strbuf line;
	struct render_opts ro;
	const struct event *pending;  /* entry whose line is not yet printed */
	pid_t *unfinished;            /* tids whose entry printed as unfinished */
	size_t nunf, aunf;
	long nprocs;                  /* live tracees (for "[pid N] ") */
	uint64_t start_rt_ns;         /* wall clock at the trace start */
	uint64_t last_entry_ns;       /* -r */
	bool first;
	bool write_failed;
};

static bool unf_take(struct text_sink *s, pid_t tid)
{
	for (size_t i = 0; i < s->nunf; i++)
		if (s->unfinished[i] == tid) {
			s->unfinished[i] = s->unfinished[--s->nunf];
			return true;
		}
	return false;
}

static void unf_add(struct text_sink *s, pid_t tid)
{
	ALLOC_GROW(s->unfinished, s->nunf + 1, s->aunf);
	s->unfinished[s->nunf++] = tid;
}

/* "[pid N] " / "N " and the timestamp, for an event at ts (trace ns). */
static void leader(struct text_sink *s, pid_t tid, uint64_t ts)
{
	struct strbuf *sb = &s->line;

	if (s->o.pid_prefix)
		strbuf_addf(sb, "%-5d ", (int)tid);
	else if (s->nprocs > 1)
		strbuf_addf(sb, "[pid %5d] ", (int)tid);
	if (s->o.relative) {
		uint64_t d = s->first ? 0 : ts - s->last_entry_ns;
		if (ts < s->last_entry_ns)
			d = 0;
		strbuf_addf(sb, "%6" PRIu64 ".%06" PRIu64 " ", d / 1000000000u,
			    (d / 1000) % 1000000u);
		s->last_entry_ns = ts;
		s->first = false;
	} else if (s->o.tstamp) {
		uint64_t rt = s->start_rt_ns + ts;
		time_t sec = (time_t)(rt / 1000000000u);
		struct tm tm;
		char buf[32];

		if (s->o.tstamp == TS_EPOCH_US) {
			strbuf_addf(sb, "%lld.%06u ", (long long)sec,
				    (unsigned)((rt / 1000) % 1000000u));
			return;
		}
		localtime_r(&sec, &tm);
		strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
		strbuf_addstr(sb, buf);
		if (s->o.tstamp == TS_TIME_US)
			strbuf_addf(sb, ".%06u", (unsigned)((rt / 1000) % 1000000u));
		strbuf_addch(sb, ' ');
	}
}

static void put_line(struct text_sink *s)
{
	strbuf_addch(&s->line, '\n');
	sinkout_put(&s->out, &s->line);
}

static void duration(struct text_sink *s, const struct event *ev)
{
	uint64_t d;

	if (!s->o.show_duration || ev->state == SC_UNFINISHED)
		return;
	d = ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0;
	strbuf_addf(&s->line, " <%" PRIu64 ".%06" PRIu64 ">", d / 1000000000u,
		    (d / 1000) % 1000000u);
}

/* Prints the pending entry as "name(args <unfinished ...>". */
static void flush_pending(struct text_sink *s)
{
	const struct event *ev = s->pending;

	if (!ev)
		return;
	s->pending = NULL;
	leader(s, ev->tid, ev->ts_ns);
	event_render_unfinished(&s->line, ev, &s->ro);
	put_line(s);
	unf_add(s, ev->tid);
}

/* -s: " [src/main.c:42 in main]" after everything else on the line. */
static void source(struct text_sink *s, const struct event *ev)
{
	if (!ev->source)
		return;
	strbuf_addstr(&s->line, " [");
	srcloc_render(&s->line, ev->source);
	strbuf_addch(&s->line, ']');
}

/* Ends a call's line; -k: its stack follows as strace prints it. */
static void put_call_line(struct text_sink *s, const struct event *ev)
{
	put_line(s);
	if (ev->stack_trace && (ev->nframes || ev->stack_error)) {
		stack_render_strace(&s->line, ev->frames, ev->nframes, ev->stack_error,
				    !s->o.stack_symbol_only);
		sinkout_put(&s->out, &s->line);
	}
}

static void on_syscall(struct text_sink *s, const struct event *ev)
{
	size_t start;

	if (s->pending && s->pending->tid == ev->tid) {
		s->pending = NULL;
	} else {
		flush_pending(s);
		if (unf_take(s, ev->tid)) {
			start = s->line.len;
			leader(s, ev->tid, ev->end_ns);
			event_render_resumed(&s->line, ev, &s->ro, start);
			duration(s, ev);
			source(s, ev);
			put_call_line(s, ev);
			return;
		}
	}
	start = s->line.len;
	leader(s, ev->tid, ev->ts_ns);
	event_render_call(&s->line, ev, &s->ro, start);
	duration(s, ev);
	source(s, ev);
	put_call_line(s, ev);
}

static void text_event(struct sink *sk, const struct event *ev)
{
	struct text_sink *s = (struct text_sink *)sk;

	switch (ev->type) {
	case EV_SYSCALL_ENTRY:
		if (s->pending && s->pending->tid != ev->tid)
			flush_pending(s);
		s->pending = ev;
		return;
	case EV_SYSCALL:
		on_syscall(s, ev);
		return;
	case EV_SIGNAL:
		flush_pending(s);
		leader(s, ev->tid, ev->ts_ns);
		if (ev->group_stop) {
			strbuf_addf(&s->line, "--- stopped by %s ---",
				    signal_name(ev->signo) ? signal_name(ev->signo) : "SIG???");
			put_line(s);
			return;
		}
		strbuf_addf(&s->line, "--- %s ", signal_name(ev->signo) ? signal_name(ev->signo) : "SIG???");
		if (ev->siginfo) {
			val_render(&s->line, ev->siginfo, &s->ro);
			strbuf_addch(&s->line, ' ');
		}
		strbuf_addstr(&s->line, "---");
		put_line(s);
		return;
	case EV_PROC_START:
		s->nprocs++;
		return;
	case EV_DETACH:
		flush_pending(s);
		unf_take(s, ev->tid);
		s->nprocs--;
		return;
	default:
		return;
	}
}

static void text_proc_exit(struct sink *sk, const struct event *ev)
{
	struct text_sink *s = (struct text_sink *)sk;

	flush_pending(s);
	unf_take(s, ev->tid);
	if (s->o.quiet < 2) {
		leader(s, ev->tid, ev->ts_ns);
		if (ev->term_signal)
			strbuf_addf(&s->line, "+++ killed by %s%s +++",
				    signal_name(ev->term_signal) ? signal_name(ev->term_signal) : "SIG???",
				    ev->core_dumped ? " (core dumped)" : "");
		else
			strbuf_addf(&s->line, "+++ exited with %d +++", ev->exit_code);
		put_line(s);
	}
	s->nprocs--;
}

static int text_begin(struct sink *sk, const struct trace_info *ti)
{
	struct text_sink *s = (struct text_sink *)sk;
	s->start_rt_ns = ti->start_realtime_ns;
	return 0;
}

static int text_end(struct sink *sk, const struct trace_end *te)
{
	struct text_sink *s = (struct text_sink *)sk;

	flush_pending(s);
	return sinkout_close(&s->out);
}

static void text_free(struct sink *sk)
{
	struct text_sink *s = (struct text_sink *)sk;

	if (s->out.fp)
		sinkout_abort(&s->out);
	strbuf_release(&s->line);
	free(s->unfinished);
	free(s);
}

static const struct sink_ops text_ops = {
	.name = "text",
	.wants_entry = 1,
	.begin = text_begin,
	.event = text_event,
	.proc_exit = text_proc_exit,
	.end = text_end,
	.free = text_free,
};

struct sink *text_sink_new(FILE *out, const char *path, const struct text_opts *o)
{
	struct text_sink *s = xcalloc(1, sizeof(*s));

	s->base.ops = &text_ops;
	s->o = *o;
	s->first = true;
	s->ro.acolumn = 40;
	strbuf_init(&s->line, 512);
	if (sinkout_open(&s->out, out, path) < 0) {
		strbuf_release(&s->line);
		free(s);
		return NULL;
	}
	return &s->base;
}
