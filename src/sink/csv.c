/*
 * --format csv: a header row, then one row per syscall with RFC 4180
 * quoting (docs/trace-format.md lists the columns).
 */
#include "sink/sinks.h"
#include "sink/sinkout.h"
#include "sink/srcloc.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

#define CSV_HEADER "ts_us,pid,tid,name,nr,args,result,errno,duration_us\n"

struct csv_sink {
	struct sink base;
	bool source;             /* the "source" column (-s) */
	struct sinkout out;
	struct strbuf line, args;
	bool begun;
};

static int csv_begin(struct sink *s, const struct trace_info *ti)
{
	struct csv_sink *cs = (struct csv_sink *)s;

	cs->begun = true;
	strbuf_addstr(&cs->line, CSV_HEADER);
	if (cs->source) {
		strbuf_setlen(&cs->line, cs->line.len - 1);
		strbuf_addstr(&cs->line, ",source\n");
	}
	sinkout_put(&cs->out, &cs->line);
	return 0;
}

static void csv_event(struct sink *s, const struct event *ev)
{
	struct csv_sink *cs = (struct csv_sink *)s;
	struct strbuf *sb = &cs->line;
	bool unfinished = ev->state == SC_UNFINISHED;
	const char *name = ev->name ? ev->name : "?";

	if (ev->type != EV_SYSCALL)
		return;
	strbuf_reset(&cs->args);
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++) {
		if (i)
			strbuf_addstr(&cs->args, ", ");
		add_val_text(&cs->args, &ev->args[i]);
	}
	add_us(sb, ev->ts_ns);
	strbuf_addch(sb, ',');
	strbuf_add_i64(sb, ev->pid);
	strbuf_addch(sb, ',');
	strbuf_add_i64(sb, ev->tid);
	strbuf_addch(sb, ',');
	strbuf_add_csv_field(sb, name, strlen(name));
	strbuf_addch(sb, ',');
	strbuf_add_i64(sb, ev->nr);
	strbuf_addch(sb, ',');
	strbuf_add_csv_field(sb, cs->args.buf, cs->args.len);
	strbuf_addch(sb, ',');
	if (!unfinished)
		strbuf_add_i64(sb, ev->retval);
	strbuf_addch(sb, ',');
	if (!unfinished && ev->err) {
		const char *en = errno_name(ev->err);
		if (en)
			strbuf_addstr(sb, en);
		else
			strbuf_add_i64(sb, ev->err);
	}
	strbuf_addch(sb, ',');
	add_us(sb, ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0);
	if (cs->source) {
		strbuf_addch(sb, ',');
		if (ev->source) {
			strbuf_reset(&cs->args);
			srcloc_render(&cs->args, ev->source);
			strbuf_add_csv_field(sb, cs->args.buf, cs->args.len);
		}
	}
	strbuf_addch(sb, '\n');
	sinkout_put(&cs->out, sb);
}

static int csv_end(struct sink *s, const struct trace_end *te)
{
	struct csv_sink *cs = (struct csv_sink *)s;

	if (!cs->begun)
		csv_begin(s, NULL);
	return sinkout_close(&cs->out);
}

static void csv_free(struct sink *s)
{
	struct csv_sink *cs = (struct csv_sink *)s;

	if (cs->out.fp)
		sinkout_abort(&cs->out);
	strbuf_release(&cs->line);
	strbuf_release(&cs->args);
	free(cs);
}

static const struct sink_ops csv_ops = {
	.name = "csv",
	.begin = csv_begin,
	.event = csv_event,
	.end = csv_end,
	.free = csv_free,
};

struct sink *csv_sink_new(FILE *out, const char *path, const struct sink_opts *o)
{
	struct csv_sink *cs = xcalloc(1, sizeof(*cs));

	if (sinkout_open(&cs->out, out, path) < 0) {
		free(cs);
		return NULL;
	}
	cs->base.ops = &csv_ops;
	cs->source = o && o->source;
	strbuf_init(&cs->line, 1024);
	strbuf_init(&cs->args, 512);
	return &cs->base;
}
