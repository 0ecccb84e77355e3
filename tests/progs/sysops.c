/*
 * System-level calls strace decodes and renacer must match: capget/capset,
 * personality, mount/umount2 (failing: no such target), membarrier,
 * preadv2/pwritev2, splice/tee/vmsplice, readahead, sync_file_range,
 * eventfd.  Successes, failures and unknown flag bits.
 */
#include <fcntl.h>
#include <linux/capability.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static void caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	syscall(SYS_capget, &h, d);
	syscall(SYS_capset, &h, d);             /* the same sets: allowed */
	h.version = _LINUX_CAPABILITY_VERSION_1;
	syscall(SYS_capget, &h, d);
	h.version = 0x12345;
	syscall(SYS_capget, &h, d);
	h.version = _LINUX_CAPABILITY_VERSION_3;
	syscall(SYS_capget, &h, NULL);
	syscall(SYS_capget, NULL, NULL);
	d[0].effective = 0;
	d[0].permitted = 5;
	d[0].inheritable = 0;
	d[1].effective = 0xfff;                  /* unknown high bits */
	d[1].permitted = 0;
	d[1].inheritable = 1;
	h.pid = 1;                               /* another process: EPERM */
	syscall(SYS_capset, &h, d);
}

static void persona(void)
{
	long old = syscall(SYS_personality, 0xffffffffUL);

	syscall(SYS_personality, 0x40000UL);          /* ADDR_NO_RANDOMIZE */
	syscall(SYS_personality, 0x8UL | 0x400000UL); /* LINUX32|READ_IMPLIES_EXEC */
	syscall(SYS_personality, 0x10000000UL | 0x20000UL);
	syscall(SYS_personality, 0x55UL);
	syscall(SYS_personality, (unsigned long)old);
}

static void mounts(void)
{
	syscall(SYS_mount, "none", "/nonexistent/r", "tmpfs", 3UL, "size=1m");
	syscall(SYS_mount, NULL, "/nonexistent/r", NULL, 32UL | 4096UL, NULL);
	syscall(SYS_mount, "a", "/nonexistent/r", "ext4", 0xc0ed0001UL, "ro");
	syscall(SYS_mount, "a", "/nonexistent/r", NULL, 0x80000000UL, NULL);
	syscall(SYS_mount, "a", "/nonexistent/r", NULL, 4096UL | 16384UL, (void *)8);
	syscall(SYS_umount2, "/nonexistent/r", 3UL);
	syscall(SYS_umount2, "/nonexistent/r", 0x10UL);
}

static void io(void)
{
	char b[16];
	struct iovec iv = { b, 4 }, v2 = { "xy", 2 };
	int fd = open("/etc/hostname", O_RDONLY), p[2], q[2];
	int64_t off = 1;

	syscall(SYS_preadv2, fd, &iv, 1, 0L, 0L, 1 /* RWF_HIPRI */);
	syscall(SYS_preadv2, fd, &iv, 1, -1L, -1L, 0);
	syscall(SYS_pwritev2, fd, &iv, 1, 0L, 0L, 2 | 16 | 0x100);
	if (pipe(p) == 0 && pipe(q) == 0) {
		if (write(p[1], "abc", 3) != 3)
			return;
		splice(p[0], NULL, q[1], NULL, 3, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		tee(q[0], p[1], 3, 0);
		vmsplice(p[1], &v2, 1, SPLICE_F_GIFT);
		splice(fd, &off, q[1], NULL, 2, 0);
		splice(p[0], NULL, q[1], NULL, 1, 0x40);
	}
	readahead(fd, 0, 4096);
	sync_file_range(fd, 0, 10, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE);
	sync_file_range(fd, 0, 10, 0x10);
	close((int)syscall(SYS_eventfd, 5));
	close(fd);
}

int main(void)
{
	caps();
	persona();
	mounts();
	syscall(SYS_membarrier, 0 /* QUERY */, 0, 0);
	syscall(SYS_membarrier, 16 /* REGISTER_PRIVATE_EXPEDITED */, 0, 0);
	syscall(SYS_membarrier, 0x400, 0, 0);
	syscall(SYS_membarrier, 16, 1 /* FLAG_CPU */, 0);
	io();
	return 0;
}
