/*
 * TightLoop: `ap_tightloop busy N` polls for a file that never appears
 * with N stat calls in a row (and a non-blocking read of an empty pipe in
 * between with `busy2`); `ap_tightloop ok N` does N calls of varied work
 * that make progress (writes to a file in 4 KiB blocks, no repeats).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long n = atol(argv[2]);
	struct stat st;
	if (!strcmp(argv[1], "busy")) {
		for (long i = 0; i < n; i++)
			if (stat("/nonexistent/renacer-flag", &st) == 0)
				break;
		return 0;
	}
	if (!strcmp(argv[1], "busy2")) {
		int p[2];
		char c;
		if (pipe2(p, O_NONBLOCK))
			return 1;
		for (long i = 0; i < n; i++) {
			if (stat("/nonexistent/renacer-flag", &st) == 0)
				break;
			if (read(p[0], &c, 1) == 1)
				break;
		}
		return 0;
	}
	/* ok: real work, each call moves data */
	char buf[4096];
	memset(buf, 'x', sizeof(buf));
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return 1;
	for (long i = 0; i < n; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return 1;
	close(fd);
	return 0;
}
