/*
 * A program of known cost for the timing tests (tests/t/golden_timing.sh,
 * scripts/timing_trials.sh):
 *   timework cpu [US]    about US microseconds (default 1000) of computing
 *   timework wait [US]   US microseconds of sleeping, in 4 sleeps
 *   timework mix [US]    half of each
 * The work factor comes from the environment, so that the command line
 * stays the same: TIMEWORK=2 does twice the work (TIMEWORK=1.5 too).
 * The computing loop's length is fixed (ITERS_PER_US iterations a
 * microsecond of this project's machines), not calibrated at run time, so
 * that its cost is the same in every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITERS_PER_US 480

static volatile unsigned long sink;

static void compute(double us)
{
	unsigned long n = (unsigned long)(us * ITERS_PER_US), x = 88172645463325252UL;
	for (unsigned long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
}

static void wait_us(double us)
{
	for (int i = 0; i < 4; i++) {
		long ns = (long)(us * 1000 / 4);
		struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
		nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	const char *f = getenv("TIMEWORK");
	double factor = f && *f ? strtod(f, NULL) : 1.0;
	double us = argc > 2 ? strtod(argv[2], NULL) : 1000;

	if (argc < 2) {
		fprintf(stderr, "usage: timework cpu|wait|mix [US]\n");
		return 2;
	}
	us *= factor;
	if (!strcmp(argv[1], "cpu"))
		compute(us);
	else if (!strcmp(argv[1], "wait"))
		wait_us(us);
	else if (!strcmp(argv[1], "mix")) {
		compute(us / 2);
		wait_us(us / 2);
	} else {
		fprintf(stderr, "timework: unknown kind '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
