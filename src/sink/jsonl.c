/*
 * --format jsonl: renacer-jsonl-v2, one JSON object per line, each with a
 * "type" (docs/trace-format.md).  Nothing grows with the trace: every record
 * is written when it happens and the counts live in a fixed table.
 */
#include "sink/env.h"
#include "sink/sinks.h"
#include "sink/profile.h"
#include "sink/sinkout.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

struct jsonl_sink {
	struct sink base;
	struct sinkout out;
	struct strbuf line, tmp;
	struct strbuf head;      /* the header line, written with the first record or
				    at the end: a command that never ran leaves
				    nothing on a stream */
	struct sc_counts counts;
	bool begun;
	struct profile *prof;    /* --function-time: a function_profile line */
};

static void add_common(struct strbuf *sb, const char *type, const struct event *ev)
{
	strbuf_addstr(sb, "{\"type\": \"");
	strbuf_addstr(sb, type);
	strbuf_addstr(sb, "\", \"pid\": ");
	strbuf_add_i64(sb, ev->pid);
	strbuf_addstr(sb, ", \"tid\": ");
	strbuf_add_i64(sb, ev->tid);
	strbuf_addstr(sb, ", \"ts_us\": ");
	add_us(sb, ev->ts_ns);
	strbuf_addstr(sb, ", \"lamport\": ");
	strbuf_add_u64(sb, ev->lamport);
}

/* Appends the line of a process record (start, exit, exec, detach). */
static void add_proc_record(struct strbuf *sb, const struct event *ev)
{
	switch (ev->type) {
	case EV_PROC_START:
		add_common(sb, "process_start", ev);
		strbuf_addstr(sb, ", \"ppid\": ");
		strbuf_add_i64(sb, ev->ppid);
		strbuf_addstr(sb, ", \"is_thread\": ");
		strbuf_addstr(sb, ev->is_thread ? "true" : "false");
		break;
	case EV_PROC_EXIT:
		add_common(sb, "process_exit", ev);
		if (ev->term_signal) {
			const char *sn = signal_name(ev->term_signal);
			strbuf_addstr(sb, ", \"signal\": ");
			if (sn)
				strbuf_add_json_str(sb, sn, strlen(sn));
			else
				strbuf_add_i64(sb, ev->term_signal);
			if (ev->core_dumped)
				strbuf_addstr(sb, ", \"core_dumped\": true");
		} else {
			strbuf_addstr(sb, ", \"exit_code\": ");
			strbuf_add_i64(sb, ev->exit_code);
		}
		strbuf_addstr(sb, ", \"max_rss_kb\": ");
		strbuf_add_u64(sb, ev->max_rss_kb);
		break;
	case EV_EXEC:
		add_common(sb, "exec", ev);
		strbuf_addstr(sb, ", \"path\": ");
		strbuf_add_json_cstr(sb, ev->exec_path);
		break;
	case EV_DETACH:
		add_common(sb, "detach", ev);
		break;
	default:
		return;
	}
	strbuf_addch(sb, '}');
}

static int jsonl_begin(struct sink *s, const struct trace_info *ti)
{
	struct jsonl_sink *js = (struct jsonl_sink *)s;
	struct strbuf *sb = &js->head;
	const char *v = ti && ti->version ? ti->version : RENACER_VERSION;

	js->begun = true;
	strbuf_addstr(sb, "{\"type\": \"header\", \"format\": \"renacer-jsonl-v2\", \"version\": ");
	strbuf_add_json_str(sb, v, strlen(v));
	strbuf_addstr(sb, ", \"command\": ");
	json_add_argv(sb, ti ? ti->argv : NULL);
	if (ti && ti->backend) {
		strbuf_addstr(sb, ", \"backend\": ");
		strbuf_add_json_str(sb, ti->backend, strlen(ti->backend));
	}
	strbuf_addstr(sb, ", \"follow\": ");
	strbuf_addstr(sb, ti && ti->follow ? "true" : "false");
	if (ti && ti->env) {
		strbuf_addstr(sb, ", \"environment\": ");
		trace_env_json(sb, ti->env);
	}
	strbuf_addstr(sb, ", \"start_unix_ns\": ");
	strbuf_add_u64(sb, ti ? ti->start_realtime_ns : 0);
	strbuf_addstr(sb, "}\n");
	return 0;
}

static void jsonl_event(struct sink *s, const struct event *ev)
{
	struct jsonl_sink *js = (struct jsonl_sink *)s;
	struct strbuf *sb = &js->line;

	if (js->head.len)
		sinkout_put(&js->out, &js->head);
	switch (ev->type) {
	case EV_SYSCALL:
		json_add_syscall(sb, &js->tmp, ev, "syscall");
		sc_counts_add(&js->counts, ev->nr, ev->name, ev->err != 0 && ev->state != SC_UNFINISHED,
			      ev->state == SC_UNFINISHED,
			      ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0);
		if (js->prof)
			profile_add(js->prof, ev);
		break;
	case EV_SIGNAL:
		json_add_signal(sb, &js->tmp, ev, "signal");
		break;
	default:
		add_proc_record(sb, ev);
		break;
	}
	if (sb->len) {
		strbuf_addch(sb, '\n');
		sinkout_put(&js->out, sb);
	}
}

static int jsonl_end(struct sink *s, const struct trace_end *te)
{
	struct jsonl_sink *js = (struct jsonl_sink *)s;

	if (!js->begun)
		jsonl_begin(s, NULL);
	if (js->head.len)
		sinkout_put(&js->out, &js->head);
	if (js->prof) {
		/* before the summary, which stays the last line */
		profile_json(js->prof, &js->line, "function_profile");
		strbuf_addch(&js->line, '\n');
	}
	json_add_summary(&js->line, &js->counts, te, "summary");
	strbuf_addch(&js->line, '\n');
	sinkout_put(&js->out, &js->line);
	return sinkout_close(&js->out);
}

static void jsonl_free(struct sink *s)
{
	struct jsonl_sink *js = (struct jsonl_sink *)s;

	if (js->out.fp)
		sinkout_abort(&js->out);
	strbuf_release(&js->line);
	strbuf_release(&js->head);
	strbuf_release(&js->tmp);
	sc_counts_release(&js->counts);
	profile_free(js->prof);
	free(js);
}

/* Totals from an engine without records (--backend ebpf): the summary. */
static void jsonl_totals(struct sink *s, const struct trace_totals *tt)
{
	sc_counts_add_totals(&((struct jsonl_sink *)s)->counts, tt);
}

static const struct sink_ops jsonl_ops = {
	.name = "jsonl",
	.begin = jsonl_begin,
	.event = jsonl_event,
	.proc_exit = jsonl_event,
	.totals = jsonl_totals,
	.end = jsonl_end,
	.free = jsonl_free,
	.needs_track = 1,      /* descriptors saved with what they refer to */
};

struct sink *jsonl_sink_new(FILE *out, const char *path, const struct sink_opts *o)
{
	struct jsonl_sink *js = xcalloc(1, sizeof(*js));

	if (sinkout_open(&js->out, out, path) < 0) {
		free(js);
		return NULL;
	}
	js->base.ops = &jsonl_ops;
	strbuf_init(&js->line, 4096);
	strbuf_init(&js->head, 512);
	strbuf_init(&js->tmp, 256);
	sc_counts_init(&js->counts);
	if (o && o->function_profile)
		js->prof = profile_new();
	return &js->base;
}
