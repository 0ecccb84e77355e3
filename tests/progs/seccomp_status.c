/* Prints the Seccomp: and NoNewPrivs: lines of its own /proc/self/status,
 * then opens a file. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	int fd;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Seccomp:", 8) || !strncmp(line, "NoNewPrivs:", 11))
			fputs(line, stdout);
	if (f)
		fclose(f);
	fd = open("/etc/hostname", O_RDONLY);
	if (fd >= 0)
		close(fd);
	return 0;
}
