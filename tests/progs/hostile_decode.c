/*
 * Calls whose arguments claim far more tracee memory than they hold, for
 * the decoders' memory caps (tests/t/decode_bounded.sh):
 *   execve N          execve("/bin/true") with N argument pointers (also
 *                     the environment) to short strings: fails with E2BIG
 *   writev_unmapped N writev(1) of N iovecs claiming 1 GiB each over one
 *                     page (the rest unmapped); run with fd 1 on /dev/null
 *   writev_mapped N   the same over 1 GiB mapped but never touched (the
 *                     tracee reads zeros there), then write(1) of it
 *   select            select(1 << 30) with three sets of 1M bits all set:
 *                     fails (EINVAL or EBADF) after it is decoded
 *   sendmmsg          sendmmsg(-1) of 1024 messages of 1024 iovecs of 4 KiB
 *                     each over 4 MiB of readable memory: fails (EBADF)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define GIB (1ul << 30)

static int do_execve(long n)
{
	char **argv = malloc((size_t)(n + 1) * sizeof(*argv));
	static char s[16][8];

	if (!argv)
		return 1;
	for (int i = 0; i < 16; i++)
		snprintf(s[i], sizeof(s[i]), "a%d", i);
	for (long i = 0; i < n; i++)
		argv[i] = s[i % 16];
	argv[n] = NULL;
	execve("/bin/true", argv, argv);
	return 0;
}

static int do_writev(long n, int mapped)
{
	struct iovec *iov = calloc((size_t)n, sizeof(*iov));
	char *buf;

	if (!iov)
		return 1;
	if (mapped) {
		buf = mmap(NULL, GIB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			   -1, 0);
	} else {
		buf = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf != MAP_FAILED) {
			munmap(buf + 4096, 4096);
			memset(buf, 'x', 4096);
		}
	}
	if (buf == MAP_FAILED)
		return 1;
	for (long i = 0; i < n; i++) {
		iov[i].iov_base = buf;
		iov[i].iov_len = GIB;
	}
	/* to /dev/null: the kernel does not read the buffers */
	writev(1, iov, (int)n);
	if (mapped)
		write(1, buf, GIB);
	return 0;
}

static int do_select(void)
{
	size_t bytes = (1u << 20) / 8;
	void *in = malloc(bytes), *out = malloc(bytes), *ex = malloc(bytes);
	struct timeval tv = { 0, 0 };

	if (!in || !out || !ex)
		return 1;
	memset(in, 0xff, bytes);
	memset(out, 0xff, bytes);
	memset(ex, 0xff, bytes);
	syscall(SYS_select, 1 << 30, in, out, ex, &tv);
	return 0;
}

static int do_sendmmsg(void)
{
	enum { MSGS = 1024, IOVS = 1024 };
	struct mmsghdr *m = calloc(MSGS, sizeof(*m));
	struct iovec *iov = calloc(IOVS, sizeof(*iov));
	char *buf = malloc(IOVS * 4096);

	if (!m || !iov || !buf)
		return 1;
	for (int i = 0; i < IOVS * 4096; i++)
		buf[i] = (char)(i * 7);
	for (int i = 0; i < IOVS; i++) {
		iov[i].iov_base = buf + i * 4096;
		iov[i].iov_len = 4096;
	}
	for (int i = 0; i < MSGS; i++) {
		m[i].msg_hdr.msg_iov = iov;
		m[i].msg_hdr.msg_iovlen = IOVS;
	}
	syscall(SYS_sendmmsg, -1, m, MSGS, 0);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "execve"))
		return do_execve(n);
	if (!strcmp(argv[1], "writev_unmapped"))
		return do_writev(n, 0);
	if (!strcmp(argv[1], "writev_mapped"))
		return do_writev(n, 1);
	if (!strcmp(argv[1], "select"))
		return do_select();
	if (!strcmp(argv[1], "sendmmsg"))
		return do_sendmmsg();
	return 2;
}
