/*
 * A stand-in, in C, for the Rust examples of the seeds (../shared/seeds):
 * tests/t/golden_seeds.sh copies it to ./target/release/examples/NAME and
 * it behaves by NAME: prints its lines one write each (as Rust's stdout
 * does), maps and unmaps its buffers, and
 *   matrix_operations, hello_repartir  compute in a pool of 4 threads
 *   gpu_test                           looks for /dev/nvidia0 and asks the
 *                                      terminal its size (an ioctl)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(1, buf, (size_t)n) != n)
		exit(1);
}

static volatile double sink;

static void *work(void *arg)
{
	size_t n = 64 << 10;
	double *v = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (v == MAP_FAILED)
		return NULL;
	for (size_t i = 0; i < n / sizeof(*v); i++)
		v[i] = (double)i * (double)(long)arg;
	sink = v[n / sizeof(*v) - 1];
	munmap(v, n);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int lines = 12, threads = 0;
	pthread_t th[4];

	(void)argc;
	if (!strcmp(name, "matrix_operations") || !strcmp(name, "hello_repartir"))
		threads = 4;
	if (!strcmp(name, "performance_demo"))
		lines = 20;
	say("Example: %s\n", name);
	for (long i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, work, (void *)(i + 1));
	for (long i = 0; i < 3; i++)
		work((void *)i);
	for (long i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	if (!strcmp(name, "gpu_test")) {
		struct winsize ws;
		int fd = open("/dev/nvidia0", O_RDWR);
		say("GPU: %s\n", fd >= 0 ? "found" : "none, using the CPU");
		if (ioctl(1, TIOCGWINSZ, &ws) == 0)
			say("terminal: %d columns\n", ws.ws_col);
	}
	for (int i = 0; i < lines; i++)
		say("  result %d: %.3f\n", i, i * 1.5);
	return 0;
}
