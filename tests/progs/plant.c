/*
 * A small program for planting regressions (tests/t/golden_plants.sh):
 *   plant DIR [--threads N] [--sleep MS] [--alloc MB] [--fifo]
 * reads DIR/in.txt, writes DIR/out.txt (8 writes of 512 bytes) and fsyncs
 * it; with --threads N a pool of N workers each maps and unmaps a buffer,
 * reads DIR/in.txt and writes DIR/out-I.txt; --sleep MS sleeps MS ms;
 * --alloc MB allocates and touches MB MiB; --fifo waits, before the fsync,
 * for a helper process to answer through the FIFO DIR/sync.fifo.
 *
 * The plants come from the environment, so the command line stays the same:
 * PLANT="sleep3 slow-fsync fifo-slow more-mmap big-writes fork alloc4"
 *   sleep3      the --sleep is three times longer
 *   slow-fsync  a 300 ms sleep right before the fsync
 *   fifo-slow   the --fifo helper answers after 300 ms instead of at once
 *   more-mmap   8 more mmap/munmap pairs (2 per worker with 4 workers)
 *   big-writes  every write is 8 times larger
 *   fork        a child process that writes a line, made while the
 *               workers run
 *   alloc4      --alloc allocates four times as much
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dir;
static int more_mmap, big;

static int planted(const char *what)
{
	const char *p = getenv("PLANT");
	size_t n = strlen(what);

	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, what, n) && (p[n] == ' ' || !p[n]))
			return 1;
		p = strchr(p, ' ');
	}
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void write_file(const char *name, int n)
{
	char path[4096], buf[4096];
	size_t len = big ? 4096 : 512;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < n; i++)
		if (write(fd, buf, len) != (ssize_t)len)
			exit(1);
	close(fd);
}

static void read_input(void)
{
	char path[4096], buf[256];
	int fd;

	snprintf(path, sizeof(path), "%s/in.txt", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static void map_unmap(void)
{
	void *p = mmap(NULL, 256 << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		exit(1);
	memset(p, 1, 4096);
	munmap(p, 256 << 10);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	char name[64];

	map_unmap();
	for (int i = 0; i < 2 * more_mmap; i++)
		map_unmap();
	read_input();
	snprintf(name, sizeof(name), "out-%ld.txt", id);
	write_file(name, 4);
	return NULL;
}

static void child_line(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		exit(1);
	if (pid == 0) {
		if (write(1, "child\n", 6) != 6)
			_exit(1);
		_exit(0);
	}
	waitpid(pid, &st, 0);
}

/* Waits for a helper process to answer through DIR/sync.fifo. */
static void fifo_sync(long delay_ms)
{
	char path[4096], c;
	pid_t pid;
	int fd, st;

	snprintf(path, sizeof(path), "%s/sync.fifo", dir);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	pid = fork();
	if (pid < 0)
		exit(1);
	if (pid == 0) {
		sleep_ms(delay_ms);
		if (write(fd, "s", 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(fd, &c, 1) != 1)
		exit(1);
	waitpid(pid, &st, 0);
	close(fd);
}

int main(int argc, char **argv)
{
	long nthreads = 0, sleep = 0, alloc = 0;
	int fifo = 0;
	pthread_t th[64];
	char path[4096];
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: plant DIR [--threads N] [--sleep MS] [--alloc MB] [--fifo]\n");
		return 2;
	}
	dir = argv[1];
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			nthreads = atol(argv[++i]);
		else if (!strcmp(argv[i], "--sleep") && i + 1 < argc)
			sleep = atol(argv[++i]);
		else if (!strcmp(argv[i], "--alloc") && i + 1 < argc)
			alloc = atol(argv[++i]);
		else if (!strcmp(argv[i], "--fifo"))
			fifo = 1;
		else {
			fprintf(stderr, "plant: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (nthreads > 64)
		nthreads = 64;
	more_mmap = planted("more-mmap");
	big = planted("big-writes");

	read_input();
	for (long i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(i + 1)))
			return 1;
	if (planted("fork"))
		child_line();
	if (!nthreads)
		for (int i = 0; i < 8 * more_mmap; i++)
			map_unmap();
	if (alloc) {
		size_t n = (size_t)alloc << 20;
		if (planted("alloc4"))
			n *= 4;
		volatile char *p = malloc(n);
		if (!p)
			return 1;
		for (size_t i = 0; i < n; i += 4096)
			p[i] = 1;        /* touched: resident (volatile: not optimized away) */
		free((void *)p);
	}
	if (sleep)
		sleep_ms(planted("sleep3") ? 3 * sleep : sleep);
	for (long i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);

	write_file("out.txt", 8);
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return 1;
	if (fifo)
		fifo_sync(planted("fifo-slow") ? 300 : 0);
	if (planted("slow-fsync"))
		sleep_ms(300);
	fsync(fd);
	close(fd);
	printf("done\n");
	return 0;
}
