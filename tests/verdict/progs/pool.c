/*
 * A small multi-threaded program of about 1-2 ms, for scripts/verdict.sh:
 * THREADS workers each open pool.in and pool.idx in its working directory,
 * read their slice of pool.in (pread), checksum it a few rounds and hand
 * the sum back; the main thread prints one line per worker.
 *
 * Planted changes (tests/verdict/manifest.toml), each behind a -D macro:
 *   THREADS=n        n workers instead of 4
 *   WORK=n           n times the arithmetic in every worker
 *   WORKER_CONF      every worker also reads pool.conf
 * harmless ones, which must pass:
 *   WORKER_REORDER   every worker opens pool.idx before pool.in
 *   MSG              other wording of the printed lines
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef THREADS
#define THREADS 4
#endif
#ifndef WORK
#define WORK 1
#endif
#define ROUNDS 16

struct job {
	int id;
	unsigned long sum;
};

static int open_ro(const char *name)
{
	return open(name, O_RDONLY | O_CLOEXEC);
}

static void *worker(void *arg)
{
	struct job *j = arg;
	unsigned char buf[16384];
	char idx[64];
	int fin, fidx;
	ssize_t n;

#ifdef WORKER_REORDER
	fidx = open_ro("pool.idx");
	fin = open_ro("pool.in");
#else
	fin = open_ro("pool.in");
	fidx = open_ro("pool.idx");
#endif
	if (fin < 0 || fidx < 0)
		return NULL;
#ifdef WORKER_CONF
	{
		int fc = open_ro("pool.conf");
		char conf[256];

		if (fc >= 0) {
			while (read(fc, conf, sizeof(conf)) > 0)
				;
			close(fc);
		}
	}
#endif
	if (read(fidx, idx, sizeof(idx)) < 0)
		idx[0] = 0;
	n = pread(fin, buf, sizeof(buf), (off_t)j->id * (off_t)sizeof(buf));
	close(fidx);
	close(fin);
	if (n <= 0)
		return NULL;
	unsigned long s = (unsigned char)idx[0];
	for (int r = 0; r < ROUNDS * WORK; r++)
		for (ssize_t i = 0; i < n; i++)
			s = s * 31 + buf[i] + (unsigned long)r;
	j->sum = s;
	return NULL;
}

int main(void)
{
	pthread_t th[THREADS];
	struct job jobs[THREADS];

	for (int t = 0; t < THREADS; t++) {
		jobs[t].id = t;
		jobs[t].sum = 0;
		if (pthread_create(&th[t], NULL, worker, &jobs[t]) != 0) {
			perror("pool: pthread_create");
			return 1;
		}
	}
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	for (int t = 0; t < THREADS; t++)
#ifdef MSG
		printf("worker #%d finished with checksum %016lx\n", t, jobs[t].sum);
#else
		printf("slice %d: %016lx\n", t, jobs[t].sum);
#endif
	return 0;
}
