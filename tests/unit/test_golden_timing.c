/*
 * Unit tests for the untraced timing runs of a golden (src/golden/timing.c)
 * and the verdict on them (src/golden/timecmp.c): the "untraced" JSON
 * round trip and its malformed forms, the metric chosen per program (CPU
 * time for a CPU-bound one, with a new wait still caught on net time), the
 * machine-speed adjustment from the reference exec, and a slowdown that
 * batches made a pause later do not confirm.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "golden/golden.h"
#include "golden/model.h"
#include "golden/timecmp.h"
#include "golden/timing.h"
#include "util/error.h"

#include "util/banned.h"

static unsigned seed = 11;

static double noise(void)
{
	seed = seed * 1103515245u + 12345u;
	return ((seed >> 8) & 0xffff) / 65536.0;
}

/* n runs of about net us, cpu us of it on a CPU, reference exec ref us. */
static void runs(struct gmeasured *m, unsigned n, double net, double cpu, double ref)
{
	for (unsigned i = 0; i < n; i++) {
		double f = 1 + 0.05 * noise();
		struct gmrun r = { net * f + 50, cpu * f, cpu * f * 0.9, cpu * f * 0.1, net * f, -1,
				   50, 2000, -1, -1,
				   ref * (1 + 0.05 * noise()), ref * 0.9 };
		gmeasured_add(m, &r);
	}
}

static void test_json_round_trip(void **state)
{
	struct gtiming t, back;
	json_error_t je;
	json_t *j;
	char *s;
	(void)state;
	memset(&t, 0, sizeof(t));
	t.runs = 3;
	runs(&t.meas, 7, 1000, 900, 800);
	t.meas.waits = strdup("tree");
	t.meas.no_counters = strdup("no PMU");
	t.meas.callgrind_ir = 123456789;
	t.meas.later[0] = 5;
	s = gtiming_to_json(&t);
	j = json_loads(s, 0, &je);
	assert_non_null(j);
	assert_int_equal(gtiming_from_json(&back, j, "x.json"), 0);
	assert_int_equal(back.meas.runs, 7);
	for (unsigned i = 0; i < 7; i++) {
		assert_true(fabs(back.meas.net_us[i] - t.meas.net_us[i]) < 1e-6);
		assert_true(fabs(back.meas.ref_net_us[i] - t.meas.ref_net_us[i]) < 1e-6);
	}
	assert_string_equal(back.meas.waits, "tree");
	assert_non_null(back.meas.user_us);
	assert_true(fabs(back.meas.user_us[3] - t.meas.user_us[3]) < 1e-6);
	assert_string_equal(back.meas.no_counters, "no PMU");
	assert_null(back.meas.instructions);
	assert_true(back.meas.callgrind_ir == 123456789);
	assert_int_equal(back.meas.later[0], 5);
	gtiming_release(&back);
	json_decref(j);
	free(s);
	gtiming_release(&t);
}

/* An array of the wrong length, a string for a number, a bad "later": refused. */
static void test_json_malformed(void **state)
{
	static const char *const bad[] = {
		"{\"untraced\": {\"runs\": 2, \"wall_us\": [1], \"cpu_us\": [1, 2], \"net_us\": [1, 2],"
		" \"wait_us\": [0, 0], \"maxrss_kb\": [1, 1]}}",
		"{\"untraced\": {\"runs\": 1, \"wall_us\": [\"1\"], \"cpu_us\": [1], \"net_us\": [1],"
		" \"wait_us\": [0], \"maxrss_kb\": [1]}}",
		"{\"untraced\": {\"runs\": 2, \"wall_us\": [1, 2], \"cpu_us\": [1, 2], \"net_us\": [1, 2],"
		" \"wait_us\": [0, 0], \"maxrss_kb\": [1, 1], \"later\": [2]}}",
		"{\"untraced\": {\"runs\": -1}}",
		"{\"untraced\": []}",
	};
	(void)state;
	error_set_hook(NULL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_error_t je;
		json_t *j = json_loads(bad[i], 0, &je);
		struct gtiming t;
		assert_non_null(j);
		assert_int_equal(gtiming_from_json(&t, j, "x.json"), -1);
		json_decref(j);
	}
}

static struct golden_opts opts;

static void test_metric(void **state)
{
	struct gmeasured g, c;
	struct gtime_verdict v;
	(void)state;
	/* CPU-bound: CPU time decides */
	memset(&g, 0, sizeof(g));
	memset(&c, 0, sizeof(c));
	runs(&g, 10, 1000, 950, 800);
	runs(&c, 5, 2000, 1900, 800);
	gtime_judge(&g, &c, &opts, &v);
	assert_true(v.cpu_bound);
	assert_int_equal(v.v, MV_SLOWER);
	assert_string_equal(v.metric, "cpu");
	gmeasured_release(&c);
	/* the same CPU time, twice the net time: a new wait, caught */
	runs(&c, 5, 2000, 950, 800);
	gtime_judge(&g, &c, &opts, &v);
	assert_int_equal(v.v, MV_SLOWER);
	assert_string_equal(v.metric, "net");
	gmeasured_release(&c);
	/* unchanged */
	runs(&c, 5, 1000, 950, 800);
	gtime_judge(&g, &c, &opts, &v);
	assert_int_equal(v.v, MV_SAME);
	gmeasured_release(&c);
	gmeasured_release(&g);
	/* a waiting program: net time decides, CPU time is not tested */
	runs(&g, 10, 1000, 300, 800);
	runs(&c, 5, 2000, 300, 800);
	gtime_judge(&g, &c, &opts, &v);
	assert_false(v.cpu_bound);
	assert_int_equal(v.v, MV_SLOWER);
	assert_string_equal(v.metric, "net");
	gmeasured_release(&c);
	gmeasured_release(&g);
}

/* Starting a program costs 0.7 ms more now: a 1.5 ms program's 2.2 ms is not a slowdown. */
static void test_reference(void **state)
{
	struct gmeasured g, c;
	struct gtime_verdict v;
	(void)state;
	memset(&g, 0, sizeof(g));
	memset(&c, 0, sizeof(c));
	runs(&g, 10, 1500, 1400, 800);
	runs(&c, 5, 2200, 2100, 1500);
	gtime_judge(&g, &c, &opts, &v);
	assert_true(v.adjusted);
	assert_int_equal(v.v, MV_SAME);
	gmeasured_release(&c);
	/* and twice as long besides: caught */
	runs(&c, 5, 3700, 3500, 1500);
	gtime_judge(&g, &c, &opts, &v);
	assert_int_equal(v.v, MV_SLOWER);
	gmeasured_release(&c);
	gmeasured_release(&g);
}

/* Slower in the first runs, the same in a batch made a pause later: inconclusive. */
static void test_later_batch(void **state)
{
	struct gmeasured g, c;
	struct gtime_verdict v;
	(void)state;
	memset(&g, 0, sizeof(g));
	memset(&c, 0, sizeof(c));
	runs(&g, 10, 1000, 300, 800);
	runs(&c, 10, 2000, 300, 800);
	c.later[0] = c.runs;
	runs(&c, 5, 1000, 300, 800);
	gtime_judge(&g, &c, &opts, &v);
	assert_int_equal(v.v, MV_INCONCLUSIVE);
	assert_true(v.unconfirmed);
	gmeasured_release(&c);
	/* confirmed by both later batches */
	runs(&c, 10, 2000, 300, 800);
	c.later[0] = c.runs;
	runs(&c, 5, 2000, 300, 800);
	c.later[1] = c.runs;
	runs(&c, 5, 2000, 300, 800);
	gtime_judge(&g, &c, &opts, &v);
	assert_int_equal(v.v, MV_SLOWER);
	gmeasured_release(&c);
	gmeasured_release(&g);
}

/* A tree: slower with the most held-up task of each process taken out, the
 * same with every task's waits taken out: the overlap may explain it. */
static void test_tree_bounds(void **state)
{
	struct gmeasured g, c;
	struct gtime_verdict v;
	(void)state;
	memset(&g, 0, sizeof(g));
	memset(&c, 0, sizeof(c));
	for (unsigned i = 0; i < 10; i++) {
		struct gmrun r = { 3000, 900, 800, 100, 1000 + i, 1000 + i, 2000, 2000, -1, -1,
				   800, 700 };
		gmeasured_add(&g, &r);
	}
	for (unsigned i = 0; i < 5; i++) {
		struct gmrun r = { 9000, 900, 800, 100, 3000 + i, 1000 + i, 6000, 2000, -1, -1,
				   800, 700 };
		gmeasured_add(&c, &r);
	}
	assert_non_null(c.net_low_us);
	assert_null(g.net_low_us);     /* the same as net_us: not kept */
	gtime_judge(&g, &c, &opts, &v);
	assert_int_equal(v.v, MV_INCONCLUSIVE);
	assert_true(v.tree_doubt);
	gmeasured_release(&c);
	/* slower by both bounds: slower */
	for (unsigned i = 0; i < 5; i++) {
		struct gmrun r = { 9000, 900, 800, 100, 3000 + i, 2900 + i, 6000, 2000, -1, -1,
				   800, 700 };
		gmeasured_add(&c, &r);
	}
	gtime_judge(&g, &c, &opts, &v);
	assert_int_equal(v.v, MV_SLOWER);
	gmeasured_release(&c);
	gmeasured_release(&g);
}

/* n runs of about net us (300 us of CPU) of tasks tasks that waited wait us for a CPU. */
static void runs_waiting(struct gmeasured *m, unsigned n, double net, double wait,
			 unsigned tasks)
{
	for (unsigned i = 0; i < n; i++) {
		double f = 1 + 0.05 * noise();
		struct gmrun r = { net * f + wait, 300, 270, 30, net * f, -1, wait, 2000, -1, -1,
				   800 * (1 + 0.05 * noise()), 720, tasks };
		gmeasured_add(m, &r);
	}
}

/*
 * A loaded machine: runs of a process tree that waited 9 ms for a CPU
 * each, a net time 1.8x the golden's 1 ms: the 0.8 ms cannot be told from
 * the error of the 9 ms taken out (inconclusive, said why); the same
 * slowdown with 50 us of waits, or 3 ms more with the 9 ms, is caught; so
 * is a single task's, whose waits the kernel measures exactly (a golden
 * that does not know its tasks: the current runs' count).
 */
static void test_wait_doubt(void **state)
{
	/* golden net, current net, waits (both), tasks (golden, current) */
	static const struct {
		double gnet, cnet, wait;
		unsigned gtasks, ctasks;
		int v;
	} cs[] = {
		{ 1000, 1800, 9000, 2, 2, MV_INCONCLUSIVE },   /* a tree */
		{ 1000, 4000, 9000, 2, 2, MV_SLOWER },         /* 3 ms more */
		{ 1000, 1800, 9000, 1, 1, MV_SLOWER },         /* one task */
		{ 1000, 1800, 9000, 0, 1, MV_SLOWER },         /* golden without tasks */
		{ 1000, 1800, 9000, 0, 3, MV_INCONCLUSIVE },
		{ 1000, 1800, 50, 2, 2, MV_SLOWER },           /* a quiet machine */
	};
	(void)state;
	for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); k++) {
		struct gmeasured g, c;
		struct gtime_verdict v;
		memset(&g, 0, sizeof(g));
		memset(&c, 0, sizeof(c));
		runs_waiting(&g, 10, cs[k].gnet, cs[k].wait, cs[k].gtasks);
		runs_waiting(&c, 10, cs[k].cnet, cs[k].wait, cs[k].ctasks);
		gtime_judge(&g, &c, &opts, &v);
		assert_int_equal(v.v, cs[k].v);
		assert_int_equal(v.wait_doubt, cs[k].v == MV_INCONCLUSIVE);
		if (v.wait_doubt)
			assert_true(v.wait_us > 8000);
		gmeasured_release(&c);
		gmeasured_release(&g);
	}
}

/* The first finding of subject sub in r, or NULL. */
static const struct gfinding *finding(const struct gresult *r, const char *sub)
{
	for (size_t i = 0; i < r->nf; i++)
		if (r->f[i].subject && !strcmp(r->f[i].subject, sub))
			return &r->f[i];
	return NULL;
}

/*
 * callgrind automatic: counted because the time was inconclusive, the
 * instructions decide it with the timing test's minimum effect (+40%): twice
 * the instructions is a CPU-bound regression, +10% a note; the same counts
 * made with callgrind on are compared with its 1% tolerance.
 */
static void test_callgrind_arbiter(void **state)
{
	struct gmodel *g = gmodel_new(&opts), *c = gmodel_new(&opts);
	struct gresult r;
	const struct gfinding *f;
	(void)state;

	runs(&g->timing.meas, 10, 1000, 300, 800);
	runs(&c->timing.meas, 10, 2000, 300, 800);     /* slower, then not: inconclusive */
	c->timing.meas.later[0] = c->timing.meas.runs;
	runs(&c->timing.meas, 5, 1000, 300, 800);
	g->timing.meas.callgrind_ir = 1000000;
	g->timing.meas.callgrind_auto = true;
	for (int k = 0; k < 3; k++) {
		c->timing.meas.callgrind_ir = k == 0 ? 2000000 : 1100000;
		c->timing.meas.callgrind_auto = k < 2;
		g->timing.meas.callgrind_auto = k < 2;
		memset(&r, 0, sizeof(r));
		gtiming_check(&r, g, c, &opts, NULL);
		assert_int_equal(r.time_verdict, MV_INCONCLUSIVE);
		f = finding(&r, k == 1 ? "timing" : "instructions");
		if (k == 1)
			while (f && !strstr(f->message, "instructions under callgrind"))
				f = NULL;
		assert_non_null(f);
		assert_non_null(strstr(f->message, "instructions under callgrind"));
		assert_int_equal(f->regression, k != 1);
		if (k == 0)
			assert_non_null(strstr(f->message, "a CPU-bound slowdown"));
		if (k == 2)
			assert_non_null(strstr(f->message, "tolerance"));
		gresult_release(&r);
	}
	gmodel_free(g);
	gmodel_free(c);
}

/* Whether r has a regression. */
static bool any_regression(const struct gresult *r)
{
	for (size_t i = 0; i < r->nf; i++)
		if (r->f[i].regression)
			return true;
	return false;
}

/*
 * CPU time 1.5x the golden's over the same instructions under callgrind
 * (+0.5%): the machine was slower, inconclusive and said why; the same
 * time with 30% more instructions, a 2.5x slowdown, or a net time that
 * grew far beyond the CPU time (a new wait) stay regressions.
 */
static void test_same_work(void **state)
{
	static const struct { double net, cpu, ir; bool slower; } cs[] = {
		{ 3000, 2850, 1005000, false },
		{ 3000, 2850, 1300000, true },
		{ 5000, 4750, 1005000, true },
		{ 6000, 2850, 1005000, true },
	};
	(void)state;
	for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); k++) {
		struct gmodel *g = gmodel_new(&opts), *c = gmodel_new(&opts);
		struct gresult r;
		const struct gfinding *f;
		runs(&g->timing.meas, 10, 2000, 1900, 800);
		runs(&c->timing.meas, 10, cs[k].net, cs[k].cpu, 800);
		g->timing.meas.callgrind_ir = 1000000;
		g->timing.meas.callgrind_auto = c->timing.meas.callgrind_auto = true;
		c->timing.meas.callgrind_ir = cs[k].ir;
		memset(&r, 0, sizeof(r));
		gtiming_check(&r, g, c, &opts, NULL);
		assert_int_equal(r.time_verdict, cs[k].slower ? MV_SLOWER : MV_INCONCLUSIVE);
		assert_int_equal(any_regression(&r), cs[k].slower);
		if (!cs[k].slower) {
			assert_non_null(f = finding(&r, "inconclusive"));
			assert_non_null(strstr(f->message, "the same work slower"));
			assert_non_null(strstr(f->message, "+0.5%"));
		}
		gresult_release(&r);
		gmodel_free(g);
		gmodel_free(c);
	}
}

/*
 * A one-task command under 10 ms with an automatic count is counted in
 * every validation (not a tree, not a longer one, not one counted on
 * request); its time the same, twice the instructions is a regression
 * that says why it was counted.
 */
static void test_count_every(void **state)
{
	struct gmodel *g = gmodel_new(&opts), *c = gmodel_new(&opts);
	struct gresult r;
	const struct gfinding *f;
	(void)state;
	runs(&g->timing.meas, 10, 1000, 950, 800);
	runs(&c->timing.meas, 10, 1000, 950, 800);
	g->timing.meas.callgrind_ir = 1000000;
	g->timing.meas.callgrind_auto = c->timing.meas.callgrind_auto = true;
	g->timing.meas.tasks = c->timing.meas.tasks = 1;
	assert_true(gtime_count_every(&g->timing.meas, &c->timing.meas));
	c->timing.meas.tasks = 3;
	assert_false(gtime_count_every(&g->timing.meas, &c->timing.meas));
	c->timing.meas.tasks = 1;
	g->timing.meas.callgrind_auto = false;
	assert_false(gtime_count_every(&g->timing.meas, &c->timing.meas));
	g->timing.meas.callgrind_auto = true;
	c->timing.meas.callgrind_ir = 1960000;
	memset(&r, 0, sizeof(r));
	gtiming_check(&r, g, c, &opts, NULL);
	assert_int_equal(r.time_verdict, MV_SAME);
	assert_non_null(f = finding(&r, "instructions"));
	assert_true(f->regression);
	assert_non_null(strstr(f->message, "is counted every time"));
	gresult_release(&r);
	c->timing.meas.callgrind_ir = 1100000;     /* +10%: nothing to say */
	memset(&r, 0, sizeof(r));
	gtiming_check(&r, g, c, &opts, NULL);
	assert_int_equal(r.nf, 0);
	gresult_release(&r);
	gmodel_free(c);
	c = gmodel_new(&opts);
	runs(&c->timing.meas, 10, 1000, 950, 800);
	gmodel_free(g);
	g = gmodel_new(&opts);
	runs(&g->timing.meas, 10, 20000, 19000, 800);    /* 20 ms: not every time */
	g->timing.meas.callgrind_ir = 1000000;
	g->timing.meas.callgrind_auto = true;
	g->timing.meas.tasks = c->timing.meas.tasks = 1;
	assert_false(gtime_count_every(&g->timing.meas, &c->timing.meas));
	gmodel_free(g);
	gmodel_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_malformed),
		cmocka_unit_test(test_metric),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_later_batch),
		cmocka_unit_test(test_tree_bounds),
		cmocka_unit_test(test_callgrind_arbiter),
		cmocka_unit_test(test_same_work),
		cmocka_unit_test(test_count_every),
		cmocka_unit_test(test_wait_doubt),
	};
	golden_opts_init(&opts);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
