/* Reading tracee memory (see tmem.h). */
#include "sys/tmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/user.h>

#include "util/banned.h"

static int vm_readv_state;   /* 0 unknown, 1 works, -1 missing */
static bool force_peek;
static struct tmem_view *view;  /* recorded memory instead of a process */

void tmem_set_view(struct tmem_view *v)
{
	view = v;
}

int tmem_fd_socket(pid_t tid, int64_t fd, int *family, int *proto)
{
	(void)tid;
	if (!view || view->fd < 0 || view->fd != fd)
		return -1;
	if ((view->fd_mode & S_IFMT) != S_IFSOCK) {
		*family = *proto = -1;
		return 0;
	}
	*family = view->sock_family;
	*proto = view->sock_proto;
	return 0;
}

int tmem_fd_pipe(pid_t tid, int64_t fd, uint64_t *ino)
{
	(void)tid;
	if (!view || view->fd < 0 || view->fd != fd)
		return -1;
	*ino = (view->fd_mode & S_IFMT) == S_IFIFO ? view->fd_ino : 0;
	return 0;
}

ssize_t tmem_fd_link(pid_t tid, int64_t fd, char *buf, size_t size, struct tmem_fdlink *info)
{
	struct tmem_fdlink l;
	char link[64];
	ssize_t n;

	memset(&l, 0, sizeof(l));
	if (info)
		*info = l;
	if (size < 2)
		return -1;
	if (view && view->fd_link) {
		int r = view->fd_link(view->fd_data, tid, fd, &l);

		if (r == 0)
			return -1;
		if (r > 0) {
			n = (ssize_t)strnlen(l.target, size - 1);
			memcpy(buf, l.target, (size_t)n);
			buf[n] = '\0';
			l.target = buf;
			if (info)
				*info = l;
			return n;
		}
	}
	if (fd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", (int)tid);
	else
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, (int)fd);
	n = readlink(link, buf, size - 1);
	if (n <= 0 || (size_t)n >= size - 1)
		return -1;
	buf[n] = '\0';
	if (info)
		info->target = buf;
	return n;
}

bool tmem_viewing(void)
{
	return view != NULL;
}

ssize_t tmem_task_comm(pid_t tid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	if (size < 2)
		return -1;
	if (view && view->task_comm) {
		const char *comm = NULL;
		int r = view->task_comm(view->fd_data, tid, &comm);

		if (r == 0)
			return -1;
		if (r > 0) {
			n = (ssize_t)strnlen(comm, size - 1);
			memcpy(buf, comm, (size_t)n);
			buf[n] = '\0';
			return n ? n : -1;
		}
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	n = (ssize_t)strcspn(buf, "\n");
	buf[n] = '\0';
	return n ? n : -1;
}

int tmem_stack_pointer(pid_t tid, uint64_t *sp)
{
	long v;

	if (view) {
		*sp = view->sp;
		if (!view->sp) {
			errno = EFAULT;
			return -1;
		}
		return 0;
	}
#if defined(__x86_64__)
	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, tid, (void *)offsetof(struct user_regs_struct, rsp), NULL);
	if (errno)
		return -1;
	*sp = (uint64_t)v;
	return 0;
#else
	(void)v;
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * The region of the view that holds addr and serves a read of want bytes
 * (a string read: one whose NUL comes first): the first, in order, that
 * holds them all, else the one that runs furthest (regions overlap: an
 * array copied whole holds the start of the strings after it).  NULL when
 * none holds addr.
 */
static const struct tmem_region *view_find(uint64_t addr, size_t want, bool str)
{
	const struct tmem_region *best = NULL;

	for (size_t i = 0; i < view->n; i++) {
		const struct tmem_region *r = &view->r[i];
		size_t n;

		if (addr < r->addr || addr - r->addr >= r->len)
			continue;
		n = r->len - (size_t)(addr - r->addr);
		if (n >= want || (str && memchr(r->data + (addr - r->addr), '\0', n)))
			return r;
		if (!best || n > best->len - (size_t)(addr - best->addr))
			best = r;
	}
	return best;
}

/* Counts a read the view could not serve whole, at addr. */
static void view_miss(uint64_t addr)
{
	for (size_t i = 0; i < view->n; i++)
		if (view->r[i].fault && view->r[i].addr == addr) {
			view->faults++;
			return;
		}
	view->gaps++;
}

/* tmem_read() from the view: bytes of the regions that hold them, as far
 * as they run on from addr. */
static ssize_t view_read(uint64_t addr, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		const struct tmem_region *r = view_find(addr + done, len - done, false);
		size_t n;

		if (!r)
			break;
		n = r->len - (size_t)(addr + done - r->addr);
		if (n > len - done)
			n = len - done;
		memcpy((char *)buf + done, r->data + (addr + done - r->addr), n);
		done += n;
	}
	if (done < len)
		view_miss(addr + done);
	if (!done) {
		errno = EFAULT;
		return -1;
	}
	return (ssize_t)done;
}

/* tmem_read_str() from the view. */
static ssize_t view_read_str(uint64_t addr, char *buf, size_t max, bool *terminated)
{
	const struct tmem_region *r = view_find(addr, max + 1, true);
	size_t n;
	char *nul;

	if (!r) {
		view_miss(addr);
		errno = EFAULT;
		return -1;
	}
	n = r->len - (size_t)(addr - r->addr);
	if (n > max + 1)
		n = max + 1;
	memcpy(buf, r->data + (addr - r->addr), n);
	nul = memchr(buf, '\0', n);
	if (nul) {
		*terminated = true;
		return nul - buf;
	}
	/* the region ends before the NUL and before max + 1 bytes: the
	 * recorder kept less than the decoder wants */
	if (n < max + 1)
		view_miss(addr + n);
	if (n > max)
		n = max;
	buf[n] = '\0';
	return (ssize_t)n;
}

void tmem_force_peek(bool on)
{
	force_peek = on;
}

static ssize_t peek_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	size_t done = 0;
	uint64_t base = addr & ~(uint64_t)7;
	size_t skip = (size_t)(addr - base);

	while (done < len) {
		long word;
		size_t n;

		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)base, NULL);
		if (errno)
			return done ? (ssize_t)done : -1;
		n = sizeof(word) - skip;
		if (n > len - done)
			n = len - done;
		memcpy((char *)buf + done, (char *)&word + skip, n);
		done += n;
		base += sizeof(word);
		skip = 0;
	}
	return (ssize_t)done;
}

/* Bytes from addr to the end of its page. */
static size_t to_page_end(uint64_t addr)
{
	return 4096 - (size_t)(addr & 4095);
}

ssize_t tmem_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	if (!len)
		return 0;
	if (addr == 0) {
		errno = EFAULT;
		return -1;
	}
	if (view)
		return view_read(addr, buf, len);
	if (!force_peek && vm_readv_state >= 0) {
		struct iovec local = { buf, len };
		struct iovec remote = { (void *)(uintptr_t)addr, len };
		ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);

		if (n >= 0) {
			vm_readv_state = 1;
			return n;
		}
		if (errno == ENOSYS || (errno == EPERM && vm_readv_state == 0)) {
			vm_readv_state = -1;
		} else if (errno == EFAULT) {
			/* part of the range may be readable: retry page by page */
			size_t done = 0;
			while (done < len) {
				size_t chunk = to_page_end(addr + done);
				if (chunk > len - done)
					chunk = len - done;
				local.iov_base = (char *)buf + done;
				local.iov_len = chunk;
				remote.iov_base = (void *)(uintptr_t)(addr + done);
				remote.iov_len = chunk;
				n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
				if (n <= 0)
					break;
				done += (size_t)n;
				if ((size_t)n < chunk)
					break;
			}
			if (!done) {
				errno = EFAULT;
				return -1;
			}
			return (ssize_t)done;
		} else {
			return -1;
		}
	}
	return peek_read(tid, addr, buf, len);
}

ssize_t tmem_read_str(pid_t tid, uint64_t addr, char *buf, size_t max,
		      bool *terminated)
{
	size_t done = 0;

	*terminated = false;
	if (addr == 0) {
		errno = EFAULT;
		return -1;
	}
	if (view)
		return view_read_str(addr, buf, max, terminated);
	while (done < max + 1) {
		/* read to the end of the page so we never fault on a string
		 * that ends just before an unmapped page */
		size_t chunk = to_page_end(addr + done);
		ssize_t n;
		char *nul;

		if (chunk > max + 1 - done)
			chunk = max + 1 - done;
		n = tmem_read(tid, addr + done, buf + done, chunk);
		if (n <= 0) {
			if (!done)
				return -1;
			break;
		}
		nul = memchr(buf + done, '\0', (size_t)n);
		if (nul) {
			*terminated = true;
			return nul - buf;
		}
		done += (size_t)n;
		if ((size_t)n < chunk)
			break;
	}
	if (done > max)
		done = max;
	buf[done] = '\0';
	return (ssize_t)done;
}

int tmem_write(pid_t tid, uint64_t addr, const void *buf, size_t len)
{
	struct iovec local = { (void *)buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	const unsigned char *p = buf;
	size_t done = 0;

	if (view) {
		errno = EPERM;
		return -1;
	}
	if (!force_peek && process_vm_writev(tid, &local, 1, &remote, 1, 0) == (ssize_t)len)
		return 0;
	/* word by word; the last partial word keeps the bytes around it */
	while (done < len) {
		uint64_t a = addr + done, word;
		size_t off = a % sizeof(long), n = sizeof(long) - off;

		if (n > len - done)
			n = len - done;
		errno = 0;
		word = (uint64_t)ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)(a - off), NULL);
		if (errno)
			return -1;
		memcpy((unsigned char *)&word + off, p + done, n);
		if (ptrace(PTRACE_POKEDATA, tid, (void *)(uintptr_t)(a - off), (void *)(uintptr_t)word) < 0)
			return -1;
		done += n;
	}
	return 0;
}
