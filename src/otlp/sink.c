/*
 * The OTLP sink: turns the events of a run into spans (a span per process
 * under the process that created it, per extra thread, per syscall under
 * its thread or process) and hands them over in batches.  State is kept
 * per live task only; spans leave as soon as they end, so memory stays
 * flat however long the trace.
 */
#include "otlp/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sink/render.h"
#include "sink/sinkout.h"
#include "sys/sysent.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define MAX_SPAN_EVENTS 128     /* signal events kept per span (as the SDKs' limit) */
#define MAX_CMD_ARGS 256        /* process.command_args entries kept */

/* Span.flags: the W3C trace flags in bits 0-7, then whether the parent is remote. */
#define SPAN_FLAG_SAMPLED 0x01u
#define SPAN_FLAG_HAS_REMOTE 0x100u
#define SPAN_FLAG_REMOTE 0x200u

/* Per-process syscall totals (recorded on the process span). */
struct pcount {
	long nr;
	char *name;
	uint64_t calls, errors, time_ns;
};

struct sigrec {
	uint64_t ts_ns;
	int signo;
	char *siginfo;            /* rendered, or NULL */
};

/* A live process or thread. */
struct task {
	pid_t tid, pid, ppid;
	bool is_thread, detached, exited;
	uint8_t span_id[8];
	uint8_t parent_id[8];
	uint32_t flags;
	uint64_t start_ns;        /* trace time */
	int exit_code, term_signal;
	bool core_dumped;
	uint64_t max_rss_kb;
	uint64_t exit_ns;         /* trace time of the exit */
	char *exe;                /* executable path, or NULL */
	char **argv;              /* command line, or NULL */
	uint32_t argc;
	bool argv_exact;          /* argv is the traced command's own, uncut */
	/* processes only */
	struct pcount *counts;
	size_t ncounts, acounts;
	uint16_t *idx;            /* nr -> counts index + 1, for nr < sysent_count */
	uint64_t calls, errors, time_ns, spans;
	/* signals delivered (span events) */
	struct sigrec *sigs;
	uint32_t nsigs, asigs, dropped_sigs;
	struct task *next;        /* hash chain */
};

struct osink {
	struct sink base;
	struct otlp_settings s;
	struct otlp_resource res;
	struct arena res_arena;   /* resource attributes */
	uint64_t base_ns;         /* unix ns of trace time 0 */
	uint64_t rng;
	uint8_t root_span[8];     /* the first process's span id (propagated) */
	bool root_used;
	char *traceparent;        /* for the command's environment */
	char **argv0;             /* the traced command (begin), copied */
	uint32_t argc0;
	struct task **tab;        /* hash of live tasks by tid */
	size_t tsize, ntasks;
	struct otlp_batch *cur;
	struct otlp_sender *sender;
	struct sinkout file;
	bool file_open, file_failed;
	struct strbuf tmp, enc;
	struct otlp_stats st;
	bool ended;
	/* tasks that exited, their spans not yet sent: a saved trace can
	 * list a call that ended at the same time as its task after the exit */
	struct task **pending;
	size_t npending, apending;
};

/* ---- ids ---- */

static uint64_t rng_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void new_span_id(struct osink *o, uint8_t id[8])
{
	uint64_t v;

	do
		v = rng_next(&o->rng);
	while (!v);
	memcpy(id, &v, 8);
}

static void random_bytes(void *p, size_t n)
{
	uint8_t *b = p;
	size_t got = 0;

	while (got < n) {
		ssize_t r = getrandom(b + got, n - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		got += (size_t)r;
	}
	if (got < n) {          /* no getrandom: time and pid are unique enough */
		uint64_t x = (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)p;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		x ^= (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		for (size_t i = got; i < n; i++)
			b[i] = (uint8_t)rng_next(&x);
	}
}

/* ---- strings ---- */

/* Length of a valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t utf8_seq(const uint8_t *p, size_t n)
{
	uint32_t c;
	size_t len;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, c = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return len;
}

/*
 * A NUL-terminated copy of p[0..len) in arena a that is valid UTF-8 (as
 * protobuf strings must be): bad bytes and NULs become U+FFFD.
 */
static char *utf8_dup(struct arena *a, const char *p, size_t len, uint32_t *outlen)
{
	const uint8_t *u = (const uint8_t *)p;
	size_t i = 0, bad = 0;
	char *r, *w;

	while (i < len) {
		size_t k = u[i] ? utf8_seq(u + i, len - i) : 0;
		if (!k) {
			bad++;
			k = 1;
		}
		i += k;
	}
	r = arena_alloc(a, len + 2 * bad + 1);
	if (!bad) {
		memcpy(r, p, len);
		r[len] = '\0';
		if (outlen)
			*outlen = (uint32_t)len;
		return r;
	}
	w = r;
	for (i = 0; i < len;) {
		size_t k = u[i] ? utf8_seq(u + i, len - i) : 0;
		if (!k) {
			memcpy(w, "\xef\xbf\xbd", 3);
			w += 3;
			i++;
			continue;
		}
		memcpy(w, p + i, k);
		w += k;
		i += k;
	}
	*w = '\0';
	if (outlen)
		*outlen = (uint32_t)(w - r);
	return r;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

/* ---- tasks ---- */

static size_t tslot(const struct osink *o, pid_t tid)
{
	return ((size_t)(uint32_t)tid * 2654435761u) & (o->tsize - 1);
}

static struct task *task_find(struct osink *o, pid_t tid)
{
	if (!o->tsize)
		return NULL;
	for (struct task *t = o->tab[tslot(o, tid)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void task_insert(struct osink *o, struct task *t)
{
	if (o->ntasks + 1 > o->tsize) {
		size_t nsize = o->tsize ? o->tsize * 2 : 64;
		struct task **nt = xcalloc(nsize, sizeof(*nt));
		for (size_t i = 0; i < o->tsize; i++)
			for (struct task *x = o->tab[i], *nx; x; x = nx) {
				nx = x->next;
				size_t s = ((size_t)(uint32_t)x->tid * 2654435761u) & (nsize - 1);
				x->next = nt[s];
				nt[s] = x;
			}
		free(o->tab);
		o->tab = nt;
		o->tsize = nsize;
	}
	size_t s = tslot(o, t->tid);
	t->next = o->tab[s];
	o->tab[s] = t;
	o->ntasks++;
}

static void task_unlink(struct osink *o, struct task *t)
{
	for (struct task **pp = &o->tab[tslot(o, t->tid)]; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			o->ntasks--;
			return;
		}
}

static void argv_free(char **argv, uint32_t argc)
{
	for (uint32_t i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

static char **argv_copy(char *const *argv, uint32_t argc)
{
	char **r = xcalloc(argc ? argc : 1, sizeof(*r));
	for (uint32_t i = 0; i < argc; i++)
		r[i] = xstrdup(argv[i]);
	return r;
}

static void task_free(struct task *t)
{
	free(t->exe);
	argv_free(t->argv, t->argc);
	for (size_t i = 0; i < t->ncounts; i++)
		free(t->counts[i].name);
	free(t->counts);
	free(t->idx);
	for (uint32_t i = 0; i < t->nsigs; i++)
		free(t->sigs[i].siginfo);
	free(t->sigs);
	free(t);
}

/* A new task; its parent span is its creator's, or the run's parent. */
static struct task *task_new(struct osink *o, pid_t tid, pid_t pid, pid_t ppid, bool thread,
			     uint64_t ts)
{
	struct task *t = xcalloc(1, sizeof(*t)), *creator = task_find(o, ppid), *owner;

	t->tid = tid;
	t->pid = pid;
	t->ppid = ppid;
	t->is_thread = thread;
	t->start_ns = ts;
	t->flags = SPAN_FLAG_SAMPLED | SPAN_FLAG_HAS_REMOTE;
	owner = thread ? task_find(o, pid) : NULL;
	if (thread && owner) {
		memcpy(t->parent_id, owner->span_id, 8);
	} else if (!thread && creator) {
		/* under the creating process (a thread's creation counts for its process) */
		struct task *cp = creator->is_thread ? task_find(o, creator->pid) : creator;
		memcpy(t->parent_id, (cp ? cp : creator)->span_id, 8);
		if (!cp)
			cp = creator;
		if (cp->exe)
			t->exe = xstrdup(cp->exe);
		if (cp->argv) {
			t->argv = argv_copy(cp->argv, cp->argc);
			t->argc = cp->argc;
			t->argv_exact = cp->argv_exact;
		}
	} else if (o->s.have_parent) {
		memcpy(t->parent_id, o->s.parent.span_id, 8);
		t->flags |= SPAN_FLAG_REMOTE;
	}
	if (!thread && !creator && !o->root_used) {
		memcpy(t->span_id, o->root_span, 8);
		o->root_used = true;
		if (o->argv0) {
			t->argv = argv_copy(o->argv0, o->argc0);
			t->argc = o->argc0;
			t->argv_exact = true;
		}
	} else {
		new_span_id(o, t->span_id);
	}
	task_insert(o, t);
	return t;
}

/* The task of tid, made up when its start was not seen (a saved trace). */
static struct task *task_get(struct osink *o, pid_t tid, pid_t pid, uint64_t ts)
{
	struct task *t = task_find(o, tid);

	if (t)
		return t;
	if (tid != pid && pid > 0) {
		if (!task_find(o, pid))
			task_new(o, pid, pid, 0, false, ts);
		return task_new(o, tid, pid, pid, true, ts);
	}
	return task_new(o, tid, tid, 0, false, ts);
}

static struct task *task_process(struct osink *o, struct task *t)
{
	struct task *p = t->is_thread ? task_find(o, t->pid) : t;
	return p ? p : t;
}

static void count_call(struct task *p, const struct event *ev, uint64_t dur)
{
	struct pcount *c = NULL;
	bool in_tab = ev->nr >= 0 && (unsigned long)ev->nr < sysent_count;

	if (in_tab && p->idx && p->idx[ev->nr]) {
		c = &p->counts[p->idx[ev->nr] - 1];
	} else if (!in_tab) {
		for (size_t i = 0; i < p->ncounts; i++)
			if (p->counts[i].nr == ev->nr && !strcmp(p->counts[i].name, ev->name)) {
				c = &p->counts[i];
				break;
			}
	}
	if (!c) {
		ALLOC_GROW(p->counts, p->ncounts + 1, p->acounts);
		c = &p->counts[p->ncounts++];
		memset(c, 0, sizeof(*c));
		c->nr = ev->nr;
		c->name = xstrdup(ev->name ? ev->name : "?");
		if (in_tab) {
			if (!p->idx)
				p->idx = xcalloc(sysent_count, sizeof(*p->idx));
			p->idx[ev->nr] = (uint16_t)p->ncounts;
		}
	}
	c->calls++;
	c->time_ns += dur;
	p->calls++;
	p->time_ns += dur;
	if (ev->err) {
		c->errors++;
		p->errors++;
	}
}

/* ---- building spans ---- */

static void hand_off(struct osink *o);

static struct otlp_span *span_add(struct osink *o, uint64_t ts)
{
	struct otlp_batch *b = o->cur;
	struct otlp_span *sp;

	if (!b->n)
		b->first_ns = ts;
	ALLOC_GROW(b->spans, b->n + 1, b->alloc);
	sp = &b->spans[b->n++];
	memset(sp, 0, sizeof(*sp));
	o->st.spans++;
	return sp;
}

/* After a span is complete: a full or old batch goes. */
static void span_done(struct osink *o, uint64_t ts)
{
	struct otlp_batch *b = o->cur;

	if (b->n >= o->s.batch_size ||
	    (ts > b->first_ns && ts - b->first_ns >= (uint64_t)o->s.schedule_delay_ms * 1000000u))
		hand_off(o);
}

static struct otlp_attr *attrs_new(struct osink *o, uint32_t n)
{
	return arena_alloc(&o->cur->arena, n * sizeof(struct otlp_attr));
}

static void a_str(struct osink *o, struct otlp_attr *a, const char *key, const char *p, size_t len)
{
	a->key = key;
	a->type = OA_STR;
	a->s.p = utf8_dup(&o->cur->arena, p, len, &a->s.len);
}

static void a_int(struct otlp_attr *a, const char *key, int64_t v)
{
	a->key = key;
	a->type = OA_INT;
	a->i = v;
}

static void a_double(struct otlp_attr *a, const char *key, double v)
{
	a->key = key;
	a->type = OA_DOUBLE;
	a->d = v;
}

static void a_bool(struct otlp_attr *a, const char *key, bool v)
{
	a->key = key;
	a->type = OA_BOOL;
	a->b = v;
}

static void a_strarr(struct osink *o, struct otlp_attr *a, const char *key, char **v, uint32_t n)
{
	a->key = key;
	a->type = OA_STRARR;
	a->arr.n = n;
	a->arr.p = arena_alloc(&o->cur->arena, (n ? n : 1) * sizeof(char *));
	for (uint32_t i = 0; i < n; i++)
		a->arr.p[i] = utf8_dup(&o->cur->arena, v[i], strlen(v[i]), NULL);
}

static char *arena_key(struct osink *o, const char *prefix, const char *name)
{
	size_t pl = strlen(prefix), nl = strlen(name);
	char *k = arena_alloc(&o->cur->arena, pl + nl + 1);
	memcpy(k, prefix, pl);
	memcpy(k + pl, name, nl + 1);
	return k;
}

static void syscall_span(struct osink *o, struct task *t, const struct event *ev)
{
	uint64_t end = ev->end_ns > ev->ts_ns ? ev->end_ns : ev->ts_ns;
	struct otlp_span *sp = span_add(o, ev->ts_ns);
	struct otlp_attr *a;
	uint32_t n = 0;
	const struct frame *fr = ev->source;   /* -s: the program's own frame */
	char **args = NULL;

	new_span_id(o, sp->span_id);
	memcpy(sp->parent_id, t->span_id, 8);
	sp->name = utf8_dup(&o->cur->arena, ev->name, strlen(ev->name), NULL);
	sp->start_ns = o->base_ns + ev->ts_ns;
	sp->end_ns = o->base_ns + end;
	sp->flags = SPAN_FLAG_SAMPLED | SPAN_FLAG_HAS_REMOTE;
	a = attrs_new(o, 12);
	a_str(o, &a[n++], "syscall.name", ev->name, strlen(ev->name));
	a_int(&a[n++], "syscall.number", ev->nr);
	if (ev->nargs) {
		args = arena_alloc(&o->cur->arena, ev->nargs * sizeof(char *));
		for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++) {
			strbuf_reset(&o->tmp);
			val_render(&o->tmp, &ev->args[i], NULL);
			args[i] = utf8_dup(&o->cur->arena, o->tmp.buf, o->tmp.len, NULL);
		}
		a[n].key = "syscall.args";
		a[n].type = OA_STRARR;
		a[n].arr.p = (const char **)args;
		a[n].arr.n = ev->nargs;
		n++;
	} else {
		a[n].key = "syscall.args";
		a[n].type = OA_STRARR;
		a[n].arr.p = NULL;
		a[n].arr.n = 0;
		n++;
	}
	if (ev->state == SC_UNFINISHED) {
		a_bool(&a[n++], "syscall.unfinished", true);
	} else if (ev->rv_fmt != RV_NONE) {
		a_int(&a[n++], "syscall.return", ev->retval);
		if (ev->rv_fmt == RV_FD && ev->ret_path && !ev->err)
			a_str(o, &a[n++], "syscall.return.path", ev->ret_path, strlen(ev->ret_path));
	}
	if (ev->err) {
		const char *en = errno_name(ev->err), *em = errno_message(ev->err);
		char num[32];
		if (!en) {
			snprintf(num, sizeof(num), "%d", ev->err);
			en = num;
		}
		a_str(o, &a[n++], "error.type", en, strlen(en));
		sp->status = OTLP_STATUS_ERROR;
		sp->status_msg = em ? utf8_dup(&o->cur->arena, em, strlen(em), NULL)
				    : a[n - 1].s.p;
	}
	if (t->is_thread)
		a_int(&a[n++], "thread.id", t->tid);
	if (fr) {
		const char *fn = fr->function ? fr->function : fr->symbol;
		if (fr->file)
			a_str(o, &a[n++], "code.file.path", fr->file, strlen(fr->file));
		if (fr->file && fr->line && !(fr->flags & FRAME_FOREIGN_LINE))
			a_int(&a[n++], "code.line.number", fr->line);
		if (fn)
			a_str(o, &a[n++], "code.function.name", fn, strlen(fn));
	}
	if (ev->stack_trace && ev->nframes > 0) {
		/* -k: the whole stack, innermost first, one frame a line */
		strbuf_reset(&o->tmp);
		for (uint32_t i = 0; i < ev->nframes; i++) {
			const struct frame *f = &ev->frames[i];
			const char *fn = f->function ? f->function : f->symbol;
			strbuf_addf(&o->tmp, "%s0x%llx %s", i ? "\n" : "",
				    (unsigned long long)f->pc, fn ? fn : "??");
			if (f->file)
				strbuf_addf(&o->tmp, " (%s:%u)", f->file, (unsigned)f->line);
			if (f->module)
				strbuf_addf(&o->tmp, " [%s]", f->module);
		}
		a_str(o, &a[n++], "code.stacktrace", o->tmp.buf, o->tmp.len);
	}
	sp->attrs = a;
	sp->nattrs = n;
	t->spans++;
	span_done(o, ev->end_ns);
}

static int pcount_cmp(const void *x, const void *y)
{
	const struct pcount *a = x, *b = y;
	return strcmp(a->name, b->name);
}

/* The span of a process or thread that ended (or outlived the trace). */
static void task_span(struct osink *o, struct task *t, uint64_t end_ts)
{
	struct otlp_span *sp = span_add(o, end_ts);
	struct otlp_attr *a;
	uint32_t n = 0, cap;
	const char *exe = t->exe ? base_name(t->exe) : t->argv && t->argc ? base_name(t->argv[0]) : NULL;

	memcpy(sp->span_id, t->span_id, 8);
	memcpy(sp->parent_id, t->parent_id, 8);
	sp->flags = t->flags;
	sp->start_ns = o->base_ns + t->start_ns;
	sp->end_ns = o->base_ns + (end_ts > t->start_ns ? end_ts : t->start_ns);
	if (t->is_thread)
		sp->name = "thread";
	else
		sp->name = exe ? utf8_dup(&o->cur->arena, exe, strlen(exe), NULL) : "process";
	QSORT(t->counts, t->ncounts, pcount_cmp);
	cap = 16 + 3 * (uint32_t)t->ncounts;
	a = attrs_new(o, cap);
	a_int(&a[n++], "process.pid", t->pid);
	if (t->is_thread) {
		a_int(&a[n++], "thread.id", t->tid);
	} else {
		if (t->ppid > 0)
			a_int(&a[n++], "process.parent_pid", t->ppid);
		if (exe)
			a_str(o, &a[n++], "process.executable.name", exe, strlen(exe));
		if (t->exe)
			a_str(o, &a[n++], "process.executable.path", t->exe, strlen(t->exe));
		if (t->argv)
			a_strarr(o, &a[n++], "process.command_args", t->argv, t->argc);
		if (t->exited && !t->term_signal)
			a_int(&a[n++], "process.exit.code", t->exit_code);
		if (t->max_rss_kb)
			a_int(&a[n++], "renacer.max_rss_kb", (int64_t)t->max_rss_kb);
	}
	if (t->term_signal) {
		const char *sn = signal_name(t->term_signal);
		char num[32];
		if (!sn) {
			snprintf(num, sizeof(num), "%d", t->term_signal);
			sn = num;
		}
		a_str(o, &a[n++], "renacer.signal", sn, strlen(sn));
		sp->status = OTLP_STATUS_ERROR;
		strbuf_reset(&o->tmp);
		strbuf_addf(&o->tmp, "killed by %s%s", sn, t->core_dumped ? " (core dumped)" : "");
		sp->status_msg = utf8_dup(&o->cur->arena, o->tmp.buf, o->tmp.len, NULL);
	} else if (t->exited && t->exit_code && !t->is_thread) {
		sp->status = OTLP_STATUS_ERROR;
		strbuf_reset(&o->tmp);
		strbuf_addf(&o->tmp, "exit status %d", t->exit_code);
		sp->status_msg = utf8_dup(&o->cur->arena, o->tmp.buf, o->tmp.len, NULL);
	}
	if (t->detached)
		a_bool(&a[n++], "renacer.detached", true);
	else if (!t->exited)
		a_bool(&a[n++], "renacer.outlived_trace", true);
	if (!t->is_thread) {
		a_int(&a[n++], "syscall.count", (int64_t)t->calls);
		a_int(&a[n++], "syscall.errors", (int64_t)t->errors);
		a_double(&a[n++], "syscall.duration", (double)t->time_ns / 1e9);
		a_int(&a[n++], "syscall.spans", (int64_t)t->spans);
		for (size_t i = 0; i < t->ncounts; i++) {
			const struct pcount *c = &t->counts[i];
			a_int(&a[n++], arena_key(o, "syscall.count.", c->name), (int64_t)c->calls);
			if (c->errors)
				a_int(&a[n++], arena_key(o, "syscall.errors.", c->name), (int64_t)c->errors);
			a_double(&a[n++], arena_key(o, "syscall.duration.", c->name),
				 (double)c->time_ns / 1e9);
		}
	} else {
		a_int(&a[n++], "syscall.spans", (int64_t)t->spans);
	}
	sp->attrs = a;
	sp->nattrs = n;
	if (t->nsigs) {
		sp->events = arena_calloc(&o->cur->arena, t->nsigs * sizeof(*sp->events));
		for (uint32_t i = 0; i < t->nsigs; i++) {
			struct otlp_event *e = &sp->events[i];
			const char *sn = signal_name(t->sigs[i].signo);
			e->time_ns = o->base_ns + t->sigs[i].ts_ns;
			e->name = sn ? sn : "signal";
			e->attrs = arena_alloc(&o->cur->arena, 2 * sizeof(*e->attrs));
			a_int(&e->attrs[e->nattrs++], "renacer.signo", t->sigs[i].signo);
			if (t->sigs[i].siginfo)
				a_str(o, &e->attrs[e->nattrs++], "renacer.siginfo", t->sigs[i].siginfo,
				      strlen(t->sigs[i].siginfo));
		}
		sp->nevents = t->nsigs;
	}
	sp->dropped_events = t->dropped_sigs;
	span_done(o, end_ts);
}

/* ---- handing batches over ---- */

static void write_file(struct osink *o, struct otlp_batch *b)
{
	if (!o->file_open || o->file_failed)
		return;
	strbuf_reset(&o->enc);
	otlp_encode_json(&o->enc, &o->res, b);
	strbuf_addch(&o->enc, '\n');
	sinkout_put(&o->file, &o->enc);
	if (ferror(o->file.fp))
		o->file_failed = true;
}

static void hand_off(struct osink *o)
{
	struct otlp_batch *b = o->cur;

	if (!b->n)
		return;
	write_file(o, b);
	if (!o->s.send) {
		otlp_batch_reset(b);
		return;
	}
	if (!o->sender)
		o->sender = otlp_sender_new(&o->s, &o->res);
	o->cur = otlp_sender_push(o->sender, b);
}

/* ---- sink callbacks ---- */

static void add_res_attr(struct osink *o, uint32_t *n, const char *key, const char *val)
{
	struct otlp_attr *a = &o->res.attrs[(*n)++];
	a->key = arena_strndup(&o->res_arena, key, strlen(key));
	a->type = OA_STR;
	a->s.p = utf8_dup(&o->res_arena, val, strlen(val), &a->s.len);
}

static const char *host_arch(const char *m)
{
	/* the semantic conventions' host.arch values */
	if (!strcmp(m, "x86_64"))
		return "amd64";
	if (!strcmp(m, "aarch64"))
		return "arm64";
	if (!strcmp(m, "i386") || !strcmp(m, "i686"))
		return "x86";
	if (!strncmp(m, "arm", 3))
		return "arm32";
	if (!strcmp(m, "ppc64") || !strcmp(m, "ppc64le"))
		return "ppc64";
	if (!strcmp(m, "s390x"))
		return "s390x";
	return m;
}

static void build_resource(struct osink *o)
{
	struct utsname u;
	char host[256] = "";
	uint32_t n = 0;

	o->res.attrs = arena_alloc(&o->res_arena, (8 + o->s.nresource) * sizeof(struct otlp_attr));
	add_res_attr(o, &n, "service.name", o->s.service_name);
	if (gethostname(host, sizeof(host) - 1) == 0 && *host)
		add_res_attr(o, &n, "host.name", host);
	if (uname(&u) == 0)
		add_res_attr(o, &n, "host.arch", host_arch(u.machine));
	add_res_attr(o, &n, "os.type", "linux");
	add_res_attr(o, &n, "telemetry.sdk.name", "renacer");
	add_res_attr(o, &n, "telemetry.sdk.version", RENACER_VERSION);
	for (size_t i = 0; i < o->s.nresource; i++) {
		/* the environment may override the detected values */
		uint32_t j;
		for (j = 0; j < n; j++)
			if (!strcmp(o->res.attrs[j].key, o->s.resource[i].key))
				break;
		if (j < n) {
			struct otlp_attr *a = &o->res.attrs[j];
			a->s.p = utf8_dup(&o->res_arena, o->s.resource[i].value,
					  strlen(o->s.resource[i].value), &a->s.len);
		} else {
			add_res_attr(o, &n, o->s.resource[i].key, o->s.resource[i].value);
		}
	}
	o->res.nattrs = n;
	o->res.scope_name = "renacer";
	o->res.scope_version = RENACER_VERSION;
	o->res.tracestate = o->s.have_parent ? o->s.parent.tracestate : NULL;
}

static int o_begin(struct sink *s, const struct trace_info *ti)
{
	struct osink *o = (struct osink *)s;

	o->base_ns = ti->start_realtime_ns;
	if (ti->argv && !o->argv0) {
		uint32_t n = 0;
		while (ti->argv[n] && n < MAX_CMD_ARGS)
			n++;
		o->argv0 = argv_copy(ti->argv, n);
		o->argc0 = n;
	}
	return 0;
}

/*
 * Parses strace's text of an argv array (a saved trace's execve argument):
 * ["ls", "-l\t", ...] with C escapes.  Returns the count, or -1 when the
 * text is not such an array.
 */
static int parse_argv_text(const char *p, size_t len, char ***out)
{
	const char *end = p + len;
	char **v = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf sb = STRBUF_INIT;

	if (p == end || *p++ != '[')
		return -1;
	while (p < end && *p != ']') {
		if (*p == ',' || *p == ' ') {
			p++;
			continue;
		}
		if (*p != '"')
			break;            /* "..." for more, or a pointer */
		strbuf_reset(&sb);
		for (p++; p < end && *p != '"'; p++) {
			if (*p != '\\' || p + 1 >= end) {
				strbuf_addch(&sb, *p);
				continue;
			}
			p++;
			switch (*p) {
			case 'n': strbuf_addch(&sb, '\n'); break;
			case 't': strbuf_addch(&sb, '\t'); break;
			case 'r': strbuf_addch(&sb, '\r'); break;
			case 'v': strbuf_addch(&sb, '\v'); break;
			case 'f': strbuf_addch(&sb, '\f'); break;
			default:
				if (*p >= '0' && *p <= '7') {
					int c = 0;
					for (int k = 0; k < 3 && p < end && *p >= '0' && *p <= '7'; k++, p++)
						c = c * 8 + (*p - '0');
					p--;
					strbuf_addch(&sb, c ? c : '?');
				} else {
					strbuf_addch(&sb, *p);
				}
			}
		}
		if (p >= end)
			break;
		p++;
		if (n < MAX_CMD_ARGS) {
			ALLOC_GROW(v, n + 1, alloc);
			v[n++] = xstrdup(sb.buf);
		}
	}
	strbuf_release(&sb);
	if (!n) {
		free(v);
		return -1;
	}
	*out = v;
	return (int)n;
}

/*
 * Whether a decoded execve argv (cut at the string limit) is the exact
 * argv the task already has: the traced command's own first execve.
 */
static bool argv_same(const struct task *p, const struct val *av)
{
	if (!p->argv_exact || av->kind != V_ARRAY || (av->flags & VF_MORE) || av->c.n != p->argc)
		return false;
	for (uint32_t i = 0; i < av->c.n; i++) {
		const struct val *it = &av->c.items[i];
		size_t l = p->argv[i] ? strlen(p->argv[i]) : 0;
		if (it->kind != V_STR || it->s.len > l || memcmp(it->s.p, p->argv[i], it->s.len) ||
		    (it->s.len < l && !(it->flags & VF_TRUNC)))
			return false;
	}
	return true;
}

/* The same for a saved trace's argv text, parsed: each item a prefix. */
static bool argv_text_same(const struct task *p, char **v, uint32_t k)
{
	if (!p->argv_exact || k != p->argc)
		return false;
	for (uint32_t i = 0; i < k; i++)
		if (!p->argv[i] || strncmp(v[i], p->argv[i], strlen(v[i])))
			return false;
	return true;
}

static void on_syscall(struct osink *o, const struct event *ev)
{
	struct task *t = task_get(o, ev->tid, ev->pid, ev->ts_ns), *p = task_process(o, t);
	uint64_t dur = ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0;

	count_call(p, ev, dur);
	/* the command line of a successful execve */
	if (ev->state == SC_COMPLETE && !ev->err && ev->retval == 0 && ev->nargs >= 2 &&
	    (!strcmp(ev->name, "execve") || !strcmp(ev->name, "execveat"))) {
		const struct val *av = &ev->args[!strcmp(ev->name, "execve") ? 1 : 2];
		if (argv_same(p, av)) {
			/* keep the command's own, not cut at --string-limit */
		} else if (av->kind == V_ARRAY) {
			uint32_t k = av->c.n < MAX_CMD_ARGS ? av->c.n : MAX_CMD_ARGS;
			argv_free(p->argv, p->argc);
			p->argv = xcalloc(k ? k : 1, sizeof(char *));
			p->argc = k;
			p->argv_exact = false;
			for (uint32_t i = 0; i < k; i++) {
				const struct val *it = &av->c.items[i];
				if (it->kind == V_STR)
					p->argv[i] = xstrndup(it->s.p, it->s.len);
				else {
					strbuf_reset(&o->tmp);
					val_render(&o->tmp, it, NULL);
					p->argv[i] = xstrdup(o->tmp.buf);
				}
			}
		} else if (av->kind == V_TEXT) {
			char **v;
			int k = parse_argv_text(av->s.p, av->s.len, &v);
			if (k > 0 && argv_text_same(p, v, (uint32_t)k)) {
				argv_free(v, (uint32_t)k);
			} else if (k > 0) {
				argv_free(p->argv, p->argc);
				p->argv = v;
				p->argc = (uint32_t)k;
				p->argv_exact = false;
			}
		}
	}
	if (dur >= o->s.min_duration_ns)
		syscall_span(o, t, ev);
}

/* Sends the spans of exited tasks, except keep's (its last call may follow). */
static void flush_pending(struct osink *o, pid_t keep)
{
	size_t j = 0;

	for (size_t i = 0; i < o->npending; i++) {
		struct task *t = o->pending[i];
		if (t->tid == keep) {
			o->pending[j++] = t;
			continue;
		}
		task_span(o, t, t->exit_ns);
		task_unlink(o, t);
		task_free(t);
	}
	o->npending = j;
}

static void o_event(struct sink *s, const struct event *ev)
{
	struct osink *o = (struct osink *)s;
	struct task *t;

	if (o->npending)
		flush_pending(o, ev->type == EV_SYSCALL ? ev->tid : 0);
	switch (ev->type) {
	case EV_SYSCALL:
		on_syscall(o, ev);
		break;
	case EV_PROC_START:
		if (!task_find(o, ev->tid))
			task_new(o, ev->tid, ev->pid, ev->ppid, ev->is_thread, ev->ts_ns);
		break;
	case EV_EXEC:
		t = task_process(o, task_get(o, ev->tid, ev->pid, ev->ts_ns));
		if (ev->exec_path && *ev->exec_path) {
			free(t->exe);
			t->exe = xstrdup(ev->exec_path);
		}
		break;
	case EV_SIGNAL:
		t = task_get(o, ev->tid, ev->pid, ev->ts_ns);
		if (t->nsigs >= MAX_SPAN_EVENTS) {
			t->dropped_sigs++;
			break;
		}
		ALLOC_GROW(t->sigs, t->nsigs + 1, t->asigs);
		t->sigs[t->nsigs].ts_ns = ev->ts_ns;
		t->sigs[t->nsigs].signo = ev->signo;
		t->sigs[t->nsigs].siginfo = NULL;
		if (ev->siginfo) {
			strbuf_reset(&o->tmp);
			val_render(&o->tmp, ev->siginfo, NULL);
			t->sigs[t->nsigs].siginfo = xstrdup(o->tmp.buf);
		}
		t->nsigs++;
		break;
	case EV_DETACH:
		if ((t = task_find(o, ev->tid)))
			t->detached = true;
		break;
	case EV_PROC_EXIT:
		if (!(t = task_find(o, ev->tid)) || t->exited)
			break;
		t->exited = true;
		t->exit_code = ev->exit_code;
		t->term_signal = ev->term_signal;
		t->core_dumped = ev->core_dumped;
		t->max_rss_kb = ev->max_rss_kb;
		t->exit_ns = ev->ts_ns;
		ALLOC_GROW(o->pending, o->npending + 1, o->apending);
		o->pending[o->npending++] = t;
		break;
	}
}

static int tid_cmp(const void *x, const void *y)
{
	const struct task *a = *(struct task *const *)x, *b = *(struct task *const *)y;
	/* threads before their process, so children end before parents */
	if (a->is_thread != b->is_thread)
		return a->is_thread ? -1 : 1;
	return a->tid < b->tid ? 1 : a->tid > b->tid ? -1 : 0;
}

static int o_end(struct sink *s, const struct trace_end *te)
{
	struct osink *o = (struct osink *)s;
	struct task **left = xcalloc(o->ntasks ? o->ntasks : 1, sizeof(*left));
	size_t n = 0;
	int ret = 0;
	char *msg = NULL;

	flush_pending(o, 0);
	/* tasks still there (detached, outlived the trace) end with it */
	for (size_t i = 0; i < o->tsize; i++)
		for (struct task *t = o->tab[i]; t; t = t->next)
			left[n++] = t;
	QSORT(left, n, tid_cmp);
	for (size_t i = 0; i < n; i++) {
		task_span(o, left[i], te->wall_ns);
		task_unlink(o, left[i]);
		task_free(left[i]);
	}
	free(left);
	hand_off(o);
	o->ended = true;
	if (o->sender) {
		struct otlp_stats st;
		otlp_sender_finish(o->sender, &st, &msg);
		o->st.exported = st.exported;
		o->st.rejected = st.rejected;
		o->st.dropped = st.dropped;
		o->st.requests = st.requests;
		o->st.retries = st.retries;
		if (msg)
			warning("%s", msg);
		free(msg);
	}
	if (o->file_open) {
		if (o->file_failed) {
			ret = error("cannot write OTLP spans to '%s': %s", esc(o->s.file),
				    strerror(errno ? errno : EIO));
			sinkout_abort(&o->file);
		} else if (sinkout_close(&o->file) < 0) {
			ret = -1;
		}
		o->file_open = false;
	}
	return ret;
}

static void o_free(struct sink *s)
{
	struct osink *o = (struct osink *)s;

	if (o->sender && !o->ended) {
		struct otlp_stats st;
		char *msg = NULL;
		otlp_sender_finish(o->sender, &st, &msg);
		free(msg);
	}
	otlp_sender_free(o->sender);
	if (o->file_open)
		sinkout_abort(&o->file);
	for (size_t i = 0; i < o->tsize; i++)
		for (struct task *t = o->tab[i], *nx; t; t = nx) {
			nx = t->next;
			task_free(t);
		}
	free(o->tab);
	free(o->pending);
	otlp_batch_free(o->cur);
	argv_free(o->argv0, o->argc0);
	arena_release(&o->res_arena);
	strbuf_release(&o->tmp);
	strbuf_release(&o->enc);
	free(o->traceparent);
	otlp_settings_release(&o->s);
	free(o);
}

static const struct sink_ops otlp_ops = {
	.name = "otlp",
	.begin = o_begin,
	.event = o_event,
	.proc_exit = o_event,
	.end = o_end,
	.free = o_free,
};

/* Deep copy of the settings (the sink owns its own). */
static void settings_copy(struct otlp_settings *d, const struct otlp_settings *s)
{
	*d = *s;
#define DUP(f) d->f = s->f ? xstrdup(s->f) : NULL
	DUP(endpoint);
	DUP(url);
	DUP(ca_file);
	DUP(client_cert);
	DUP(client_key);
	DUP(service_name);
	DUP(file);
	DUP(parent.tracestate);
#undef DUP
	d->headers = xcalloc(s->nheaders ? s->nheaders : 1, sizeof(*d->headers));
	for (size_t i = 0; i < s->nheaders; i++) {
		d->headers[i].key = xstrdup(s->headers[i].key);
		d->headers[i].value = xstrdup(s->headers[i].value);
	}
	d->resource = xcalloc(s->nresource ? s->nresource : 1, sizeof(*d->resource));
	for (size_t i = 0; i < s->nresource; i++) {
		d->resource[i].key = xstrdup(s->resource[i].key);
		d->resource[i].value = xstrdup(s->resource[i].value);
	}
}

struct sink *otlp_sink_new(const struct otlp_settings *s)
{
	struct osink *o = xcalloc(1, sizeof(*o));
	struct strbuf sb = STRBUF_INIT;

	o->base.ops = &otlp_ops;
	strbuf_init(&o->tmp, 0);
	strbuf_init(&o->enc, 0);
	settings_copy(&o->s, s);
	if (!o->s.batch_size)
		o->s.batch_size = 512;
	random_bytes(&o->rng, sizeof(o->rng));
	if (o->s.have_parent)
		memcpy(o->res.trace_id, o->s.parent.trace_id, 16);
	else
		do
			random_bytes(o->res.trace_id, 16);
		while (!memcmp(o->res.trace_id, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16));
	new_span_id(o, o->root_span);
	build_resource(o);
	o->cur = xcalloc(1, sizeof(*o->cur));
	if (o->s.propagate) {
		otlp_format_traceparent(&sb, o->res.trace_id, o->root_span, SPAN_FLAG_SAMPLED);
		o->traceparent = strbuf_detach(&sb, NULL);
	}
	if (o->s.file) {
		bool dash = !strcmp(o->s.file, "-");
		if (sinkout_open(&o->file, stdout, dash ? NULL : o->s.file) < 0) {
			o_free(&o->base);
			return NULL;
		}
		o->file_open = true;
	}
	/* libcurl is loaded now, before the command runs, not at the first batch */
	if (o->s.send)
		o->sender = otlp_sender_new(&o->s, &o->res);
	return &o->base;
}

const char *otlp_sink_traceparent(struct sink *s)
{
	return ((struct osink *)s)->traceparent;
}

void otlp_sink_stats(struct sink *s, struct otlp_stats *st)
{
	*st = ((struct osink *)s)->st;
}
