/*
 * Building the golden trace model (see model.h): a sink turns each event
 * into a compact call record with a structurally normalized key; the
 * string-level normalization (paths, pids, user rules, ignore lists) runs
 * once per distinct key at gmodel_finalize().
 */
#include "golden/model.h"
#include "sink/srcloc.h"
#include "sink/env.h"
#include "sink/render.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* --- syscall properties, by name --- */

enum {
	P_FDRET = 1 << 0,     /* returns a new descriptor */
	P_STREAMRET = 1 << 1, /* ... that is a pipe, socket or event fd */
	P_PIDRET = 1 << 2,    /* returns a pid */
	P_WAIT = 1 << 3,      /* wait4/waitid */
	P_VOLATILE = 1 << 4,  /* count depends on scheduling */
	P_MEM = 1 << 5,       /* memory management */
	P_READ = 1 << 6,      /* reads its fd: volatile on streams */
	P_CLONE = 1 << 7,     /* creates a task */
	P_EXEC = 1 << 8,
	P_PAIR = 1 << 9,      /* returns two fds in an array argument */
	P_DUP = 1 << 10,      /* result (and newfd) copy the first fd */
	P_OPEN = 1 << 11,     /* opens a path (resource "opened") */
	P_CREATE = 1 << 12,   /* creates its last path argument */
	P_DELETE = 1 << 13,   /* deletes its (first) path argument */
	P_ENDPOINT = 1 << 14, /* a sockaddr argument is an endpoint */
	P_IGNORED = 1 << 15,  /* in ignore_syscalls */
	P_EXIT = 1 << 16,     /* exit/exit_group: unfinished is normal */
	P_RENAME = 1 << 17,   /* deletes the first path and creates the second */
	P_CLOSE = 1 << 18,    /* close */
	P_DUP2 = 1 << 19,     /* dup2, dup3: the result is the newfd argument */
	P_FCNTL = 1 << 20,    /* fcntl: F_DUPFD returns a descriptor */
	P_MKDIR = 1 << 21,    /* mkdir, mkdirat (mkdtemp's mode 0700) */
	P_CREAT = 1 << 22,    /* creat */
	P_IO = 1 << 23,       /* moves bytes (io_table) */
};

/* What an argument is, by its name (cached per syscall and position). */
enum { A_OTHER = 1, A_FD, A_PID, A_PATH, A_ARGV };

struct prop_row {
	const char *name;
	uint32_t props;
};

static const struct prop_row prop_table[] = {
	{ "accept", P_FDRET | P_STREAMRET },
	{ "accept4", P_FDRET | P_STREAMRET },
	{ "bind", P_ENDPOINT },
	{ "brk", P_MEM },
	{ "clock_nanosleep", P_VOLATILE },
	{ "clone", P_CLONE | P_PIDRET },
	{ "clone3", P_CLONE | P_PIDRET },
	{ "close", P_CLOSE },
	{ "connect", P_ENDPOINT },
	{ "creat", P_FDRET | P_OPEN | P_CREATE | P_CREAT },
	{ "dup", P_FDRET | P_DUP },
	{ "dup2", P_FDRET | P_DUP | P_DUP2 },
	{ "dup3", P_FDRET | P_DUP | P_DUP2 },
	{ "epoll_create", P_FDRET | P_STREAMRET },
	{ "epoll_create1", P_FDRET | P_STREAMRET },
	{ "epoll_pwait", P_VOLATILE },
	{ "epoll_pwait2", P_VOLATILE },
	{ "epoll_wait", P_VOLATILE },
	{ "eventfd", P_FDRET | P_STREAMRET },
	{ "eventfd2", P_FDRET | P_STREAMRET },
	{ "execve", P_EXEC },
	{ "execveat", P_EXEC },
	{ "exit", P_EXIT },
	{ "exit_group", P_EXIT },
	{ "fanotify_init", P_FDRET | P_STREAMRET },
	{ "fcntl", P_FCNTL },
	{ "fork", P_CLONE | P_PIDRET },
	{ "futex", P_VOLATILE },
	{ "futex_waitv", P_VOLATILE },
	{ "getpgid", P_PIDRET },
	{ "getpgrp", P_PIDRET },
	{ "getpid", P_PIDRET },
	{ "getppid", P_PIDRET },
	/* how often a program asks depends on the bytes it got: mkstemp draws
	 * again when a value falls outside the fair range */
	{ "getrandom", P_VOLATILE },
	{ "getsid", P_PIDRET },
	{ "gettid", P_PIDRET },
	{ "inotify_init", P_FDRET | P_STREAMRET },
	{ "inotify_init1", P_FDRET | P_STREAMRET },
	{ "link", P_CREATE },
	{ "linkat", P_CREATE },
	{ "madvise", P_MEM },
	{ "membarrier", P_VOLATILE },
	{ "memfd_create", P_FDRET },
	{ "mkdir", P_CREATE | P_MKDIR },
	{ "mkdirat", P_CREATE | P_MKDIR },
	{ "mknod", P_CREATE },
	{ "mknodat", P_CREATE },
	{ "mmap", P_MEM },
	{ "mprotect", P_MEM },
	{ "mremap", P_MEM },
	{ "munmap", P_MEM },
	{ "nanosleep", P_VOLATILE },
	{ "open", P_FDRET | P_OPEN },
	{ "open_by_handle_at", P_FDRET },
	{ "openat", P_FDRET | P_OPEN },
	{ "openat2", P_FDRET | P_OPEN },
	{ "pause", P_VOLATILE },
	{ "perf_event_open", P_FDRET | P_STREAMRET },
	{ "pidfd_getfd", P_FDRET },
	{ "pidfd_open", P_FDRET | P_STREAMRET },
	{ "pipe", P_PAIR },
	{ "pipe2", P_PAIR },
	{ "poll", P_VOLATILE },
	{ "ppoll", P_VOLATILE },
	{ "pselect6", P_VOLATILE },
	{ "read", P_READ },
	{ "readv", P_READ },
	{ "recvfrom", P_READ },
	{ "recvmmsg", P_READ },
	{ "recvmsg", P_READ },
	{ "rename", P_RENAME },
	{ "renameat", P_RENAME },
	{ "renameat2", P_RENAME },
	{ "restart_syscall", P_VOLATILE },
	{ "rmdir", P_DELETE },
	{ "rt_sigreturn", P_VOLATILE },
	{ "rt_sigsuspend", P_VOLATILE },
	{ "rt_sigtimedwait", P_VOLATILE },
	{ "sched_yield", P_VOLATILE },
	{ "select", P_VOLATILE },
	{ "sendmmsg", P_ENDPOINT },
	{ "sendmsg", P_ENDPOINT },
	{ "sendto", P_ENDPOINT },
	{ "set_tid_address", P_PIDRET },
	{ "setsid", P_PIDRET },
	{ "signalfd", P_FDRET | P_STREAMRET },
	{ "signalfd4", P_FDRET | P_STREAMRET },
	{ "socket", P_FDRET | P_STREAMRET },
	{ "socketpair", P_PAIR },
	{ "splice", P_READ },
	{ "symlink", P_CREATE },
	{ "symlinkat", P_CREATE },
	{ "timerfd_create", P_FDRET | P_STREAMRET },
	{ "unlink", P_DELETE },
	{ "unlinkat", P_DELETE },
	{ "userfaultfd", P_FDRET | P_STREAMRET },
	{ "vfork", P_CLONE | P_PIDRET },
	{ "wait4", P_WAIT | P_PIDRET },
	{ "waitid", P_WAIT },
};

static int prop_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct prop_row *)e)->name);
}

static uint32_t props_of(const char *name)
{
	const struct prop_row *r = bsearch(name, prop_table, ARRAY_SIZE(prop_table),
					   sizeof(prop_table[0]), prop_cmp);
	return r ? r->props : 0;
}

/*
 * Calls that move bytes through descriptors: the argument positions of the
 * descriptor read from (in) and written to (out), -1 for none; the result is
 * the byte count.  recvmmsg and sendmmsg return a message count and are left
 * out.
 */
static const struct io_row {
	const char *name;
	int8_t in, out;
} io_table[] = {
	{ "copy_file_range", 0, 2 },
	{ "pread64", 0, -1 },
	{ "preadv", 0, -1 },
	{ "preadv2", 0, -1 },
	{ "pwrite64", -1, 0 },
	{ "pwritev", -1, 0 },
	{ "pwritev2", -1, 0 },
	{ "read", 0, -1 },
	{ "readv", 0, -1 },
	{ "recvfrom", 0, -1 },
	{ "recvmsg", 0, -1 },
	{ "sendfile", 1, 0 },
	{ "sendmsg", -1, 0 },
	{ "sendto", -1, 0 },
	{ "splice", 0, 2 },
	{ "tee", 0, 1 },
	{ "vmsplice", -1, 0 },
	{ "write", -1, 0 },
	{ "writev", -1, 0 },
};

static int io_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct io_row *)e)->name);
}

static const struct io_row *io_row_of(const char *name)
{
	return bsearch(name, io_table, ARRAY_SIZE(io_table), sizeof(io_table[0]), io_cmp);
}

static const char *const gio_kind_names[GK_NKINDS] = {
	"file", "pipe", "socket", "tty", "device", "other",
};

const char *gio_bucket_name(int bucket)
{
	static char names[GIO_NBUCKETS][24];
	int k = bucket / 2, out = bucket % 2;

	if (bucket < 0 || bucket >= GIO_NBUCKETS)
		return "?";
	if (!names[bucket][0])
		snprintf(names[bucket], sizeof(names[bucket]), "%s_%s", gio_kind_names[k],
			 k == GK_SOCKET ? (out ? "sent" : "received") : (out ? "written" : "read"));
	return names[bucket];
}

const char *gio_bucket_phrase(int bucket)
{
	static const char *const p[GIO_NBUCKETS] = {
		"bytes read from regular files", "bytes written to regular files",
		"bytes read from pipes", "bytes written to pipes",
		"bytes received from sockets", "bytes sent to sockets",
		"bytes read from terminals", "bytes written to terminals",
		"bytes read from devices", "bytes written to devices",
		"bytes read from other files", "bytes written to other files",
	};
	return bucket >= 0 && bucket < GIO_NBUCKETS ? p[bucket] : "bytes";
}

int gio_bucket_parse(const char *s)
{
	for (int i = 0; i < GIO_NBUCKETS; i++)
		if (!strcmp(gio_bucket_name(i), s))
			return i;
	return -1;
}

/* The kind of file a path names (quoted text, as in the trace). */
static int path_kind(const char *p, size_t len)
{
	if (len >= 2 && p[0] == '"') {
		p++;
		len -= 2;
	}
	if (len > 5 && !memcmp(p, "/dev/", 5)) {
		if ((len > 9 && !memcmp(p, "/dev/pts/", 9)) || (len >= 8 && !memcmp(p, "/dev/tty", 8)) ||
		    (len == 12 && !memcmp(p, "/dev/console", 12)) ||
		    (len == 9 && !memcmp(p, "/dev/ptmx", 9)))
			return GK_TTY;
		if (len > 9 && !memcmp(p, "/dev/shm/", 9))
			return GK_FILE;
		return GK_DEVICE;
	}
	return GK_FILE;
}

/* Argument names that hold paths (kernel prototype names). */
static bool is_path_arg(const char *n)
{
	static const char *const names[] = {
		"filename", "pathname", "path", "oldname", "newname", "oldpath",
		"newpath", "linkpath", "target", "specialfile", "library", "dir_name",
		"name", "old", "new", "from", "to", "dev_name", "dir", "uservaddr_path",
	};
	if (!n)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(n, names[i]))
			return true;
	return false;
}

static bool is_fd_arg(const char *n)
{
	size_t l;
	if (!n)
		return false;
	l = strlen(n);
	if (!strcmp(n, "fd") || !strncmp(n, "fd_", 3))
		return true;
	return l >= 2 && !strcmp(n + l - 2, "fd");
}

static bool is_pid_arg(const char *n)
{
	return n && (!strcmp(n, "pid") || !strcmp(n, "upid") || !strcmp(n, "tgid") ||
		     !strcmp(n, "tid") || !strcmp(n, "pgid") || !strcmp(n, "ppid"));
}

/* Errors whose occurrence depends on timing, not on behaviour. */
static bool volatile_errno(int e)
{
	return e == EAGAIN || e == EINTR || e == ETIMEDOUT || e == EINPROGRESS ||
	       e == EALREADY || (e >= 512 && e <= 516);
}

/* --- building state --- */

#define FD_STREAM 0x40000000
#define FD_IGN 0x20000000      /* opened from an ignored path */
#define FD_KIND_SHIFT 24       /* bits 24-27: 1 + enum gio_kind, 0 unknown */
#define FD_KIND_MASK (0xf << FD_KIND_SHIFT)
#define FD_FLAGS (FD_STREAM | FD_IGN | FD_KIND_MASK)
#define FD_MAP_MAX (1 << 20)

struct btask {
	pid_t tid, tgid;
	int32_t parent;          /* creator task, -1 */
	uint32_t ordinal;        /* 1-based creation order: a process among the
				    processes its creator's process made, a
				    thread among its creator's threads */
	uint32_t nprocs_made;    /* processes made by this task's process (leader) */
	uint32_t nthreads_made;  /* threads made by this task */
	uint32_t argv;           /* id in b->strs of the last exec's argv, UINT32_MAX none */
	uint8_t stdk[3];         /* 1 + enum gio_kind of fds 0-2, 0 unknown */
	uint64_t io[GIO_NBUCKETS];
	uint64_t io_std[3];
	bool linked, is_thread, dead, exited;
	int exit_code, term_signal;
	uint32_t exe;            /* id in b->strs, UINT32_MAX none */
	struct gcall *calls;
	uint32_t ncalls, acalls;
	uint32_t *src;           /* per call: 1 + source id (gmodel.srcs), or NULL */
	uint32_t asrc;
	int32_t *fdmap;          /* raw fd -> (normalized + 1) | FD_FLAGS */
	uint32_t fdcap;
	uint64_t *used;          /* normalized numbers in use (bits) */
	uint32_t nused;          /* words of used */
};

struct build {
	const struct golden_opts *o;
	struct gmodel *m;
	struct sink sink;
	struct intern raw;       /* raw keys */
	uint16_t *raw_sc;        /* raw key -> name id (grown with raw) */
	uint32_t araw_sc;
	uint32_t *props;         /* name id -> P_* */
	uint32_t aprops;
	struct argcache {
		char *name[EVENT_MAX_ARGS];
		uint8_t cls[EVENT_MAX_ARGS];
	} *acache;               /* name id -> argument classes */
	struct btask *tasks;
	uint32_t ntasks, atasks;
	int32_t *tidh;           /* tid -> latest task + 1 (open addressing) */
	pid_t *tidk;
	uint32_t tidcap, tidused;
	struct intern strs;      /* raw program paths */
	struct intern rawres;    /* raw resources "<kind>\t<value>" */
	struct intern randoms;   /* basenames created with O_EXCL (mkstemp) */
	struct strbuf key, tmp, arg;
	uint32_t asig;           /* capacity of m->sig_counts */
	uint8_t env_stdk[3];     /* 1 + enum gio_kind of the first task's fds 0-2 */
	uint64_t wall_ns;
	int exit_code, term_signal;
	bool ended;
};

/* --- tid table --- */

static uint32_t tid_slot(const struct build *b, pid_t tid)
{
	uint32_t i = ((uint32_t)tid * 2654435761u) & (b->tidcap - 1);
	while (b->tidk[i] && b->tidk[i] != tid)
		i = (i + 1) & (b->tidcap - 1);
	return i;
}

static int32_t tid_find(const struct build *b, pid_t tid)
{
	if (!b->tidcap || tid <= 0)
		return -1;
	uint32_t i = tid_slot(b, tid);
	return b->tidk[i] ? b->tidh[i] - 1 : -1;
}

static void tid_put(struct build *b, pid_t tid, int32_t idx)
{
	if ((b->tidused + 1) * 2 > b->tidcap) {
		uint32_t oc = b->tidcap;
		pid_t *ok = b->tidk;
		int32_t *oh = b->tidh;
		b->tidcap = oc ? oc * 2 : 256;
		b->tidk = xcalloc(b->tidcap, sizeof(*b->tidk));
		b->tidh = xcalloc(b->tidcap, sizeof(*b->tidh));
		b->tidused = 0;
		for (uint32_t i = 0; i < oc; i++)
			if (ok[i]) {
				uint32_t s = tid_slot(b, ok[i]);
				b->tidk[s] = ok[i];
				b->tidh[s] = oh[i];
				b->tidused++;
			}
		free(ok);
		free(oh);
	}
	uint32_t s = tid_slot(b, tid);
	if (!b->tidk[s])
		b->tidused++;
	b->tidk[s] = tid;
	b->tidh[s] = idx + 1;
}

static int32_t task_new(struct build *b, pid_t tid, pid_t tgid)
{
	struct btask *t;

	ALLOC_GROW(b->tasks, b->ntasks + 1, b->atasks);
	t = &b->tasks[b->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid > 0 ? tgid : tid;
	t->parent = -1;
	t->exe = UINT32_MAX;
	t->argv = UINT32_MAX;
	memcpy(t->stdk, b->env_stdk, sizeof(t->stdk));
	tid_put(b, tid, (int32_t)b->ntasks);
	return (int32_t)b->ntasks++;
}

/*
 * The latest task of tid, made when there is none.  A task that exited
 * keeps its tid until a start or a clone names the tid again: the exit
 * record can come before the last call (exit_group) in a saved trace.
 */
static int32_t task_get(struct build *b, pid_t tid, pid_t tgid)
{
	int32_t i = tid_find(b, tid);
	if (i >= 0)
		return i;
	return task_new(b, tid, tgid);
}

/* --- descriptors --- */

static int32_t *fd_slot(struct btask *t, int64_t fd)
{
	if (fd < 0 || fd >= FD_MAP_MAX)
		return NULL;
	if ((uint64_t)fd >= t->fdcap) {
		uint32_t n = t->fdcap ? t->fdcap : 64;
		while (n <= (uint64_t)fd)
			n *= 2;
		t->fdmap = xreallocarray(t->fdmap, n, sizeof(*t->fdmap));
		memset(t->fdmap + t->fdcap, 0, (n - t->fdcap) * sizeof(*t->fdmap));
		t->fdcap = n;
	}
	return &t->fdmap[fd];
}

/*
 * Normalized descriptor numbers mirror the kernel's rule (lowest free
 * number) in a space of their own, per task: 0-2 stay, a returned or
 * first-used descriptor takes the lowest normalized number >= 3 not in
 * use, a close frees it.  So an extra open-and-close shifts nothing, a
 * descriptor leaked by the caller changes nothing, and threads that share
 * the kernel's table (whose numbers then depend on who opened first) each
 * number in their own order.
 */
static bool used_get(const struct btask *t, uint32_t n)
{
	return n / 64 < t->nused && (t->used[n / 64] >> (n % 64) & 1);
}

static void used_set(struct btask *t, uint32_t n, bool on)
{
	if (n / 64 >= t->nused) {
		uint32_t w = t->nused ? t->nused * 2 : 2;
		while (w <= n / 64)
			w *= 2;
		t->used = xreallocarray(t->used, w, sizeof(*t->used));
		memset(t->used + t->nused, 0, (w - t->nused) * sizeof(*t->used));
		t->nused = w;
	}
	if (on)
		t->used[n / 64] |= 1ull << (n % 64);
	else
		t->used[n / 64] &= ~(1ull << (n % 64));
}

static uint32_t lowest_free(struct btask *t)
{
	uint32_t n = 3;
	while (used_get(t, n))
		n++;
	used_set(t, n, true);
	return n;
}

/* Normalized number of a descriptor argument (numbered at first use). */
static int64_t fd_norm(struct btask *t, int64_t fd)
{
	int32_t *s;
	if (fd <= 2)
		return fd;
	if (!(s = fd_slot(t, fd)))
		return fd;
	if (*s & FD_IGN)
		return -2;
	if (!(*s & ~FD_FLAGS))
		*s |= (int32_t)lowest_free(t) + 1;   /* normalized + 1 */
	return (*s & ~FD_FLAGS) - 1;
}

/* The descriptor is closed: its normalized number is free again. */
static void fd_close(struct btask *t, int64_t fd)
{
	int32_t *s;
	if (fd >= 0 && fd <= 2)
		t->stdk[fd] = 0;
	if (fd <= 2 || fd >= (int64_t)t->fdcap || !(s = fd_slot(t, fd)))
		return;
	if (*s & ~FD_FLAGS)
		used_set(t, (uint32_t)((*s & ~FD_FLAGS) - 1), false);
	*s = 0;
}

static bool fd_is_ignored(struct btask *t, int64_t fd)
{
	return fd >= 0 && (uint64_t)fd < t->fdcap && (t->fdmap[fd] & FD_IGN);
}

/* A descriptor opened from an ignored path: no number, its calls ignored. */
static void fd_ignore(struct btask *t, int64_t fd)
{
	int32_t *s;
	fd_close(t, fd);
	if ((s = fd_slot(t, fd)) && fd > 2)
		*s = FD_IGN;
}

/* A descriptor a call just returned (replacing what the number was). */
static int64_t fd_fresh(struct btask *t, int64_t fd)
{
	int32_t *s;
	if (fd <= 2 || !fd_slot(t, fd))
		return fd;
	fd_close(t, fd);
	s = fd_slot(t, fd);
	*s = (int32_t)lowest_free(t) + 1;
	return *s - 1;
}

/* 1 + enum gio_kind of fd, 0 when not known. */
static int fd_kind(const struct btask *t, int64_t fd)
{
	if (fd >= 0 && fd <= 2)
		return t->stdk[fd];
	if (fd < 0 || (uint64_t)fd >= t->fdcap)
		return 0;
	return (t->fdmap[fd] & FD_KIND_MASK) >> FD_KIND_SHIFT;
}

/* Sets the kind of fd (1 + enum gio_kind, 0 unknown). */
static void fd_set_kind(struct btask *t, int64_t fd, int kind)
{
	int32_t *s;
	if (fd >= 0 && fd <= 2) {
		t->stdk[fd] = (uint8_t)kind;
		return;
	}
	if (!(s = fd_slot(t, fd)))
		return;
	*s = (*s & ~FD_KIND_MASK) | (kind << FD_KIND_SHIFT);
}

static bool fd_is_stream(struct btask *t, int64_t fd)
{
	return fd >= 0 && (uint64_t)fd < t->fdcap && (t->fdmap[fd] & FD_STREAM);
}

static void fd_set_stream(struct btask *t, int64_t fd, bool on)
{
	int32_t *s = fd_slot(t, fd);
	if (s)
		*s = on ? (*s | FD_STREAM) : (*s & ~FD_STREAM);
}

/* The child sees the creator's descriptors (numbers, kinds, ignored ones). */
static void fd_inherit(struct btask *c, const struct btask *p)
{
	for (uint32_t fd = 0; fd < p->fdcap; fd++) {
		int32_t *s;
		if (!p->fdmap[fd] || !(s = fd_slot(c, fd)) || *s)
			continue;
		*s = p->fdmap[fd];
		if (*s & ~FD_FLAGS)
			used_set(c, (uint32_t)((*s & ~FD_FLAGS) - 1), true);
	}
}

/* --- linking tasks --- */

/* The task that leads the thread group of task i (i itself for a process). */
static int32_t leader_of(const struct build *b, int32_t i)
{
	while (i >= 0 && b->tasks[i].is_thread && b->tasks[i].parent >= 0)
		i = b->tasks[i].parent;
	return i;
}

static void link_task(struct build *b, int32_t parent, int32_t child, bool is_thread)
{
	struct btask *c = &b->tasks[child], *p = &b->tasks[parent];

	if (c->linked || parent == child || child == 0)
		return;
	c->linked = true;
	c->parent = parent;
	c->is_thread = is_thread;
	if (is_thread)
		c->ordinal = ++p->nthreads_made;
	else
		c->ordinal = ++b->tasks[leader_of(b, parent)].nprocs_made;
	fd_inherit(c, p);
	memcpy(c->stdk, p->stdk, sizeof(c->stdk));
	if (c->exe == UINT32_MAX)
		c->exe = p->exe;
	if (c->argv == UINT32_MAX)
		c->argv = p->argv;
}

/* --- value text --- */

/* The text of an argument: as read back (V_TEXT) or rendered. */
static void arg_text(struct build *b, const struct val *v, const char **p, size_t *len)
{
	if (v->text) {
		*p = v->text;
		*len = v->text_len;
		return;
	}
	if (v->kind == V_TEXT) {
		*p = v->s.p ? v->s.p : "";
		*len = v->s.p ? v->s.len : 0;
		return;
	}
	strbuf_reset(&b->arg);
	val_render(&b->arg, v, NULL);
	*p = b->arg.buf;
	*len = b->arg.len;
}

static bool parse_int(const char *p, size_t len, int64_t *out)
{
	char buf[32], *end;
	size_t n = 0;

	while (n < len && n < sizeof(buf) - 1 && p[n] != '<')
		n++;
	if (!n || n >= sizeof(buf) - 1)
		return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtoll(buf, &end, 10);
	return !errno && *end == '\0';
}

/* Symbolic text worth keeping: names, flag sets, signal sets, NULL, modes. */
static bool keep_symbolic(const char *p, size_t len)
{
	if (!len)
		return false;
	if (p[0] == '0' && len > 1) {
		for (size_t i = 1; i < len; i++)
			if (p[i] < '0' || p[i] > '7')
				return false;
		return true;           /* octal mode */
	}
	if (p[0] == '[' || p[0] == '~')
		return len < 2 || p[1] != '{';   /* signal sets, not arrays of structs */
	if (!(isalpha((unsigned char)p[0]) || p[0] == '_'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '"' || p[i] == '{' || p[i] == '(')
			return false;
	return true;
}

static void add_pid_ref(struct strbuf *sb, int64_t pid)
{
	if (pid <= 0) {
		if (pid < -1) {
			strbuf_addstr(sb, "-@P");
			strbuf_add_i64(sb, -pid);
			strbuf_addch(sb, '@');
		} else {
			strbuf_add_i64(sb, pid);
		}
		return;
	}
	strbuf_addstr(sb, "@P");
	strbuf_add_i64(sb, pid);
	strbuf_addch(sb, '@');
}

/* Appends the endpoint described by sockaddr text at p, if any. */
static bool add_endpoint(struct strbuf *sb, const char *p, size_t len)
{
	const char *fam = memmem(p, len, "sa_family=", 10), *e = p + len, *q;
	char famname[32];
	size_t n = 0;

	if (!fam)
		return false;
	fam += 10;
	while (fam + n < e && n < sizeof(famname) - 1 &&
	       (isalnum((unsigned char)fam[n]) || fam[n] == '_'))
		n++;
	memcpy(famname, fam, n);
	famname[n] = '\0';
	if (!strcmp(famname, "AF_UNIX")) {
		q = memmem(fam, e - fam, "sun_path=", 9);
		strbuf_addstr(sb, "unix:");
		if (q) {
			q += 9;
			const char *end = q;
			if (*end == '@')
				end++;
			if (end < e && *end == '"') {
				end++;
				while (end < e && *end != '"') {
					if (*end == '\\' && end + 1 < e)
						end++;
					end++;
				}
				if (end < e)
					end++;
			}
			strbuf_add(sb, q, end - q);
		}
		return true;
	}
	if (!strcmp(famname, "AF_INET") || !strcmp(famname, "AF_INET6")) {
		const char *port = memmem(fam, e - fam, "port=htons(", 11), *addr;
		bool v6 = famname[7] == '6';
		strbuf_addstr(sb, v6 ? "inet6:" : "inet:");
		addr = memmem(fam, e - fam, v6 ? "inet_pton(AF_INET6, \"" : "inet_addr(\"",
			      v6 ? 21 : 11);
		if (addr) {
			addr += v6 ? 21 : 11;
			q = memchr(addr, '"', e - addr);
			if (q) {
				if (v6)
					strbuf_addch(sb, '[');
				strbuf_add(sb, addr, q - addr);
				if (v6)
					strbuf_addch(sb, ']');
			}
		}
		if (port) {
			port += 11;
			q = memchr(port, ')', e - port);
			if (q) {
				strbuf_addch(sb, ':');
				strbuf_add(sb, port, q - port);
			}
		}
		return true;
	}
	strbuf_addstr(sb, famname);
	return true;
}

/* --- resources --- */

static void add_res(struct build *b, enum gres_kind k, const char *p, size_t len)
{
	strbuf_reset(&b->tmp);
	strbuf_addch(&b->tmp, '0' + k);
	strbuf_addch(&b->tmp, '\t');
	strbuf_add(&b->tmp, p, len);
	intern_add(&b->rawres, b->tmp.buf, b->tmp.len);
}

/* Records the basename of a path created with O_EXCL (mkstemp's files). */
static void add_random(struct build *b, const char *p, size_t len)
{
	const char *base;
	if (len < 2 || p[0] != '"')
		return;
	p++, len -= 2;                 /* strip the quotes */
	base = p;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '/')
			base = p + i + 1;
	if (p + len - base >= 6)
		intern_add(&b->randoms, base, p + len - base);
}

/*
 * Whether a raw path (quoted text) matches an ignore_paths pattern, seen
 * before normalization: a pattern's leading $CWD, $HOME or $TMPDIR matches
 * any prefix here.  Used to leave descriptors of ignored files unnumbered.
 */
static bool raw_path_ignored(struct build *b, const char *p, size_t len)
{
	struct strbuf *sb = &b->tmp;
	if (!b->o->nignore_paths || len < 2 || p[0] != '"')
		return false;
	strbuf_reset(sb);
	strbuf_add(sb, p + 1, len - 2);
	for (size_t i = 0; i < b->o->nignore_paths; i++) {
		const char *pat = b->o->ignore_paths[i];
		if (!fnmatch(pat, sb->buf, 0))
			return true;
		if (pat[0] == '$') {
			const char *slash = strchr(pat, '/');
			struct strbuf alt = STRBUF_INIT;
			bool hit;
			strbuf_addch(&alt, '*');
			strbuf_addstr(&alt, slash ? slash : "");
			hit = !fnmatch(alt.buf, sb->buf, 0);
			strbuf_release(&alt);
			if (hit)
				return true;
		}
	}
	return false;
}

/* --- the key of one syscall --- */

static uint16_t name_id(struct build *b, const char *name)
{
	uint32_t id = intern_add(&b->m->names, name, strlen(name));

	if (id >= b->aprops) {
		uint32_t n = b->aprops ? b->aprops * 2 : 64;
		while (n <= id)
			n *= 2;
		b->props = xreallocarray(b->props, n, sizeof(*b->props));
		memset(b->props + b->aprops, 0xff, (n - b->aprops) * sizeof(*b->props));
		b->acache = xreallocarray(b->acache, n, sizeof(*b->acache));
		memset(b->acache + b->aprops, 0, (n - b->aprops) * sizeof(*b->acache));
		b->aprops = n;
	}
	if (b->props[id] == UINT32_MAX) {
		uint32_t pr = props_of(name) | (io_row_of(name) ? P_IO : 0);
		for (size_t i = 0; i < b->o->nignore_syscalls; i++)
			if (!strcmp(b->o->ignore_syscalls[i], name))
				pr |= P_IGNORED;
		for (size_t i = 0; i < b->o->nvolatile; i++)
			if (!strcmp(b->o->volatile_syscalls[i], name))
				pr |= P_VOLATILE;
		b->props[id] = pr;
	}
	return (uint16_t)(id > UINT16_MAX ? UINT16_MAX : id);
}

/* The class of argument i of syscall sc called name (one strcmp when cached). */
static uint8_t arg_class(struct build *b, uint16_t sc, uint32_t pr, unsigned i, const char *name)
{
	struct argcache *c = &b->acache[sc];
	uint8_t cls;

	if (c->cls[i] && (c->name[i] == name || (name && c->name[i] && !strcmp(c->name[i], name))))
		return c->cls[i];
	if (is_fd_arg(name))
		cls = A_FD;
	else if (is_pid_arg(name))
		cls = A_PID;
	else if (is_path_arg(name) || ((pr & P_EXEC) && i == 0))
		cls = A_PATH;
	else if ((pr & P_EXEC) && name && !strcmp(name, "argv"))
		cls = A_ARGV;
	else
		cls = A_OTHER;
	free(c->name[i]);
	c->name[i] = name ? xstrdup(name) : NULL;
	c->cls[i] = cls;
	return cls;
}

/*
 * -s: the call's source as "src/x.c:41 in f" (sink/srcloc.h), kept beside
 * the call (the array is made at the first call that has one).
 */
static void add_source(struct build *b, struct btask *t, const struct event *ev)
{
	uint32_t id;

	if (!ev->source && !t->src)
		return;
	if (t->asrc < t->acalls) {
		t->src = xreallocarray(t->src, t->acalls, sizeof(*t->src));
		memset(t->src + t->asrc, 0, (t->acalls - t->asrc) * sizeof(*t->src));
		t->asrc = t->acalls;
	}
	id = 0;
	if (ev->source) {
		strbuf_reset(&b->tmp);
		srcloc_render(&b->tmp, ev->source);
		id = intern_add(&b->m->srcs, b->tmp.buf, b->tmp.len) + 1;
	}
	t->src[t->ncalls - 1] = id;
}

static void on_syscall(struct build *b, const struct event *ev)
{
	const char *name = ev->name ? ev->name : "?";
	uint16_t sc = name_id(b, name);
	uint32_t pr = b->props[sc];
	int32_t ti = task_get(b, ev->tid, ev->pid);
	struct btask *t;
	struct strbuf *k = &b->key;
	bool unfinished = ev->state == SC_UNFINISHED;
	bool failed = !unfinished && ev->err != 0;
	int64_t ret = ev->retval;
	int64_t fd0 = -1;
	bool have_fd0 = false, stream_io = false, oexcl = false, ocreat = false;
	const char *paths[2] = { NULL, NULL };
	size_t plen[2] = { 0, 0 };
	unsigned npaths = 0;
	int64_t fdv[EVENT_MAX_ARGS];
	bool fdok[EVENT_MAX_ARGS] = { false };
	const char *argvp = NULL;
	size_t argvlen = 0;
	int kind0 = 0;
	unsigned kept_end;
	struct gcall c;

	strbuf_reset(k);
	strbuf_addstr(k, name);
	strbuf_addch(k, '(');
	kept_end = k->len;
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++) {
		const struct val *v = &ev->args[i];
		const char *p;
		size_t len;
		int64_t n;
		size_t before;

		if (i)
			strbuf_addstr(k, ", ");
		before = k->len;
		arg_text(b, v, &p, &len);
		t = &b->tasks[ti];
		uint8_t cls = arg_class(b, sc, pr, i, v->name);
		if (cls == A_FD && parse_int(p, len, &n)) {
			fdv[i] = n;
			fdok[i] = true;
			if (!have_fd0) {
				fd0 = n;
				have_fd0 = true;
				kind0 = fd_kind(t, n);
			}
			strbuf_add_i64(k, fd_norm(t, n));
		} else if (cls == A_PID && parse_int(p, len, &n)) {
			add_pid_ref(k, n);
		} else if ((pr & P_PAIR) && len && p[0] == '[') {
			/* [3, 4]: both new, both streams */
			const char *q = p, *e = p + len;
			strbuf_addch(k, '[');
			while (q < e) {
				char *end;
				long long fd = strtoll(q + 1, &end, 10);
				if (end == q + 1)
					break;
				if (q != p)
					strbuf_addstr(k, ", ");
				if (!failed) {
					strbuf_add_i64(k, fd_fresh(t, fd));
					fd_set_stream(t, fd, true);
					fd_set_kind(t, fd, 1 + (strcmp(name, "socketpair") ? GK_PIPE
										 : GK_SOCKET));
				} else {
					strbuf_addch(k, '_');
				}
				q = end;
				while (q < e && *q != ',' && *q != ']')
					q++;
				if (q < e && *q == ']')
					break;
				q++;
			}
			strbuf_addch(k, ']');
		} else if (len && p[0] == '"' && cls == A_PATH) {
			strbuf_add(k, p, len);
			if (npaths < 2) {
				paths[npaths] = p;
				plen[npaths++] = len;
			}
		} else if (cls == A_ARGV && len && p[0] == '[') {
			strbuf_add(k, p, len);
			argvp = p;
			argvlen = len;
		} else if (len > 12 && memmem(p, len, "sa_family=", 10) && (pr & P_ENDPOINT)) {
			size_t at = k->len;
			strbuf_addch(k, '{');
			add_endpoint(k, p, len);
			strbuf_addch(k, '}');
			if (!failed)
				add_res(b, GR_ENDPOINT, k->buf + at + 1, k->len - at - 2);
		} else if (keep_symbolic(p, len)) {
			strbuf_add(k, p, len);
			if ((pr & P_OPEN) && memmem(p, len, "O_CREAT", 7))
				ocreat = true;
			if ((pr & P_OPEN) && memmem(p, len, "O_EXCL", 6))
				oexcl = true;
		} else {
			strbuf_addch(k, '_');
		}
		if (k->len > before + 1 || k->buf[before] != '_')
			kept_end = k->len;
	}
	strbuf_setlen(k, kept_end);   /* drop trailing "_" arguments */
	strbuf_addch(k, ')');

	t = &b->tasks[ti];
	if ((pr & P_READ) && have_fd0 && fd_is_stream(t, fd0))
		stream_io = true;
	/* calls on a descriptor of an ignored file are ignored too */
	if (have_fd0 && fd_is_ignored(t, fd0))
		pr |= P_IGNORED;
	if ((pr & P_FDRET) && npaths && raw_path_ignored(b, paths[0], plen[0]))
		pr |= P_IGNORED;
	if ((pr & P_FCNTL) && strstr(k->buf, "F_DUPFD"))
		pr |= P_FDRET | P_DUP;

	/* the result */
	strbuf_addstr(k, " = ");
	if (unfinished) {
		strbuf_addch(k, '?');
	} else if (failed) {
		const char *en = errno_name(ev->err);
		strbuf_addstr(k, "-1 ");
		if (en)
			strbuf_addstr(k, en);
		else
			strbuf_add_i64(k, ev->err);
	} else if ((pr & P_FDRET) && ret >= 0 && (pr & P_IGNORED)) {
		fd_ignore(t, ret);
		strbuf_addch(k, '_');
	} else if ((pr & P_FDRET) && ret >= 0) {
		bool was_stream = have_fd0 && fd_is_stream(t, fd0);
		bool to_newfd = (pr & P_DUP2) != 0;
		/* dup2/dup3 return their newfd argument, numbered there */
		strbuf_add_i64(k, to_newfd ? fd_norm(t, ret) : fd_fresh(t, ret));
		if (pr & P_DUP)
			fd_set_stream(t, ret, was_stream);
		else
			fd_set_stream(t, ret, (pr & P_STREAMRET) != 0);
		if (pr & P_DUP)
			fd_set_kind(t, ret, kind0);
		else if ((pr & P_OPEN) && npaths)
			fd_set_kind(t, ret, 1 + path_kind(paths[0], plen[0]));
		else if (pr & P_STREAMRET)
			fd_set_kind(t, ret, 1 + (!strncmp(name, "socket", 6) ||
						 !strncmp(name, "accept", 6) ? GK_SOCKET : GK_OTHER));
		else
			fd_set_kind(t, ret, 1 + (!strcmp(name, "memfd_create") ||
						 !strcmp(name, "open_by_handle_at") ? GK_FILE
										    : GK_OTHER));
	} else if ((pr & P_WAIT) && (pr & P_PIDRET) && ret > 0) {
		/* which child a wait for any child reaps depends on scheduling */
		bool any = true;
		if (ev->nargs && ev->args[0].kind != V_NONE) {
			const char *p;
			size_t len;
			int64_t n;
			arg_text(b, &ev->args[0], &p, &len);
			if (parse_int(p, len, &n) && n > 0)
				any = false;
		}
		if (any)
			strbuf_addstr(k, "pid:child");
		else
			add_pid_ref(k, ret);
	} else if ((pr & P_PIDRET) && ret > 0) {
		add_pid_ref(k, ret);
	} else if (ret == 0) {
		strbuf_addch(k, '0');
	} else {
		strbuf_addstr(k, "ok");
	}
	if (!failed && !unfinished && have_fd0 && (pr & P_CLOSE))
		fd_close(t, fd0);
	if (pr & P_DUP2) {
		/* newfd (second argument) now has oldfd's kind */
		if (!failed && ret >= 0) {
			fd_set_stream(t, ret, have_fd0 && fd_is_stream(t, fd0));
			fd_set_kind(t, ret, kind0);
		}
	}
	/* bytes moved, by kind of file */
	if (!failed && !unfinished && ret > 0 && (pr & P_IO) && !(pr & P_IGNORED)) {
		const struct io_row *io = io_row_of(name);
		for (int side = 0; io && side < 2; side++) {
			int pos = side ? io->out : io->in;
			int kind;
			if (pos < 0 || !fdok[pos])
				continue;
			kind = fd_kind(t, fdv[pos]);
			kind = kind ? kind - 1 : GK_OTHER;
			t->io[GIO_BUCKET(kind, side)] += (uint64_t)ret;
			if (fdv[pos] >= 0 && fdv[pos] <= 2)
				t->io_std[fdv[pos]] += (uint64_t)ret;
		}
	}

	/* the record */
	memset(&c, 0, sizeof(c));
	c.sc = sc;
	c.key = intern_add(&b->raw, k->buf, k->len);
	if (c.key >= b->araw_sc) {
		uint32_t n = b->araw_sc ? b->araw_sc * 2 : 1024;
		while (n <= c.key)
			n *= 2;
		b->raw_sc = xreallocarray(b->raw_sc, n, sizeof(*b->raw_sc));
		b->araw_sc = n;
	}
	b->raw_sc[c.key] = sc;
	if (ev->end_ns > ev->ts_ns) {
		uint64_t us = (ev->end_ns - ev->ts_ns) / 1000;
		c.dur_us = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
	}
	if (failed) {
		c.flags |= GC_FAILED;
		c.err = ev->err > 254 ? 255 : (uint8_t)ev->err;
	}
	if (unfinished) {
		c.flags |= GC_UNFINISHED;
		if (!(pr & P_EXIT))
			c.flags |= GC_VOLATILE;
	}
	if ((pr & P_VOLATILE) || stream_io || (failed && volatile_errno(ev->err)))
		c.flags |= GC_VOLATILE;
	if (pr & P_MEM)
		c.flags |= GC_MEM;
	if (have_fd0 && fd0 >= 0 && fd0 <= 2)
		c.flags |= (uint8_t)((fd0 + 1) << GC_STD_SHIFT);
	if (pr & P_IGNORED)
		c.flags |= GC_IGNORED;
	ALLOC_GROW(t->calls, t->ncalls + 1, t->acalls);
	t->calls[t->ncalls++] = c;
	add_source(b, t, ev);

	if (failed || unfinished || (pr & P_IGNORED))
		return;

	/* resources and processes */
	if ((pr & P_OPEN) && npaths) {
		add_res(b, GR_OPEN, paths[0], plen[0]);
		if (ocreat || (pr & P_CREAT))
			add_res(b, GR_CREATE, paths[0], plen[0]);
		if (ocreat && oexcl)
			add_random(b, paths[0], plen[0]);
	} else if ((pr & P_CREATE) && npaths) {
		add_res(b, GR_CREATE, paths[npaths - 1], plen[npaths - 1]);
		if ((pr & P_MKDIR) && strstr(k->buf, ", 0700"))
			add_random(b, paths[0], plen[0]);     /* mkdtemp */
	} else if ((pr & P_DELETE) && npaths) {
		add_res(b, GR_DELETE, paths[0], plen[0]);
	} else if ((pr & P_RENAME) && npaths == 2) {
		add_res(b, GR_DELETE, paths[0], plen[0]);
		add_res(b, GR_CREATE, paths[1], plen[1]);
	} else if ((pr & P_EXEC) && npaths) {
		/* the program and its argv, as in the key */
		const char *s = strchr(k->buf, '(') + 1, *e = strrchr(k->buf, ')');
		add_res(b, GR_EXEC, s, e > s ? (size_t)(e - s) : 0);
		t->exe = intern_add(&b->strs, paths[0], plen[0]);
		if (argvp)
			t->argv = intern_add(&b->strs, argvp, argvlen);
	}
	if ((pr & P_CLONE) && ret > 0) {
		int32_t ci = tid_find(b, (pid_t)ret);
		bool thread = false;
		for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++) {
			const char *p;
			size_t len;
			arg_text(b, &ev->args[i], &p, &len);
			if (memmem(p, len, "CLONE_THREAD", 12))
				thread = true;
		}
		/* a child that started (and maybe exited) before this event is
		 * linked already; a tid used again was renamed by its start event */
		if (ci < 0)
			ci = task_new(b, (pid_t)ret, thread ? ev->pid : (pid_t)ret);
		link_task(b, ti, ci, thread);
	}
}

static void on_proc_start(struct build *b, const struct event *ev)
{
	int32_t creator = tid_find(b, ev->ppid), ci;

	ci = tid_find(b, ev->tid);
	if (ci < 0 || b->tasks[ci].dead)
		ci = task_new(b, ev->tid, ev->pid);
	if (creator >= 0 && creator != ci)
		link_task(b, creator, ci, ev->is_thread);
}

static void on_exit_ev(struct build *b, const struct event *ev)
{
	int32_t ti = tid_find(b, ev->tid);
	struct btask *t;

	if (ti < 0)
		ti = task_new(b, ev->tid, ev->pid);
	t = &b->tasks[ti];
	if (ev->type == EV_PROC_EXIT) {
		t->exited = true;
		t->exit_code = ev->exit_code;
		t->term_signal = ev->term_signal;
	}
	t->dead = true;
}

static void on_exec(struct build *b, const struct event *ev)
{
	int32_t ti = task_get(b, ev->tid ? ev->tid : ev->pid, ev->pid);
	if (ev->exec_path) {
		struct strbuf *sb = &b->tmp;
		strbuf_reset(sb);
		render_quoted(sb, ev->exec_path, strlen(ev->exec_path), NULL);
		b->tasks[ti].exe = intern_add(&b->strs, sb->buf, sb->len);
	}
}

static void on_signal(struct build *b, const struct event *ev)
{
	const char *n = signal_name(ev->signo);
	char buf[32];
	uint32_t id;

	if (!n) {
		snprintf(buf, sizeof(buf), "signal %d", ev->signo);
		n = buf;
	}
	id = intern_add(&b->m->sigs, n, strlen(n));
	if (id >= b->asig) {
		uint32_t na = b->asig ? b->asig * 2 : 16;
		b->m->sig_counts = xreallocarray(b->m->sig_counts, na, sizeof(*b->m->sig_counts));
		memset(b->m->sig_counts + b->asig, 0, (na - b->asig) * sizeof(*b->m->sig_counts));
		b->asig = na;
	}
	b->m->sig_counts[id]++;
}

/* --- the sink --- */

static struct build *sink_build(struct sink *s)
{
	return (struct build *)((char *)s - offsetof(struct build, sink));
}

/* 1 + enum gio_kind of a standard stream of kind k (enum stdio_kind). */
static uint8_t stdio_gio(int k)
{
	switch (k) {
	case SK_NULL: case SK_DEVICE: return 1 + GK_DEVICE;
	case SK_FILE: return 1 + GK_FILE;
	case SK_PIPE: return 1 + GK_PIPE;
	case SK_SOCKET: return 1 + GK_SOCKET;
	case SK_TTY: return 1 + GK_TTY;
	case SK_OTHER: return 1 + GK_OTHER;
	default: return 0;
	}
}

static int mb_begin(struct sink *s, const struct trace_info *ti)
{
	struct build *b = sink_build(s);
	if (ti && ti->env && !b->m->has_env) {
		trace_env_copy(&b->m->env, ti->env);
		b->m->has_env = true;
		for (int i = 0; i < 3; i++)
			b->env_stdk[i] = stdio_gio(ti->env->stdio[i]);
		for (uint32_t i = 0; i < b->ntasks; i++)
			for (int j = 0; j < 3; j++)
				if (!b->tasks[i].stdk[j])
					b->tasks[i].stdk[j] = b->env_stdk[j];
	}
	if (ti && ti->argv && !b->m->command) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; ti->argv[i]; i++) {
			if (i)
				strbuf_addch(&sb, ' ');
			strbuf_addstr(&sb, ti->argv[i]);
		}
		b->m->command = strbuf_detach(&sb, NULL);
	}
	return 0;
}

static void mb_event(struct sink *s, const struct event *ev)
{
	struct build *b = sink_build(s);

	switch (ev->type) {
	case EV_SYSCALL:
		b->m->ncalls++;
		on_syscall(b, ev);
		break;
	case EV_PROC_START:
		on_proc_start(b, ev);
		break;
	case EV_EXEC:
		on_exec(b, ev);
		break;
	case EV_SIGNAL:
		on_signal(b, ev);
		break;
	case EV_DETACH:
		on_exit_ev(b, ev);
		break;
	default:
		break;
	}
}

static void mb_proc_exit(struct sink *s, const struct event *ev)
{
	on_exit_ev(sink_build(s), ev);
}

static int mb_end(struct sink *s, const struct trace_end *te)
{
	struct build *b = sink_build(s);
	if (te) {
		b->wall_ns = te->wall_ns;
		b->exit_code = te->exit_code;
		b->term_signal = te->term_signal;
	}
	b->ended = true;
	return 0;
}

static void mb_free(struct sink *s)
{
	(void)s;  /* the build belongs to the model */
}

static const struct sink_ops model_ops = {
	.name = "golden-model",
	.begin = mb_begin,
	.event = mb_event,
	.proc_exit = mb_proc_exit,
	.end = mb_end,
	.free = mb_free,
};

struct gmodel *gmodel_new(const struct golden_opts *o)
{
	struct gmodel *m = xcalloc(1, sizeof(*m));
	struct build *b = xcalloc(1, sizeof(*b));

	b->o = o;
	b->m = m;
	b->sink.ops = &model_ops;
	strbuf_init(&b->key, 256);
	strbuf_init(&b->tmp, 256);
	strbuf_init(&b->arg, 256);
	m->priv = b;
	return m;
}

struct sink *gmodel_sink(struct gmodel *m)
{
	return m->priv ? &((struct build *)m->priv)->sink : NULL;
}

/* --- finalization: string normalization --- */

static bool is_run_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Masks the runs of >= 6 name characters in [s, e) that look random. */
static void mask_component(struct strbuf *out, const char *s, const char *e, bool all)
{
	while (s < e) {
		const char *r = s;
		if (!is_run_char((unsigned char)*s)) {
			strbuf_addch(out, *s++);
			continue;
		}
		while (r < e && is_run_char((unsigned char)*r))
			r++;
		bool digit = false, lower = false, upper = false;
		for (const char *q = s; q < r; q++) {
			digit |= isdigit((unsigned char)*q) != 0;
			lower |= islower((unsigned char)*q) != 0;
			upper |= isupper((unsigned char)*q) != 0;
		}
		if (r - s >= 6 && (all || digit + lower + upper >= 2))
			strbuf_addstr(out, "XXXXXX");
		else
			strbuf_add(out, s, r - s);
		s = r;
	}
}

struct norm_ctx {
	const struct gcontext *ctx;
	const struct build *b;
	const struct gmodel *m;
	const char **task_labels;   /* per task */
};

static size_t prefix_match(const char *p, size_t len, const char *pre)
{
	size_t n;
	if (!pre || !*pre || !strcmp(pre, "/"))
		return 0;
	n = strlen(pre);
	while (n > 1 && pre[n - 1] == '/')
		n--;
	if (n > len || memcmp(p, pre, n))
		return 0;
	if (n < len && p[n] != '/')
		return 0;
	return n;
}

/* Normalizes the text of one path (inside quotes) into out. */
static void norm_path(const struct norm_ctx *nc, struct strbuf *out, const char *p, size_t len)
{
	const struct gcontext *ctx = nc->ctx;
	const char *e = p + len, *rest = p;
	size_t n, best = 0;
	const char *var = NULL;
	bool temp_root = false;

	if (ctx) {
		if ((n = prefix_match(p, len, ctx->cwd)) > best)
			best = n, var = "$CWD";
		if (ctx->tmpdir && strcmp(ctx->tmpdir, "/tmp") &&
		    (n = prefix_match(p, len, ctx->tmpdir)) > best)
			best = n, var = "$TMPDIR";
		if ((n = prefix_match(p, len, ctx->home)) > best)
			best = n, var = "$HOME";
	}
	if (var) {
		strbuf_addstr(out, var);
		rest = p + best;
		temp_root = !strcmp(var, "$TMPDIR");
	} else {
		static const char *const roots[] = { "/tmp", "/var/tmp", "/dev/shm" };
		for (size_t i = 0; i < ARRAY_SIZE(roots); i++)
			if ((n = prefix_match(p, len, roots[i]))) {
				strbuf_add(out, p, n);
				rest = p + n;
				temp_root = true;
				break;
			}
	}
	/* components */
	bool first = true;
	bool proc = len >= 6 && !memcmp(p, "/proc/", 6);
	int comp_no = 0;
	const char *prev = NULL;
	size_t prevlen = 0;
	while (rest < e) {
		const char *c = rest, *ce;
		if (*c == '/') {
			strbuf_addch(out, '/');
			rest++;
			continue;
		}
		ce = memchr(c, '/', e - c);
		if (!ce)
			ce = e;
		comp_no++;
		bool digits = true;
		for (const char *q = c; q < ce; q++)
			if (!isdigit((unsigned char)*q))
				digits = false;
		if (proc && digits && comp_no == 2) {
			strbuf_addstr(out, "PID");
		} else if (proc && digits && comp_no == 4 && prevlen == 4 &&
			   !memcmp(prev, "task", 4)) {
			strbuf_addstr(out, "TID");
		} else if (intern_find(&nc->b->randoms, c, ce - c) != UINT32_MAX) {
			/* a mkstemp/mkdtemp name: its last run of six or more name
			 * characters is the random part (templates have 6 to 10) */
			const char *r = ce, *re = NULL;
			while (r > c) {
				const char *q = r;
				while (q > c && is_run_char((unsigned char)q[-1]))
					q--;
				if (r - q >= 6) {
					re = r;
					break;
				}
				r = q > c ? q - 1 : c;
			}
			if (re) {
				const char *rs = re;
				while (rs > c && is_run_char((unsigned char)rs[-1]))
					rs--;
				strbuf_add(out, c, rs - c);
				strbuf_addstr(out, "XXXXXX");
				strbuf_add(out, re, ce - re);
			} else {
				strbuf_add(out, c, ce - c);
			}
		} else if (temp_root) {
			mask_component(out, c, ce, first);
		} else {
			strbuf_add(out, c, ce - c);
		}
		first = false;
		prev = c;
		prevlen = ce - c;
		rest = ce;
	}
}

/* "pipe:[1234]" and "socket:[1234]" inode numbers. */
static void mask_inodes(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf, *e = sb->buf + sb->len;
	bool changed = false;

	while (p < e) {
		const char *q = strstr(p, ":[");
		if (!q || q >= e)
			break;
		const char *d = q + 2;
		while (d < e && isdigit((unsigned char)*d))
			d++;
		if (d > q + 2 && d < e && *d == ']') {
			strbuf_add(&out, p, q + 2 - p);
			strbuf_addch(&out, 'N');
			p = d;
			changed = true;
		} else {
			strbuf_add(&out, p, q + 2 - p);
			p = q + 2;
		}
	}
	if (!changed) {
		strbuf_release(&out);
		return;
	}
	strbuf_add(&out, p, e - p);
	strbuf_release(sb);
	*sb = out;
}

/* The label of the task that had tid, for "@P<tid>@" references. */
static const char *pid_label(const struct norm_ctx *nc, pid_t tid)
{
	int32_t i = tid_find(nc->b, tid);
	return i >= 0 ? nc->task_labels[i] : NULL;
}

/* Normalizes a raw key or resource string. */
static void norm_string(const struct norm_ctx *nc, struct strbuf *out, const char *s, size_t len)
{
	const char *p = s, *e = s + len;

	while (p < e) {
		if (*p == '"') {
			/* a quoted string: find its end, honouring escapes */
			const char *q = p + 1;
			while (q < e && *q != '"') {
				if (*q == '\\' && q + 1 < e)
					q++;
				q++;
			}
			strbuf_addch(out, '"');
			if (q > p + 1 && (p[1] == '/' || nc->b->randoms.n))
				norm_path(nc, out, p + 1, q - p - 1);
			else
				strbuf_add(out, p + 1, q - p - 1);
			if (q < e)
				strbuf_addch(out, '"');
			p = q < e ? q + 1 : e;
		} else if (*p == '0' && p + 1 < e && p[1] == 'x' &&
			   (p == s || !isalnum((unsigned char)p[-1]))) {
			/* addresses: 0x followed by six or more hex digits */
			const char *q = p + 2;
			while (q < e && isxdigit((unsigned char)*q))
				q++;
			if (q - p - 2 >= 6) {
				strbuf_addstr(out, "ADDR");
			} else {
				strbuf_add(out, p, q - p);
			}
			p = q;
		} else if (*p == '@' && p + 1 < e && p[1] == 'P') {
			char *end;
			long v = strtol(p + 2, &end, 10);
			if (end < e && *end == '@') {
				const char *l = pid_label(nc, (pid_t)v);
				strbuf_addstr(out, "pid:");
				strbuf_addstr(out, l ? l : "?");
				p = end + 1;
			} else {
				strbuf_addch(out, *p++);
			}
		} else {
			strbuf_addch(out, *p++);
		}
	}
	mask_inodes(out);
}

/*
 * Applies the user's rules (each to every match, left to right).  A rule
 * whose replacement is longer than its match grows the key; what grows
 * past GOLDEN_MAX_KEY bytes is cut ("..."), so that eight rules of "\0\0"
 * cannot make a key of 256 times its size.
 */
static void apply_rules(const struct golden_opts *o, struct strbuf *sb)
{
	for (size_t r = 0; r < o->nrules; r++) {
		const struct golden_rule *rule = &o->rules[r];
		struct strbuf out = STRBUF_INIT;
		const char *p = sb->buf;
		regmatch_t mt[10];
		int eflags = 0;
		bool any = false;

		while (*p && !regexec(&rule->re, p, 10, mt, eflags)) {
			if (out.len > GOLDEN_MAX_KEY) {
				/* replacements that grow the text (\0\0) stop at the cap */
				strbuf_setlen(&out, GOLDEN_MAX_KEY);
				strbuf_addstr(&out, "...");
				p += strlen(p);
				break;
			}
			any = true;
			strbuf_add(&out, p, mt[0].rm_so);
			for (const char *q = rule->replace; *q; q++) {
				if (*q == '\\' && q[1] >= '0' && q[1] <= '9') {
					int g = q[1] - '0';
					if (mt[g].rm_so >= 0)
						strbuf_add(&out, p + mt[g].rm_so,
							   mt[g].rm_eo - mt[g].rm_so);
					q++;
				} else if (*q == '\\' && q[1] == '\\') {
					strbuf_addch(&out, '\\');
					q++;
				} else {
					strbuf_addch(&out, *q);
				}
			}
			if (mt[0].rm_eo == mt[0].rm_so) {
				if (!p[mt[0].rm_eo])
					{ p += mt[0].rm_eo; break; }
				strbuf_addch(&out, p[mt[0].rm_eo]);
				p += mt[0].rm_eo + 1;
			} else {
				p += mt[0].rm_eo;
			}
			eflags = REG_NOTBOL;
		}
		if (!any) {
			strbuf_release(&out);
			continue;
		}
		strbuf_addstr(&out, p);
		if (out.len > GOLDEN_MAX_KEY + 3) {
			strbuf_setlen(&out, GOLDEN_MAX_KEY);
			strbuf_addstr(&out, "...");
		}
		strbuf_release(sb);
		*sb = out;
	}
}

/* True when a quoted path in s matches an ignore_paths pattern. */
static bool path_ignored(const struct golden_opts *o, const char *s)
{
	struct strbuf path = STRBUF_INIT;
	bool hit = false;

	if (!o->nignore_paths)
		return false;
	for (const char *p = s; *p && !hit; p++) {
		if (*p != '"')
			continue;
		const char *q = p + 1;
		while (*q && *q != '"') {
			if (*q == '\\' && q[1])
				q++;
			q++;
		}
		strbuf_reset(&path);
		strbuf_add(&path, p + 1, q - p - 1);
		for (size_t i = 0; i < o->nignore_paths && !hit; i++)
			if (!fnmatch(o->ignore_paths[i], path.buf, 0))
				hit = true;
		p = *q ? q : q - 1;
	}
	strbuf_release(&path);
	return hit;
}

/* --- finalization: processes --- */

static void make_label(struct build *b, char **labels, uint32_t i, uint32_t *orphan)
{
	struct btask *t = &b->tasks[i];
	char buf[32];

	if (labels[i])
		return;
	if (i == 0) {
		labels[i] = xstrdup("1");
		return;
	}
	if (t->parent < 0) {
		snprintf(buf, sizeof(buf), "?%u", ++*orphan);
		labels[i] = xstrdup(buf);
		return;
	}
	/* a process is named after its creator's process, a thread after its
	 * creator: processes and threads are numbered apart */
	int32_t base = t->is_thread ? t->parent : leader_of(b, t->parent);
	make_label(b, labels, (uint32_t)base, orphan);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, labels[base]);
	strbuf_addstr(&sb, t->is_thread && !b->tasks[base].is_thread ? "/t" : ".");
	strbuf_add_u64(&sb, t->ordinal);
	labels[i] = strbuf_detach(&sb, NULL);
}

int gproc_label_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int proc_cmp(const void *x, const void *y)
{
	return gproc_label_cmp(((const struct gproc *)x)->label, ((const struct gproc *)y)->label);
}

/* Thread groups: a task is "threaded" when it is a thread or has threads. */
static void mark_threaded(struct build *b, bool *threaded)
{
	for (uint32_t i = 0; i < b->ntasks; i++) {
		if (!b->tasks[i].is_thread)
			continue;
		int32_t j = (int32_t)i;
		threaded[j] = true;
		while (j >= 0 && b->tasks[j].is_thread) {
			j = b->tasks[j].parent;
			if (j >= 0)
				threaded[j] = true;
		}
	}
	/* threads of the same leader share its status */
	for (uint32_t i = 0; i < b->ntasks; i++) {
		int32_t j = (int32_t)i;
		while (j >= 0 && b->tasks[j].is_thread)
			j = b->tasks[j].parent;
		if (j >= 0 && threaded[j])
			threaded[i] = true;
	}
}

/* "ls -l" from the argv text of a trace (["ls", "-l"]), escapes kept. */
static void cmdline_of(struct strbuf *out, const char *s, size_t len)
{
	const char *e = s + len;

	for (const char *p = s; p < e; p++) {
		if (*p != '"')
			continue;
		const char *q = p + 1;
		while (q < e && *q != '"') {
			if (*q == '\\' && q + 1 < e)
				q++;
			q++;
		}
		if (out->len)
			strbuf_addch(out, ' ');
		strbuf_add(out, p + 1, q - p - 1);
		if (q + 3 < e && !memcmp(q + 1, "...", 3))
			strbuf_addstr(out, "...");   /* cut at the string limit */
		p = q < e ? q : e - 1;
	}
}

static const char **sort_labels;
static int group_idx_cmp(const void *a, const void *b)
{
	return gproc_label_cmp(sort_labels[*(const uint32_t *)a], sort_labels[*(const uint32_t *)b]);
}

/*
 * Fills m->groups (the processes, each with its threads) from the tasks;
 * m->procs[i] is still task i here.  Sets each proc's group.
 */
static void build_groups(struct build *b, struct gmodel *m, const struct norm_ctx *nc,
			 char **labels)
{
	uint32_t *gidx = xmalloc((b->ntasks + 1) * sizeof(*gidx));
	uint32_t *leaders = xmalloc((b->ntasks + 1) * sizeof(*leaders));
	uint32_t *order, *rank, n = 0;
	struct strbuf sb = STRBUF_INIT, cl = STRBUF_INIT;

	for (uint32_t i = 0; i < b->ntasks; i++)
		gidx[i] = UINT32_MAX;
	for (uint32_t i = 0; i < b->ntasks; i++) {
		uint32_t li = (uint32_t)leader_of(b, (int32_t)i);
		if (gidx[li] == UINT32_MAX) {
			gidx[li] = n;
			leaders[n++] = li;
		}
	}
	/* sorted by label */
	order = xmalloc((n + 1) * sizeof(*order));
	rank = xmalloc((n + 1) * sizeof(*rank));
	sort_labels = (const char **)labels;
	for (uint32_t g = 0; g < n; g++)
		order[g] = leaders[g];
	QSORT(order, n, group_idx_cmp);
	for (uint32_t g = 0; g < n; g++)
		rank[gidx[order[g]]] = g;
	m->groups = xcalloc(n + 1, sizeof(*m->groups));
	m->ngroups = n;
	for (uint32_t g = 0; g < n; g++) {
		uint32_t li = order[g];
		struct ggroup *gr = &m->groups[g];
		const struct btask *t = &b->tasks[li];
		gr->label = xstrdup(labels[li]);
		gr->exe = m->procs[li].exe ? xstrdup(m->procs[li].exe) : NULL;
		gr->counts = xcalloc(m->names.n + 1, sizeof(*gr->counts));
		gr->exited = t->exited;
		gr->exit_code = t->exit_code;
		gr->term_signal = t->term_signal;
		if (li == 0 && m->command) {
			gr->cmdline = xstrdup(m->command);   /* the whole command line */
		} else if (t->argv != UINT32_MAX) {
			strbuf_reset(&sb);
			strbuf_reset(&cl);
			norm_string(nc, &sb, intern_str(&b->strs, t->argv), intern_len(&b->strs, t->argv));
			cmdline_of(&cl, sb.buf, sb.len);
			gr->cmdline = xstrdup(cl.buf);
		}
	}
	for (uint32_t i = 0; i < b->ntasks; i++) {
		const struct btask *t = &b->tasks[i];
		struct gproc *p = &m->procs[i];
		struct ggroup *gr = &m->groups[rank[gidx[leader_of(b, (int32_t)i)]]];

		p->group = rank[gidx[leader_of(b, (int32_t)i)]];
		if ((uint32_t)leader_of(b, (int32_t)i) != i)
			gr->nthreads++;
		for (int k = 0; k < GIO_NBUCKETS; k++)
			gr->io[k] += t->io[k];
		for (int k = 0; k < 3; k++)
			gr->io_std[k] += t->io_std[k];
		for (uint32_t j = 0; j < p->ncalls; j++) {
			const struct gcall *c = &p->calls[j];
			if (!(c->flags & (GC_VOLATILE | GC_IGNORED)))
				gr->counts[c->sc]++;
		}
	}
	for (uint32_t g = 0; g < n; g++)
		m->groups[g].threaded = m->groups[g].nthreads > 0;
	strbuf_release(&sb);
	strbuf_release(&cl);
	free(gidx);
	free(leaders);
	free(order);
	free(rank);
}

int gmodel_finalize(struct gmodel *m, const struct gcontext *ctx)
{
	struct build *b = m->priv;
	struct norm_ctx nc;
	char **labels;
	bool *threaded, *ignored;
	uint32_t *remap, orphan = 0;
	struct strbuf sb = STRBUF_INIT;

	if (!b)
		return 0;
	labels = xcalloc(b->ntasks + 1, sizeof(*labels));
	threaded = xcalloc(b->ntasks + 1, sizeof(*threaded));
	for (uint32_t i = 0; i < b->ntasks; i++)
		make_label(b, labels, i, &orphan);
	mark_threaded(b, threaded);

	nc.ctx = ctx;
	nc.b = b;
	nc.m = m;
	nc.task_labels = (const char **)labels;

	/* keys */
	remap = xmalloc((b->raw.n + 1) * sizeof(*remap));
	ignored = xcalloc(b->raw.n + 1, sizeof(*ignored));
	for (uint32_t id = 0; id < b->raw.n; id++) {
		strbuf_reset(&sb);
		norm_string(&nc, &sb, intern_str(&b->raw, id), intern_len(&b->raw, id));
		apply_rules(b->o, &sb);
		remap[id] = intern_add(&m->keys, sb.buf, sb.len);
		ignored[id] = sb.len == 0 || path_ignored(b->o, sb.buf);
	}
	/* resources */
	for (uint32_t id = 0; id < b->rawres.n; id++) {
		const char *s = intern_str(&b->rawres, id);
		strbuf_reset(&sb);
		strbuf_add(&sb, s, 2);
		norm_string(&nc, &sb, s + 2, intern_len(&b->rawres, id) - 2);
		apply_rules(b->o, &sb);
		if (sb.len <= 2 || path_ignored(b->o, sb.buf + 2))
			continue;
		intern_add(&m->res, sb.buf, sb.len);
	}

	/* processes */
	m->procs = xcalloc(b->ntasks + 1, sizeof(*m->procs));
	m->nprocs = b->ntasks;
	m->sc = xcalloc(m->names.n + 1, sizeof(*m->sc));
	for (uint32_t i = 0; i < b->ntasks; i++) {
		struct btask *t = &b->tasks[i];
		struct gproc *p = &m->procs[i];

		p->label = labels[i];
		p->is_thread = t->is_thread;
		p->exited = t->exited;
		p->exit_code = t->exit_code;
		p->term_signal = t->term_signal;
		p->threaded = threaded[i];
		if (t->exe != UINT32_MAX) {
			strbuf_reset(&sb);
			norm_string(&nc, &sb, intern_str(&b->strs, t->exe),
				    intern_len(&b->strs, t->exe));
			if (sb.len >= 2 && sb.buf[0] == '"' && sb.buf[sb.len - 1] == '"')
				p->exe = xstrndup(sb.buf + 1, sb.len - 2);   /* unquoted */
			else
				p->exe = xstrdup(sb.buf);
		}
		p->calls = t->calls;
		p->ncalls = t->ncalls;
		t->calls = NULL;
		p->src = t->src;
		t->src = NULL;
		p->seq = xmalloc((p->ncalls + 1) * sizeof(*p->seq));
		p->seq_idx = xmalloc((p->ncalls + 1) * sizeof(*p->seq_idx));
		for (uint32_t j = 0; j < p->ncalls; j++) {
			struct gcall *c = &p->calls[j];
			struct gsc_stat *st = &m->sc[c->sc];
			if (ignored[c->key])
				c->flags |= GC_IGNORED;
			c->key = remap[c->key];
			st->calls++;
			st->time_us += c->dur_us;
			if (c->flags & GC_FAILED)
				st->errors++;
			if (c->flags & (GC_VOLATILE | GC_IGNORED))
				continue;
			st->stable++;
			if (c->flags & GC_FAILED)
				st->stable_errors++;
			p->seq_idx[p->nseq] = j;
			p->seq[p->nseq++] = c->key;
		}
	}
	build_groups(b, m, &nc, labels);
	QSORT(m->procs, m->nprocs, proc_cmp);
	for (size_t j = 0; j < m->nprocs; j++)
		if (!strcmp(m->procs[j].label, m->groups[m->procs[j].group].label))
			m->groups[m->procs[j].group].leader = (uint32_t)j;
	m->wall_ns = b->wall_ns;
	m->exit_code = b->exit_code;
	m->term_signal = b->term_signal;

	/* the building state goes */
	for (uint32_t i = 0; i < b->ntasks; i++) {
		free(b->tasks[i].calls);
		free(b->tasks[i].src);
		free(b->tasks[i].fdmap);
		free(b->tasks[i].used);
	}
	free(b->tasks);
	free(b->tidh);
	free(b->tidk);
	for (uint32_t i = 0; i < b->aprops; i++)
		for (unsigned j = 0; j < EVENT_MAX_ARGS; j++)
			free(b->acache[i].name[j]);
	free(b->acache);
	free(b->props);
	free(b->raw_sc);
	intern_release(&b->raw);
	intern_release(&b->strs);
	intern_release(&b->rawres);
	intern_release(&b->randoms);
	strbuf_release(&b->key);
	strbuf_release(&b->tmp);
	strbuf_release(&b->arg);
	free(b);
	m->priv = NULL;
	free(labels);
	free(threaded);
	free(ignored);
	free(remap);
	strbuf_release(&sb);
	return 0;
}

void gmodel_free(struct gmodel *m)
{
	if (!m)
		return;
	if (m->priv)
		gmodel_finalize(m, NULL);
	for (size_t i = 0; i < m->nprocs; i++) {
		free(m->procs[i].label);
		free(m->procs[i].exe);
		free(m->procs[i].calls);
		free(m->procs[i].src);
		free(m->procs[i].seq);
		free(m->procs[i].seq_idx);
	}
	free(m->procs);
	for (size_t i = 0; i < m->ngroups; i++) {
		free(m->groups[i].label);
		free(m->groups[i].exe);
		free(m->groups[i].cmdline);
		free(m->groups[i].counts);
	}
	free(m->groups);
	trace_env_release(&m->env);
	free(m->sc);
	free(m->sig_counts);
	free(m->command);
	intern_release(&m->keys);
	intern_release(&m->names);
	intern_release(&m->res);
	intern_release(&m->sigs);
	intern_release(&m->srcs);
	gtiming_release(&m->timing);
	free(m);
}

const char *gres_kind_name(enum gres_kind k)
{
	static const char *const n[] = { "opened", "created", "deleted", "executed", "endpoint" };
	return (unsigned)k < ARRAY_SIZE(n) ? n[k] : "?";
}

const char *gmodel_res_value(const struct gmodel *m, uint32_t id)
{
	return intern_str(&m->res, id) + 2;
}

enum gres_kind gmodel_res_kind(const struct gmodel *m, uint32_t id)
{
	return (enum gres_kind)(intern_str(&m->res, id)[0] - '0');
}

const struct ggroup *gmodel_group(const struct gmodel *m, const char *label)
{
	size_t lo = 0, hi = m->ngroups;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = gproc_label_cmp(m->groups[mid].label, label);
		if (!c)
			return &m->groups[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t gmodel_mem(const struct gmodel *m)
{
	size_t n = intern_mem(&m->keys) + intern_mem(&m->names) + intern_mem(&m->res);
	for (size_t i = 0; i < m->nprocs; i++)
		n += (size_t)m->procs[i].ncalls * (sizeof(struct gcall) + 8);
	return n;
}
