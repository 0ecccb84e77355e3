/* Golden comparison options (see golden.h). */
#include "golden/golden.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/relimit.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

void golden_opts_init(struct golden_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->count_tolerance = 0.05;
	o->bytes_tolerance = -1;
	o->memory_tolerance = 0.05;
	o->min_confidence = 0.90;
	o->check_timing = true;
	o->time_tolerance = 0.5;
	o->time_floor_ms = 20;
	o->noise_k = 3;
	o->context_lines = 3;
	o->max_diff_lines = 200;
	o->min_slowdown = 0.4;
	o->min_slowdown_us = 50;
	o->timing_alpha = 0.01;
	o->timing_max_runs = 20;
	o->callgrind = -1;
	o->callgrind_tolerance = 0.01;
}

int golden_opts_add_rule(struct golden_opts *o, const char *pattern, const char *replace)
{
	struct golden_rule r;
	char msg[256];
	int rc = re_compile_bounded(&r.re, pattern, REG_EXTENDED, o->regex_cost, msg, sizeof(msg));

	if (rc)
		return error("bad normalize pattern '%s': %s", esc(pattern), msg);
	r.pattern = xstrdup(pattern);
	r.replace = xstrdup(replace ? replace : "");
	o->rules = xreallocarray(o->rules, o->nrules + 1, sizeof(*o->rules));
	o->rules[o->nrules++] = r;
	return 0;
}

void golden_opts_set_tol(struct golden_opts *o, const char *syscall, double tol)
{
	for (size_t i = 0; i < o->ntols; i++)
		if (!strcmp(o->tols[i].syscall, syscall)) {
			o->tols[i].tol = tol;
			return;
		}
	o->tols = xreallocarray(o->tols, o->ntols + 1, sizeof(*o->tols));
	o->tols[o->ntols].syscall = xstrdup(syscall);
	o->tols[o->ntols++].tol = tol;
}

double golden_opts_tol(const struct golden_opts *o, const char *syscall, bool *overridden)
{
	for (size_t i = 0; i < o->ntols; i++)
		if (!strcmp(o->tols[i].syscall, syscall)) {
			if (overridden)
				*overridden = true;
			return o->tols[i].tol;
		}
	if (overridden)
		*overridden = false;
	return o->count_tolerance;
}

static void free_list(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

void golden_opts_release(struct golden_opts *o)
{
	for (size_t i = 0; i < o->nrules; i++) {
		regfree(&o->rules[i].re);
		free(o->rules[i].pattern);
		free(o->rules[i].replace);
	}
	free(o->rules);
	for (size_t i = 0; i < o->ntols; i++)
		free(o->tols[i].syscall);
	free(o->tols);
	free_list(o->ignore_syscalls, o->nignore_syscalls);
	free_list(o->ignore_paths, o->nignore_paths);
	free_list(o->volatile_syscalls, o->nvolatile);
	free_list(o->time_limits, o->ntime_limits);
	golden_opts_init(o);
}
