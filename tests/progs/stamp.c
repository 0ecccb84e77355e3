/*
 * make bench (scripts/bench_startup.sh): prints CLOCK_MONOTONIC in ns when
 * its main() begins, so that a tracer's start-up (its spawn to the
 * command's first own instruction) and end (the command's exit to the
 * tracer's) can be measured from outside, for any tracer and any build.
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}
