/* Standard streams of the kinds a golden recorded (see runio.h). */
#include "golden/runio.h"
#include "sink/sink.h"
#include "sink/env.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util/banned.h"

/* How long a drain may go on after the command ended (a daemon it left
 * behind can keep a pipe open forever). */
#define DRAIN_GRACE_MS 2000

struct drain_arg {
	struct runio *io;
	int k;
};

static void *drain_main(void *arg)
{
	struct drain_arg *a = arg;
	struct runio *io = a->io;
	int fd = io->drain_fd[a->k];
	char buf[16384];
	ssize_t n;

	free(a);
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;          /* EOF, or EIO: a terminal whose other side closed */
		pthread_mutex_lock(&io->lock);
		if (write(io->out, buf, (size_t)n) < 0)
			n = -1;
		pthread_mutex_unlock(&io->lock);
		if (n < 0)
			break;
	}
	return NULL;
}

/* A pseudo-terminal: the slave for the command, the master kept in *master. */
static int open_pty(int *master)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), s;
	const char *name;

	if (m < 0)
		return -1;
	if (grantpt(m) < 0 || unlockpt(m) < 0 || !(name = ptsname(m)) ||
	    (s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
		close(m);
		return -1;
	}
	*master = m;
	return s;
}

/* Makes the command's fd k of kind; its fd or -1 (-2: leave it closed). */
static int make_kind(struct runio *io, int k, int kind, const char *outfile,
		     struct strbuf *notes)
{
	static const char *const names[3] = { "stdin", "stdout", "stderr" };
	int p[2], fd;

	switch (kind) {
	case SK_NULL:
		return open("/dev/null", (k ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	case SK_FILE:
		if (k)
			return fcntl(io->out, F_DUPFD_CLOEXEC, 3);
		/* a file to read, of which nothing is known: an empty one */
		fd = open(outfile, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			strbuf_addf(notes, "%s was a regular file; this run reads an empty one\n",
				    names[k]);
		return fd;
	case SK_PIPE:
		if (pipe2(p, O_CLOEXEC) < 0)
			break;
		if (k) {
			io->drain_fd[k] = p[0];
			return p[1];
		}
		close(p[1]);          /* nothing to read: end of file at once */
		return p[0];
	case SK_SOCKET:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0)
			break;
		if (k) {
			io->drain_fd[k] = p[0];
			return p[1];
		}
		shutdown(p[0], SHUT_WR);
		close(p[0]);
		return p[1];
	case SK_TTY: {
		int m;
		fd = open_pty(&m);
		if (fd < 0)
			break;
		io->drain_fd[k] = m;
		if (!k) {
			/* a terminal where the end of input is typed at once (^D) */
			if (write(m, "\x04", 1) != 1)
				break;
			strbuf_addf(notes, "stdin was a terminal; this run gets one where "
				    "nothing is typed\n");
		}
		return fd;
	}
	case SK_CLOSED:
		return -2;
	default:
		break;
	}
	if (kind != SK_UNKNOWN)
		strbuf_addf(notes, "%s was %s in the golden run; this run cannot make one and "
			    "gives %s\n", names[k], stdio_kind_phrase(kind),
			    k ? "a regular file" : "/dev/null");
	io->kinds[k] = k ? SK_FILE : SK_NULL;
	return k ? fcntl(io->out, F_DUPFD_CLOEXEC, 3) : open("/dev/null", O_RDONLY | O_CLOEXEC);
}

int runio_open(struct runio *io, const int *want, const char *outfile, struct strbuf *notes)
{
	static const int dflt[3] = { SK_NULL, SK_FILE, SK_FILE };

	memset(io, 0, sizeof(*io));
	pthread_mutex_init(&io->lock, NULL);
	for (int k = 0; k < 3; k++)
		io->fds[k] = io->drain_fd[k] = -1;
	io->out = open(outfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (io->out < 0)
		return error("cannot open '%s': %s", outfile, strerror(errno));
	for (int k = 0; k < 3; k++) {
		int kind = want && want[k] != SK_UNKNOWN ? want[k] : dflt[k];
		io->kinds[k] = kind;
		io->fds[k] = make_kind(io, k, kind, outfile, notes);
		if (io->fds[k] == -1) {
			int e = errno;
			runio_close(io);
			return error("cannot open the command's %s: %s",
				     k ? "output" : "input", strerror(e));
		}
	}
	return 0;
}

void runio_start(struct runio *io)
{
	for (int k = 1; k < 3; k++) {
		struct drain_arg *a;
		if (io->drain_fd[k] < 0)
			continue;
		a = malloc(sizeof(*a));
		if (!a)
			continue;
		a->io = io;
		a->k = k;
		io->draining[k] = pthread_create(&io->drain[k], NULL, drain_main, a) == 0;
		if (!io->draining[k])
			free(a);
	}
}

void runio_close(struct runio *io)
{
	struct timespec dl;

	for (int k = 0; k < 3; k++) {
		if (io->fds[k] >= 0)
			close(io->fds[k]);
		io->fds[k] = -1;
	}
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += DRAIN_GRACE_MS / 1000;
	for (int k = 1; k < 3; k++) {
		if (!io->draining[k])
			continue;
		if (pthread_timedjoin_np(io->drain[k], NULL, &dl) != 0) {
			pthread_cancel(io->drain[k]);
			pthread_join(io->drain[k], NULL);
		}
		io->draining[k] = false;
	}
	for (int k = 0; k < 3; k++) {
		if (io->drain_fd[k] >= 0)
			close(io->drain_fd[k]);
		io->drain_fd[k] = -1;
	}
	if (io->out >= 0)
		close(io->out);
	io->out = -1;
	pthread_mutex_destroy(&io->lock);
}
