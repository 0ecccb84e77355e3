/*
 * More file system calls: statfs/fstatfs, the xattr family, fadvise64,
 * copy_file_range, sendfile, utimensat, flock, fallocate, memfd_create,
 * eventfd2, mknodat, with success and failure cases, in the current
 * directory (run it in an empty scratch directory).  Prints nothing.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct statfs sfs;
	char buf[64];
	off_t off = 0;
	loff_t lo = 0;
	int fd, fd2;
	struct timespec ts[2] = { { 1000000000, 5 }, { 0, UTIME_OMIT } };

	fd = open("src.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	write(fd, "some data\n", 10);
	fd2 = open("dst.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);

	statfs(".", &sfs);
	statfs("/nonexistent", &sfs);
	fstatfs(fd, &sfs);
	fstatfs(-1, &sfs);

	setxattr("src.txt", "user.test", "value\0x", 7, XATTR_CREATE);
	lsetxattr("src.txt", "user.test2", "v2", 2, 0);
	fsetxattr(fd, "user.test3", "v3", 2, XATTR_REPLACE);
	getxattr("src.txt", "user.test", buf, sizeof(buf));
	getxattr("src.txt", "user.test", NULL, 0);
	lgetxattr("src.txt", "user.none", buf, sizeof(buf));
	fgetxattr(fd, "user.test2", buf, sizeof(buf));
	listxattr("src.txt", buf, sizeof(buf));
	llistxattr("src.txt", NULL, 0);
	flistxattr(fd, buf, 3);
	removexattr("src.txt", "user.test");
	lremovexattr("src.txt", "user.none");
	fremovexattr(fd, "user.test2");

	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	posix_fadvise(fd, 10, 100, POSIX_FADV_DONTNEED);
	lseek(fd, 0, SEEK_SET);
	copy_file_range(fd, NULL, fd2, NULL, 100, 0);
	copy_file_range(fd, &lo, fd2, &lo, 4, 0);
	sendfile(fd2, fd, &off, 5);
	sendfile(fd2, fd, NULL, 5);
	utimensat(AT_FDCWD, "src.txt", NULL, 0);
	utimensat(AT_FDCWD, "src.txt", ts, AT_SYMLINK_NOFOLLOW);
	ts[0].tv_nsec = UTIME_NOW;
	utimensat(AT_FDCWD, "src.txt", ts, 0);
	futimens(fd, NULL);
	flock(fd, LOCK_EX | LOCK_NB);
	flock(fd, LOCK_UN);
	fallocate(fd, 0, 0, 4096);
	fallocate(fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, 0, 10);
	close(memfd_create("mymemfd", MFD_CLOEXEC | MFD_ALLOW_SEALING));
	close(eventfd(3, EFD_CLOEXEC | EFD_NONBLOCK));
	mknodat(AT_FDCWD, "fifo", S_IFIFO | 0600, 0);
	mknod("/nonexistent/dev", S_IFCHR | 0600, makedev(1, 3));
	unlink("fifo");
	/* close_range on fds this program does not have open, so it closes
	 * nothing the runtime needs; then a bad range and unknown flags */
	syscall(SYS_close_range, 1000u, ~0u, 0u);
	syscall(SYS_close_range, 1000u, 1010u, 4u /* CLOSE_RANGE_CLOEXEC */);
	syscall(SYS_close_range, 1000u, 1010u, 6u /* | CLOSE_RANGE_UNSHARE */);
	syscall(SYS_close_range, 1010u, 1000u, 0x10u);
	{
		/* inotify: flags in value order, unknown bits, failures */
		int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK), wd;

		close((int)syscall(SYS_inotify_init));
		inotify_init1(0x1);
		wd = inotify_add_watch(in, ".", IN_ALL_EVENTS | IN_ONLYDIR | IN_ONESHOT |
				       IN_MASK_ADD | IN_EXCL_UNLINK | IN_DONT_FOLLOW);
		inotify_add_watch(in, "/nonexistent", IN_MODIFY);
		inotify_add_watch(in, ".", 0x8000000 | IN_ISDIR | IN_UNMOUNT | IN_Q_OVERFLOW |
				  IN_IGNORED | 0x10000000);
		inotify_rm_watch(in, wd);
		inotify_rm_watch(in, 99);
		close(in);
	}
	close(fd2);
	close(fd);
	unlink("src.txt");
	unlink("dst.txt");
	return 0;
}
