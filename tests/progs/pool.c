/*
 * pool THREADS JOBS [WORK]: a worker pool for make bench (and the placement
 * tests): THREADS threads take JOBS jobs from a shared counter under a
 * mutex; each job computes a checksum over a 16 KB buffer WORK times
 * (default 4, about 20 us) and writes 64 bytes of it to /dev/null.  Prints
 * the sum of the checksums, so that the work cannot be optimized away.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long next_job, njobs, work = 4;
static uint64_t total;
static int devnull;

static void *worker(void *arg)
{
	unsigned char buf[16384];
	uint64_t mine = 0;

	memset(buf, (int)(intptr_t)arg, sizeof(buf));
	for (;;) {
		long job;
		uint64_t h = 1469598103934665603ull;

		pthread_mutex_lock(&lock);
		job = next_job++;
		pthread_mutex_unlock(&lock);
		if (job >= njobs)
			break;
		buf[job % sizeof(buf)] ^= (unsigned char)job;
		for (long w = 0; w < work; w++)
			for (size_t i = 0; i < sizeof(buf); i++)
				h = (h ^ buf[i]) * 1099511628211ull;
		if (write(devnull, buf, 64) != 64)
			exit(1);
		mine += h;
	}
	pthread_mutex_lock(&lock);
	total += mine;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	int n;
	pthread_t *t;

	if (argc < 3) {
		fputs("usage: pool THREADS JOBS [WORK]\n", stderr);
		return 2;
	}
	n = atoi(argv[1]);
	njobs = atol(argv[2]);
	if (argc > 3)
		work = atol(argv[3]);
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (n < 1 || devnull < 0)
		return 2;
	t = calloc((size_t)n, sizeof(*t));
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)(i + 1));
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%llu\n", (unsigned long long)total);
	free(t);
	return 0;
}
