/*
 * --backend ptrace|ebpf|auto: which engine runs a trace.  Both sit behind
 * the same seam (options in, events and totals out to one sink list); this
 * file only decides, says why, and falls back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert.h"
#include "bpf/engine.h"
#include "cli/cmds.h"
#include "cli/trace_opts.h"
#include "config/config.h"
#include "sys/qualify.h"
#include "core/tracer.h"
#include "sink/sinks.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/banned.h"

/*
 * Why neither of the eBPF engine's modes can serve t: what needs the
 * command stopped, or started otherwise.  Appended to why; 0 when none.
 */
static int ebpf_common_unsuited(const struct trace_opts *t, struct strbuf *why)
{
	/* -p: a filter on the kernel's table of traced tasks, for an
	 * explicit --backend ebpf (auto attaches with ptrace) */
	if (t->npids && t->argc) {
		strbuf_addstr(why, "cannot attach (-p) and start a command in one run");
		return -1;
	}
	if (t->npids && t->backend != BACKEND_EBPF) {
		strbuf_addstr(why, "attaches with ptrace unless --backend ebpf");
		return -1;
	}
	/* strace's options that need the stops (docs/renacer.1) */
	if (t->inject) {
		strbuf_addstr(why, "cannot tamper with calls (-e inject=, -e fault=)");
		return -1;
	}
	if (t->user || t->daemonize || t->detach_on_execve) {
		strbuf_addstr(why, "cannot start the command as -u, -D or -b ask");
		return -1;
	}
	return 0;
}

/*
 * Why the eBPF engine cannot count what t asks for (it keeps per-syscall
 * totals only, in the kernel); 0 when it can.
 */
static int ebpf_count_unsuited(const struct trace_opts *t, const struct renacer_config *cfg,
			       const struct sink_list *sinks, struct strbuf *why)
{
	if (t->anti_patterns) {
		strbuf_addstr(why, "cannot run --anti-patterns from counts: the detectors read every call");
		return -1;
	}
	for (size_t i = 0; t->assert_file && i < cfg->nassertions; i++) {
		const struct config_assertion *c = &cfg->assertions[i];
		if (c->enabled && c->type != ASSERTION_SPAN_COUNT) {
			strbuf_addf(why, "cannot evaluate assertion '%s' (%s) from counts: it reads "
				    "every call; only span_count budgets work from counts", c->name,
				    config_assertion_type_name(c->type));
			return -1;
		}
	}
	if (t->overhead_given) {
		strbuf_addstr(why, "cannot take an overhead off each call (-O) from counts");
		return -1;
	}
	if (t->format_given && t->format == FMT_CSV) {
		strbuf_addstr(why, "cannot write --format csv from counts");
		return -1;
	}
	if (!sink_list_totals_ok(sinks) || !(t->summary || t->assert_file)) {
		strbuf_addstr(why, "counts syscalls and cannot print the trace: "
			      "use it with -c (a table; with --format json or jsonl a JSON summary)");
		return -1;
	}
	return 0;
}

/*
 * Why the eBPF engine cannot record what t asks for (bpf/record.h: every
 * call recorded in the kernel and decoded afterwards); 0 when it can.
 */
static int ebpf_record_unsuited(const struct trace_opts *t, struct strbuf *why)
{
	if (t->seccomp_given) {
		strbuf_addstr(why, "runs no seccomp-bpf filter (--seccomp-bpf is ptrace's)");
		return -1;
	}
	if (t->string_limit >= EBPF_DATA_STRING_MAX) {
		strbuf_addf(why, "cannot record strings of more than %u bytes (-s)",
			    EBPF_DATA_STRING_MAX - 1);
		return -1;
	}
	return 0;
}

int trace_backend_precheck(const struct trace_opts *t)
{
	struct strbuf why = STRBUF_INIT;
	int r = 0;

	if (t->backend == BACKEND_EBPF && ebpf_common_unsuited(t, &why) < 0)
		r = error("--backend ebpf %s", why.buf);
	strbuf_release(&why);
	return r;
}

/* auto counts with eBPF for -c and count-only --assert when no trace is
 * asked for (and records with it otherwise, see trace_run). */
static bool auto_wants_ebpf(const struct trace_opts *t, const struct renacer_config *cfg,
			    const struct sink_list *sinks)
{
	struct strbuf why = STRBUF_INIT;
	bool ok = (t->summary || t->assert_file) && !t->format_given &&
		  ebpf_common_unsuited(t, &why) == 0 &&
		  ebpf_count_unsuited(t, cfg, sinks, &why) == 0;

	strbuf_release(&why);
	return ok;
}

int trace_run(const struct trace_opts *t, const struct tracer_opts *o,
	      const struct renacer_config *cfg, struct sink_list *sinks,
	      struct trace_end *end)
{
	struct strbuf why = STRBUF_INIT;
	struct ebpf_opts eo = { 0 };
	int r;

	if (t->backend == BACKEND_PTRACE)
		return tracer_run(o, t->argv, sinks, end);
	/* auto: counted in the kernel when counts are enough, else every call
	 * recorded in the kernel, unless an option needs the command stopped
	 * (then ptrace, without a word: it is what the options ask for) */
	if (t->backend == BACKEND_AUTO && !auto_wants_ebpf(t, cfg, sinks)) {
		if (!ebpf_record_default() || ebpf_common_unsuited(t, &why) < 0 ||
		    ebpf_record_unsuited(t, &why) < 0) {
			strbuf_release(&why);
			return tracer_run(o, t->argv, sinks, end);
		}
		eo.record = true;
	}
	/* refusals return (-1 with the status in end) rather than exit: the
	 * caller then releases the sinks, which removes their temporary files */
	if (t->backend == BACKEND_EBPF) {
		struct strbuf cwhy = STRBUF_INIT;

		/* counted when the run needs only counts, else every call
		 * recorded */
		if (ebpf_common_unsuited(t, &why) == 0 &&
		    ebpf_count_unsuited(t, cfg, sinks, &cwhy) < 0)
			eo.record = ebpf_record_unsuited(t, &why) == 0;
		strbuf_release(&cwhy);
		if (why.len) {
			error("--backend ebpf %s", why.buf);
			strbuf_release(&why);
			memset(end, 0, sizeof(*end));
			end->exit_code = 1;
			return -1;
		}
	}
	/* wall-clock times: -w, --timing and the JSON summaries show them */
	eo.wall = t->wall || t->timing || t->format_given;
	/* the shortest and longest call: a -S key or a -U column */
	eo.minmax = t->sort == SORT_MIN_TIME || t->sort == SORT_MAX_TIME;
	if (t->columns) {
		uint8_t cols[COL_MAX];
		if (summary_columns_parse(t->columns, cols) == 0)
			for (int i = 0; i < COL_MAX && cols[i] != COL_END; i++)
				if (cols[i] == COL_MIN_TIME || cols[i] == COL_MAX_TIME)
					eo.minmax = true;
	}
	r = ebpf_probe(&why) < 0 ? EBPF_UNAVAILABLE
		: ebpf_run(o, &eo, t->argv, sinks, end, &why);
	if (r != EBPF_UNAVAILABLE) {
		strbuf_release(&why);
		return r;
	}
	if (t->backend == BACKEND_EBPF) {
		error("cannot use --backend ebpf: %s", why.buf);
		strbuf_release(&why);
		memset(end, 0, sizeof(*end));
		end->exit_code = EXIT_NO_BACKEND;
		return -1;
	}
	warning("eBPF back end unavailable (%s): %s with ptrace", why.buf,
		eo.record ? "tracing" : "counting");
	strbuf_release(&why);
	return tracer_run(o, t->argv, sinks, end);
}
