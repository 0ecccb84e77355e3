/*
 * GodProcess: `ap_god god N` starts 4 worker threads, gives worker 0 all
 * N units of work (one 4 KiB write to /dev/null each: calls that move data,
 * so no other detector fires) while the other three wait on a barrier;
 * `ap_god even N` gives each worker N/4.  The main thread joins.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WORKERS 4

static long units[WORKERS];
static pthread_barrier_t done;
static int devnull;
static char block[4096];

static void *worker(void *arg)
{
	long id = (long)arg;
	for (long i = 0; i < units[id]; i++)
		if (write(devnull, block, sizeof(block)) != (ssize_t)sizeof(block))
			break;
	pthread_barrier_wait(&done);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long n = atol(argv[2]);
	int even = !strcmp(argv[1], "even");
	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0)
		return 1;
	for (int i = 0; i < WORKERS; i++)
		units[i] = even ? n / WORKERS : (i == 0 ? n : 0);
	pthread_barrier_init(&done, NULL, WORKERS);
	pthread_t t[WORKERS];
	for (long i = 0; i < WORKERS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 1;
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	return 0;
}
