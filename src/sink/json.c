/*
 * --format json: one renacer-json-v2 document (docs/trace-format.md).
 * Syscalls are written as they come; processes, signals and the summary
 * follow the syscalls array at the end.
 */
#include "sink/env.h"
#include "sink/sinks.h"
#include "sink/profile.h"
#include "sink/sinkout.h"
#include "util/error.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* Bytes of signal records kept in memory before they spill to a temp file. */
#define SPOOL_MEM_MAX (1u << 20)

/* Records written after the syscalls: kept in memory, then in a temp file. */
struct spool {
	struct strbuf mem;
	FILE *file;              /* tmpfile() once mem grew past SPOOL_MEM_MAX */
	size_t n;                /* records */
};

/* One process or thread, from its EV_PROC_START to its exit. */
struct jproc {
	pid_t pid, tid, ppid;
	bool is_thread, started, ended, detached, core_dumped;
	int exit_code, term_signal;
	uint64_t start_ns, end_ns, max_rss_kb;
	struct strbuf execs;     /* rendered {"path": ..., "ts_us": ...} items */
};

struct json_sink {
	struct sink base;
	struct sinkout out;
	struct sink_opts o;
	struct strbuf line, tmp;
	struct strbuf head;      /* the members before the syscalls, written with
				    the first syscall or at the end: a command
				    that never ran leaves nothing on a stream */
	struct sc_counts counts;
	uint64_t nsys;           /* syscall records written */
	struct spool signals;
	struct jproc *procs;     /* in order of appearance */
	size_t nprocs, aprocs;
	size_t *hash;            /* tid -> index + 1 of its latest entry; 0 empty */
	size_t hsize, hused;
	bool begun, ended;
	struct profile *prof;    /* --function-time: the function_profile */
};

static void spool_add(struct spool *sp, const struct strbuf *rec)
{
	const char *sep = sp->n ? ",\n    " : "\n    ";

	sp->n++;
	if (!sp->file && sp->mem.len + rec->len > SPOOL_MEM_MAX) {
		sp->file = tmpfile();
		if (sp->file) {
			fwrite(sp->mem.buf, 1, sp->mem.len, sp->file);
			strbuf_release(&sp->mem);
		}
	}
	if (sp->file) {
		fputs(sep, sp->file);
		fwrite(rec->buf, 1, rec->len, sp->file);
	} else {
		strbuf_addstr(&sp->mem, sep);
		strbuf_add(&sp->mem, rec->buf, rec->len);
	}
}

/* Copies the spooled records to out; -1 after error() on a read failure. */
static int spool_flush(struct spool *sp, FILE *out)
{
	char buf[65536];
	size_t n;

	if (!sp->file) {
		fwrite(sp->mem.buf, 1, sp->mem.len, out);
		return 0;
	}
	if (fflush(sp->file) != 0 || fseek(sp->file, 0, SEEK_SET) != 0)
		return error("cannot read back the signal records: %s", strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), sp->file)) > 0)
		fwrite(buf, 1, n, out);
	if (ferror(sp->file))
		return error("cannot read back the signal records: %s", strerror(errno));
	return 0;
}

static void spool_release(struct spool *sp)
{
	if (sp->file)
		fclose(sp->file);
	strbuf_release(&sp->mem);
	memset(sp, 0, sizeof(*sp));
}

static size_t hslot(const struct json_sink *js, pid_t tid)
{
	return ((size_t)(uint32_t)tid * 2654435761u) & (js->hsize - 1);
}

static struct jproc *proc_find(struct json_sink *js, pid_t tid)
{
	if (!js->hsize)
		return NULL;
	for (size_t i = hslot(js, tid);; i = (i + 1) & (js->hsize - 1)) {
		size_t v = js->hash[i];
		if (!v)
			return NULL;
		if (js->procs[v - 1].tid == tid)
			return &js->procs[v - 1];
	}
}

static void hash_put(struct json_sink *js, pid_t tid, size_t idx)
{
	for (size_t i = hslot(js, tid);; i = (i + 1) & (js->hsize - 1)) {
		size_t v = js->hash[i];
		if (!v || js->procs[v - 1].tid == tid) {
			if (!v)
				js->hused++;
			js->hash[i] = idx + 1;
			return;
		}
	}
}

/* A new entry for tid (the latest one for lookups). */
static struct jproc *proc_new(struct json_sink *js, pid_t pid, pid_t tid)
{
	struct jproc *p;

	if ((js->hused + 1) * 2 > js->hsize) {
		size_t *old = js->hash, oldn = js->hsize;
		js->hsize = oldn ? oldn * 2 : 64;
		js->hash = xcalloc(js->hsize, sizeof(*js->hash));
		js->hused = 0;
		for (size_t i = 0; i < oldn; i++)
			if (old[i])
				hash_put(js, js->procs[old[i] - 1].tid, old[i] - 1);
		free(old);
	}
	ALLOC_GROW(js->procs, js->nprocs + 1, js->aprocs);
	p = &js->procs[js->nprocs];
	memset(p, 0, sizeof(*p));
	strbuf_init(&p->execs, 0);
	p->pid = pid;
	p->tid = tid;
	hash_put(js, tid, js->nprocs);
	js->nprocs++;
	return p;
}

/* The live entry of tid, made when none exists (a start never seen). */
static struct jproc *proc_get(struct json_sink *js, pid_t pid, pid_t tid)
{
	struct jproc *p = proc_find(js, tid);

	if (p && !p->ended)
		return p;
	return proc_new(js, pid, tid);
}

static void on_proc_start(struct json_sink *js, const struct event *ev)
{
	struct jproc *p = proc_find(js, ev->tid);

	if (!p || p->started || p->ended)
		p = proc_new(js, ev->pid, ev->tid);
	p->started = true;
	p->ppid = ev->ppid;
	p->is_thread = ev->is_thread;
	p->start_ns = ev->ts_ns;
}

static void on_exec(struct json_sink *js, const struct event *ev)
{
	struct jproc *p = proc_get(js, ev->pid, ev->pid);

	if (p->execs.len)
		strbuf_addstr(&p->execs, ", ");
	strbuf_addstr(&p->execs, "{\"path\": ");
	if (ev->exec_path)
		strbuf_add_json_str(&p->execs, ev->exec_path, strlen(ev->exec_path));
	else
		strbuf_addstr(&p->execs, "null");
	strbuf_addstr(&p->execs, ", \"ts_us\": ");
	add_us(&p->execs, ev->ts_ns);
	strbuf_addch(&p->execs, '}');
}

static void on_end(struct json_sink *js, const struct event *ev)
{
	struct jproc *p = proc_get(js, ev->pid, ev->tid);

	p->ended = true;
	p->end_ns = ev->ts_ns;
	if (ev->type == EV_DETACH) {
		p->detached = true;
		return;
	}
	p->exit_code = ev->exit_code;
	p->term_signal = ev->term_signal;
	p->core_dumped = ev->core_dumped;
	p->max_rss_kb = ev->max_rss_kb;
}

static void add_proc(struct strbuf *sb, const struct jproc *p)
{
	strbuf_addstr(sb, "{\"pid\": ");
	strbuf_add_i64(sb, p->pid);
	strbuf_addstr(sb, ", \"tid\": ");
	strbuf_add_i64(sb, p->tid);
	strbuf_addstr(sb, ", \"ppid\": ");
	strbuf_add_i64(sb, p->ppid);
	strbuf_addstr(sb, ", \"is_thread\": ");
	strbuf_addstr(sb, p->is_thread ? "true" : "false");
	strbuf_addstr(sb, ", \"start_us\": ");
	if (p->started)
		add_us(sb, p->start_ns);
	else
		strbuf_addstr(sb, "null");
	strbuf_addstr(sb, ", \"end_us\": ");
	if (p->ended)
		add_us(sb, p->end_ns);
	else
		strbuf_addstr(sb, "null");
	if (p->ended && p->detached) {
		strbuf_addstr(sb, ", \"detached\": true");
	} else if (p->ended && p->term_signal) {
		const char *sn = signal_name(p->term_signal);
		strbuf_addstr(sb, ", \"signal\": ");
		if (sn)
			strbuf_add_json_str(sb, sn, strlen(sn));
		else
			strbuf_add_i64(sb, p->term_signal);
		if (p->core_dumped)
			strbuf_addstr(sb, ", \"core_dumped\": true");
	} else if (p->ended) {
		strbuf_addstr(sb, ", \"exit_code\": ");
		strbuf_add_i64(sb, p->exit_code);
	}
	if (p->ended && !p->detached) {
		strbuf_addstr(sb, ", \"max_rss_kb\": ");
		strbuf_add_u64(sb, p->max_rss_kb);
	}
	strbuf_addstr(sb, ", \"exec\": [");
	strbuf_add(sb, p->execs.buf, p->execs.len);
	strbuf_addstr(sb, "]}");
}

static int json_begin(struct sink *s, const struct trace_info *ti)
{
	struct json_sink *js = (struct json_sink *)s;
	struct strbuf *sb = &js->head;

	js->begun = true;
	strbuf_addstr(sb, "{\n  \"version\": ");
	strbuf_add_json_str(sb, ti && ti->version ? ti->version : RENACER_VERSION,
			    strlen(ti && ti->version ? ti->version : RENACER_VERSION));
	strbuf_addstr(sb, ",\n  \"format\": \"renacer-json-v2\",\n  \"command\": ");
	json_add_argv(sb, ti ? ti->argv : NULL);
	if (ti && ti->backend) {
		strbuf_addstr(sb, ",\n  \"backend\": ");
		strbuf_add_json_str(sb, ti->backend, strlen(ti->backend));
	}
	strbuf_addstr(sb, ",\n  \"follow\": ");
	strbuf_addstr(sb, ti && ti->follow ? "true" : "false");
	if (ti && ti->env) {
		strbuf_addstr(sb, ",\n  \"environment\": ");
		trace_env_json(sb, ti->env);
	}
	strbuf_addstr(sb, ",\n  \"start_unix_ns\": ");
	strbuf_add_u64(sb, ti ? ti->start_realtime_ns : 0);
	strbuf_addstr(sb, ",\n  \"syscalls\": [");
	return 0;
}

static void json_event(struct sink *s, const struct event *ev)
{
	struct json_sink *js = (struct json_sink *)s;

	switch (ev->type) {
	case EV_SYSCALL:
		if (js->head.len)
			sinkout_put(&js->out, &js->head);
		strbuf_addstr(&js->line, js->nsys++ ? ",\n    " : "\n    ");
		if (js->o.no_stack && ev->stack_trace) {
			struct event e = *ev;
			e.stack_trace = false;
			json_add_syscall(&js->line, &js->tmp, &e, NULL);
		} else {
			json_add_syscall(&js->line, &js->tmp, ev, NULL);
		}
		sinkout_put(&js->out, &js->line);
		sc_counts_add(&js->counts, ev->nr, ev->name, ev->err != 0 && ev->state != SC_UNFINISHED,
			      ev->state == SC_UNFINISHED,
			      ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0);
		if (js->prof)
			profile_add(js->prof, ev);
		break;
	case EV_SIGNAL:
		json_add_signal(&js->line, &js->tmp, ev, NULL);
		spool_add(&js->signals, &js->line);
		strbuf_reset(&js->line);
		break;
	case EV_PROC_START:
		on_proc_start(js, ev);
		break;
	case EV_EXEC:
		on_exec(js, ev);
		break;
	case EV_PROC_EXIT:
	case EV_DETACH:
		on_end(js, ev);
		break;
	}
}

static void json_proc_exit(struct sink *s, const struct event *ev)
{
	on_end((struct json_sink *)s, ev);
}

static int json_end(struct sink *s, const struct trace_end *te)
{
	struct json_sink *js = (struct json_sink *)s;
	struct strbuf *sb = &js->line;
	int ret = 0;

	if (!js->begun)
		json_begin(s, NULL);
	if (js->head.len)
		sinkout_put(&js->out, &js->head);
	js->ended = true;
	strbuf_addstr(sb, js->nsys ? "\n  ],\n  \"processes\": [" : "],\n  \"processes\": [");
	for (size_t i = 0; i < js->nprocs; i++) {
		strbuf_addstr(sb, i ? ",\n    " : "\n    ");
		add_proc(sb, &js->procs[i]);
		if (sb->len > 65536)
			sinkout_put(&js->out, sb);
	}
	strbuf_addstr(sb, js->nprocs ? "\n  ],\n  \"signals\": [" : "],\n  \"signals\": [");
	sinkout_put(&js->out, sb);
	if (js->out.fp && spool_flush(&js->signals, js->out.fp) < 0)
		ret = -1;
	strbuf_addstr(sb, js->signals.n ? "\n  ],\n  \"summary\": " : "],\n  \"summary\": ");
	json_add_summary(sb, &js->counts, te, NULL);
	if (js->prof) {
		strbuf_addstr(sb, ",\n  \"function_profile\": ");
		profile_json(js->prof, sb, NULL);
	}
	strbuf_addstr(sb, "\n}\n");
	sinkout_put(&js->out, sb);
	if (ret < 0) {
		sinkout_abort(&js->out);
		return -1;
	}
	return sinkout_close(&js->out);
}

static void json_free(struct sink *s)
{
	struct json_sink *js = (struct json_sink *)s;

	if (js->out.fp)
		sinkout_abort(&js->out);
	strbuf_release(&js->line);
	strbuf_release(&js->head);
	strbuf_release(&js->tmp);
	sc_counts_release(&js->counts);
	profile_free(js->prof);
	spool_release(&js->signals);
	for (size_t i = 0; i < js->nprocs; i++)
		strbuf_release(&js->procs[i].execs);
	free(js->procs);
	free(js->hash);
	free(js);
}

/* Totals from an engine without records (--backend ebpf): the summary. */
static void json_totals(struct sink *s, const struct trace_totals *tt)
{
	sc_counts_add_totals(&((struct json_sink *)s)->counts, tt);
}

static const struct sink_ops json_ops = {
	.name = "json",
	.begin = json_begin,
	.event = json_event,
	.proc_exit = json_proc_exit,
	.totals = json_totals,
	.end = json_end,
	.free = json_free,
	.needs_track = 1,      /* descriptors saved with what they refer to */
};

struct sink *json_sink_new(FILE *out, const char *path, const struct sink_opts *o)
{
	struct json_sink *js = xcalloc(1, sizeof(*js));

	if (sinkout_open(&js->out, out, path) < 0) {
		free(js);
		return NULL;
	}
	js->base.ops = &json_ops;
	if (o)
		js->o = *o;
	if (js->o.function_profile)
		js->prof = profile_new();
	strbuf_init(&js->line, 4096);
	strbuf_init(&js->head, 1024);
	strbuf_init(&js->tmp, 256);
	strbuf_init(&js->signals.mem, 0);
	sc_counts_init(&js->counts);
	return &js->base;
}
