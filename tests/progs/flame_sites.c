/*
 * Call sites for the differential flame graph tests (tests/t/report_*.sh):
 * flame_sites [WRITES [new]] stats "/" 10 times from stat_files(), writes
 * WRITES bytes (10 by default) to /dev/null one at a time from
 * write_lines(), and with "new" also opens and closes /dev/null from
 * new_site(), a call site the default run does not have; with "paths"
 * stats WRITES different paths instead of writing (a trace whose calls
 * all differ).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static __attribute__((noinline)) void stat_files(int n)
{
	struct stat st;

	for (int i = 0; i < n; i++)
		stat("/", &st);
}

static __attribute__((noinline)) void write_lines(int n)
{
	int fd = open("/dev/null", O_WRONLY);

	for (int i = 0; i < n; i++)
		if (write(fd, "x", 1) != 1)
			exit(2);
	close(fd);
}

static __attribute__((noinline)) void stat_paths(int n)
{
	struct stat st;
	char path[64];

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/nonexistent/%d", i);
		stat(path, &st);
	}
}

static __attribute__((noinline)) void new_site(void)
{
	int fd = open("/dev/null", O_RDONLY);

	close(fd);
}

int main(int argc, char **argv)
{
	int writes = argc > 1 ? atoi(argv[1]) : 10;

	stat_files(10);
	if (argc > 2 && !strcmp(argv[2], "paths"))
		stat_paths(writes);
	else
		write_lines(writes);
	if (argc > 2 && !strcmp(argv[2], "new"))
		new_site();
	return 0;
}
