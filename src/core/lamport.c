/* Lamport clocks with fork, wait and pipe edges (see lamport.h). */
#include "core/lamport.h"
#include "sys/sysent.h"
#include "sys/tmem.h"
#include "util/intmap.h"
#include "util/xmalloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/banned.h"

/* One task (thread or process). */
struct ltask {
	pid_t tid, tgid;
	pid_t parent_tgid;       /* creator's process, 0 unknown */
	uint64_t clock;
	bool exited;
};

/* A finished process: what a wait that reaps it merges. */
struct lexit {
	pid_t tgid, parent_tgid;
	uint64_t clock;
	bool reaped;
};

struct lamport {
	struct ltask *t;         /* every task seen, by tids */
	size_t tn, talloc;
	struct intmap tids;      /* tid -> index in t */
	struct lexit *x;
	size_t xn, xalloc;
	struct intmap fds;       /* fd_key() -> pipe inode, 0 when not a pipe */
	struct intmap pipes;     /* pipe inode -> clock of the latest write */
	unsigned nprocs;         /* processes seen (not threads) */
	uint64_t lookups;
};

/* --- tasks --- */

/* The task of tid, or NULL; valid until the next task_get(). */
static struct ltask *task_find(const struct lamport *l, pid_t tid)
{
	uint64_t *i = intmap_get(&l->tids, (uint32_t)tid);
	return i ? &l->t[*i] : NULL;
}

/* The task of tid, made when new; may move every task (look others up after). */
static struct ltask *task_get(struct lamport *l, pid_t tid, pid_t tgid)
{
	bool added;
	uint64_t *i = intmap_put(&l->tids, (uint32_t)tid, &added);
	struct ltask *t;

	if (!added)
		return &l->t[*i];
	ALLOC_GROW(l->t, l->tn + 1, l->talloc);
	*i = l->tn;
	t = &l->t[l->tn++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid > 0 ? tgid : tid;
	if (t->tgid == tid)
		l->nprocs++;
	return t;
}

/* --- pipes --- */

static uint64_t fd_key(pid_t tgid, int fd)
{
	return ((uint64_t)(uint32_t)tgid << 32) | (uint32_t)fd;
}

/* Forgets what fd of tgid was (closed, replaced). */
static void fd_forget(struct lamport *l, pid_t tgid, int64_t fd)
{
	if (fd >= 0 && fd <= 0x7fffffff)
		intmap_del(&l->fds, fd_key(tgid, (int)fd));
}

static bool fd_of_tgid(uint64_t key, uint64_t ino, void *tgid)
{
	return (uint32_t)(key >> 32) == *(uint32_t *)tgid;
}

static void fd_forget_all(struct lamport *l, pid_t tgid)
{
	uint32_t t = (uint32_t)tgid;
	intmap_del_if(&l->fds, fd_of_tgid, &t);
}

/* The pipe inode behind fd of tid, or 0 (cached per process). */
static uint64_t pipe_ino(struct lamport *l, pid_t tid, pid_t tgid, int64_t fd)
{
	uint64_t *cached;
	char path[64], buf[64];
	ssize_t n;
	unsigned long long ino;
	uint64_t rino;

	if (fd < 0 || fd > 0x7fffffff)
		return 0;
	if ((cached = intmap_get(&l->fds, fd_key(tgid, (int)fd))))
		return *cached;
	ino = 0;
	l->lookups++;
	/* (the eBPF recorder's record of the call says, else /proc) */
	if (tmem_fd_pipe(tid, fd, &rino) == 0) {
		ino = rino;
		n = 0;
	} else {
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)tid, (int)fd);
		n = readlink(path, buf, sizeof(buf) - 1);
	}
	if (n > 0) {
		buf[n] = '\0';
		if (sscanf(buf, "pipe:[%llu]", &ino) != 1)
			ino = 0;
	}
	if (ino == INTMAP_NOKEY)
		ino = 0;         /* no inode is that: the pipe table cannot key it */
	*intmap_put(&l->fds, fd_key(tgid, (int)fd), NULL) = ino;
	return ino;
}

/* The clock of the latest write into pipe ino (0 when none yet), to read or
 * raise; valid until the next pipe_clock(). */
static uint64_t *pipe_clock(struct lamport *l, uint64_t ino)
{
	return intmap_put(&l->pipes, ino, NULL);
}

/* --- syscalls --- */

/*
 * What a call does, from the syscall-semantics table (src/sys/semantics.in):
 * the descriptor it reads bytes from or writes them to (io_in, io_out, -1
 * for none), and what it does to the descriptor table.
 */
static int io_fd(const struct sysent *se, bool in)
{
	int a = se ? (in ? se->io_in : se->io_out) : -1;
	return a >= 0 && a < 6 ? a : -1;
}

/* The first argument that is a descriptor, or -1. */
static int first_fd_arg(const struct sysent *se)
{
	for (int i = 0; se && i < se->nargs && i < 6; i++)
		if (se->argrole[i] == ROLE_FD)
			return i;
	return -1;
}

/* Syscalls after which the meaning of a descriptor number may have changed. */
static void fd_changes(struct lamport *l, const struct event *ev, const struct sysent *se,
		       pid_t tgid)
{
	uint32_t sem = sysent_sem(se);
	int a;

	if (!l->fds.n || !sem)
		return;
	if ((sem & SEM_CLOSE) && (a = first_fd_arg(se)) >= 0)
		fd_forget(l, tgid, (int64_t)(int)ev->raw[a]);
	else if (sem & SEM_DUP2)
		fd_forget(l, tgid, (int64_t)(int)ev->raw[1]);
	else if (sem & (SEM_EXEC | SEM_CLOSE_RANGE | SEM_FDPAIR))
		fd_forget_all(l, tgid);
	if (ev->retval >= 0 && !ev->err && (sem & (SEM_FDRET | SEM_FCNTL)))
		fd_forget(l, tgid, ev->retval);
}

static void merge_exit(struct lamport *l, struct ltask *t, pid_t reaped)
{
	for (size_t i = 0; i < l->xn; i++) {
		struct lexit *x = &l->x[i];
		if (x->reaped)
			continue;
		if (reaped > 0 ? x->tgid != reaped : x->parent_tgid != t->tgid)
			continue;
		if (x->clock > t->clock)
			t->clock = x->clock;
		if (reaped > 0) {
			x->reaped = true;
			break;
		}
	}
}

static void on_syscall(struct lamport *l, struct ltask *t, struct event *ev)
{
	const struct sysent *se = sysent_get(ev->nr);
	uint32_t sem = sysent_sem(se);
	bool ok = ev->state == SC_COMPLETE && !ev->err && ev->retval >= 0;
	int in = io_fd(se, true), out = io_fd(se, false);

	/* a wait comes after the exit of what it reaps (wait4 says which) */
	if (ok && (sem & SEM_WAIT) && (sem & SEM_PIDRET) && ev->retval > 0)
		merge_exit(l, t, (pid_t)ev->retval);
	else if (ok && (sem & SEM_WAIT) && !(sem & SEM_PIDRET))
		merge_exit(l, t, 0);

	/* a read of a pipe comes after the writes into it */
	if (ok && ev->retval > 0 && l->nprocs > 1 && in >= 0) {
		uint64_t ino = pipe_ino(l, ev->tid, t->tgid, (int64_t)(int)ev->raw[in]);
		if (ino) {
			uint64_t *pc = pipe_clock(l, ino);
			if (*pc > t->clock)
				t->clock = *pc;
		}
	}
	ev->lamport = ++t->clock;
	if (ok && ev->retval > 0 && l->nprocs > 1 && out >= 0) {
		uint64_t ino = pipe_ino(l, ev->tid, t->tgid, (int64_t)(int)ev->raw[out]);
		if (ino) {
			uint64_t *pc = pipe_clock(l, ino);
			if (t->clock > *pc)
				*pc = t->clock;
		}
	}
	fd_changes(l, ev, se, t->tgid);
}

void lamport_stamp(struct lamport *l, struct event *ev)
{
	struct ltask *t, *c;

	switch (ev->type) {
	case EV_PROC_START:
		/* task_get may grow the table: look the parent up after it */
		c = task_get(l, ev->tid, ev->pid);
		t = ev->ppid > 0 ? task_find(l, ev->ppid) : NULL;
		if (c->exited) {
			/* a tid used again: a new task in the same slot */
			pid_t tid = c->tid;
			memset(c, 0, sizeof(*c));
			c->tid = tid;
			c->tgid = ev->pid > 0 ? ev->pid : tid;
		}
		if (t && t != c) {
			/* the parent's clone exit will be t->clock + 1: start after it */
			if (c->clock < t->clock + 1)
				c->clock = t->clock + 1;
			c->parent_tgid = ev->is_thread ? t->parent_tgid : t->tgid;
		}
		ev->lamport = ++c->clock;
		return;
	case EV_SYSCALL_ENTRY: {
		int out = io_fd(sysent_get(ev->nr), false);
		t = task_get(l, ev->tid, ev->pid);
		ev->lamport = t->clock + 1;
		/* the data of a write is in the pipe before its exit stop: a
		 * reader's exit can come first, so the write counts from here */
		if (l->nprocs > 1 && out >= 0) {
			uint64_t ino = pipe_ino(l, ev->tid, t->tgid, (int64_t)(int)ev->raw[out]);
			if (ino) {
				uint64_t *pc = pipe_clock(l, ino);
				if (ev->lamport > *pc)
					*pc = ev->lamport;
			}
		}
		return;
	}
	case EV_SYSCALL:
		t = task_get(l, ev->tid, ev->pid);
		on_syscall(l, t, ev);
		return;
	case EV_PROC_EXIT:
	case EV_DETACH:
		t = task_get(l, ev->tid, ev->pid);
		ev->lamport = ++t->clock;
		t->exited = true;
		{
			/* the process's exit clock: the latest of its tasks */
			struct lexit *x = NULL;
			for (size_t i = 0; i < l->xn; i++)
				if (l->x[i].tgid == t->tgid && !l->x[i].reaped)
					x = &l->x[i];
			if (!x) {
				ALLOC_GROW(l->x, l->xn + 1, l->xalloc);
				x = &l->x[l->xn++];
				memset(x, 0, sizeof(*x));
				x->tgid = t->tgid;
				x->parent_tgid = t->parent_tgid;
			}
			if (t->clock > x->clock)
				x->clock = t->clock;
		}
		return;
	default:
		t = task_get(l, ev->tid ? ev->tid : ev->pid, ev->pid);
		ev->lamport = ++t->clock;
		return;
	}
}

struct lamport *lamport_new(void)
{
	return xcalloc(1, sizeof(struct lamport));
}

void lamport_free(struct lamport *l)
{
	if (!l)
		return;
	free(l->t);
	intmap_release(&l->tids);
	free(l->x);
	intmap_release(&l->fds);
	intmap_release(&l->pipes);
	free(l);
}

uint64_t lamport_clock(const struct lamport *l, pid_t tid)
{
	const struct ltask *t = task_find(l, tid);
	return t ? t->clock : 0;
}

uint64_t lamport_lookups(const struct lamport *l)
{
	return l->lookups;
}
