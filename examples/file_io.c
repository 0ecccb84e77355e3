/* Example: file I/O — writes a small file, reads it back, stats and removes it. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	char path[4096], buf[256];
	struct stat st;
	int fd, i;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/renacer-example-%d.txt", dir, 1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	for (i = 0; i < 4; i++) {
		int len = snprintf(buf, sizeof(buf), "line %d of the example file\n", i);
		if (write(fd, buf, (size_t)len) != len) {
			perror("write");
			return 1;
		}
	}
	fsync(fd);
	close(fd);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(path);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	if (stat("/nonexistent/renacer-config", &st) == 0)
		return 1;
	unlink(path);
	printf("wrote and read %lld bytes\n", (long long)st.st_size);
	return 0;
}
