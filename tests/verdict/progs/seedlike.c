/*
 * A program of the kind the seeds trace (trueno's examples: about 1 ms of
 * arithmetic, a line of results per step): reads matrix.in from its working
 * directory, multiplies 64x64 matrices for 8 steps, prints a line per step
 * on standard output and writes result.txt.  Run by scripts/verdict.sh.
 *
 * Each planted change of tests/verdict/manifest.toml is the patch a
 * developer would write, kept here behind a -D macro so that the unchanged
 * program and every variant come from one source:
 *   WORK=n           n times the arithmetic, the same syscalls
 *   SLEEP_ONCE       one 1 ms sleep before the work
 *   SLEEP_EACH       a 200 us sleep at every step
 *   ALLOC_TOUCHED    a 64 MiB buffer allocated and written
 *   ALLOC_UNTOUCHED  a 64 MiB buffer allocated, never written
 *   LEAK             1 MiB allocated, written and never freed at every step
 *   CONFIG           reads seedlike.conf before the work
 *   FAIL             removes a stale result.txt.old that is not there
 *   FORK             runs /bin/true as a helper at the end
 *   RENAME_OUT       writes results.txt instead of result.txt
 *   REREAD           reads matrix.in again at every step
 *   FSYNC            fsyncs result.txt before closing it
 *   BUFSIZE          result.txt written through a 16-byte stdio buffer
 * and the harmless ones, which must pass:
 *   REORDER          opens result.txt before matrix.in
 *   MSG              other wording of the printed lines
 *   SYMS             every function renamed
 * (-O levels come from the manifest's cflags).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WORK
#define WORK 1
#endif
#define N 64
#define STEPS 8

#ifdef SYMS
#define load_input read_matrix_seed
#define multiply matmul_kernel
#define trace_of diagonal_sum
#endif

#ifdef RENAME_OUT
#define OUT_NAME "results.txt"
#else
#define OUT_NAME "result.txt"
#endif

static double a[N][N], b[N][N], c[N][N];
static void *volatile keep; /* allocations the compiler must not drop */

/* Fills a and b from the bytes of matrix.in; 0 on success. */
static int load_input(FILE *in)
{
	unsigned char buf[512];
	size_t n;

	rewind(in);
	n = fread(buf, 1, sizeof(buf), in);
	if (n == 0)
		return -1;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = buf[(size_t)(i * N + j) % n] / 255.0;
			b[i][j] = buf[(size_t)(j * N + i + 7) % n] / 255.0;
		}
	return 0;
}

/* c += a * b, with b nudged so that no two rounds are the same. */
static void multiply(int round)
{
	for (int i = 0; i < N; i++)
		for (int k = 0; k < N; k++) {
			double x = a[i][k];
			for (int j = 0; j < N; j++)
				c[i][j] += x * b[k][j];
		}
	b[round % N][round % N] += 1e-9;
}

static double trace_of(void)
{
	double t = 0;

	for (int i = 0; i < N; i++)
		t += c[i][i];
	return t;
}

int main(void)
{
	FILE *in, *out;

#ifdef CONFIG
	{
		FILE *cf = fopen("seedlike.conf", "r");
		char line[256];

		if (cf) {
			while (fgets(line, sizeof(line), cf))
				;
			fclose(cf);
		}
	}
#endif
#ifdef REORDER
	out = fopen(OUT_NAME, "w");
	in = fopen("matrix.in", "rb");
#else
	in = fopen("matrix.in", "rb");
	out = fopen(OUT_NAME, "w");
#endif
	if (!in || !out) {
		perror("seedlike: matrix.in or " OUT_NAME);
		return 1;
	}
#ifdef BUFSIZE
	static char obuf[16];

	setvbuf(out, obuf, _IOFBF, sizeof(obuf));
#endif
#ifdef ALLOC_TOUCHED
	keep = malloc(64 << 20);
	if (keep)
		memset(keep, 1, 64 << 20);
#endif
#ifdef ALLOC_UNTOUCHED
	keep = malloc(64 << 20);
#endif
#ifdef FAIL
	unlink(OUT_NAME ".old");
#endif
#ifdef SLEEP_ONCE
	usleep(1000);
#endif
	if (load_input(in) != 0) {
		fprintf(stderr, "seedlike: matrix.in is empty\n");
		return 1;
	}
	for (int step = 0; step < STEPS; step++) {
#ifdef REREAD
		if (load_input(in) != 0)
			return 1;
		fclose(in);
		in = fopen("matrix.in", "rb");
		if (!in)
			return 1;
#endif
		for (int w = 0; w < WORK; w++)
			multiply(step * WORK + w);
#ifdef SLEEP_EACH
		usleep(200);
#endif
#ifdef LEAK
		{
			char *p = malloc(1 << 20);

			if (p)
				memset(p, step, 1 << 20);
			keep = p;
		}
#endif
		double t = trace_of() / WORK;
#ifdef MSG
		printf("iteration %d of %d, trace = %.6e\n", step + 1, STEPS, t);
#else
		printf("step %d: trace %.6e\n", step, t);
#endif
		fflush(stdout);
		fprintf(out, "%d %.9e\n", step, t);
	}
	fclose(in);
#ifdef FSYNC
	fflush(out);
	fsync(fileno(out));
#endif
	fclose(out);
#ifdef FORK
	{
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, &st, 0);
	}
#endif
	return 0;
}
