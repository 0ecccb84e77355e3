/*
 * manycalls N: makes N cheap syscalls from four call sites (getppid,
 * a 1-byte write to /dev/null, lseek on it, getuid), in turn, for the
 * memory and speed tests of long traces (tests/t/memory_golden.sh).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0) {
		perror("/dev/null");
		return 1;
	}
	for (i = 0; i < n; i++) {
		switch (i & 3) {
		case 0: syscall(SYS_getppid); break;
		case 1: if (write(fd, "x", 1) != 1) return 1; break;
		case 2: lseek(fd, 0, SEEK_SET); break;
		case 3: syscall(SYS_getuid); break;
		}
	}
	close(fd);
	return 0;
}
