/*
 * RedundantFileAccess: `ap_redundant repeat FILE N` checks, opens, reads
 * and closes the same FILE N times (re-reading a configuration file in a
 * loop); `ap_redundant once FILE N` reads it once and keeps it.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int load(const char *path, char *buf, size_t len)
{
	struct stat st;
	if (stat(path, &st))
		return -1;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len);
	close(fd);
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	long n = atol(argv[3]);
	char buf[4096];
	if (!strcmp(argv[1], "once"))
		return load(argv[2], buf, sizeof(buf)) ? 1 : 0;
	for (long i = 0; i < n; i++)
		if (load(argv[2], buf, sizeof(buf)))
			return 1;
	return 0;
}
