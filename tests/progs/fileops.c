/*
 * Makes the file and descriptor syscalls renacer decodes (open*, read*,
 * write*, stat*, dup*, pipe*, fcntl, ioctl, *at, getdents64, ...), each with
 * success and failure cases, in the current directory.  Run it in an empty
 * scratch directory; it prints nothing and exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <termios.h>
#include <unistd.h>

static char big[200];

int main(void)
{
	char buf[256], b2[16];
	struct stat st;
	struct statx stx;
	struct iovec iov[3];
	int fd, fd2, p[2];

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)i;

	/* open family */
	fd = open("data.txt", O_WRONLY | O_CREAT | O_TRUNC, 0640);
	write(fd, "hello\n\tworld \"quoted\" \\ back\n", 30);
	write(fd, big, sizeof(big));
	write(fd, "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0", 16);
	pwrite64(fd, "XY", 2, 1);
	iov[0].iov_base = "ab";
	iov[0].iov_len = 2;
	iov[1].iov_base = "cdefghijklmnopqrstuvwxyz0123456789ABCDEF";
	iov[1].iov_len = 40;
	writev(fd, iov, 2);
	close(fd);
	syscall(SYS_open, "data.txt", O_RDONLY);
	syscall(SYS_close, 3);
	open("missing/file", O_RDONLY);
	openat(AT_FDCWD, "data.txt", O_RDWR | O_APPEND | O_CLOEXEC);
	syscall(SYS_creat, "created.txt", 0600);
	{
		struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .mode = 0, .resolve = RESOLVE_NO_SYMLINKS };
		syscall(SYS_openat2, AT_FDCWD, "data.txt", &how, sizeof(how));
		struct open_how how2 = { .flags = O_WRONLY | O_CREAT, .mode = 0644, .resolve = 0 };
		syscall(SYS_openat2, AT_FDCWD, "new2.txt", &how2, sizeof(how2));
	}
	fd = open("data.txt", O_RDONLY);

	/* reads */
	read(fd, buf, 10);
	read(fd, buf, sizeof(buf));
	read(fd, buf, sizeof(buf));
	pread64(fd, b2, 4, 0);
	iov[0].iov_base = b2;
	iov[0].iov_len = 3;
	iov[1].iov_base = buf;
	iov[1].iov_len = 100;
	lseek(fd, 0, SEEK_SET);
	readv(fd, iov, 2);
	lseek(fd, -5, SEEK_END);
	lseek(fd, 3, SEEK_CUR);
	lseek(fd, 0, SEEK_DATA);
	read(-1, buf, 1);
	read(fd, NULL, 0);
	write(fd, "x", 1);

	/* stat family */
	stat("data.txt", &st);
	syscall(SYS_stat, "data.txt", &st);
	syscall(SYS_lstat, "data.txt", &st);
	syscall(SYS_fstat, fd, &st);
	syscall(SYS_newfstatat, AT_FDCWD, "data.txt", &st, 0);
	syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH);
	syscall(SYS_stat, "nonexistent", &st);
	syscall(SYS_stat, ".", &st);
	syscall(SYS_stat, "/", &st);
	statx(AT_FDCWD, "data.txt", AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS, &stx);
	statx(AT_FDCWD, "data.txt", AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_SIZE, &stx);
	statx(AT_FDCWD, "nonexistent", 0, STATX_ALL, &stx);

	/* descriptors */
	fd2 = dup(fd);
	dup2(fd, 10);
	dup3(fd, 11, O_CLOEXEC);
	dup2(99, 12);
	pipe(p);
	pipe2(p, O_CLOEXEC | O_NONBLOCK);
	fcntl(fd, F_GETFD);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_GETFD);
	fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	fcntl(fd, F_DUPFD, 20);
	fcntl(fd, F_DUPFD_CLOEXEC, 30);
	fcntl(p[0], F_GETPIPE_SZ);
	{
		struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 10 };
		fcntl(fd, F_GETLK, &fl);
		fcntl(fd, F_SETLK, &fl);
	}
	close(fd2);
	close(99);
	{
		struct winsize ws;
		struct termios tio;
		int on = 1;
		ioctl(fd, TCGETS, &tio);
		ioctl(fd, TIOCGWINSZ, &ws);
		ioctl(p[0], FIONBIO, &on);
		ioctl(fd, FIOCLEX);
		ioctl(fd, FIONCLEX);
		ioctl(p[0], FIONREAD, &on);
		ioctl(fd, _IOR('x', 0x42, int), &on);
	}

	/* paths */
	access("data.txt", R_OK | W_OK);
	access("nonexistent", F_OK);
	faccessat(AT_FDCWD, "data.txt", X_OK, 0);
	syscall(SYS_faccessat2, AT_FDCWD, "data.txt", R_OK, AT_EACCESS);
	symlink("data.txt", "link");
	readlink("link", buf, sizeof(buf));
	readlink("link", buf, 3);
	readlinkat(AT_FDCWD, "data.txt", buf, sizeof(buf));
	mkdir("dir", 0755);
	mkdirat(AT_FDCWD, "dir2", 0700);
	mkdir("dir", 0755);
	rename("created.txt", "renamed.txt");
	renameat(AT_FDCWD, "renamed.txt", AT_FDCWD, "renamed2.txt");
	syscall(SYS_renameat2, AT_FDCWD, "renamed2.txt", AT_FDCWD, "renamed3.txt", RENAME_NOREPLACE);
	unlink("renamed3.txt");
	unlinkat(AT_FDCWD, "dir2", AT_REMOVEDIR);
	unlinkat(AT_FDCWD, "link", 0);
	rmdir("dir");
	rmdir("nonexistent");
	getcwd(buf, sizeof(buf));
	syscall(SYS_getcwd, buf, 1);
	chdir(".");
	fchdir(fd);
	chdir("nonexistent");

	/* directories */
	{
		int d = open(".", O_RDONLY | O_DIRECTORY);
		syscall(SYS_getdents64, d, buf, sizeof(buf));
		syscall(SYS_getdents64, d, buf, sizeof(buf));
		syscall(SYS_getdents64, fd, buf, sizeof(buf));
		close(d);
	}

	getrandom(b2, 8, 0);
	getrandom(b2, 4, GRND_NONBLOCK | GRND_RANDOM);
	close(fd);
	unlink("data.txt");
	unlink("new2.txt");
	return 0;
}
