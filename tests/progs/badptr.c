/*
 * Syscalls with pointers a tracer cannot read: NULL, a small bad address,
 * a string running into an unmapped page, buffers and iovecs partly
 * unmapped, output structures at bad addresses.  A tracer must print the
 * addresses (never stale bytes, never crash).  Prints nothing, exits 0.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* the bad addresses are the point here */
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *end;
	struct iovec iov[2];
	struct stat st;
	int fd = open("/dev/null", O_WRONLY);

	if (m == MAP_FAILED || fd < 0)
		return 1;
	munmap(m + pg, pg);
	end = m + pg;                        /* first unmapped byte */
	memcpy(end - 3, "abc", 3);           /* no NUL before the hole */

	syscall(SYS_openat, AT_FDCWD, NULL, O_RDONLY);
	syscall(SYS_openat, AT_FDCWD, (char *)1, O_RDONLY);
	syscall(SYS_openat, AT_FDCWD, end - 3, O_RDONLY);
	syscall(SYS_openat, AT_FDCWD, end - 40, O_RDONLY);   /* 37 zero bytes: "" */
	write(fd, (char *)1, 10);
	write(fd, end - 4, 4);
	write(fd, end - 4, 8);               /* runs into the hole */
	write(fd, end - 40, 100);
	read(0, (char *)1, 10);
	syscall(SYS_stat, "/", (struct stat *)1);
	syscall(SYS_stat, (char *)1, &st);
	syscall(SYS_fstat, fd, end);
	iov[0].iov_base = end - 2;
	iov[0].iov_len = 2;
	iov[1].iov_base = end - 2;
	iov[1].iov_len = 5;
	writev(fd, iov, 2);
	writev(fd, (struct iovec *)(end - 8), 1);
	syscall(SYS_pipe2, end, 0);
	syscall(SYS_getcwd, end, 100);
	syscall(SYS_readlink, "/proc/self/exe", (char *)1, 100);
	syscall(SYS_getdents64, fd, (char *)1, 100);
	close(fd);
	return 0;
}
