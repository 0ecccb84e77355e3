/*
 * libFuzzer target for golden-trace normalization (src/golden/model.c and
 * golden_opts_add_rule): the input gives up to eight user rules (pattern
 * and replacement, as [[golden_traces.normalize]] holds them) and the
 * syscall lines of a run (name and argument texts, as a saved trace holds
 * them); the run goes through a golden model that is then finalized, which
 * applies the built-in rules (paths, pids, descriptors, random names) and
 * the user rules to every call.  Patterns over the cost budget must be
 * refused; nothing may crash, hang or grow without bound: a normalized key
 * is never longer than the limit the model promises.
 *
 * Input: byte 0 = number of rules (mod 9); then per rule a pattern and a
 * replacement, each ended by a NUL; then lines "name arg|arg|..." ended by
 * '\n'.
 *
 * seeds: tests/fuzz/seeds/normalize
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "golden/golden.h"
#include "golden/model.h"
#include "sink/sink.h"
#include "util/error.h"
#include "util/relimit.h"
#include "util/strbuf.h"

#include "util/banned.h"

static void quiet(const char *kind, const char *msg)
{
	(void)kind;
	(void)msg;
}

/* The next NUL-ended piece of at most max bytes, or NULL at the end. */
static const char *piece(const uint8_t **p, const uint8_t *end, size_t max, struct strbuf *sb)
{
	strbuf_reset(sb);
	while (*p < end && **p && sb->len < max)
		strbuf_addch(sb, *(*p)++);
	if (*p >= end)
		return NULL;
	while (*p < end && **p)
		(*p)++;
	if (*p < end)
		(*p)++;
	return sb->buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	struct strbuf pat = STRBUF_INIT, rep = STRBUF_INIT, line = STRBUF_INIT;
	struct sink_list sl = SINK_LIST_INIT;
	struct trace_info ti = { "9.9.9", NULL, 1, 1 };
	struct trace_end te = { 0 };
	struct gcontext ctx = { "/tmp/work", "/root", "/tmp" };
	struct golden_opts o;
	struct gmodel *m;
	unsigned nrules;
	uint64_t ts = 1;

	if (!size)
		return 0;
	error_set_hook(quiet);
	golden_opts_init(&o);
	nrules = *p++ % 9;
	for (unsigned i = 0; i < nrules; i++) {
		const char *pt = piece(&p, end, 64, &pat);
		const char *rp = piece(&p, end, 64, &rep);
		int r;

		if (!pt || !rp)
			break;
		r = golden_opts_add_rule(&o, pt, rp);
		/* a pattern over the budget is refused, never compiled */
		if (r == 0 && re_cost(pt, NULL, NULL) > RE_DEFAULT_MAX_COST)
			abort();
	}

	m = gmodel_new(&o);
	sink_list_add(&sl, gmodel_sink(m));
	sink_list_begin(&sl, &ti);
	{
		struct event ev;

		memset(&ev, 0, sizeof(ev));
		ev.type = EV_PROC_START;
		ev.pid = ev.tid = 100;
		ev.ppid = 1;
		ev.nr = -1;
		sink_list_event(&sl, &ev);
	}
	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct event ev;
		char *s, *args, *a;
		unsigned n = 0;

		strbuf_reset(&line);
		strbuf_add(&line, p, len);
		p += len + (nl != NULL);
		s = line.buf;
		if (!*s)
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.type = EV_SYSCALL;
		ev.pid = ev.tid = 100;
		ev.nr = -1;
		ev.ts_ns = ts;
		ev.end_ns = ts + 500;
		ts += 1000;
		args = strchr(s, ' ');
		if (args)
			*args++ = '\0';
		ev.name = *s ? s : "read";
		for (a = args; a && n < EVENT_MAX_ARGS; n++) {
			char *bar = strchr(a, '|');

			if (bar)
				*bar = '\0';
			ev.args[n].kind = V_TEXT;
			ev.args[n].s.p = a;
			ev.args[n].s.len = (uint32_t)strlen(a);
			a = bar ? bar + 1 : NULL;
		}
		ev.nargs = (uint8_t)n;
		ev.retval = (int64_t)(ts % 7) - 2;
		if (ev.retval < 0)
			ev.err = 2;
		sink_list_event(&sl, &ev);
	}
	sink_list_end(&sl, &te);
	sink_list_release(&sl);
	gmodel_finalize(m, &ctx);
	for (uint32_t id = 0; id < m->keys.n; id++)
		if (intern_len(&m->keys, id) > GOLDEN_MAX_KEY + 64)
			abort();
	gmodel_free(m);
	golden_opts_release(&o);
	strbuf_release(&pat);
	strbuf_release(&rep);
	strbuf_release(&line);
	return 0;
}
