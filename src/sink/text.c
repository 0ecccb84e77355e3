/* strace-format text output (see text.h). */
#include "sink/text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sink/render.h"
#include "sink/sinkout.h"
#include "sink/srcloc.h"
#include "sys/compat.h"
#include "sys/filter.h"
#include "sys/qualify.h"
#include "sys/sysent.h"
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
	uint64_t last_line_ns;        /* -r: time of the previous line */
	bool first;
	bool write_failed;
};

static const uint64_t pow10_tab[] = { 1, 10, 100, 1000, 10000, 100000,
				      1000000, 10000000, 100000000, 1000000000 };

void text_opts_init(struct text_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->rel_digits = 6;
	o->dur_digits = 6;
	o->acolumn = 40;
	o->signal_set = ~(uint64_t)0;
}

void text_opts_tstamp(struct text_opts *o, int count)
{
	o->ts_format = count >= 3 ? TSF_UNIX : count > 0 ? TSF_TIME : TSF_NONE;
	o->ts_digits = count >= 2 ? 6 : 0;
}

/* ".%0*u" of the fraction of ns at digits (nothing for 0 digits). */
static void add_frac(struct strbuf *sb, uint64_t ns, int digits)
{
	if (digits <= 0)
		return;
	if (digits > 9)
		digits = 9;
	strbuf_addf(sb, ".%0*" PRIu64, digits, (ns % 1000000000u) / pow10_tab[9 - digits]);
}

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

/*
 * strace's printleader: "[pid N] " or "N ", the absolute time, "(+rel) "
 * or the relative time, "[ nr] " (-n) and "[ip] " (-i), for a line about
 * tid at ts (trace ns).  nr is the syscall number to show; ip 0 with
 * no_ip prints strace's "[????????????????] " (a task that is gone).
 */
static void leader(struct text_sink *s, pid_t tid, uint64_t ts, long nr,
		   uint64_t ip, bool no_ip)
{
	struct strbuf *sb = &s->line;

	if (s->o.pid_prefix)
		strbuf_addf(sb, "%-5d ", (int)tid);
	else if (s->nprocs > 1 && !s->o.no_pid)
		strbuf_addf(sb, "[pid %5d] ", (int)tid);
	if (s->o.ts_format) {
		uint64_t rt = s->start_rt_ns + ts;
		time_t sec = (time_t)(rt / 1000000000u);
		struct tm tm;
		char buf[32];

		if (s->o.ts_format == TSF_UNIX) {
			strbuf_addf(sb, "%lld", (long long)sec);
		} else {
			localtime_r(&sec, &tm);
			strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
			strbuf_addstr(sb, buf);
		}
		add_frac(sb, rt, s->o.ts_digits);
		strbuf_addch(sb, ' ');
	}
	if (s->o.relative) {
		uint64_t d = s->first || ts < s->last_line_ns ? 0 : ts - s->last_line_ns;

		strbuf_addf(sb, "%s%6" PRIu64, s->o.ts_format ? "(+" : "", d / 1000000000u);
		add_frac(sb, d, s->o.rel_digits);
		strbuf_addstr(sb, s->o.ts_format ? ") " : " ");
		s->last_line_ns = ts;
		s->first = false;
	}
	if (s->o.show_nr)
		strbuf_addf(sb, "[%4ld] ", nr < 0 ? 0 : nr);
	if (s->o.show_ip) {
		if (no_ip)
			strbuf_addstr(sb, "[????????????????] ");
		else
			strbuf_addf(sb, "[%016" PRIx64 "] ", ip);
	}
}

static void call_leader(struct text_sink *s, const struct event *ev, uint64_t ts)
{
	leader(s, ev->tid, ts, ev->nr, ev->ip, false);
}

static void put_line(struct text_sink *s)
{
	strbuf_addch(&s->line, '\n');
	sinkout_put(&s->out, &s->line);
}

/* " (INJECTED)", " (DELAYED)" after the result, as strace prints them. */
static void tamper_notes(struct text_sink *s, const struct event *ev)
{
	if ((ev->tamper & (TAMPER_INJECTED | TAMPER_POKED)) == (TAMPER_INJECTED | TAMPER_POKED))
		strbuf_addstr(&s->line, " (INJECTED: args, retval)");
	else if (ev->tamper & TAMPER_POKED)
		strbuf_addstr(&s->line, " (INJECTED: args)");
	else if (ev->tamper & TAMPER_INJECTED)
		strbuf_addstr(&s->line, " (INJECTED)");
	if (ev->tamper & TAMPER_DELAYED)
		strbuf_addstr(&s->line, " (DELAYED)");
}

static void duration(struct text_sink *s, const struct event *ev)
{
	uint64_t d;

	if (ev->state == SC_UNFINISHED)
		return;
	tamper_notes(s, ev);
	if (!s->o.show_duration)
		return;
	d = ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0;
	strbuf_addf(&s->line, " <%" PRIu64, d / 1000000000u);
	add_frac(&s->line, d, s->o.dur_digits);
	strbuf_addch(&s->line, '>');
}

/*
 * strace's dumpstr: " | 00000  68 65 6c 6c 6f 0a  ...  hello.           |"
 * per 16 bytes; the offset field is 5 hex digits or as many as len needs.
 */
static void dump_bytes(struct text_sink *s, const struct event *ev, const struct iodump *d)
{
	static const char hex[] = "0123456789abcdef";
	enum { CHUNK = 65536 };  /* strace reads the data 64 KiB at a time */
	struct strbuf *sb = &s->line;
	int offs = 5;

	if (d->len > (1u << 20)) {
		uint64_t v = d->len - 1;
		offs = 0;
		while (v) {
			offs++;
			v >>= 4;
		}
	}
	for (uint64_t i = 0; i < d->len; i += 16) {
		char buf[16 * 3 + 2 + 16 + 1];
		char *p = buf;

		if (i % CHUNK == 0) {
			uint64_t want = d->len - i < CHUNK ? d->len - i : CHUNK;
			/* a long dump goes out a chunk at a time */
			if (i)
				sinkout_put(&s->out, sb);
			if (d->capped && d->fetched <= i)
				break;
			if (d->fetched < i + want) {
				/* a chunk that cannot be read ends the dump,
				 * silently when nothing was shown yet */
				if (i)
					strbuf_addf(sb, " | <Cannot fetch %" PRIu64 " byte%s from pid %d @%#" PRIx64 ">\n",
						    want, want == 1 ? "" : "s", (int)ev->pid, d->addr + i);
				break;
			}
		}
		memset(buf, ' ', sizeof(buf) - 1);
		buf[sizeof(buf) - 1] = '\0';
		for (unsigned k = 0; k < 16; k++) {
			if (i + k < d->len) {
				unsigned char c = d->data[i + k];
				p[0] = hex[c >> 4];
				p[1] = hex[c & 15];
				buf[16 * 3 + 2 + k] = c >= ' ' && c < 0x7f ? (char)c : '.';
			}
			p += 3;
			if (k == 7)
				p++;
		}
		strbuf_addf(sb, " | %0*" PRIx64 "  %s |\n", offs, i, buf);
	}
	if (d->capped)
		strbuf_addf(sb, " | <renacer dumps at most %u bytes and %u buffers of a call: "
			    "the rest is left out>\n", IODUMP_MAX_BYTES, IODUMP_MAX_BUFS);
}

static void dumps(struct text_sink *s, const struct event *ev)
{
	if (ev->state == SC_UNFINISHED)
		return;
	for (uint32_t i = 0; i < ev->ndumps; i++) {
		const struct iodump *d = &ev->dumps[i];
		if (d->vec >= 0)
			strbuf_addf(&s->line, " = %" PRIu64 " buffers in vector %d\n", d->nbufs, (int)d->vec);
		if (d->iov >= 0)
			strbuf_addf(&s->line, " * %" PRIu64 " bytes in buffer %d\n", d->len, (int)d->iov);
		dump_bytes(s, ev, d);
		if (d->capped)
			break;
	}
	if (s->line.len)
		sinkout_put(&s->out, &s->line);
}

/*
 * -e raw=: the call with every argument in hex and the result in hex
 * (errors as usual), built as a shadow event so that unfinished/resumed
 * halves split the same way.
 */
static const struct event *raw_view(struct text_sink *s, const struct event *ev,
				    struct event *shadow)
{
	const struct sysent *se;
	unsigned n;

	if (!s->o.raw_set || ev->nr < 0 || !trace_set_has(s->o.raw_set, ev->nr))
		return ev;
	se = sysent_get(ev->nr);
	n = se ? se->nargs : EVENT_MAX_ARGS;
	*shadow = *ev;
	memset(shadow->args, 0, sizeof(shadow->args));
	for (unsigned i = 0; i < n && i < EVENT_MAX_ARGS; i++) {
		shadow->args[i].kind = V_HEX;
		shadow->args[i].u = ev->raw[i];
	}
	shadow->nargs = (uint8_t)n;
	shadow->ret_aux = NULL;
	shadow->ret_path = NULL;
	if (shadow->rv_fmt != RV_NONE)
		shadow->rv_fmt = RV_HEX;
	return shadow;
}

/* Prints the pending entry as "name(args <unfinished ...>". */
static void flush_pending(struct text_sink *s)
{
	const struct event *ev = s->pending;
	struct event shadow;

	if (!ev)
		return;
	s->pending = NULL;
	ev = raw_view(s, ev, &shadow);
	call_leader(s, ev, ev->ts_ns);
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

/* Ends a call's line; -e read=/write=: its dumps follow, then with -k its
 * stack, in strace's order. */
static void put_call_line(struct text_sink *s, const struct event *ev)
{
	put_line(s);
	dumps(s, ev);
	if (ev->stack_trace && (ev->nframes || ev->stack_error)) {
		stack_render_strace(&s->line, ev->frames, ev->nframes, ev->stack_error,
				    !s->o.stack_symbol_only);
		sinkout_put(&s->out, &s->line);
	}
}

static void on_syscall(struct text_sink *s, const struct event *ev)
{
	struct event shadow;
	size_t start;

	ev = raw_view(s, ev, &shadow);
	if (ev->state == SC_UNFINISHED && ev->detached) {
		/* strace: "execve(...) <detached ...>", nothing when the
		 * entry already showed as "<unfinished ...>" */
		if (s->pending && s->pending->tid == ev->tid)
			s->pending = NULL;
		else if (unf_take(s, ev->tid))
			return;
		else
			flush_pending(s);
		call_leader(s, ev, ev->ts_ns);
		event_render_entry(&s->line, ev, &s->ro);
		strbuf_addstr(&s->line, " <detached ...>");
		put_line(s);
		return;
	}
	if (s->pending && s->pending->tid == ev->tid) {
		s->pending = NULL;
	} else {
		flush_pending(s);
		if (unf_take(s, ev->tid)) {
			start = s->line.len;
			call_leader(s, ev, ev->end_ns);
			event_render_resumed(&s->line, ev, &s->ro, start);
			duration(s, ev);
			source(s, ev);
			put_call_line(s, ev);
			return;
		}
	}
	start = s->line.len;
	call_leader(s, ev, ev->ts_ns);
	event_render_call(&s->line, ev, &s->ro, start);
	duration(s, ev);
	source(s, ev);
	put_call_line(s, ev);
}

static bool signal_shown(const struct text_sink *s, int sig)
{
	return sig < 1 || sig > 64 || (s->o.signal_set >> (sig - 1)) & 1;
}

/*
 * A thread other than the leader exec'ed and took the leader's tid; the
 * old leader is gone.  As strace: the thread's execve line, if still open,
 * ends " <pid changed to LEADER ...>" (execve_line_end), then "+++
 * superseded by execve in pid OLD +++" (not with -e quiet=thread-execve)
 * and the call resumes under the leader's pid (superseded).
 * execve_line_end returns whether the execve's entry was shown, so that
 * its exit shows as "<... execve resumed>".
 */
static bool execve_line_end(struct text_sink *s, const struct event *ev)
{
	const struct event *p = s->pending;

	if (p && p->tid == ev->tid) {
		/* the execve entry (its record already has the leader's tid) */
		struct event shadow;

		s->pending = NULL;
		p = raw_view(s, p, &shadow);
		leader(s, ev->exec_old_tid, p->ts_ns, p->nr, p->ip, false);
		event_render_entry(&s->line, p, &s->ro);
		strbuf_addf(&s->line, " <pid changed to %d ...>", (int)ev->pid);
		put_line(s);
		return true;
	}
	flush_pending(s);
	return unf_take(s, ev->exec_old_tid);
}

static void superseded(struct text_sink *s, const struct event *ev, bool resumed)
{
	if (resumed)
		unf_add(s, ev->tid);
	if (s->o.quiet & QUIET_THREAD_EXECVE)
		return;
	leader(s, ev->tid, ev->ts_ns, ev->last_nr, 0, false);
	strbuf_addf(&s->line, "+++ superseded by execve in pid %d +++", (int)ev->exec_old_tid);
	put_line(s);
}

static void thread_execve(struct text_sink *s, const struct event *ev)
{
	bool resumed = execve_line_end(s, ev);

	s->nprocs--;       /* the old leader */
	superseded(s, ev, resumed);
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
		leader(s, ev->tid, ev->ts_ns, ev->last_nr, ev->ip, false);
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
	case EV_PERSONALITY:
		/* strace: "[ Process PID=N runs in 32 bit mode. ]" */
		if (s->o.quiet & QUIET_PERSONALITY)
			return;
		flush_pending(s);
		leader(s, ev->tid, ev->ts_ns, ev->last_nr, ev->ip, false);
		strbuf_addf(&s->line, "[ Process PID=%d runs in %s mode. ]", (int)ev->tid,
			    compat_personality_name(ev->personality));
		put_line(s);
		return;
	case EV_EXEC:
		if (ev->exec_old_tid)
			thread_execve(s, ev);
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
	bool show = ev->term_signal ? signal_shown(s, ev->term_signal)
				    : !(s->o.quiet & QUIET_EXIT);

	flush_pending(s);
	unf_take(s, ev->tid);
	if (show) {
		leader(s, ev->tid, ev->ts_ns, ev->last_nr, 0, true);
		if (ev->term_signal)
			strbuf_addf(&s->line, "+++ killed by %s %s+++",
				    signal_name(ev->term_signal) ? signal_name(ev->term_signal) : "SIG???",
				    ev->core_dumped ? "(core dumped) " : "");
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
	if (s->o.trailer && s->o.trailer->len) {
		strbuf_add(&s->line, s->o.trailer->buf, s->o.trailer->len);
		sinkout_put(&s->out, &s->line);
	}
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

static struct text_sink *text_alloc(const struct text_opts *o)
{
	struct text_sink *s = xcalloc(1, sizeof(*s));

	s->base.ops = &text_ops;
	s->o = *o;
	s->first = true;
	s->ro.acolumn = o->acolumn;
	s->ro.xstyle = (uint8_t)o->xstyle;
	s->ro.xlat = (uint8_t)o->xlat;
	strbuf_init(&s->line, 512);
	return s;
}

static struct sink *text_opened(struct text_sink *s, int r)
{
	if (r < 0) {
		strbuf_release(&s->line);
		free(s);
		return NULL;
	}
	return &s->base;
}

struct sink *text_sink_new(FILE *out, const char *path, const struct text_opts *o)
{
	struct text_sink *s = text_alloc(o);
	return text_opened(s, sinkout_open(&s->out, out, path));
}

struct sink *text_sink_new_append(const char *path, const struct text_opts *o)
{
	struct text_sink *s = text_alloc(o);
	return text_opened(s, sinkout_open_append(&s->out, path));
}

struct sink *text_sink_new_pipe(const char *command, const struct text_opts *o)
{
	struct text_sink *s = text_alloc(o);
	return text_opened(s, sinkout_open_pipe(&s->out, command));
}

/* ---- -ff: one text sink per task ------------------------------------- */

struct split_file {
	pid_t tid;
	struct sink *sink;       /* a text sink on "PATH.TID" */
};

struct split_sink {
	struct sink base;
	struct text_opts o;
	char *path;
	bool append;
	struct trace_info ti;    /* begin() of the sinks made later */
	struct split_file *files;
	size_t n, alloc;
	int failed;              /* a file could not be made or written */
};

static struct split_file *split_find(struct split_sink *s, pid_t tid)
{
	for (size_t i = s->n; i-- > 0;)
		if (s->files[i].tid == tid)
			return &s->files[i];
	return NULL;
}

/* The file of tid, made at the task's first event (strace opens it when
 * it attaches); NULL when it cannot be made. */
static struct split_file *split_get(struct split_sink *s, pid_t tid)
{
	struct split_file *f = split_find(s, tid);
	struct strbuf name = STRBUF_INIT;
	struct sink *sk;
	struct event start;

	if (f)
		return f;
	strbuf_addf(&name, "%s.%d", s->path, (int)tid);
	sk = s->append ? text_sink_new_append(name.buf, &s->o)
		       : text_sink_new(NULL, name.buf, &s->o);
	strbuf_release(&name);
	if (!sk) {
		s->failed = 1;
		return NULL;
	}
	sk->ops->begin(sk, &s->ti);
	/* one task per file: its own start makes nprocs 1 */
	memset(&start, 0, sizeof(start));
	start.type = EV_PROC_START;
	start.pid = start.tid = tid;
	sk->ops->event(sk, &start);
	ALLOC_GROW(s->files, s->n + 1, s->alloc);
	f = &s->files[s->n++];
	f->tid = tid;
	f->sink = sk;
	return f;
}

static void split_close(struct split_sink *s, struct split_file *f, const struct trace_end *te)
{
	struct trace_end none;

	if (!te) {
		memset(&none, 0, sizeof(none));
		te = &none;
	}
	if (f->sink->ops->end(f->sink, te) < 0)
		s->failed = 1;
	f->sink->ops->free(f->sink);
	*f = s->files[--s->n];
}

static void split_event(struct sink *sk, const struct event *ev)
{
	struct split_sink *s = (struct split_sink *)sk;
	struct split_file *f;

	if (ev->type == EV_PROC_START) {
		split_get(s, ev->tid);
		return;
	}
	if (ev->type == EV_EXEC && ev->exec_old_tid) {
		/* as strace: the thread's file gets its execve line and
		 * closes; the leader's goes on with the rest */
		struct split_file *old = split_find(s, ev->exec_old_tid);
		bool resumed = false;

		if (old) {
			resumed = execve_line_end((struct text_sink *)old->sink, ev);
			split_close(s, old, NULL);
		}
		if ((f = split_get(s, ev->tid)))
			superseded((struct text_sink *)f->sink, ev, resumed);
		return;
	}
	f = split_get(s, ev->tid);
	if (!f)
		return;
	if (ev->type == EV_DETACH) {
		split_close(s, f, NULL);
		return;
	}
	f->sink->ops->event(f->sink, ev);
}

static void split_proc_exit(struct sink *sk, const struct event *ev)
{
	struct split_sink *s = (struct split_sink *)sk;
	struct split_file *f = split_get(s, ev->tid);

	if (!f)
		return;
	f->sink->ops->proc_exit(f->sink, ev);
	split_close(s, f, NULL);
}

static int split_begin(struct sink *sk, const struct trace_info *ti)
{
	struct split_sink *s = (struct split_sink *)sk;
	s->ti = *ti;
	return 0;
}

static int split_end(struct sink *sk, const struct trace_end *te)
{
	struct split_sink *s = (struct split_sink *)sk;

	while (s->n)
		split_close(s, &s->files[s->n - 1], te);
	return s->failed ? -1 : 0;
}

static void split_free(struct sink *sk)
{
	struct split_sink *s = (struct split_sink *)sk;

	/* files still open (the command never ran): removed */
	for (size_t i = 0; i < s->n; i++)
		s->files[i].sink->ops->free(s->files[i].sink);
	free(s->files);
	free(s->path);
	free(s);
}

static const struct sink_ops split_ops = {
	.name = "text-split",
	.wants_entry = 1,
	.begin = split_begin,
	.event = split_event,
	.proc_exit = split_proc_exit,
	.end = split_end,
	.free = split_free,
};

struct sink *text_sink_new_split(const char *path, bool append, const struct text_opts *o)
{
	struct split_sink *s = xcalloc(1, sizeof(*s));

	s->base.ops = &split_ops;
	s->o = *o;
	s->o.pid_prefix = false;
	s->o.no_pid = true;
	s->path = xstrdup(path);
	s->append = append;
	return &s->base;
}
