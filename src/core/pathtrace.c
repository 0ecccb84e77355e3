/*
 * -P PATH (see pathtrace.h), after strace 6.1's pathtrace.c: which argument
 * of which syscall names a path or a descriptor.
 */
#include "core/pathtrace.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/tmem.h"
#include "sys/sysent.h"
#include "util/xmalloc.h"
#include "util/banned.h"

struct pathset {
	char **paths;
	size_t n, alloc;
};

/* How a syscall's arguments are matched (strace's pathtrace_match_set). */
enum how {
	H_DEFAULT = 0,  /* %file: path arg 0; %desc/%net: fd arg 0 */
	H_FD_FD,        /* fd, fd */
	H_FD_PATH,      /* fd, path */
	H_PATH_PATH,    /* path, path */
	H_X_PATH,       /* x, path */
	H_FD_PATH_FD_PATH, /* fd, path, fd, path */
	H_MMAP,         /* x, x, x, x, fd */
	H_X_FD_PATH,    /* x, fd, path */
	H_FD_X_FD,      /* fd, x, fd */
	H_X_X_FD,       /* x, x, fd */
	H_FANOTIFY,     /* x, x, mask, fd, path */
	H_SELECT,       /* nfds, fd_set * 3 */
	H_POLL,         /* pollfd array, nfds */
	H_FSCONFIG,     /* x, cmd, x, path?, fd? */
	H_NONE,         /* no descriptor or path argument */
};

static const struct {
	const char *name;
	enum how how;
} special[] = {
	{ "dup2", H_FD_FD }, { "dup3", H_FD_FD }, { "kexec_file_load", H_FD_FD },
	{ "sendfile", H_FD_FD }, { "tee", H_FD_FD },
	{ "execveat", H_FD_PATH }, { "faccessat", H_FD_PATH }, { "faccessat2", H_FD_PATH },
	{ "fchmodat", H_FD_PATH }, { "fchmodat2", H_FD_PATH }, { "fchownat", H_FD_PATH },
	{ "fspick", H_FD_PATH }, { "futimesat", H_FD_PATH }, { "inotify_add_watch", H_FD_PATH },
	{ "mkdirat", H_FD_PATH }, { "mknodat", H_FD_PATH }, { "mount_setattr", H_FD_PATH },
	{ "name_to_handle_at", H_FD_PATH }, { "newfstatat", H_FD_PATH },
	{ "open_tree", H_FD_PATH }, { "openat", H_FD_PATH }, { "openat2", H_FD_PATH },
	{ "readlinkat", H_FD_PATH }, { "statx", H_FD_PATH }, { "unlinkat", H_FD_PATH },
	{ "utimensat", H_FD_PATH },
	{ "link", H_PATH_PATH }, { "mount", H_PATH_PATH }, { "pivot_root", H_PATH_PATH },
	{ "quotactl", H_X_PATH }, { "symlink", H_X_PATH },
	{ "linkat", H_FD_PATH_FD_PATH }, { "move_mount", H_FD_PATH_FD_PATH },
	{ "renameat2", H_FD_PATH_FD_PATH }, { "renameat", H_FD_PATH_FD_PATH },
	{ "mmap", H_MMAP },
	{ "symlinkat", H_X_FD_PATH },
	{ "copy_file_range", H_FD_X_FD }, { "splice", H_FD_X_FD },
	{ "epoll_ctl", H_X_X_FD },
	{ "fanotify_mark", H_FANOTIFY },
	{ "select", H_SELECT }, { "pselect6", H_SELECT },
	{ "poll", H_POLL }, { "ppoll", H_POLL },
	{ "fsconfig", H_FSCONFIG },
	{ "bpf", H_NONE }, { "epoll_create", H_NONE }, { "epoll_create1", H_NONE },
	{ "eventfd2", H_NONE }, { "eventfd", H_NONE }, { "fanotify_init", H_NONE },
	{ "fsopen", H_NONE }, { "inotify_init", H_NONE }, { "inotify_init1", H_NONE },
	{ "io_uring_setup", H_NONE }, { "landlock_create_ruleset", H_NONE },
	{ "memfd_create", H_NONE }, { "memfd_secret", H_NONE }, { "mq_open", H_NONE },
	{ "perf_event_open", H_NONE }, { "pidfd_open", H_NONE }, { "pipe", H_NONE },
	{ "pipe2", H_NONE }, { "socket", H_NONE }, { "socketpair", H_NONE },
	{ "timerfd_create", H_NONE }, { "userfaultfd", H_NONE },
};

/* Per syscall number, how it matches; filled once. */
static uint8_t *how_by_nr;

static void init_how(void)
{
	if (how_by_nr)
		return;
	how_by_nr = xcalloc(sysent_count ? sysent_count : 1, 1);
	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
		long nr = sysent_lookup(special[i].name);
		if (nr >= 0 && (unsigned long)nr < sysent_count)
			how_by_nr[nr] = (uint8_t)special[i].how;
	}
}

struct pathset *pathset_new(void)
{
	init_how();
	return xcalloc(1, sizeof(struct pathset));
}

void pathset_free(struct pathset *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++)
		free(ps->paths[i]);
	free(ps->paths);
	free(ps);
}

static bool pathmatch(const struct pathset *ps, const char *path)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->paths[i], path))
			return true;
	return false;
}

static void store(struct pathset *ps, const char *path)
{
	if (pathmatch(ps, path))
		return;
	ALLOC_GROW(ps->paths, ps->n + 1, ps->alloc);
	ps->paths[ps->n++] = xstrdup(path);
}

void pathset_add(struct pathset *ps, const char *path, char **resolved)
{
	char *rpath;

	*resolved = NULL;
	store(ps, path);
	rpath = realpath(path, NULL);
	if (!rpath)
		return;
	if (strcmp(path, rpath)) {
		store(ps, rpath);
		*resolved = rpath;
		return;
	}
	free(rpath);
}

/* A path argument read from the tracee matches. */
static bool upath(const struct pathset *ps, pid_t tid, uint64_t addr)
{
	char path[PATH_MAX + 1];
	bool term = false;

	if (!addr)
		return false;
	return tmem_read_str(tid, addr, path, PATH_MAX, &term) > 0 && term &&
	       pathmatch(ps, path);
}

/* The descriptor fd of process pid is open on a path of ps (the kernel's
 * " (deleted)" suffix dropped, as strace's getfdpath). */
static bool fdmatch(const struct pathset *ps, pid_t pid, int64_t fd)
{
	char path[PATH_MAX + 1];
	ssize_t n;

	if (fd < 0 || fd > INT32_MAX)
		return false;
	/* (a recording's view answers for the descriptor as it was then) */
	n = tmem_fd_link(pid, fd, path, sizeof(path), NULL);
	if (n < 0)
		return false;
	if (pathmatch(ps, path))
		return true;
	static const char del[] = " (deleted)";
	size_t dn = sizeof(del) - 1;
	if ((size_t)n > dn && !strcmp(path + n - dn, del)) {
		path[n - dn] = '\0';
		return pathmatch(ps, path);
	}
	return false;
}

static bool select_match(const struct pathset *ps, pid_t pid, pid_t tid, const uint64_t *args)
{
	int nfds = (int)args[0];
	uint64_t *fds;
	size_t bytes;
	bool hit = false;

	if (nfds <= 0)
		return false;
	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	bytes = (((size_t)nfds + 63) / 64) * 8;
	fds = xmalloc(bytes);
	for (unsigned i = 1; i <= 3 && !hit; i++) {
		if (!args[i] || tmem_read(tid, args[i], fds, bytes) != (ssize_t)bytes)
			continue;
		for (int j = 0; j < nfds && !hit; j++)
			if ((fds[j / 64] >> (j % 64)) & 1)
				hit = fdmatch(ps, pid, j);
	}
	free(fds);
	return hit;
}

static bool poll_match(const struct pathset *ps, pid_t pid, pid_t tid, const uint64_t *args)
{
	struct { int32_t fd; int16_t events, revents; } pfd;
	unsigned nfds = (unsigned)args[1];
	uint64_t start = args[0];

	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	for (unsigned i = 0; i < nfds; i++) {
		if (tmem_read(tid, start + i * sizeof(pfd), &pfd, sizeof(pfd)) != sizeof(pfd))
			break;
		if (fdmatch(ps, pid, pfd.fd))
			return true;
	}
	return false;
}

bool pathset_match(const struct pathset *ps, pid_t pid, pid_t tid, long nr,
		   const uint64_t *args)
{
	const struct sysent *se = sysent_get(nr);

	if (!se || !(se->flags & (TRACE_FILE | TRACE_DESC | TRACE_NETWORK)))
		return false;
	switch ((enum how)how_by_nr[nr]) {
	case H_FD_FD:
		return fdmatch(ps, pid, (int)args[0]) || fdmatch(ps, pid, (int)args[1]);
	case H_FD_PATH:
		return fdmatch(ps, pid, (int)args[0]) || upath(ps, tid, args[1]);
	case H_PATH_PATH:
		return upath(ps, tid, args[0]) || upath(ps, tid, args[1]);
	case H_X_PATH:
		return upath(ps, tid, args[1]);
	case H_FD_PATH_FD_PATH:
		return fdmatch(ps, pid, (int)args[0]) || fdmatch(ps, pid, (int)args[2]) ||
		       upath(ps, tid, args[1]) || upath(ps, tid, args[3]);
	case H_MMAP:
		return fdmatch(ps, pid, (int)args[4]);
	case H_X_FD_PATH:
		return fdmatch(ps, pid, (int)args[1]) || upath(ps, tid, args[2]);
	case H_FD_X_FD:
		return fdmatch(ps, pid, (int)args[0]) || fdmatch(ps, pid, (int)args[2]);
	case H_X_X_FD:
		return fdmatch(ps, pid, (int)args[2]);
	case H_FANOTIFY:
		/* x86_64: the 64-bit mask is one argument */
		return fdmatch(ps, pid, (int)args[3]) || upath(ps, tid, args[4]);
	case H_SELECT:
		return select_match(ps, pid, tid, args);
	case H_POLL:
		return poll_match(ps, pid, tid, args);
	case H_FSCONFIG:
		switch ((unsigned)args[1]) {
		case 3: /* FSCONFIG_SET_PATH */
		case 4: /* FSCONFIG_SET_PATH_EMPTY */
			return fdmatch(ps, pid, (int)args[4]) || upath(ps, tid, args[3]);
		case 5: /* FSCONFIG_SET_FD */
			return fdmatch(ps, pid, (int)args[4]);
		}
		return false;
	case H_NONE:
		return false;
	case H_DEFAULT:
		break;
	}
	if (se->flags & TRACE_FILE)
		return upath(ps, tid, args[0]);
	return fdmatch(ps, pid, (int)args[0]);
}
