/*
 * A program for the golden-trace tests: a fixed, deterministic mix of file
 * I/O, a compute phase and (optionally) threads, with switches that plant
 * the changes validate must catch:
 *   golden_prog DIR [--extra-open] [--no-fsync] [--fork] [--double]
 *                   [--slow] [--threads N] [--mkstemp] [--random]
 * The switches can also come from the environment, GP_PLANT="--fork --slow"
 * (so that the traced command line, part of the trace, stays the same).
 * It reads DIR/input.txt, writes DIR/output.txt (10 writes, 20 with
 * --double), fsyncs it (not with --no-fsync), opens input.txt once more
 * with --extra-open, forks a child that writes a line with --fork, and
 * burns a fixed amount of CPU (three times as much with --slow).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static void burn(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + i;
	sink = x;
}

static void *worker(void *arg)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/input.txt", (const char *)arg);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		char buf[16];
		if (read(fd, buf, sizeof(buf)) < 0)
			perror("read");
		close(fd);
	}
	burn(2000000);
	return NULL;
}

int main(int argc, char **argv)
{
	int extra = 0, nofsync = 0, dofork = 0, dbl = 0, slow = 0, nthreads = 0;
	int tmp = 0, rnd = 0;
	char path[4096], buf[64];
	const char *dir;
	ssize_t n;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: golden_prog DIR [switches]\n");
		return 2;
	}
	dir = argv[1];
	if (getenv("GP_PLANT")) {
		/* the switches from the environment come first */
		static char *words[32];
		char *env = strdup(getenv("GP_PLANT")), *save = NULL, **nargv;
		int nw = 0;
		for (char *w = strtok_r(env, " ", &save); w && nw < 32; w = strtok_r(NULL, " ", &save))
			words[nw++] = w;
		nargv = calloc((size_t)(argc + nw + 1), sizeof(*nargv));
		nargv[0] = argv[0];
		nargv[1] = argv[1];
		memcpy(nargv + 2, words, (size_t)nw * sizeof(*nargv));
		memcpy(nargv + 2 + nw, argv + 2, (size_t)(argc - 2) * sizeof(*nargv));
		argc += nw;
		argv = nargv;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--extra-open")) extra = 1;
		else if (!strcmp(argv[i], "--no-fsync")) nofsync = 1;
		else if (!strcmp(argv[i], "--fork")) dofork = 1;
		else if (!strcmp(argv[i], "--double")) dbl = 1;
		else if (!strcmp(argv[i], "--slow")) slow = 1;
		else if (!strcmp(argv[i], "--mkstemp")) tmp = 1;
		else if (!strcmp(argv[i], "--random")) rnd = 1;
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc) nthreads = atoi(argv[++i]);
		else {
			fprintf(stderr, "golden_prog: unknown switch %s\n", argv[i]);
			return 2;
		}
	}

	snprintf(path, sizeof(path), "%s/input.txt", dir);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		close(fd);
	}
	if (extra) {
		fd = open(path, O_RDONLY);
		if (fd >= 0)
			close(fd);
	}

	snprintf(path, sizeof(path), "%s/output.txt", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	for (int i = 0; i < (dbl ? 20 : 10); i++) {
		int len = snprintf(buf, sizeof(buf), "line %d\n", i);
		if (write(fd, buf, (size_t)len) != len)
			return 1;
	}
	if (!nofsync)
		fsync(fd);
	close(fd);

	if (tmp) {
		/* a random name each run: masked by normalization */
		char t[4096];
		snprintf(t, sizeof(t), "%s/scratchXXXXXX", dir);
		fd = mkstemp(t);
		if (fd >= 0) {
			if (write(fd, "x", 1) != 1)
				return 1;
			close(fd);
			unlink(t);
		}
	}
	if (rnd) {
		unsigned char r[16];
		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return 1;
	}

	if (dofork) {
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0) {
			if (write(1, "child\n", 6) != 6)
				_exit(1);
			_exit(0);
		}
		int st;
		if (waitpid(pid, &st, 0) < 0)
			return 1;
	}

	if (nthreads > 0) {
		pthread_t th[64];
		if (nthreads > 64)
			nthreads = 64;
		for (int i = 0; i < nthreads; i++)
			if (pthread_create(&th[i], NULL, worker, (void *)dir))
				return 1;
		for (int i = 0; i < nthreads; i++)
			pthread_join(th[i], NULL);
	}

	burn(slow ? 135000000ul : 45000000ul);
	printf("done\n");
	return 0;
}
