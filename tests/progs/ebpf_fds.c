/*
 * Descriptors of every kind and a child, for tests/t/ebpf_opts.sh (-y,
 * -yy, -P, -Y under both engines): each call's descriptors must show what
 * they referred to at the call, although the recorder decodes it after
 * the process has closed them, reused their numbers, or exited.
 *
 *   ebpf_fds files     a file read, duplicated and closed; a pipe polled;
 *                      an eventfd; /dev/null; a directory; a file deleted
 *                      while open; a child that writes to the inherited
 *                      pipe and exits (reaped by wait4)
 *   ebpf_fds sockets   a unix socket pair written to
 *
 * Run in an empty directory (its files are made there).
 */
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void files(void)
{
	char b[16];
	int p[2], fd, e, n, d, dir;
	struct pollfd pf;
	pid_t c;

	fd = open("/etc/passwd", O_RDONLY);
	if (read(fd, b, 4) < 0 || pipe(p) < 0)
		_exit(1);
	if (write(p[1], "x", 1) != 1)
		_exit(1);
	pf.fd = p[0];
	pf.events = POLLIN;
	poll(&pf, 1, 0);
	e = eventfd(0, 0);
	n = open("/dev/null", O_WRONLY);
	if (write(n, "null", 4) != 4)
		_exit(1);
	dup2(fd, 9);
	close(9);
	close(fd);
	close(9);            /* (not open: EBADF, no path) */
	dir = openat(AT_FDCWD, ".", O_RDONLY | O_DIRECTORY);
	fd = openat(dir, "made", O_CREAT | O_RDWR, 0600);
	unlink("made");
	if (write(fd, "gone", 4) != 4)
		_exit(1);
	c = fork();
	if (c == 0) {
		if (write(p[1], "child", 5) != 5)
			_exit(1);
		_exit(0);
	}
	wait4(c, NULL, 0, NULL);
	d = dup(e);
	close(d);
	close(e);
	close(n);
	close(p[0]);
	close(p[1]);
	close(fd);
	close(dir);
}

static void sockets(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		_exit(1);
	if (write(sv[0], "y", 1) != 1)
		_exit(1);
	close(sv[0]);
	close(sv[1]);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "files"))
		files();
	else if (argc > 1 && !strcmp(argv[1], "sockets"))
		sockets();
	else
		return 2;
	return 0;
}
