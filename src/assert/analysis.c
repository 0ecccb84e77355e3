/*
 * The analysis sink: folds every event of a run (live or replayed) into the
 * bounded state that assertions and anti-pattern detectors read
 * (internal.h).  Nothing here keeps an event or a pointer into one.
 */
#include <stdlib.h>
#include <string.h>

#include "assert/internal.h"
#include "sink/render.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define PAGE 4096ULL
#define MIN_REPEATS 20        /* cycles shorter than this are not loops */
#define FD_MAX (1u << 20)     /* fds above this are not tracked */

/* What the analysis does with a syscall, by name. */
enum sc_kind {
	K_OTHER = 0,
	K_OPEN,        /* path in arg 0, returns an fd */
	K_OPENAT,      /* dirfd 0, path 1, returns an fd */
	K_STAT0,       /* path in arg 0, no fd */
	K_STATAT,      /* dirfd 0, path 1, no fd */
	K_CLOSE,
	K_CLOSE_RANGE,
	K_DUP,
	K_DUP2,
	K_FCNTL,
	K_PIPE,
	K_SOCKET,      /* returns a socket */
	K_SOCKETPAIR,
	K_SPECIALFD,   /* returns an fd that is not a file */
	K_READ,        /* fd 0, bytes in the result */
	K_WRITE,
	K_IOCTL,
	K_MMAP,
	K_MUNMAP,
	K_MREMAP,
	K_BRK,
	K_CLONE,
	K_CLONE3,
	K_FORK,
	K_VFORK,
	K_EXECVE,
	K_EXECVEAT,
	K_WAIT4,
	K_WAITID,
	K_GETDENTS,    /* progress when > 0 */
	K_XFER,        /* sendfile, splice, copy_file_range: progress */
};

/* Flags of a syscall name beyond its kind. */
enum { SF_BLOCKING = 1, SF_GPU_OP = 2 };

static const struct { const char *name; uint8_t kind, flags; } sc_table[] = {
	{ "open", K_OPEN, 0 }, { "creat", K_OPEN, 0 },
	{ "openat", K_OPENAT, 0 }, { "openat2", K_OPENAT, 0 },
	{ "stat", K_STAT0, 0 }, { "lstat", K_STAT0, 0 }, { "access", K_STAT0, 0 },
	{ "readlink", K_STAT0, 0 }, { "statfs", K_STAT0, 0 },
	{ "newfstatat", K_STATAT, 0 }, { "fstatat64", K_STATAT, 0 },
	{ "statx", K_STATAT, 0 }, { "faccessat", K_STATAT, 0 },
	{ "faccessat2", K_STATAT, 0 }, { "readlinkat", K_STATAT, 0 },
	{ "close", K_CLOSE, 0 }, { "close_range", K_CLOSE_RANGE, 0 },
	{ "dup", K_DUP, 0 }, { "dup2", K_DUP2, 0 }, { "dup3", K_DUP2, 0 },
	{ "fcntl", K_FCNTL, 0 },
	{ "pipe", K_PIPE, 0 }, { "pipe2", K_PIPE, 0 },
	{ "socket", K_SOCKET, 0 }, { "accept", K_SOCKET, SF_BLOCKING },
	{ "accept4", K_SOCKET, SF_BLOCKING }, { "socketpair", K_SOCKETPAIR, 0 },
	{ "eventfd", K_SPECIALFD, 0 }, { "eventfd2", K_SPECIALFD, 0 },
	{ "timerfd_create", K_SPECIALFD, 0 }, { "signalfd", K_SPECIALFD, 0 },
	{ "signalfd4", K_SPECIALFD, 0 }, { "epoll_create", K_SPECIALFD, 0 },
	{ "epoll_create1", K_SPECIALFD, 0 }, { "inotify_init", K_SPECIALFD, 0 },
	{ "inotify_init1", K_SPECIALFD, 0 }, { "memfd_create", K_SPECIALFD, 0 },
	{ "userfaultfd", K_SPECIALFD, 0 }, { "perf_event_open", K_SPECIALFD, 0 },
	{ "pidfd_open", K_SPECIALFD, 0 }, { "fanotify_init", K_SPECIALFD, 0 },
	{ "io_uring_setup", K_SPECIALFD, 0 },
	{ "read", K_READ, SF_GPU_OP }, { "pread64", K_READ, SF_GPU_OP },
	{ "readv", K_READ, SF_GPU_OP }, { "preadv", K_READ, SF_GPU_OP },
	{ "preadv2", K_READ, SF_GPU_OP }, { "recvfrom", K_READ, 0 },
	{ "recvmsg", K_READ, 0 },
	{ "write", K_WRITE, SF_GPU_OP }, { "pwrite64", K_WRITE, SF_GPU_OP },
	{ "writev", K_WRITE, SF_GPU_OP }, { "pwritev", K_WRITE, SF_GPU_OP },
	{ "pwritev2", K_WRITE, SF_GPU_OP }, { "sendto", K_WRITE, 0 },
	{ "sendmsg", K_WRITE, 0 },
	{ "ioctl", K_IOCTL, SF_GPU_OP },
	{ "mmap", K_MMAP, SF_GPU_OP }, { "munmap", K_MUNMAP, 0 },
	{ "mremap", K_MREMAP, 0 }, { "brk", K_BRK, 0 },
	{ "clone", K_CLONE, 0 }, { "clone3", K_CLONE3, 0 },
	{ "fork", K_FORK, 0 }, { "vfork", K_VFORK, SF_BLOCKING },
	{ "execve", K_EXECVE, 0 }, { "execveat", K_EXECVEAT, 0 },
	{ "wait4", K_WAIT4, SF_BLOCKING }, { "waitid", K_WAITID, SF_BLOCKING },
	{ "getdents64", K_GETDENTS, 0 }, { "getdents", K_GETDENTS, 0 },
	{ "sendfile", K_XFER, 0 }, { "splice", K_XFER, 0 }, { "tee", K_XFER, 0 },
	{ "copy_file_range", K_XFER, 0 },
	/* calls that wait rather than work (GodProcess's idle time) */
	{ "futex", K_OTHER, SF_BLOCKING }, { "futex_waitv", K_OTHER, SF_BLOCKING },
	{ "poll", K_OTHER, SF_BLOCKING }, { "ppoll", K_OTHER, SF_BLOCKING },
	{ "select", K_OTHER, SF_BLOCKING }, { "pselect6", K_OTHER, SF_BLOCKING },
	{ "epoll_wait", K_OTHER, SF_BLOCKING }, { "epoll_pwait", K_OTHER, SF_BLOCKING },
	{ "epoll_pwait2", K_OTHER, SF_BLOCKING }, { "nanosleep", K_OTHER, SF_BLOCKING },
	{ "clock_nanosleep", K_OTHER, SF_BLOCKING }, { "pause", K_OTHER, SF_BLOCKING },
	{ "rt_sigsuspend", K_OTHER, SF_BLOCKING }, { "rt_sigtimedwait", K_OTHER, SF_BLOCKING },
	{ "exit", K_OTHER, SF_BLOCKING }, { "exit_group", K_OTHER, SF_BLOCKING },
	{ "io_getevents", K_OTHER, SF_BLOCKING }, { "msgrcv", K_OTHER, SF_BLOCKING },
	{ "semop", K_OTHER, SF_BLOCKING }, { "semtimedop", K_OTHER, SF_BLOCKING },
	{ "mq_timedreceive", K_OTHER, SF_BLOCKING },
};


/* ---- small hash helpers ------------------------------------------------- */

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	if (!h)
		h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t hash_u64(uint64_t h, uint64_t v)
{
	return hash_bytes(h, &v, sizeof(v));
}

/* ---- interned names ------------------------------------------------------ */

static uint32_t intern(struct analysis *a, const char *name)
{
	if (!name)
		name = "?";
	size_t len = strlen(name);
	if (a->name_hash_size == 0 || (a->nnames + 1) * 2 > a->name_hash_size) {
		size_t ns = a->name_hash_size ? a->name_hash_size * 2 : 256;
		uint32_t *nh = xcalloc(ns, sizeof(*nh));
		for (size_t i = 0; i < a->nnames; i++) {
			uint64_t h = hash_bytes(0, a->names[i].name, strlen(a->names[i].name));
			size_t j = h & (ns - 1);
			while (nh[j])
				j = (j + 1) & (ns - 1);
			nh[j] = (uint32_t)i + 1;
		}
		free(a->name_hash);
		a->name_hash = nh;
		a->name_hash_size = ns;
	}
	uint64_t h = hash_bytes(0, name, len);
	size_t j = h & (a->name_hash_size - 1);
	while (a->name_hash[j]) {
		uint32_t idx = a->name_hash[j] - 1;
		if (!strcmp(a->names[idx].name, name))
			return idx;
		j = (j + 1) & (a->name_hash_size - 1);
	}
	ALLOC_GROW(a->names, a->nnames + 1, a->anames);
	struct sc_name *n = &a->names[a->nnames];
	memset(n, 0, sizeof(*n));
	n->name = xstrdup(name);
	for (size_t k = 0; k < ARRAY_SIZE(sc_table); k++)
		if (!strcmp(sc_table[k].name, name)) {
			n->kind = sc_table[k].kind;
			n->flags = sc_table[k].flags;
			break;
		}
	a->name_hash[j] = (uint32_t)a->nnames + 1;
	return (uint32_t)a->nnames++;
}

/* ---- the analysis ------------------------------------------------------------ */

struct analysis *analysis_new(void)
{
	struct analysis *a = xcalloc(1, sizeof(*a));
	a->root = -1;
	return a;
}

static void proc_release(struct proc *p);

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nnames; i++)
		free(a->names[i].name);
	free(a->names);
	free(a->name_hash);
	for (size_t i = 0; i < a->nprocs; i++) {
		proc_release(&a->procs[i]);
		free(a->procs[i].name);
	}
	free(a->procs);
	free(a->pid_hash);
	free(a->rt_net_us);
	free(a->rt_wall_us);
	for (size_t i = 0; i < a->ntasks; i++)
		if (a->tasks[i].loop) {
			for (int p = 0; p <= LOOP_MAXP; p++)
				free(a->tasks[i].loop->run[p].sample);
			free(a->tasks[i].loop);
		}
	free(a->tasks);
	free(a->tid_hash);
	for (size_t i = 0; i < a->nloops; i++)
		free(a->loops[i].sample);
	for (size_t i = 0; i < a->paths_size; i++)
		free(a->paths[i].path);
	free(a->paths);
	for (size_t i = 0; i < a->nkept_paths; i++)
		free(a->kept_paths[i].path);
	for (size_t i = 0; i < a->nio; i++)
		free(a->io[i].path);
	for (size_t i = 0; i < a->ngpu; i++)
		free(a->gpu[i].path);
	free(a);
}

/* ---- id maps (pid -> proc, tid -> task): latest entry wins ---------------- */

static int *idmap_slot(int **tab, size_t *size, size_t *used, pid_t id,
		       const void *base, size_t stride, size_t idoff, bool insert)
{
	if (insert && (*size == 0 || (*used + 1) * 2 > *size)) {
		size_t ns = *size ? *size * 2 : 256;
		int *nt = xcalloc(ns, sizeof(int));
		for (size_t i = 0; i < *size; i++) {
			if (!(*tab)[i])
				continue;
			pid_t k = *(const pid_t *)((const char *)base + (size_t)((*tab)[i] - 1) * stride + idoff);
			size_t j = (size_t)hash_u64(0, (uint64_t)k) & (ns - 1);
			while (nt[j])
				j = (j + 1) & (ns - 1);
			nt[j] = (*tab)[i];
		}
		free(*tab);
		*tab = nt;
		*size = ns;
	}
	if (!*size)
		return NULL;
	size_t j = (size_t)hash_u64(0, (uint64_t)id) & (*size - 1);
	while ((*tab)[j]) {
		pid_t k = *(const pid_t *)((const char *)base + (size_t)((*tab)[j] - 1) * stride + idoff);
		if (k == id)
			return &(*tab)[j];
		j = (j + 1) & (*size - 1);
	}
	if (!insert)
		return NULL;
	(*used)++;
	return &(*tab)[j];
}

static int proc_find(const struct analysis *a, pid_t pid)
{
	struct analysis *m = (struct analysis *)a;
	int *s = idmap_slot(&m->pid_hash, &m->pid_hash_size, &m->pid_hash_used, pid,
			    a->procs, sizeof(*a->procs), offsetof(struct proc, pid), false);
	return s ? *s - 1 : -1;
}

static int task_find(const struct analysis *a, pid_t tid)
{
	struct analysis *m = (struct analysis *)a;
	int *s = idmap_slot(&m->tid_hash, &m->tid_hash_size, &m->tid_hash_used, tid,
			    a->tasks, sizeof(*a->tasks), offsetof(struct task, tid), false);
	return s ? *s - 1 : -1;
}

static int proc_new(struct analysis *a, pid_t pid, uint64_t ts)
{
	ALLOC_GROW(a->procs, a->nprocs + 1, a->aprocs);
	int idx = (int)a->nprocs++;
	struct proc *p = &a->procs[idx];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->parent = -1;
	p->copy_from = -1;
	p->start_ns = ts;
	p->live = true;
	int *s = idmap_slot(&a->pid_hash, &a->pid_hash_size, &a->pid_hash_used, pid,
			    a->procs, sizeof(*a->procs), offsetof(struct proc, pid), true);
	*s = idx + 1;
	if (a->root < 0)
		a->root = idx;
	return idx;
}

static int task_new(struct analysis *a, pid_t tid, pid_t pid, int proc, uint64_t ts)
{
	ALLOC_GROW(a->tasks, a->ntasks + 1, a->atasks);
	int idx = (int)a->ntasks++;
	struct task *t = &a->tasks[idx];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	t->proc = proc;
	t->first_ns = t->last_ns = ts;
	int *s = idmap_slot(&a->tid_hash, &a->tid_hash_size, &a->tid_hash_used, tid,
			    a->tasks, sizeof(*a->tasks), offsetof(struct task, tid), true);
	*s = idx + 1;
	a->procs[proc].threads++;
	return idx;
}

/* The process of pid, created on first sight. */
/*
 * The process of pid, created on first sight.  Events of a process that
 * exited (its exit_group record comes after its exit) still belong to it: a
 * new process with a reused pid is only made by PROC_START or a clone result.
 */
static int proc_get(struct analysis *a, pid_t pid, uint64_t ts)
{
	int i = proc_find(a, pid);
	return i >= 0 ? i : proc_new(a, pid, ts);
}

static int task_get(struct analysis *a, pid_t tid, pid_t pid, uint64_t ts)
{
	int i = task_find(a, tid);
	int pi = proc_get(a, pid, ts);
	if (i >= 0 && (!a->tasks[i].exited || a->tasks[i].proc == pi)) {
		struct task *t = &a->tasks[i];
		if (t->pid != pid || t->proc != pi) {
			/* a thread that exec'ed took the leader's role */
			t->pid = pid;
			t->proc = pi;
		}
		return i;
	}
	return task_new(a, tid, pid, pi, ts);
}

/* ---- mappings ------------------------------------------------------------- */

/* Index of the first range with hi > lo. */
static size_t mapset_lower(const struct mapset *m, uint64_t lo)
{
	size_t l = 0, h = m->n;
	while (l < h) {
		size_t mid = (l + h) / 2;
		if (m->r[mid].hi <= lo)
			l = mid + 1;
		else
			h = mid;
	}
	return l;
}

void mapset_remove(struct mapset *m, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	size_t i = mapset_lower(m, lo);
	while (i < m->n && m->r[i].lo < hi) {
		struct range *r = &m->r[i];
		if (r->lo < lo && r->hi > hi) {
			/* split in two */
			ALLOC_GROW(m->r, m->n + 1, m->alloc);
			r = &m->r[i];
			memmove(&m->r[i + 2], &m->r[i + 1], (m->n - i - 1) * sizeof(*r));
			m->r[i + 1].lo = hi;
			m->r[i + 1].hi = r->hi;
			r->hi = lo;
			m->n++;
			m->bytes -= hi - lo;
			return;
		}
		if (r->lo < lo) {
			m->bytes -= r->hi - lo;
			r->hi = lo;
			i++;
			continue;
		}
		if (r->hi > hi) {
			m->bytes -= hi - r->lo;
			r->lo = hi;
			return;
		}
		m->bytes -= r->hi - r->lo;
		memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof(*r));
		m->n--;
	}
}

void mapset_add(struct mapset *m, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return;
	mapset_remove(m, lo, hi);
	size_t i = mapset_lower(m, lo);
	/* merge with neighbours that touch */
	bool left = i > 0 && m->r[i - 1].hi == lo;
	bool right = i < m->n && m->r[i].lo == hi;
	m->bytes += hi - lo;
	if (left && right) {
		m->r[i - 1].hi = m->r[i].hi;
		memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof(*m->r));
		m->n--;
	} else if (left) {
		m->r[i - 1].hi = hi;
	} else if (right) {
		m->r[i].lo = lo;
	} else {
		ALLOC_GROW(m->r, m->n + 1, m->alloc);
		memmove(&m->r[i + 1], &m->r[i], (m->n - i) * sizeof(*m->r));
		m->r[i].lo = lo;
		m->r[i].hi = hi;
		m->n++;
	}
}

void mapset_copy(struct mapset *dst, const struct mapset *src)
{
	mapset_release(dst);
	if (src->n) {
		dst->r = xmemdup(src->r, src->n * sizeof(*src->r));
		dst->n = dst->alloc = src->n;
	}
	dst->bytes = src->bytes;
}

void mapset_release(struct mapset *m)
{
	free(m->r);
	memset(m, 0, sizeof(*m));
}

static uint64_t page_up(uint64_t x)
{
	return (x + PAGE - 1) & ~(PAGE - 1);
}

/* Recomputes p's total and the tree's, tracking the peak. */
static void mem_update(struct analysis *a, struct proc *p, uint64_t ts)
{
	uint64_t heap = p->brk_cur > p->brk_base ? p->brk_cur - p->brk_base : 0;
	uint64_t now = p->maps.bytes + heap;
	a->mem_now = a->mem_now - p->mem + now;
	p->mem = now;
	if (now > p->mem_peak)
		p->mem_peak = now;
	if (a->mem_now > a->mem_peak) {
		a->mem_peak = a->mem_now;
		a->mem_peak_ns = ts;
		a->mem_peak_pid = p->pid;
		a->mem_peak_pid_bytes = now;
	}
}

/* A forked child not yet given its copy of the parent's memory gets it. */
static void mem_materialize(struct analysis *a, struct proc *c, uint64_t ts)
{
	if (c->copy_from < 0)
		return;
	struct proc *par = &a->procs[c->copy_from];
	c->copy_from = -1;
	mapset_copy(&c->maps, &par->maps);
	c->brk_base = par->brk_base;
	c->brk_cur = par->brk_cur;
	mem_update(a, c, ts);
}

static void mem_reset(struct analysis *a, struct proc *p, uint64_t ts)
{
	p->copy_from = -1;
	mapset_release(&p->maps);
	p->brk_base = p->brk_cur = 0;
	mem_update(a, p, ts);
}

/* ---- fds --------------------------------------------------------------- */

static bool is_gpu_path(const char *p)
{
	return !strncmp(p, "/dev/nvidia", 11) || !strncmp(p, "/dev/dri/", 9) ||
	       !strcmp(p, "/dev/kfd") || !strncmp(p, "/dev/accel/", 11);
}

static struct fdent *fd_slot(struct proc *p, int64_t fd, bool create)
{
	if (fd < 0 || fd >= FD_MAX)
		return NULL;
	if ((size_t)fd >= p->fds.n) {
		if (!create)
			return NULL;
		size_t nn = p->fds.n ? p->fds.n : 16;
		while (nn <= (size_t)fd)
			nn *= 2;
		p->fds.e = xreallocarray(p->fds.e, nn, sizeof(*p->fds.e));
		memset(p->fds.e + p->fds.n, 0, (nn - p->fds.n) * sizeof(*p->fds.e));
		p->fds.n = nn;
	}
	return &p->fds.e[fd];
}

/* Keeps the worst tiny-transfer fds (by confidence, then calls). */
static void io_keep(struct analysis *a, pid_t pid, int64_t fd, const char *path,
		    uint64_t calls, uint64_t bytes, bool writes)
{
	double c = unbuffered_confidence(calls, bytes);
	if (c <= 0)
		return;
	size_t slot = a->nio;
	if (a->nio == IO_KEPT) {
		slot = 0;
		for (size_t i = 1; i < a->nio; i++) {
			double ci = unbuffered_confidence(a->io[i].calls, a->io[i].bytes);
			double cs = unbuffered_confidence(a->io[slot].calls, a->io[slot].bytes);
			if (ci < cs || (ci == cs && a->io[i].calls < a->io[slot].calls))
				slot = i;
		}
		double cw = unbuffered_confidence(a->io[slot].calls, a->io[slot].bytes);
		if (c < cw || (c == cw && calls <= a->io[slot].calls))
			return;
		free(a->io[slot].path);
	} else {
		a->nio++;
	}
	struct io_found *f = &a->io[slot];
	f->pid = pid;
	f->fd = fd;
	f->path = path ? xstrdup(path) : NULL;
	f->calls = calls;
	f->bytes = bytes;
	f->writes = writes;
}

static void fd_fold(struct analysis *a, struct proc *p, int64_t fd, struct fdent *e)
{
	if (e->kind != FK_SPECIAL && e->kind != FK_GPU) {
		const char *path = e->path;
		if (e->rd_calls)
			io_keep(a, p->pid, fd, path, e->rd_calls, e->rd_bytes, false);
		if (e->wr_calls)
			io_keep(a, p->pid, fd, path, e->wr_calls, e->wr_bytes, true);
	}
	free(e->path);
	memset(e, 0, sizeof(*e));
}

static void fd_close(struct analysis *a, struct proc *p, int64_t fd)
{
	struct fdent *e = fd_slot(p, fd, false);
	if (e && e->used)
		fd_fold(a, p, fd, e);
}

static void fd_open(struct analysis *a, struct proc *p, int64_t fd, uint8_t kind,
		   const char *path, bool cloexec)
{
	struct fdent *e = fd_slot(p, fd, true);
	if (!e)
		return;
	if (e->used)
		fd_fold(a, p, fd, e);
	e->used = true;
	e->kind = kind;
	e->cloexec = cloexec;
	e->path = path ? xstrdup(path) : NULL;
	if (path && is_gpu_path(path))
		e->kind = FK_GPU;
}

/* The entry of an fd in use, creating an inherited one on first sight. */
static struct fdent *fd_use(struct proc *p, int64_t fd, const struct event *ev, unsigned argi)
{
	struct fdent *e = fd_slot(p, fd, true);
	if (!e)
		return NULL;
	if (!e->used) {
		e->used = true;
		e->kind = FK_UNKNOWN;
	}
	if (!e->path) {
		struct strbuf sb = STRBUF_INIT;
		if (ev_arg_fd_path(ev, argi, &sb)) {
			e->path = strbuf_detach(&sb, NULL);
			if (is_gpu_path(e->path))
				e->kind = FK_GPU;
			else if (!strncmp(e->path, "pipe:", 5))
				e->kind = FK_PIPE;
			else if (!strncmp(e->path, "socket:", 7))
				e->kind = FK_SOCKET;
			else if (!strncmp(e->path, "anon_inode:", 11))
				e->kind = FK_SPECIAL;
		}
		strbuf_release(&sb);
	}
	return e;
}

static void fdtab_copy(struct proc *dst, const struct proc *src)
{
	for (size_t i = 0; i < src->fds.n; i++) {
		const struct fdent *s = &src->fds.e[i];
		if (!s->used)
			continue;
		struct fdent *d = fd_slot(dst, (int64_t)i, true);
		d->used = true;
		d->kind = s->kind;
		d->cloexec = s->cloexec;
		d->path = s->path ? xstrdup(s->path) : NULL;
	}
}

/* ---- redundant file access ------------------------------------------------ */

static uint64_t path_hash(pid_t pid, const char *path)
{
	return hash_bytes(hash_u64(0, (uint64_t)pid), path, strlen(path));
}

static struct path_use *path_lookup(struct analysis *a, struct proc *p, const char *path,
				    bool create)
{
	if (create && (a->paths_size == 0 || (a->paths_used + 1) * 2 > a->paths_size)) {
		if (a->paths_used >= PATHS_MAX) {
			a->paths_dropped++;
			create = false;
		} else {
			size_t ns = a->paths_size ? a->paths_size * 2 : 256;
			struct path_use *nt = xcalloc(ns, sizeof(*nt));
			for (size_t i = 0; i < a->paths_size; i++) {
				if (!a->paths[i].path)
					continue;
				size_t j = path_hash(a->paths[i].pid, a->paths[i].path) & (ns - 1);
				while (nt[j].path)
					j = (j + 1) & (ns - 1);
				nt[j] = a->paths[i];
			}
			free(a->paths);
			a->paths = nt;
			a->paths_size = ns;
		}
	}
	if (!a->paths_size)
		return NULL;
	int pidx = (int)(p - a->procs);
	size_t j = path_hash(p->pid, path) & (a->paths_size - 1);
	while (a->paths[j].path) {
		if (a->paths[j].proc == pidx && !strcmp(a->paths[j].path, path))
			return &a->paths[j];
		j = (j + 1) & (a->paths_size - 1);
	}
	if (!create)
		return NULL;
	a->paths_used++;
	struct path_use *u = &a->paths[j];
	memset(u, 0, sizeof(*u));
	u->path = xstrdup(path);
	u->pid = p->pid;
	u->proc = pidx;
	return u;
}

static uint64_t path_redundant(const struct path_use *u)
{
	uint64_t n = (uint64_t)u->opens + u->stats;
	return n > 1 ? n - 1 : 0;
}

static void path_keep(struct analysis *a, const struct path_use *u)
{
	uint64_t r = path_redundant(u);
	if (!r)
		return;
	size_t slot = a->nkept_paths;
	if (slot == PATHS_KEPT) {
		slot = 0;
		for (size_t i = 1; i < PATHS_KEPT; i++)
			if (path_redundant(&a->kept_paths[i]) < path_redundant(&a->kept_paths[slot]))
				slot = i;
		if (path_redundant(&a->kept_paths[slot]) >= r)
			return;
		free(a->kept_paths[slot].path);
	} else {
		a->nkept_paths++;
	}
	a->kept_paths[slot] = *u;
	a->kept_paths[slot].path = xstrdup(u->path);
}

/* Moves p's path counters to the kept list and frees them (table rebuilt). */
static void paths_fold_proc(struct analysis *a, int pidx)
{
	if (!a->paths_size)
		return;
	bool any = false;
	for (size_t i = 0; i < a->paths_size; i++) {
		struct path_use *u = &a->paths[i];
		if (u->path && u->proc == pidx) {
			path_keep(a, u);
			free(u->path);
			u->path = NULL;
			a->paths_used--;
			any = true;
		}
	}
	if (!any)
		return;
	/* rehash the survivors so that probing stays correct */
	struct path_use *old = a->paths;
	size_t os = a->paths_size;
	a->paths = xcalloc(os, sizeof(*old));
	for (size_t i = 0; i < os; i++) {
		if (!old[i].path)
			continue;
		size_t j = path_hash(old[i].pid, old[i].path) & (os - 1);
		while (a->paths[j].path)
			j = (j + 1) & (os - 1);
		a->paths[j] = old[i];
	}
	free(old);
}

/* Joins a relative path to its dirfd's path when known. */
static void resolve_at(struct proc *p, const struct event *ev, unsigned dirarg,
		       struct strbuf *path)
{
	uint64_t dfd;
	if (path->len && path->buf[0] == '/')
		return;
	if (!ev_arg_num(ev, dirarg, &dfd) || (int64_t)dfd < 0)
		return;
	struct fdent *e = fd_slot(p, (int64_t)dfd, false);
	if (!e || !e->path)
		return;
	struct strbuf j = STRBUF_INIT;
	strbuf_addstr(&j, e->path);
	if (path->len) {
		strbuf_addch(&j, '/');
		strbuf_add(&j, path->buf, path->len);
	}
	strbuf_release(path);
	*path = j;
}

/* ---- tight loops ------------------------------------------------------------ */

static uint64_t hash_text_masked(uint64_t h, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '0' && i + 1 < n && p[i + 1] == 'x') {
			h = hash_bytes(h, "0x?", 3);
			i += 2;
			while (i < n && ((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
				i++;
			i--;
			continue;
		}
		h = hash_bytes(h, &p[i], 1);
	}
	return h;
}

static uint64_t hash_val(uint64_t h, const struct val *v)
{
	h = hash_u64(h, v->kind);
	switch (v->kind) {
	case V_INT: return hash_u64(h, (uint64_t)v->i);
	case V_UINT: case V_OCT: return hash_u64(h, v->u);
	case V_FD: return hash_u64(h, (uint64_t)v->fd.fd);
	case V_FLAGS: case V_ENUM: return hash_u64(h, v->x.v);
	case V_SIGSET: return hash_u64(h, v->sig.mask);
	case V_STR:
		if (v->flags & VF_EXIT)
			return h;
		return hash_bytes(h, v->s.p, v->s.len);
	case V_TEXT:
		return v->s.p ? hash_text_masked(h, v->s.p, v->s.len) : h;
	case V_STRUCT: case V_ARRAY: case V_OP:
		if (v->flags & VF_EXIT)
			return h;
		for (uint32_t k = 0; k < v->c.n; k++)
			h = hash_val(h, &v->c.items[k]);
		return h;
	default:
		return h;   /* V_PTR, V_HEX (addresses), V_COMMENT: masked */
	}
}

/* A fresh renderer of one call, for the report: "stat(\"/x\", ...) = -1 ENOENT". */
static char *render_call(const struct event *ev)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, ev->name ? ev->name : "?");
	strbuf_addch(&sb, '(');
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++) {
		if (i)
			strbuf_addstr(&sb, ", ");
		size_t before = sb.len;
		val_render(&sb, &ev->args[i], NULL);
		if (sb.len - before > 48) {
			strbuf_setlen(&sb, before + 45);
			strbuf_addstr(&sb, "...");
		}
	}
	strbuf_addstr(&sb, ") = ");
	event_render_result(&sb, ev, NULL);
	return strbuf_detach(&sb, NULL);
}

static bool cycle_has_smaller_period(const uint64_t *c, unsigned p)
{
	for (unsigned q = 1; q < p; q++) {
		if (p % q)
			continue;
		bool same = true;
		for (unsigned i = 0; i < p && same; i++)
			same = c[i] == c[(i + q) % p];
		if (same)
			return true;
	}
	return false;
}

static void loop_keep(struct analysis *a, const struct loop_found *lf)
{
	size_t slot = a->nloops;
	if (slot == LOOPS_KEPT) {
		slot = 0;
		for (size_t i = 1; i < LOOPS_KEPT; i++)
			if (a->loops[i].calls < a->loops[slot].calls)
				slot = i;
		if (a->loops[slot].calls >= lf->calls) {
			free(lf->sample);
			return;
		}
		free(a->loops[slot].sample);
	} else {
		a->nloops++;
	}
	a->loops[slot] = *lf;
}

/*
 * Ends the run of period p of t.  The cycle is the last p calls in the ring
 * (pos is the number of calls pushed when the run ended).
 */
static void loop_close(struct analysis *a, struct task *task, unsigned p, uint64_t pos)
{
	struct loop_state *t = task->loop;
	struct loop_run *r = &t->run[p];
	uint64_t repeats = r->len / p + 1;
	if (r->len && repeats >= MIN_REPEATS && pos >= p) {
		uint64_t cyc[LOOP_MAXP];
		uint32_t names[LOOP_MAXP];
		for (unsigned i = 0; i < p; i++) {
			uint64_t k = (pos - p + i) % LOOP_RING;
			cyc[i] = t->ring_sig[k];
			names[i] = t->ring_name[k];
		}
		if (!cycle_has_smaller_period(cyc, p)) {
			struct loop_found lf = { 0 };
			lf.tid = task->tid;
			lf.pid = task->pid;
			lf.period = p;
			memcpy(lf.names, names, sizeof(names[0]) * p);
			lf.calls = r->len + p;
			lf.start_ns = r->start_ns;
			lf.end_ns = r->end_ns;
			lf.busy_ns = r->busy_ns;
			lf.sample = r->sample;
			r->sample = NULL;
			loop_keep(a, &lf);
		}
	}
	free(r->sample);
	memset(r, 0, sizeof(*r));
}

static void loop_push(struct analysis *a, struct task *task, const struct event *ev,
		      uint32_t name, uint64_t sig)
{
	if (!task->loop)
		task->loop = xcalloc(1, sizeof(*task->loop));
	struct loop_state *t = task->loop;
	uint64_t n = t->ring_n;
	uint64_t dur = ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0;
	for (unsigned p = 1; p <= LOOP_MAXP; p++) {
		struct loop_run *r = &t->run[p];
		if (n >= p && t->ring_sig[(n - p) % LOOP_RING] == sig) {
			if (!r->len) {
				r->start_ns = t->ring_ts[(n - p) % LOOP_RING];
				for (unsigned k = 1; k <= p; k++)
					r->busy_ns += t->ring_dur[(n - k) % LOOP_RING];
			}
			r->len++;
			r->busy_ns += dur;
			r->end_ns = ev->end_ns ? ev->end_ns : ev->ts_ns;
			if (!r->sample && r->len / p + 1 >= MIN_REPEATS)
				r->sample = render_call(ev);
		} else if (r->len) {
			loop_close(a, task, p, n);
		}
	}
	uint64_t k = n % LOOP_RING;
	t->ring_sig[k] = sig;
	t->ring_name[k] = name;
	t->ring_ts[k] = ev->ts_ns;
	t->ring_dur[k] = dur;
	t->ring_n = n + 1;
}

/* Ends t's loops (it exited, or the trace ended) and frees its window. */
static void loops_flush(struct analysis *a, struct task *t)
{
	if (!t->loop)
		return;
	for (unsigned p = 1; p <= LOOP_MAXP; p++)
		if (t->loop->run[p].len)
			loop_close(a, t, p, t->loop->ring_n);
	for (unsigned p = 0; p <= LOOP_MAXP; p++)
		free(t->loop->run[p].sample);
	free(t->loop);
	t->loop = NULL;
}

/* ---- processes -------------------------------------------------------------- */

static void proc_release(struct proc *p)
{
	mapset_release(&p->maps);
	for (size_t i = 0; i < p->fds.n; i++)
		free(p->fds.e[i].path);
	free(p->fds.e);
	p->fds.e = NULL;
	p->fds.n = 0;
}

static void proc_set_name(struct proc *p, const char *path, size_t len)
{
	const char *base = path;
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/' && i + 1 < len)
			base = path + i + 1;
	free(p->name);
	p->name = xstrndup(base, len - (size_t)(base - path));
}

static void proc_exit(struct analysis *a, int idx, uint64_t ts)
{
	struct proc *p = &a->procs[idx];
	if (p->exited)
		return;
	p->exited = true;
	if (ts > p->end_ns)
		p->end_ns = ts;
	for (size_t i = 0; i < p->fds.n; i++)
		if (p->fds.e[i].used)
			fd_fold(a, p, (int64_t)i, &p->fds.e[i]);
	paths_fold_proc(a, idx);
	a->mem_now -= p->mem;
	p->mem = 0;
	p->copy_from = -1;
	proc_release(p);
}

static void proc_exec(struct analysis *a, struct proc *p, const char *path, size_t len,
		      uint64_t ts)
{
	if (path && len)
		proc_set_name(p, path, len);
	mem_reset(a, p, ts);
	for (size_t i = 0; i < p->fds.n; i++)
		if (p->fds.e[i].used && p->fds.e[i].cloexec)
			fd_fold(a, p, (int64_t)i, &p->fds.e[i]);
}

/* Links child pid to parent idx (from a PROC_START or a clone result). */
static int child_link(struct analysis *a, int parent, pid_t pid, uint64_t ts)
{
	int c = proc_find(a, pid);
	if (c >= 0 && a->procs[c].exited && a->procs[c].parent >= 0 &&
	    a->procs[c].parent != parent)
		c = -1;     /* an old process of a reused pid */
	if (c < 0) {
		c = proc_new(a, pid, ts);
		a->procs[c].have_start = true;
	}
	struct proc *cp = &a->procs[c];
	if (cp->parent < 0 && c != parent) {
		cp->parent = parent;
		if (a->root == c)
			a->root = parent;
		if (!cp->name && a->procs[parent].name)
			cp->name = xstrdup(a->procs[parent].name);
		if (!cp->calls && !cp->maps.n && !cp->brk_base) {
			cp->copy_from = parent;
			fdtab_copy(cp, &a->procs[parent]);
		}
	}
	if (ts < cp->start_ns || !cp->have_start) {
		cp->start_ns = ts;
		cp->have_start = true;
	}
	return c;
}

/* ---- per-event work ---------------------------------------------------------- */

static bool failed(const struct event *ev)
{
	return ev->err != 0 || (ev->retval < 0 && ev->retval >= -4095) ||
	       ev->state == SC_UNFINISHED;
}

static bool clone3_decoded(const struct event *ev)
{
	if (!ev->nargs)
		return false;
	const struct val *v = &ev->args[0];
	return v->kind == V_STRUCT || (v->kind == V_TEXT && v->s.len && v->s.p[0] == '{');
}

/*
 * A clone flag: in the argument named "flags" (clone prints child_stack
 * first, as strace) or clone3's structure, else the first argument's
 * register.
 */
static bool clone_has_flag(const struct event *ev, const char *name, uint64_t bit)
{
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++)
		if (ev->args[i].name && !strcmp(ev->args[i].name, "flags"))
			return ev_arg_has_flag(ev, i, name, bit);
	if (ev->nargs && ev->args[0].kind == V_STRUCT)
		return ev_arg_has_flag(ev, 0, name, bit);
	if (ev->nargs && ev->args[0].kind == V_TEXT)
		return ev_arg_has_flag(ev, 0, name, bit);
	return !ev_is_text(ev) && (ev->karg[0] & bit);
}

static bool fcntl_is_dup(const struct event *ev)
{
	size_t tl;
	uint64_t cmd;
	if (ev_arg_text(ev, 1, &tl))
		return ev_arg_has_flag(ev, 1, "F_DUPFD", 0) ||
		       ev_arg_has_flag(ev, 1, "F_DUPFD_CLOEXEC", 0);
	return ev_arg_num(ev, 1, &cmd) && (cmd == 0 || cmd == 1030);
}

static void note_path_access(struct analysis *a, struct proc *p, const struct event *ev,
			     unsigned patharg, int dirarg, bool is_open, uint64_t dur,
			     struct strbuf *path)
{
	if (!an_arg_str(ev, patharg, path) || !path->len)
		return;   /* "" with AT_EMPTY_PATH is an fstat of the dirfd */
	if (dirarg >= 0)
		resolve_at(p, ev, (unsigned)dirarg, path);
	if (!path->len)
		return;
	struct path_use *u = path_lookup(a, p, path->buf, true);
	if (!u)
		return;
	if (is_open)
		u->opens++;
	else
		u->stats++;
	u->time_ns += dur;
}

static void gpu_note(struct analysis *a, const char *path, int kind, uint64_t bytes,
		     uint64_t dur)
{
	struct gpu_dev *d = NULL;
	const char *key = path ? path : "?";
	for (size_t i = 0; i < a->ngpu; i++)
		if (!strcmp(a->gpu[i].path, key))
			d = &a->gpu[i];
	if (!d) {
		if (a->ngpu == GPU_DEVS)
			d = &a->gpu[GPU_DEVS - 1];   /* the last slot collects the rest */
		else {
			d = &a->gpu[a->ngpu++];
			d->path = xstrdup(key);
		}
	}
	d->calls++;
	d->time_ns += dur;
	a->gpu_calls++;
	a->gpu_ns += dur;
	switch (kind) {
	case K_IOCTL: d->ioctls++; break;
	case K_READ: d->reads++; d->bytes_in += bytes; break;
	case K_WRITE: d->writes++; d->bytes_out += bytes; break;
	case K_MMAP: d->mmaps++; d->bytes_mapped += bytes; break;
	}
}

static void on_syscall(struct analysis *a, const struct event *ev)
{
	uint64_t ts = ev->ts_ns;
	uint64_t end = ev->end_ns >= ts ? ev->end_ns : ts;
	uint64_t dur = end - ts;
	uint32_t ni = intern(a, ev->name);
	struct sc_name *nm = &a->names[ni];
	struct sc_name info = *nm;
	int ti = task_get(a, ev->tid ? ev->tid : ev->pid, ev->pid, ts);
	struct task *t = &a->tasks[ti];
	int pi = t->proc;
	struct proc *p = &a->procs[pi];
	bool fail = failed(ev);
	int64_t rv = ev->retval;
	struct strbuf sb = STRBUF_INIT;
	uint64_t x, y, z;

	/* totals */
	if (!a->any_event || ts < a->first_ns)
		a->first_ns = ts;
	if (end > a->last_ns)
		a->last_ns = end;
	a->any_event = true;
	a->syscalls++;
	a->syscall_ns += dur;
	nm->calls++;
	nm->time_ns += dur;
	if (fail) {
		a->errors++;
		nm->errors++;
	}
	if (ev->state == SC_UNFINISHED)
		a->unfinished++;
	if (!p->have_start || ts < p->start_ns) {
		if (!p->have_start && !p->calls)
			p->start_ns = ts;
		else if (ts < p->start_ns)
			p->start_ns = ts;
		p->have_start = true;
	}
	if (end > p->end_ns)
		p->end_ns = end;
	if (ts < t->first_ns)
		t->first_ns = ts;
	if (end > t->last_ns)
		t->last_ns = end;
	p->calls++;
	t->calls++;
	if (!(info.flags & SF_BLOCKING)) {
		p->work_calls++;
		p->work_ns += dur;
		t->work_calls++;
		t->work_ns += dur;
	}

	/* the loop signature: name, normalized arguments, result */
	bool progress = (info.kind == K_READ || info.kind == K_WRITE || info.kind == K_GETDENTS ||
			 info.kind == K_XFER) && !fail && rv > 0;
	uint64_t sig;
	if (progress) {
		sig = ++a->progress_seq | (1ULL << 63);
	} else {
		sig = hash_u64(0, ni);
		for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++)
			sig = hash_val(sig, &ev->args[i]);
		if (ev->err)
			sig = hash_u64(sig, (uint64_t)ev->err + 1000000);
		else if (ev->state == SC_UNFINISHED)
			sig = hash_u64(sig, 777);
		else if (ev->rv_fmt != RV_HEX && info.kind != K_MMAP && info.kind != K_MREMAP &&
			 info.kind != K_BRK)
			sig = hash_u64(sig, (uint64_t)rv);
	}
	loop_push(a, t, ev, ni, sig);

	/* no result to follow: cut short, or counted at the entry only */
	if (ev->state == SC_UNFINISHED || ev->state == SC_ENTRY_ONLY || p->exited)
		goto out;

	switch (info.kind) {
	case K_OPEN: case K_OPENAT: {
		unsigned pa = info.kind == K_OPEN ? 0 : 1;
		note_path_access(a, p, ev, pa, info.kind == K_OPEN ? -1 : 0, true, dur, &sb);
		if (fail || rv < 0)
			break;
		bool cloexec = ev_arg_has_flag(ev, pa + 1, "O_CLOEXEC", 02000000);
		if (!strcmp(ev->name, "creat"))
			cloexec = false;
		fd_open(a, p, rv, FK_FILE, sb.len ? sb.buf : NULL, cloexec);
		if (sb.len && is_gpu_path(sb.buf))
			a->gpu_opens++;
		break;
	}
	case K_STAT0: case K_STATAT:
		note_path_access(a, p, ev, info.kind == K_STAT0 ? 0 : 1,
				 info.kind == K_STAT0 ? -1 : 0, false, dur, &sb);
		break;
	case K_CLOSE:
		if (ev_arg_num(ev, 0, &x))
			fd_close(a, p, (int64_t)x);
		break;
	case K_CLOSE_RANGE:
		if (!fail && ev_arg_num(ev, 0, &x) && ev_arg_num(ev, 1, &y) &&
		    !ev_arg_has_flag(ev, 2, "CLOSE_RANGE_CLOEXEC", 4) &&
		    !ev_arg_has_flag(ev, 2, "CLOSE_RANGE_UNSHARE", 2)) {
			for (uint64_t f = x; f <= y && f < p->fds.n; f++)
				fd_close(a, p, (int64_t)f);
		}
		break;
	case K_DUP: case K_DUP2: case K_FCNTL: {
		if (fail || rv < 0 || !ev_arg_num(ev, 0, &x) || (int64_t)x == rv)
			break;
		if (info.kind == K_FCNTL && !fcntl_is_dup(ev))
			break;
		struct fdent *src = fd_slot(p, (int64_t)x, false);
		char *path = src && src->path ? xstrdup(src->path) : NULL;
		uint8_t kind = src && src->used ? src->kind : FK_UNKNOWN;
		fd_open(a, p, rv, kind, path, false);
		free(path);
		break;
	}
	case K_PIPE: case K_SOCKETPAIR: {
		if (fail)
			break;
		unsigned ai = info.kind == K_PIPE ? 0 : 3;
		int64_t f0, f1;
		size_t tl;
		const char *txt = ev_arg_text(ev, ai, &tl);
		uint8_t kind = info.kind == K_PIPE ? FK_PIPE : FK_SOCKET;
		if (txt) {
			char *e1;
			const char *q = memchr(txt, '[', tl);
			if (q) {
				f0 = strtoll(q + 1, &e1, 10);
				if (*e1 == ',' || *e1 == '<') {
					const char *c2 = strchr(e1, ',');
					if (c2) {
						f1 = strtoll(c2 + 1, NULL, 10);
						fd_open(a, p, f0, kind, NULL, false);
						fd_open(a, p, f1, kind, NULL, false);
					}
				}
			}
		} else if (ai < ev->nargs && ev->args[ai].kind == V_ARRAY && ev->args[ai].c.n == 2) {
			for (int k = 0; k < 2; k++) {
				const struct val *it = &ev->args[ai].c.items[k];
				int64_t fd = it->kind == V_FD ? it->fd.fd : it->i;
				fd_open(a, p, fd, kind, NULL, false);
			}
		}
		break;
	}
	case K_SOCKET:
		if (!fail && rv >= 0)
			fd_open(a, p, rv, FK_SOCKET, NULL, false);
		break;
	case K_SPECIALFD:
		if (!fail && rv >= 0)
			fd_open(a, p, rv, FK_SPECIAL, NULL, false);
		break;
	case K_READ: case K_WRITE: case K_IOCTL: {
		if (!ev_arg_num(ev, 0, &x))
			break;
		struct fdent *e = fd_use(p, (int64_t)x, ev, 0);
		if (!e)
			break;
		uint64_t bytes = !fail && rv > 0 ? (uint64_t)rv : 0;
		if (e->kind == FK_GPU) {
			gpu_note(a, e->path, info.kind, bytes, dur);
			break;
		}
		if (info.kind == K_IOCTL || fail || rv <= 0)
			break;
		if (info.kind == K_READ) {
			e->rd_calls++;
			e->rd_bytes += bytes;
			if (e->path && e->kind == FK_FILE) {
				struct path_use *u = path_lookup(a, p, e->path, false);
				if (u) {
					u->reads++;
					u->bytes_read += bytes;
				}
			}
		} else {
			e->wr_calls++;
			e->wr_bytes += bytes;
		}
		break;
	}
	case K_MMAP: {
		if (fail || !ev_arg_num(ev, 1, &y))
			break;
		mem_materialize(a, p, ts);
		uint64_t lo = (uint64_t)rv;
		mapset_add(&p->maps, lo, lo + page_up(y));
		a->mmap_calls++;
		mem_update(a, p, end);
		if (ev_arg_num(ev, 4, &z) && (int64_t)z >= 0) {
			struct fdent *e = fd_use(p, (int64_t)z, ev, 4);
			if (e && e->kind == FK_GPU)
				gpu_note(a, e->path, K_MMAP, page_up(y), dur);
		}
		break;
	}
	case K_MUNMAP:
		if (fail || !ev_arg_num(ev, 0, &x) || !ev_arg_num(ev, 1, &y))
			break;
		mem_materialize(a, p, ts);
		mapset_remove(&p->maps, x & ~(PAGE - 1), page_up(x + y));
		a->munmap_calls++;
		mem_update(a, p, end);
		break;
	case K_MREMAP:
		if (fail || !ev_arg_num(ev, 0, &x) || !ev_arg_num(ev, 1, &y) || !ev_arg_num(ev, 2, &z))
			break;
		mem_materialize(a, p, ts);
		if (y && !ev_arg_has_flag(ev, 3, "MREMAP_DONTUNMAP", 4))
			mapset_remove(&p->maps, x & ~(PAGE - 1), page_up(x + y));
		mapset_add(&p->maps, (uint64_t)rv, (uint64_t)rv + page_up(z));
		a->mremap_calls++;
		mem_update(a, p, end);
		break;
	case K_BRK:
		if (rv <= 0)
			break;
		mem_materialize(a, p, ts);
		if (!p->brk_base)
			p->brk_base = (uint64_t)rv;
		p->brk_cur = (uint64_t)rv;
		a->brk_calls++;
		mem_update(a, p, end);
		break;
	case K_CLONE: case K_CLONE3: case K_FORK: case K_VFORK: {
		if (fail || rv <= 0)
			break;
		bool thread, vm;
		int ct = task_find(a, (pid_t)rv), c0 = proc_find(a, (pid_t)rv);
		if (info.kind == K_FORK || info.kind == K_VFORK) {
			thread = false;
			vm = info.kind == K_VFORK;
		} else if (info.kind == K_CLONE3 && !clone3_decoded(ev)) {
			/* not read: a thread unless the tracer said otherwise
			 * (glibc makes threads with clone3 and forks with clone) */
			thread = !(c0 >= 0 && a->procs[c0].parent >= 0 && ct >= 0 &&
				   a->tasks[ct].pid == (pid_t)rv);
			vm = false;
		} else {
			thread = clone_has_flag(ev, "CLONE_THREAD", 0x10000);
			vm = clone_has_flag(ev, "CLONE_VM", 0x100);
		}
		/* what a PROC_START already said wins */
		if (ct >= 0 && a->tasks[ct].pid != (pid_t)rv && !a->tasks[ct].exited)
			thread = true;
		if (thread)
			break;
		int c = child_link(a, pi, (pid_t)rv, ts);
		struct proc *cp = &a->procs[c];
		if (vm) {
			cp->copy_from = -1;
			cp->vm_shared = true;
		} else {
			mem_materialize(a, cp, end);
		}
		break;
	}
	case K_EXECVE: case K_EXECVEAT:
		if (fail)
			break;
		if (an_arg_str(ev, info.kind == K_EXECVE ? 0 : 1, &sb))
			proc_exec(a, p, sb.buf, sb.len, end);
		else
			proc_exec(a, p, NULL, 0, end);
		break;
	case K_WAIT4: case K_WAITID: {
		int64_t cpid = -1;
		if (fail)
			break;
		if (info.kind == K_WAIT4)
			cpid = rv;
		else if (!ev_arg_field(ev, 2, "si_pid", &cpid))
			cpid = -1;
		if (cpid <= 0)
			break;
		int c = proc_find(a, (pid_t)cpid);
		if (c < 0)
			break;
		struct proc *cp = &a->procs[c];
		if (cp->parent < 0 && c != pi && c != a->root)
			cp->parent = pi;
		if (cp->parent == pi && !cp->waited) {
			cp->waited = true;
			cp->wait_start = ts;
			cp->wait_end = end;
		}
		break;
	}
	default:
		break;
	}
out:
	strbuf_release(&sb);
}

static void on_proc_start(struct analysis *a, const struct event *ev)
{
	uint64_t ts = ev->ts_ns;
	if (ev->is_thread) {
		int pi = proc_get(a, ev->pid, ts);
		if (task_find(a, ev->tid) < 0)
			task_new(a, ev->tid, ev->pid, pi, ts);
		return;
	}
	/* the creator is a thread (ppid is its tid) of the parent process */
	int parent = -1;
	int pt = ev->ppid ? task_find(a, ev->ppid) : -1;
	if (pt >= 0)
		parent = a->tasks[pt].proc;
	else if (ev->ppid)
		parent = proc_find(a, ev->ppid);
	if (parent >= 0 && a->procs[parent].pid != ev->pid) {
		child_link(a, parent, ev->pid, ts);
	} else {
		int c = proc_find(a, ev->pid);
		if (c < 0 || a->procs[c].exited)
			c = proc_new(a, ev->pid, ts);
		a->procs[c].have_start = true;
		if (ts < a->procs[c].start_ns || !a->procs[c].calls)
			a->procs[c].start_ns = ts;
	}
	if (task_find(a, ev->tid ? ev->tid : ev->pid) < 0)
		task_new(a, ev->tid ? ev->tid : ev->pid, ev->pid, proc_find(a, ev->pid), ts);
}

static void on_proc_exit(struct analysis *a, const struct event *ev)
{
	int pi = proc_find(a, ev->pid);
	if (pi < 0)
		return;
	struct proc *p = &a->procs[pi];
	uint64_t ts = ev->ts_ns ? ev->ts_ns : p->end_ns;
	if (ev->max_rss_kb) {
		a->rss_seen = true;
		if (ev->max_rss_kb > p->max_rss_kb)
			p->max_rss_kb = ev->max_rss_kb;
	}
	int ti = task_find(a, ev->tid ? ev->tid : ev->pid);
	if (ti >= 0 && !a->tasks[ti].exited) {
		struct task *t = &a->tasks[ti];
		loops_flush(a, t);
		t->exited = true;
		if (ts > t->last_ns)
			t->last_ns = ts;
	}
	if (ts > p->end_ns)
		p->end_ns = ts;
	if (!ev->tid || ev->tid == ev->pid)
		proc_exit(a, pi, ts);
}

void analysis_event(struct analysis *a, const struct event *ev)
{
	switch (ev->type) {
	case EV_SYSCALL:
		on_syscall(a, ev);
		break;
	case EV_PROC_START:
		on_proc_start(a, ev);
		break;
	case EV_PROC_EXIT:
	case EV_DETACH:       /* no longer traced: its part of the run ends here */
		on_proc_exit(a, ev);
		break;
	case EV_EXEC: {
		int pi = proc_get(a, ev->pid, ev->ts_ns);
		const char *path = ev->exec_path;
		proc_exec(a, &a->procs[pi], path, path ? strlen(path) : 0, ev->ts_ns);
		break;
	}
	default:
		break;
	}
}

void analysis_end(struct analysis *a, const struct trace_end *te)
{
	if (a->ended)
		return;
	a->ended = true;
	if (te && te->wall_ns)
		a->wall_ns = te->wall_ns;
	for (size_t i = 0; i < a->ntasks; i++)
		if (!a->tasks[i].exited)
			loops_flush(a, &a->tasks[i]);
	for (size_t i = 0; i < a->nprocs; i++)
		if (!a->procs[i].exited) {
			proc_exit(a, (int)i, a->procs[i].end_ns);
			a->procs[i].exited = false;   /* never seen exiting */
		}
	/* fold what is still in the path table (processes never seen exiting) */
	for (size_t i = 0; i < a->paths_size; i++)
		if (a->paths[i].path) {
			path_keep(a, &a->paths[i]);
			free(a->paths[i].path);
			a->paths[i].path = NULL;
		}
	a->paths_used = 0;
}

uint64_t an_run_ns(const struct analysis *a)
{
	if (a->wall_ns)
		return a->wall_ns;
	return a->last_ns > a->first_ns ? a->last_ns - a->first_ns : 0;
}

uint64_t analysis_syscalls(const struct analysis *a)
{
	return a->syscalls;
}

uint64_t analysis_mem_peak(const struct analysis *a)
{
	return a->mem_peak;
}

/*
 * Per-syscall totals from an engine without records (--backend ebpf): the
 * counts span_count reads, unfinished calls included as in a trace.  Only
 * count-only assertions are evaluated on such a run (assert_counts_only).
 */
void analysis_totals(struct analysis *a, const struct trace_totals *tt)
{
	for (size_t i = 0; i < tt->n; i++) {
		const struct sc_total *r = &tt->rows[i];
		uint64_t n = r->calls + r->unfinished;
		uint64_t ns = tt->have_wall ? r->wall_ns + r->unfinished_wall_ns : 0;
		struct sc_name *nm;
		uint32_t ni;

		if (!n)
			continue;
		ni = intern(a, r->name);     /* may move a->names */
		nm = &a->names[ni];
		nm->calls += n;
		nm->errors += r->errors;
		nm->time_ns += ns;
		a->syscalls += n;
		a->errors += r->errors;
		a->unfinished += r->unfinished;
		a->syscall_ns += ns;
	}
}

/* ---- the sink --------------------------------------------------------------- */

struct analysis_sink {
	struct sink base;
	struct analysis *a;
};

static void as_event(struct sink *s, const struct event *ev)
{
	analysis_event(((struct analysis_sink *)s)->a, ev);
}

static int as_end(struct sink *s, const struct trace_end *te)
{
	analysis_end(((struct analysis_sink *)s)->a, te);
	return 0;
}

static void as_totals(struct sink *s, const struct trace_totals *tt)
{
	analysis_totals(((struct analysis_sink *)s)->a, tt);
}

static void as_free(struct sink *s)
{
	free(s);
}

static const struct sink_ops analysis_sink_ops = {
	.name = "analysis",
	.wants_entry = 0,
	.event = as_event,
	.proc_exit = as_event,
	.totals = as_totals,
	.end = as_end,
	.free = as_free,
};

struct sink *analysis_sink_new(struct analysis *a)
{
	struct analysis_sink *s = xcalloc(1, sizeof(*s));
	s->base.ops = &analysis_sink_ops;
	s->a = a;
	return &s->base;
}
