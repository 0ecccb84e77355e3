/*
 * A small program of the kind the seeds trace, for the verdict tests
 * (tests/t/golden_verdicts.sh): it reads DIR/in.txt and writes DIR/out.txt
 * in chunks, with two worker threads when VP_THREADS=1.  VP_PLANT (so that
 * the traced command line stays the same) changes it the way a new build
 * would:
 *   reorder    opens the output before the input (independent opens)
 *   message    prints other words with the same calls
 *   sleeps     sleeps 2 ms after each chunk (6 more clock_nanosleep calls)
 *   leak       allocates 64 MiB, writes it and never frees it
 *   untouched  allocates 64 MiB and never writes it
 *   hostname   the worker threads open /etc/hostname (every run)
 *   repeat     writes 350 more one-byte lines
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *plant;

static int planted(const char *what)
{
	return plant && strstr(plant, what);
}

static void *worker(void *arg)
{
	volatile unsigned long x = (unsigned long)arg;
	for (unsigned long i = 0; i < 200000; i++)
		x = x * 6364136223846793005ul + i;
	if (planted("hostname")) {
		int fd = open("/etc/hostname", O_RDONLY);
		char b[64];
		if (fd >= 0) {
			if (read(fd, b, sizeof(b)) < 0)
				perror("read");
			close(fd);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char in[4096], out[4096], buf[512];
	const char *dir = argc > 1 ? argv[1] : ".";
	int fi, fo, threads = getenv("VP_THREADS") && !strcmp(getenv("VP_THREADS"), "1");
	pthread_t t[2];
	ssize_t n;
	int chunk = 0;

	plant = getenv("VP_PLANT");
	snprintf(in, sizeof(in), "%s/in.txt", dir);
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	if (threads)
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, worker, (void *)(long)i);
	if (planted("reorder")) {
		fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		fi = open(in, O_RDONLY);
	} else {
		fi = open(in, O_RDONLY);
		fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	}
	if (fi < 0 || fo < 0) {
		perror("open");
		return 1;
	}
	while ((n = read(fi, buf, sizeof(buf))) > 0) {
		if (write(fo, buf, (size_t)n) != n)
			return 1;
		if (planted("sleeps")) {
			struct timespec ts = { 0, 2000000 };
			nanosleep(&ts, NULL);
		}
		chunk++;
	}
	for (int i = 0; planted("repeat") && i < 350; i++)
		if (write(fo, "x", 1) != 1)
			return 1;
	if (planted("leak")) {
		char *p = malloc(64 << 20);
		if (p)
			memset(p, 1, 64 << 20);
		printf("kept %p\n", (void *)p);
	}
	if (planted("untouched")) {
		char *p = malloc(64 << 20);
		printf("kept %p\n", (void *)p);
	}
	close(fi);
	close(fo);
	if (threads)
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	if (planted("message"))
		printf("copied %d chunks of input from the file into the output file\n", chunk);
	else
		printf("%d chunks\n", chunk);
	return 0;
}
