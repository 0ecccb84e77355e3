/*
 * The profile sink (see profsink.h): a stack tree fed by every syscall,
 * and at the end the outputs the options ask for.
 */
#include "sink/profsink.h"

#include <stdlib.h>
#include <string.h>

#include "sink/flamesvg.h"
#include "sink/profile.h"
#include "sink/sinkout.h"
#include "sink/speedscope.h"
#include "util/xmalloc.h"
#include "util/banned.h"


struct profile_sink {
	struct sink base;
	struct profile_sink_opts o;
	struct profile *p;
	struct speedscope *ss;
	struct sinkout folded, svg, speed;
	bool have_folded, have_svg, have_speed;
};

static void psink_event(struct sink *sk, const struct event *ev)
{
	struct profile_sink *s = (struct profile_sink *)sk;
	const struct pnode *leaf;

	if (ev->type == EV_EXEC && s->ss) {
		speedscope_proc(s->ss, ev);
		return;
	}
	leaf = profile_add(s->p, ev);
	if (leaf && s->ss)
		speedscope_add(s->ss, ev, leaf);
}

static int psink_end(struct sink *sk, const struct trace_end *te)
{
	struct profile_sink *s = (struct profile_sink *)sk;
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (s->o.table) {
		profile_table(s->p, &sb);
		fputs("\n", stderr);
		fwrite(sb.buf, 1, sb.len, stderr);
		strbuf_reset(&sb);
	}
	if (s->have_folded) {
		profile_folded(s->p, &sb, s->o.count);
		sinkout_put(&s->folded, &sb);
		s->have_folded = false;
		if (sinkout_close(&s->folded) < 0)
			ret = -1;
	}
	if (s->have_svg) {
		profile_svg(s->p, &sb, s->o.count, s->o.title);
		sinkout_put(&s->svg, &sb);
		s->have_svg = false;
		if (sinkout_close(&s->svg) < 0)
			ret = -1;
	}
	if (s->have_speed) {
		s->have_speed = false;
		if (speedscope_write(s->ss, s->p, s->speed.fp, s->o.title) < 0) {
			sinkout_abort(&s->speed);
			ret = -1;
		} else if (sinkout_close(&s->speed) < 0) {
			ret = -1;
		}
	}
	strbuf_release(&sb);
	return ret;
}

static void psink_free(struct sink *sk)
{
	struct profile_sink *s = (struct profile_sink *)sk;

	if (s->have_folded)
		sinkout_abort(&s->folded);
	if (s->have_svg)
		sinkout_abort(&s->svg);
	if (s->have_speed)
		sinkout_abort(&s->speed);
	profile_free(s->p);
	speedscope_free(s->ss);
	free(s);
}

static const struct sink_ops psink_ops = {
	.name = "profile",
	.no_args = 1,
	.event = psink_event,
	.end = psink_end,
	.free = psink_free,
};

struct sink *profile_sink_new(const struct profile_sink_opts *o)
{
	struct profile_sink *s = xcalloc(1, sizeof(*s));

	s->base.ops = &psink_ops;
	s->o = *o;
	s->p = profile_new();
	if (o->folded) {
		bool to_stream = !strcmp(o->folded, "-");
		if (sinkout_open(&s->folded, to_stream ? (o->folded_stream ? o->folded_stream : stdout) : NULL,
				 to_stream ? NULL : o->folded) < 0)
			goto fail;
		s->have_folded = true;
	}
	if (o->svg) {
		if (sinkout_open(&s->svg, NULL, o->svg) < 0)
			goto fail;
		s->have_svg = true;
	}
	if (o->speedscope) {
		if (sinkout_open(&s->speed, NULL, o->speedscope) < 0)
			goto fail;
		s->have_speed = true;
		s->ss = speedscope_new();
	}
	return &s->base;
fail:
	psink_free(&s->base);
	return NULL;
}
