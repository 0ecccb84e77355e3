/*
 * A stand-in, in C, for the Rust examples of the seeds (../shared/seeds):
 * tests/t/golden_seeds.sh copies it to ./target/release/examples/NAME and
 * it behaves by NAME: prints its lines one write each (as Rust's stdout
 * does), maps and unmaps its buffers, and
 *   backend_detection                  prints "Backend: NAME" from
 *                                      detect_backend (the seeds' -s line)
 *   matrix_operations, hello_repartir  compute in a pool of 4 threads
 *   gpu_test                           looks for /dev/nvidia0 and asks the
 *                                      terminal its size (an ioctl)
 * SEED_PLANT=alloc in the environment plants a regression: 8 more buffers
 * mapped and unmapped in each computation.  The calls tests check with -s
 * carry a MARK:name comment on their line.
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
	double *v = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* MARK:vector_mmap */
	const char *plant = getenv("SEED_PLANT");

	if (v == MAP_FAILED)
		return NULL;
	for (int k = 0; plant && !strcmp(plant, "alloc") && k < 8; k++) {
		void *q = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q != MAP_FAILED)
			munmap(q, n);
	}
	for (size_t i = 0; i < n / sizeof(*v); i++)
		v[i] = (double)i * (double)(long)arg;
	sink = v[n / sizeof(*v) - 1];
	munmap(v, n);
	return NULL;
}

/* The SIMD backend this CPU would get, said in one write. */
static void detect_backend(void)
{
	const char *b = __builtin_cpu_supports("avx512f") ? "AVX-512" :
			__builtin_cpu_supports("avx2") ? "AVX2" :
			__builtin_cpu_supports("sse2") ? "SSE2" : "Scalar";
	char line[64];
	int n = snprintf(line, sizeof(line), "Backend: %s\n", b);

	if (write(1, line, (size_t)n) != n) /* MARK:backend_write */
		exit(1);
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
	if (!strcmp(name, "backend_detection"))
		detect_backend();
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
