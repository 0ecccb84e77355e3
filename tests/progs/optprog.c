/*
 * Makes known syscalls for the strace-option tests (tests/t/strace_opts_*.sh).
 * optprog MODE [ARGS]; every mode works in the current directory and
 * prints what the program itself saw on stdout, so that tests can check
 * what -e inject= did from the program's side:
 *   io       files, pipes, iovecs and sockets with known bytes (-e read=,
 *            -e write=, -x, -P, -y)
 *   inject   openat of "target", getppid six times, fsync, read: prints
 *            what each returned (SIGUSR1 is handled)
 *   signals  SIGUSR1 and SIGUSR2 to itself (handled), then dies of SIGTERM
 *   fork     a child that writes and exits 3; the parent waits for it
 *   exec     a child that execs ARGS (or /bin/true)
 *   env      prints the environment variables named in ARGS
 *   ids      prints the real/effective user and group ids
 *   sockets  unix, TCP, TCPv6, UDP, netlink sockets, /dev/null, a pidfd
 *            (-yy, -e decode-fds=)
 *   int80    getpid and write through int 0x80 (i386 calls of a 64-bit
 *            program: -e trace=...@32, personality messages), then getppid
 *   thread-exec  a thread execs "optprog exit" while the leader is in
 *            pause() ("+++ superseded by execve in pid N +++")
 *   exit     exits 0
 */

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void on_sig(int sig)
{
	(void)sig;
}

static int mode_io(void)
{
	static const char bin[] = "bin\xff\x01" "data\n";
	char buf[256];
	struct iovec iov[2];
	int fd, p[2], sv[2];

	fd = open("data.txt", O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0)
		return 1;
	if (write(fd, "hello, world\n", 13) != 13)
		return 1;
	if (write(fd, bin, sizeof(bin) - 1) != (ssize_t)(sizeof(bin) - 1))
		return 1;
	iov[0].iov_base = (void *)"first ";
	iov[0].iov_len = 6;
	iov[1].iov_base = (void *)"second buffer, longer than sixteen bytes\n";
	iov[1].iov_len = 41;
	if (writev(fd, iov, 2) != 47)
		return 1;
	lseek(fd, 0, SEEK_SET);
	if (read(fd, buf, 13) != 13)
		return 1;
	iov[0].iov_base = buf;
	iov[0].iov_len = 4;
	iov[1].iov_base = buf + 4;
	iov[1].iov_len = 100;
	if (readv(fd, iov, 2) <= 0)
		return 1;
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m != MAP_FAILED)
		munmap(m, 4096);
	fsync(fd);
	close(fd);

	if (symlink("data.txt", "link.txt") < 0 && errno != EEXIST)
		return 1;
	fd = open("link.txt", O_RDONLY);
	if (fd >= 0) {
		struct stat st;
		fstat(fd, &st);
		if (dup2(fd, 9) == 9)
			close(9);
		close(fd);
	}
	unlink("link.txt");
	access("missing.txt", F_OK);

	if (pipe(p) < 0)
		return 1;
	if (write(p[1], "through the pipe", 16) != 16)
		return 1;
	if (read(p[0], buf, sizeof(buf)) != 16)
		return 1;
	close(p[0]);
	close(p[1]);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	struct msghdr mh;
	memset(&mh, 0, sizeof(mh));
	iov[0].iov_base = (void *)"msg-one ";
	iov[0].iov_len = 8;
	iov[1].iov_base = (void *)"msg-two";
	iov[1].iov_len = 7;
	mh.msg_iov = iov;
	mh.msg_iovlen = 2;
	if (sendmsg(sv[0], &mh, 0) != 15)
		return 1;
	iov[0].iov_base = buf;
	iov[0].iov_len = 10;
	iov[1].iov_base = buf + 10;
	iov[1].iov_len = 10;
	if (recvmsg(sv[1], &mh, 0) != 15)
		return 1;
	if (sendto(sv[1], "back", 4, 0, NULL, 0) != 4)
		return 1;
	if (recvfrom(sv[0], buf, sizeof(buf), 0, NULL, NULL) != 4)
		return 1;
	close(sv[0]);
	close(sv[1]);
	unlink("data.txt");
	return 0;
}

static int mode_inject(void)
{
	char buf[16];
	int fd;
	long r;

	signal(SIGUSR1, on_sig);
	fd = open("target", O_CREAT | O_TRUNC | O_WRONLY, 0644);
	printf("open: %s\n", fd < 0 ? strerror(errno) : "ok");
	for (int i = 1; i <= 6; i++) {
		errno = 0;
		r = syscall(SYS_getppid);
		printf("getppid %d: %s\n", i, r == 42 ? "42" : r < 0 ? strerror(errno) : "real");
	}
	if (fd >= 0) {
		r = fsync(fd);
		printf("fsync: %s\n", r < 0 ? strerror(errno) : "ok");
		close(fd);
	}
	fd = open("target", O_RDONLY);
	if (fd >= 0) {
		r = read(fd, buf, sizeof(buf));
		printf("read: %ld %s\n", r, r < 0 ? strerror(errno) : "ok");
		close(fd);
	}
	unlink("target");
	fflush(stdout);
	return 0;
}

static int mode_signals(void)
{
	signal(SIGUSR1, on_sig);
	signal(SIGUSR2, on_sig);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR2);
	write(1, "signalled\n", 10);
	kill(getpid(), SIGTERM);
	return 0;
}

static char *self;

static void *exec_thread(void *arg)
{
	struct timespec ts = { 0, 100000000 };
	char *argv[] = { self, (char *)"exit", NULL };

	nanosleep(&ts, NULL);      /* the leader is in pause() by then */
	execve(self, argv, NULL);
	_exit(127);
}

static int mode_thread_exec(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, exec_thread, NULL))
		return 1;
	pause();
	return 1;
}

static int mode_fork(void)
{
	sigset_t chld;
	pid_t pid;
	int st;

	/* no SIGCHLD: it would come before or after wait4 by chance */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		write(1, "child\n", 6);
		_exit(3);
	}
	waitpid(pid, &st, 0);
	write(1, "parent\n", 7);
	return WIFEXITED(st) && WEXITSTATUS(st) == 3 ? 0 : 1;
}

static int mode_exec(int argc, char **argv)
{
	char *def[] = { "/bin/true", NULL };
	char **args = argc > 0 ? argv : def;
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		execv(args[0], args);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	write(1, "exec done\n", 10);
	return 0;
}

static int mode_env(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *v = getenv(argv[i]);
		printf("%s=%s\n", argv[i], v ? v : "(unset)");
	}
	return 0;
}

static int mode_ids(void)
{
	gid_t groups[64];
	int n = getgroups(64, groups);

	printf("uid=%d euid=%d gid=%d egid=%d groups=%d\n", (int)getuid(), (int)geteuid(),
	       (int)getgid(), (int)getegid(), n);
	return 0;
}

static int mode_sockets(void)
{
	struct sockaddr_in a;
	struct sockaddr_in6 a6;
	struct sockaddr_un ua;
	socklen_t al;
	int sv[2], l, c, s, fd;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 || write(sv[0], "x", 1) != 1)
		return 1;
	close(sv[0]);
	close(sv[1]);
	/* TCP over loopback: listening, connecting, accepted */
	l = socket(AF_INET, SOCK_STREAM, 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	al = sizeof(a);
	if (bind(l, (void *)&a, sizeof(a)) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (void *)&a, &al) < 0)
		return 1;
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(c, (void *)&a, sizeof(a)) < 0)
		return 1;
	s = accept(l, NULL, NULL);
	if (write(c, "y", 1) != 1 || read(s, &al, 1) != 1)
		return 1;
	close(s);
	close(c);
	close(l);
	/* TCPv6 */
	l = socket(AF_INET6, SOCK_STREAM, 0);
	if (l >= 0) {
		memset(&a6, 0, sizeof(a6));
		a6.sin6_family = AF_INET6;
		a6.sin6_addr = in6addr_loopback;
		al = sizeof(a6);
		if (bind(l, (void *)&a6, sizeof(a6)) == 0 && listen(l, 1) == 0 &&
		    getsockname(l, (void *)&a6, &al) == 0) {
			c = socket(AF_INET6, SOCK_STREAM, 0);
			if (connect(c, (void *)&a6, sizeof(a6)) == 0) {
				s = accept(l, NULL, NULL);
				write(c, "6", 1);
				close(s);
			}
			close(c);
		}
		close(l);
	}
	/* UDP bound, unix bound to a path and to an abstract name */
	l = socket(AF_INET, SOCK_DGRAM, 0);
	a.sin_port = 0;
	bind(l, (void *)&a, sizeof(a));
	write(l, "", 0);
	close(l);
	l = socket(AF_UNIX, SOCK_DGRAM, 0);
	memset(&ua, 0, sizeof(ua));
	ua.sun_family = AF_UNIX;
	strcpy(ua.sun_path, "sock.path");
	unlink(ua.sun_path);
	bind(l, (void *)&ua, sizeof(ua));
	close(l);
	unlink("sock.path");
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	memcpy(ua.sun_path, "\0optprog", 9);
	bind(l, (void *)&ua, sizeof(sa_family_t) + 9);
	listen(l, 1);
	close(l);
	/* netlink, bound */
	l = socket(AF_NETLINK, SOCK_RAW, 0);
	if (l >= 0) {
		struct sockaddr_storage ns;
		memset(&ns, 0, sizeof(ns));
		ns.ss_family = AF_NETLINK;
		bind(l, (void *)&ns, 12);
		write(l, "", 0);
		close(l);
	}
	fd = open("/dev/null", O_RDONLY);
	close(fd);
	fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (fd >= 0)
		close(fd);
	return 0;
}

static int mode_int80(void)
{
#if defined(__x86_64__)
	long r;

	/* i386 getpid (20) and write(1, NULL, 0) (4) */
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(4L), "b"(1L), "c"(0L), "d"(0L) : "memory");
	(void)r;
#endif
	getppid();
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "io";
	self = argv[0];

	if (!strcmp(mode, "io"))
		return mode_io();
	if (!strcmp(mode, "inject"))
		return mode_inject();
	if (!strcmp(mode, "signals"))
		return mode_signals();
	if (!strcmp(mode, "fork"))
		return mode_fork();
	if (!strcmp(mode, "exec"))
		return mode_exec(argc - 2, argv + 2);
	if (!strcmp(mode, "env"))
		return mode_env(argc - 2, argv + 2);
	if (!strcmp(mode, "ids"))
		return mode_ids();
	if (!strcmp(mode, "sockets"))
		return mode_sockets();
	if (!strcmp(mode, "int80"))
		return mode_int80();
	if (!strcmp(mode, "thread-exec"))
		return mode_thread_exec();
	if (!strcmp(mode, "exit"))
		return 0;
	fprintf(stderr, "optprog: unknown mode '%s'\n", mode);
	return 2;
}
