/*
 * Descriptors of every kind and a child, for tests/t/ebpf_opts.sh (-y,
 * -yy, -P, -Y under both engines): each call's descriptors must show what
 * they referred to at the call, although the recorder decodes it after
 * the process has closed them, reused their numbers, or exited.
 *
 *   ebpf_fds files     a file read, duplicated and closed; a pipe polled;
 *                      an eventfd; /dev/null; a directory; a file deleted
 *                      while open; a child that writes to the inherited
 *                      pipe and exits (reaped by wait4); a new name
 *                      (prctl PR_SET_NAME)
 *   ebpf_fds sockets   a unix socket pair written to; a unix stream
 *                      socket bound to a path ("sock"), connected to and
 *                      accepted, written to; the same over TCP on
 *                      127.0.0.1; a netlink route socket bound
 *   ebpf_fds stdio     polls standard input and output, named by no
 *                      call before (inherited descriptors)
 *   ebpf_fds wait      prints its pid, waits for a byte on standard input
 *                      (for renacer -p to attach meanwhile), then does
 *                      what "files" does
 *   ebpf_fds io        data for -e read=/write= dumps: a pipe written and
 *                      read whole, iovecs, a message over a unix socket, a
 *                      buffer of 1 MiB written to /dev/null (all far past
 *                      the string limit)
 *   ebpf_fds zeros     writes to standard output 5 pages of a private
 *                      anonymous mapping but the first and last 100 bytes,
 *                      the third page written to, the others never touched
 *                      (the kernel reads zeros there: -e write=1 dumps them)
 *
 * Run in an empty directory (its files are made there).
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
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
	close(fcntl(dir, F_DUPFD_CLOEXEC, 20));  /* (a descriptor returned) */
	c = fork();
	if (c == 0) {
		if (write(p[1], "child", 5) != 5)
			_exit(1);
		_exit(0);
	}
	wait4(c, NULL, 0, NULL);
	prctl(PR_SET_NAME, "renamed");
	getpid();
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

	struct sockaddr_un a = { .sun_family = AF_UNIX, .sun_path = "sock" };
	int l = socket(AF_UNIX, SOCK_STREAM, 0), c = socket(AF_UNIX, SOCK_STREAM, 0), s;

	if (bind(l, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(l, 1) < 0 ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)) < 0)
		_exit(1);
	s = accept(l, NULL, NULL);
	if (s < 0 || write(c, "z", 1) != 1)
		_exit(1);
	close(s);
	close(c);
	close(l);
	unlink("sock");

	struct sockaddr_in in = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(in);

	l = socket(AF_INET, SOCK_STREAM, 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (bind(l, (struct sockaddr *)&in, sizeof(in)) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&in, &len) < 0 ||
	    connect(c, (struct sockaddr *)&in, sizeof(in)) < 0)
		_exit(1);
	s = accept(l, NULL, NULL);
	if (s < 0 || write(c, "t", 1) != 1)
		_exit(1);
	close(s);
	close(c);
	close(l);

	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	int n = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);

	if (n < 0 || bind(n, (struct sockaddr *)&nl, sizeof(nl)) < 0)
		_exit(1);
	len = sizeof(nl);
	getsockname(n, (struct sockaddr *)&nl, &len);
	close(n);
}

static void io(void)
{
	static char big[1 << 20], rb[80000];
	int p[2], sv[2], n;
	struct iovec v[3], r[2], rv;
	struct msghdr m, m2;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7 + (i >> 8));
	if (pipe(p) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		_exit(1);
	if (write(p[1], big, 60000) != 60000 || read(p[0], rb, sizeof(rb)) != 60000)
		_exit(1);
	v[0].iov_base = "abc";
	v[0].iov_len = 3;
	v[1].iov_base = big;
	v[1].iov_len = 20000;
	v[2].iov_base = "xyz";
	v[2].iov_len = 3;
	if (writev(p[1], v, 3) < 0)
		_exit(1);
	r[0].iov_base = rb;
	r[0].iov_len = 50;
	r[1].iov_base = rb + 100;
	r[1].iov_len = 30000;
	if (readv(p[0], r, 2) < 0)
		_exit(1);
	memset(&m, 0, sizeof(m));
	m.msg_iov = v;
	m.msg_iovlen = 2;
	if (sendmsg(sv[0], &m, 0) < 0)
		_exit(1);
	memset(&m2, 0, sizeof(m2));
	rv.iov_base = rb;
	rv.iov_len = sizeof(rb);
	m2.msg_iov = &rv;
	m2.msg_iovlen = 1;
	if (recvmsg(sv[1], &m2, 0) < 0)
		_exit(1);
	n = open("/dev/null", O_WRONLY);
	if (write(n, big, sizeof(big)) < 0)
		_exit(1);
	close(n);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "files"))
		files();
	else if (argc > 1 && !strcmp(argv[1], "sockets"))
		sockets();
	else if (argc > 1 && !strcmp(argv[1], "io"))
		io();
	else if (argc > 1 && !strcmp(argv[1], "zeros")) {
		char *p = mmap(NULL, 5 * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		memcpy(p + 2 * 4096, "written", 7);
		if (write(1, p + 100, 5 * 4096 - 200) < 0)
			return 1;
	}
	else if (argc > 1 && !strcmp(argv[1], "stdio")) {
		struct pollfd pf[2] = { { 0, POLLIN, 0 }, { 1, POLLOUT, 0 } };

		poll(pf, 2, 0);
	}
	else if (argc > 1 && !strcmp(argv[1], "wait")) {
		char b;
		char line[32];
		int n = snprintf(line, sizeof(line), "%d\n", (int)getpid());

		if (write(1, line, (size_t)n) != n || read(0, &b, 1) != 1)
			return 1;
		files();
	}
	else
		return 2;
	return 0;
}
