/*
 * For memory_usage tests: `assert_mem THREADS LEAK_MB [touch]` starts
 * THREADS threads that each malloc and free a little (so glibc gives each
 * its own arena: a 64 MB PROT_NONE reservation, of which it makes only
 * what it uses writable), joins them, then leaks LEAK_MB MiB with one
 * malloc, writing every page when "touch" is given (so it becomes
 * resident) and leaving it untouched otherwise.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_barrier_t all_in;
static char *volatile held[256];     /* (so the compiler keeps the mallocs) */

static void *worker(void *arg)
{
	long i = (long)arg;
	held[i % 256] = malloc(1000);
	if (held[i % 256])
		memset(held[i % 256], 1, 1000);
	/* every thread holds its block at once: each needs an arena */
	pthread_barrier_wait(&all_in);
	free(held[i % 256]);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	size_t leak = argc > 2 ? (size_t)atol(argv[2]) << 20 : 0;
	int touch = argc > 3 && !strcmp(argv[3], "touch");
	pthread_t *t = calloc(n > 0 ? (size_t)n : 1, sizeof(*t));

	if (!t || pthread_barrier_init(&all_in, NULL, (unsigned)n + 1))
		return 1;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(long)i))
			return 1;
	pthread_barrier_wait(&all_in);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (leak) {
		char *p = held[0] = malloc(leak);
		if (!p)
			return 1;
		for (size_t i = 0; touch && i < leak; i += 4096)
			((volatile char *)p)[i] = 1;
	}
	return 0;
}
