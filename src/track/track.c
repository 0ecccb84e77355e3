/*
 * The process and descriptor tracker (see track.h): tasks by tid, a
 * descriptor table per process (shared by its threads, copied by fork),
 * objects shared by the descriptors that refer to them.
 */
#include "track/track.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "event.h"
#include "sys/sysent.h"
#include "util/intmap.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#ifndef F_DUPFD_CLOEXEC
#define F_DUPFD_CLOEXEC 1030
#endif
#define CLOSE_RANGE_CLOEXEC_BIT 4u   /* <linux/close_range.h> */

/*
 * A descriptor number.  Calls are seen when they end, and the threads of a
 * process share its table, so a call can end after another thread already
 * reused its descriptor's number (close(3) still running while another
 * thread's open returned 3): a slot keeps what the number referred to
 * before and when that changed, and a call that began earlier is taken to
 * mean the earlier object.
 */
struct tslot {
	struct tobj *obj;
	struct tobj *prev;       /* what the number referred to before, or NULL */
	uint64_t since_ns;       /* when obj took the number (the end of the call
				    that installed it), 0 when always */
	bool cloexec;
};

/* A descriptor table: fd -> struct tslot *. */
struct tfdtab {
	struct intmap fds;
	uint32_t users;          /* processes sharing it */
};

/* Per-process state (indexed by the idx of the task that leads it). */
struct tproc {
	struct amap *mem;        /* shared by its threads */
	struct tfdtab *tab;
	char *cwd;               /* absolute, or NULL when unknown */
	uint32_t nprocs_made;    /* processes it created (ordinals) */
	uint32_t threads_live;   /* tasks of it not dead */
};

/* A task with what only the tracker needs. */
struct itask {
	struct ttask pub;
	uint32_t threads_made;   /* threads it created (ordinals) */
};

struct tracker {
	struct ttask **tasks;    /* by idx (struct itask); never moved */
	struct tproc *procs;     /* by idx of the leading task (sparse) */
	uint32_t ntasks, atasks, aprocs;
	struct intmap by_tid;    /* tid -> idx of its latest task */
	uint32_t next_obj;       /* ids of struct tobj */
	struct tobj **dead;      /* objects to free after the sinks */
	size_t ndead, adead;
	char *first_cwd;         /* the working directory of the first task */
	uint8_t stdio_kind[3];   /* enum fd_kind of the first task's fds 0-2 */
	track_resolve_fn resolve;
	void *resolve_data;
	struct strbuf tmp;
};

static void mem_free(struct amap *m);

struct tracker *tracker_new(void)
{
	struct tracker *t = xcalloc(1, sizeof(*t));
	strbuf_init(&t->tmp, 256);
	return t;
}

static void obj_unref(struct tracker *t, struct tobj *o)
{
	if (!o || --o->refs)
		return;
	ALLOC_GROW(t->dead, t->ndead + 1, t->adead);
	t->dead[t->ndead++] = o;
}

static void obj_free(struct tobj *o)
{
	free((char *)o->path);
	free((char *)o->peer);
	free(o);
}

static void tab_release(struct tracker *t, struct tfdtab *tab)
{
	uint32_t i = 0;
	uint64_t v;

	if (!tab || --tab->users)
		return;
	while (intmap_next(&tab->fds, &i, NULL, &v)) {
		struct tslot *sl = (struct tslot *)(uintptr_t)v;
		obj_unref(t, sl->obj);
		obj_unref(t, sl->prev);
		free(sl);
	}
	intmap_release(&tab->fds);
	free(tab);
}

void tracker_after(struct tracker *t)
{
	for (size_t i = 0; i < t->ndead; i++)
		if (!t->dead[i]->refs)
			obj_free(t->dead[i]);
	t->ndead = 0;
}

void tracker_free(struct tracker *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->aprocs; i++) {
		if (t->procs[i].tab) {
			t->procs[i].tab->users = 1;
			tab_release(t, t->procs[i].tab);
		}
		free(t->procs[i].cwd);
		mem_free(t->procs[i].mem);
	}
	tracker_after(t);
	for (uint32_t i = 0; i < t->ntasks; i++)
		free(t->tasks[i]);
	free(t->tasks);
	free(t->procs);
	free(t->dead);
	free(t->first_cwd);
	intmap_release(&t->by_tid);
	strbuf_release(&t->tmp);
	free(t);
}

void tracker_set_resolver(struct tracker *t, track_resolve_fn fn, void *data)
{
	t->resolve = fn;
	t->resolve_data = data;
}

static uint8_t stdio_fd_kind(int k)
{
	switch (k) {
	case SK_NULL: case SK_DEVICE: return FDK_DEVICE;
	case SK_FILE: return FDK_FILE;
	case SK_PIPE: return FDK_PIPE;
	case SK_SOCKET: return FDK_SOCKET;
	case SK_TTY: return FDK_TTY;
	case SK_OTHER: return FDK_ANON;
	default: return FDK_UNKNOWN;
	}
}

void tracker_begin(struct tracker *t, const struct trace_info *ti)
{
	if (!ti || !ti->env)
		return;
	if (ti->env->cwd && ti->env->cwd[0] == '/' && !t->first_cwd)
		t->first_cwd = xstrdup(ti->env->cwd);
	for (int i = 0; i < 3; i++)
		t->stdio_kind[i] = stdio_fd_kind(ti->env->stdio[i]);
}

const struct ttask *tracker_task(const struct tracker *t, uint32_t idx)
{
	return idx < t->ntasks ? t->tasks[idx] : NULL;
}

uint32_t tracker_ntasks(const struct tracker *t)
{
	return t->ntasks;
}

static struct tproc *proc_of(struct tracker *t, const struct ttask *task)
{
	return &t->procs[task->proc];
}

const char *tracker_cwd(const struct tracker *t, const struct ttask *task)
{
	return task && task->proc < t->aprocs ? t->procs[task->proc].cwd : NULL;
}

/* ---- tasks --------------------------------------------------------------- */

static struct tproc *proc_slot(struct tracker *t, uint32_t idx)
{
	if (idx >= t->aprocs) {
		uint32_t n = t->aprocs ? t->aprocs * 2 : 64;
		while (n <= idx)
			n *= 2;
		t->procs = xreallocarray(t->procs, n, sizeof(*t->procs));
		memset(t->procs + t->aprocs, 0, (n - t->aprocs) * sizeof(*t->procs));
		t->aprocs = n;
	}
	return &t->procs[idx];
}

/* A new task that is (for now) a process of its own. */
static struct ttask *task_new(struct tracker *t, pid_t tid, pid_t pid)
{
	struct itask *it = xcalloc(1, sizeof(*it));
	struct ttask *task = &it->pub;
	struct tproc *p;
	bool added;

	ALLOC_GROW(t->tasks, t->ntasks + 1, t->atasks);
	task->idx = t->ntasks;
	task->tid = tid;
	task->pid = pid > 0 ? pid : tid;
	task->parent = -1;
	task->proc = task->idx;
	t->tasks[t->ntasks++] = task;
	*intmap_put(&t->by_tid, (uint64_t)(uint32_t)tid, &added) = task->idx;
	p = proc_slot(t, task->idx);
	memset(p, 0, sizeof(*p));
	p->tab = xcalloc(1, sizeof(*p->tab));
	p->tab->users = 1;
	p->mem = xcalloc(1, sizeof(*p->mem));
	task->mem = &p->mem->stat;
	p->threads_live = 1;
	if (task->idx == 0 && t->first_cwd)
		p->cwd = xstrdup(t->first_cwd);
	return task;
}

/*
 * The latest task of tid, made when there is none.  A task that died keeps
 * its tid until a start or a clone names the tid again: a saved trace can
 * hold the exit record before the last call (exit_group).
 */
static struct ttask *task_get(struct tracker *t, pid_t tid, pid_t pid)
{
	uint64_t *v = intmap_get(&t->by_tid, (uint64_t)(uint32_t)tid);
	if (v)
		return t->tasks[*v];
	return task_new(t, tid, pid);
}

static struct tobj *obj_new(struct tracker *t, uint8_t kind, const char *made_by,
			    uint32_t opener)
{
	struct tobj *o = xcalloc(1, sizeof(*o));
	o->id = ++t->next_obj;
	o->kind = kind;
	o->made_by = made_by;
	o->opener = opener;
	return o;
}

static struct tslot *slot_get(const struct tfdtab *tab, int64_t fd)
{
	uint64_t *v = fd >= 0 ? intmap_get(&tab->fds, (uint64_t)fd) : NULL;
	return v ? (struct tslot *)(uintptr_t)*v : NULL;
}

/* Installs o as fd in tab at time ns (replacing what fd was). */
static void fd_install(struct tracker *t, struct tfdtab *tab, int64_t fd, struct tobj *o,
		       bool cloexec, uint64_t ns)
{
	uint64_t *v;
	struct tslot *sl;

	if (fd < 0 || !o)
		return;
	v = intmap_put(&tab->fds, (uint64_t)fd, NULL);
	if (!*v)
		*v = (uint64_t)(uintptr_t)xcalloc(1, sizeof(struct tslot));
	sl = (struct tslot *)(uintptr_t)*v;
	obj_unref(t, sl->prev);
	sl->prev = sl->obj;          /* its reference moves with it */
	o->refs++;
	sl->obj = o;
	sl->since_ns = ns;
	sl->cloexec = cloexec;
}

/* The object of slot sl for a call that began at ns. */
static struct tobj *slot_obj(const struct tslot *sl, uint64_t ns)
{
	if (sl->prev && sl->since_ns > ns)
		return sl->prev;
	return sl->obj;
}

/* A close of fd by a call that began at ns. */
static void fd_close(struct tracker *t, struct tfdtab *tab, int64_t fd, uint64_t ns)
{
	struct tslot *sl = slot_get(tab, fd);

	if (!sl)
		return;
	if (sl->prev && sl->since_ns > ns) {
		/* the number was reused while the close ran: it closed the old one */
		obj_unref(t, sl->prev);
		sl->prev = NULL;
		return;
	}
	obj_unref(t, sl->obj);
	obj_unref(t, sl->prev);
	free(sl);
	intmap_del(&tab->fds, (uint64_t)fd);
}

/* The object fd refers to in task's process; an inherited one is made on
 * first sight (resolved when a resolver is set, by kind for 0-2). */
static struct tobj *fd_get(struct tracker *t, struct ttask *task, int64_t fd, uint64_t ns)
{
	struct tfdtab *tab = proc_of(t, task)->tab;
	struct tslot *sl;
	struct tobj tmp, *o;

	if (fd < 0 || fd > INT32_MAX || !tab)
		return NULL;
	if ((sl = slot_get(tab, fd)))
		return slot_obj(sl, ns);
	memset(&tmp, 0, sizeof(tmp));
	if (t->resolve && t->resolve(t->resolve_data, task->pid, (int)fd, &tmp)) {
		o = obj_new(t, tmp.kind, NULL, UINT32_MAX);
		o->path = tmp.path ? xstrdup(tmp.path) : NULL;
		o->peer = tmp.peer ? xstrdup(tmp.peer) : NULL;
		o->pipe = tmp.pipe;
	} else {
		o = obj_new(t, fd <= 2 ? t->stdio_kind[fd] : FDK_UNKNOWN, NULL, UINT32_MAX);
	}
	o->flags |= TOBJ_INHERITED;
	fd_install(t, tab, fd, o, false, 0);
	return o;
}

/* Links child to its creator (once). */
static void link_task(struct tracker *t, struct ttask *creator, struct ttask *child,
		      bool is_thread)
{
	struct tproc *cp = proc_of(t, creator), *p;

	if (child->ordinal || child == creator || child->idx == 0)
		return;
	child->parent = (int32_t)creator->idx;
	child->is_thread = is_thread;
	p = &t->procs[child->idx];
	if (is_thread) {
		child->ordinal = ++((struct itask *)creator)->threads_made;
		/* a thread shares its creator's process: drop its own */
		if (p->tab) {
			tab_release(t, p->tab);
			p->tab = NULL;
		}
		free(p->cwd);
		p->cwd = NULL;
		mem_free(p->mem);
		p->mem = NULL;
		p->threads_live = 0;
		child->proc = creator->proc;
		child->mem = &cp->mem->stat;
		cp->threads_live++;
		return;
	}
	child->ordinal = ++cp->nprocs_made;
	/* a new process starts with a copy of its creator's descriptors (the
	 * table it made on its own first sight, if any, goes) */
	if (p->tab && !p->tab->fds.n && cp->tab) {
		uint32_t i = 0;
		uint64_t k, v;
		while (intmap_next(&cp->tab->fds, &i, &k, &v)) {
			struct tslot *sl = (struct tslot *)(uintptr_t)v;
			fd_install(t, p->tab, (int64_t)k, sl->obj, sl->cloexec, 0);
		}
	}
	if (!p->cwd && cp->cwd)
		p->cwd = xstrdup(cp->cwd);
	/* the child has its parent's memory (copy on write, but committed) */
	if (p->mem && amap_empty(p->mem) && cp->mem)
		amap_copy(p->mem, cp->mem);
}

static void task_dead(struct tracker *t, struct ttask *task)
{
	struct tproc *p;
	if (task->dead)
		return;
	task->dead = true;
	p = proc_of(t, task);
	if (p->threads_live == 1 && p->mem)
		amap_settle(p->mem);
	if (p->threads_live && !--p->threads_live && p->tab) {
		tab_release(t, p->tab);
		p->tab = NULL;
		p->tab = xcalloc(1, sizeof(*p->tab));   /* late events still find one */
		p->tab->users = 1;
	}
}

/* ---- memory ------------------------------------------------------------------ */

static void mem_free(struct amap *m)
{
	if (m) {
		amap_release(m);
		free(m);
	}
}

/* ---- paths ------------------------------------------------------------------ */

/* Appends path to base lexically ("." and ".." components resolved). */
static void join_path(struct strbuf *out, const char *base, const char *p, size_t len)
{
	strbuf_reset(out);
	if (len && p[0] != '/' && base)
		strbuf_addstr(out, base);
	const char *e = p + len;
	while (p < e) {
		const char *q = memchr(p, '/', e - p);
		size_t n;
		if (!q)
			q = e;
		n = q - p;
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(out->buf, '/');
			strbuf_setlen(out, slash ? (size_t)(slash - out->buf) : 0);
		} else {
			if (!out->len || out->buf[out->len - 1] != '/')
				strbuf_addch(out, '/');
			strbuf_add(out, p, n);
		}
		p = q + 1;
	}
	if (!out->len)
		strbuf_addch(out, '/');
}

/* The absolute form of path argument pi of ev (relative to its directory
 * descriptor argument di, -1 for the working directory), in t->tmp; NULL
 * when the argument is not a string or the base is unknown. */
static const char *abs_path(struct tracker *t, struct ttask *task, struct event *ev,
			    int pi, int di)
{
	const char *p, *base = NULL;
	size_t len;

	if (!ev_arg_str(ev, (unsigned)pi, &p, &len) || !len)
		return NULL;
	if (p[0] != '/') {
		int64_t dfd = -100;
		if (di >= 0 && ev_arg_int(ev, (unsigned)di, &dfd) && dfd != -100 /* AT_FDCWD */) {
			const struct tobj *d = ev->fd_obj[di];
			base = d ? d->path : NULL;
		} else {
			base = proc_of(t, task)->cwd;
		}
		if (!base)
			return NULL;
	}
	join_path(&t->tmp, base, p, len);
	return t->tmp.buf;
}

static uint8_t kind_of_path(const char *p, uint8_t dflt)
{
	if (!p || strncmp(p, "/dev/", 5))
		return dflt;
	if (!strncmp(p, "/dev/pts/", 9) || !strncmp(p, "/dev/tty", 8) ||
	    !strcmp(p, "/dev/console") || !strcmp(p, "/dev/ptmx"))
		return FDK_TTY;
	if (!strncmp(p, "/dev/shm/", 9))
		return dflt;
	return FDK_DEVICE;
}

/* ---- calls ------------------------------------------------------------------ */

/*
 * Whether a call that made a task (SEM_CLONE) made a thread: its flags
 * (clone's first argument, clone3's structure's member) have CLONE_THREAD;
 * fork and vfork have no flags.
 */
static bool clone_makes_thread(const struct event *ev)
{
	const struct val *a = ev_arg(ev, 0), *f = val_field(a, "flags");

	return val_has_flag(f ? f : a, CLONE_THREAD, "CLONE_THREAD");
}

/* The index of the first argument with role r, or -1. */
static int role_arg(const struct sysent *se, uint8_t r, int after)
{
	for (int i = after + 1; i < se->nargs && i < EVENT_MAX_ARGS; i++)
		if (se->argrole[i] == r)
			return i;
	return -1;
}

static bool flag_arg(const struct event *ev, const struct sysent *se, const char *argname,
		     uint64_t bit, const char *name)
{
	for (int i = 0; i < se->nargs; i++)
		if (se->argnames && !strcmp(se->argnames[i], argname)) {
			int64_t v;
			if (!ev->replayed)
				return ev_arg_int(ev, (unsigned)i, &v) && (v & (int64_t)bit);
			return val_has_flag(ev_arg(ev, (unsigned)i), bit, name);
		}
	return false;
}

/* The two descriptors of pipe()/socketpair() (their array argument). */
static bool fd_pair(const struct event *ev, int ai, int64_t out[2])
{
	const struct val *v = ev_arg(ev, (unsigned)ai);
	if (!v || v->kind != V_ARRAY || v->c.n < 2)
		return false;
	return val_int(&v->c.items[0], &out[0]) && val_int(&v->c.items[1], &out[1]);
}

static void on_open(struct tracker *t, struct ttask *task, struct event *ev,
		    const struct sysent *se, struct tobj *o)
{
	int pi = role_arg(se, ROLE_PATH, -1), di = role_arg(se, ROLE_DIRFD, -1);
	const char *abs = pi >= 0 ? abs_path(t, task, ev, pi, di) : NULL;
	const char *p;
	size_t len;

	if (abs) {
		o->path = xstrdup(abs);
	} else if (pi >= 0 && ev_arg_str(ev, (unsigned)pi, &p, &len)) {
		o->path = xstrndup(p, len);     /* relative to an unknown base */
	}
	o->kind = kind_of_path(o->path, FDK_FILE);
	if (flag_arg(ev, se, "flags", O_DIRECTORY, "O_DIRECTORY"))
		o->kind = FDK_DIR;
}

static void on_syscall(struct tracker *t, struct ttask *task, struct event *ev)
{
	const struct sysent *se = sysent_get(ev->nr);
	struct tproc *p = proc_of(t, task);
	struct tfdtab *tab = p->tab;
	uint32_t sem;
	int64_t ret = ev->retval, fd;
	bool ok = ev->state == SC_COMPLETE && !ev->err;

	if (!se)
		return;
	sem = se->sem;
	/* what the descriptor arguments referred to when the call began */
	for (int i = 0; i < se->nargs && i < EVENT_MAX_ARGS; i++) {
		if (se->argrole[i] != ROLE_FD && se->argrole[i] != ROLE_DIRFD)
			continue;
		if (!ev_arg_int(ev, (unsigned)i, &fd) || fd < 0)
			continue;
		if ((sem & SEM_DUP2) && i == 1)
			continue;           /* newfd: about to be replaced */
		if (i > 0 && (sem & SEM_CLOSE_RANGE))
			continue;
		ev->fd_obj[i] = fd_get(t, task, fd, ev->ts_ns);
	}
	if (!ok || !tab)
		return;

	if ((sem & SEM_FDRET) && ret >= 0) {
		struct tobj *o = NULL;
		bool cloexec = false;
		if (sem & SEM_DUP) {
			o = (struct tobj *)ev->fd_obj[0];
			cloexec = (sem & SEM_DUP2) &&
				  flag_arg(ev, se, "flags", O_CLOEXEC, "O_CLOEXEC");
		} else {
			o = obj_new(t, se->retkind, se->name, task->idx);
			if (sem & SEM_OPEN)
				on_open(t, task, ev, se, o);
			else if (se->retkind == FDK_FILE && role_arg(se, ROLE_PATH, -1) >= 0)
				on_open(t, task, ev, se, o);
			if (o->kind == FDK_SOCKET && ev->endpoint)
				o->peer = xstrdup(ev->endpoint);     /* accept's peer */
			cloexec = flag_arg(ev, se, "flags", O_CLOEXEC, "O_CLOEXEC");
		}
		if (o) {
			fd_install(t, tab, ret, o, cloexec, ev->end_ns);
			ev->ret_obj[0] = o;
		}
	} else if ((sem & SEM_FDPAIR)) {
		int64_t fds[2];
		int ai = role_arg(se, ROLE_FDPAIR, -1);
		if (ai >= 0 && fd_pair(ev, ai, fds)) {
			struct tobj *a = obj_new(t, se->retkind, se->name, task->idx);
			struct tobj *b = obj_new(t, se->retkind, se->name, task->idx);
			bool cloexec = flag_arg(ev, se, "flags", O_CLOEXEC, "O_CLOEXEC") ||
				       flag_arg(ev, se, "type", SOCK_CLOEXEC, "SOCK_CLOEXEC");
			if (a->kind == FDK_PIPE)
				a->pipe = b->pipe = a->id;
			fd_install(t, tab, fds[0], a, cloexec, ev->end_ns);
			fd_install(t, tab, fds[1], b, cloexec, ev->end_ns);
			ev->ret_obj[0] = a;
			ev->ret_obj[1] = b;
		}
	} else if (sem & SEM_CLOSE) {
		if (ev_arg_int(ev, 0, &fd))
			fd_close(t, tab, fd, ev->ts_ns);
	} else if (sem & SEM_CLOSE_RANGE) {
		int64_t lo, hi;
		if (ev_arg_int(ev, 0, &lo) && ev_arg_int(ev, 1, &hi)) {
			bool only_cloexec = ev->replayed ? val_has_flag(ev_arg(ev, 2),
						CLOSE_RANGE_CLOEXEC_BIT, "CLOSE_RANGE_CLOEXEC")
							 : (ev->karg[2] & CLOSE_RANGE_CLOEXEC_BIT) != 0;
			uint32_t i = 0;
			uint64_t k;
			int64_t *doomed = NULL;
			size_t nd = 0, ad = 0;
			while (intmap_next(&tab->fds, &i, &k, NULL))
				if ((int64_t)k >= lo && (uint64_t)k <= (uint64_t)(uint32_t)hi) {
					ALLOC_GROW(doomed, nd + 1, ad);
					doomed[nd++] = (int64_t)k;
				}
			for (size_t j = 0; j < nd; j++) {
				if (only_cloexec)
					slot_get(tab, doomed[j])->cloexec = true;
				else
					fd_close(t, tab, doomed[j], ev->ts_ns);
			}
			free(doomed);
		}
	} else if ((sem & SEM_FCNTL) && ret >= 0) {
		const struct val *cmd = ev_arg(ev, 1);
		bool cl = false;
		if (ev->replayed ? (val_is(cmd, F_DUPFD, "F_DUPFD") ||
				    (cl = val_is(cmd, F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC")))
				 : ((cl = ev->karg[1] == F_DUPFD_CLOEXEC) || ev->karg[1] == F_DUPFD)) {
			if (ev->fd_obj[0]) {
				fd_install(t, tab, ret, (struct tobj *)ev->fd_obj[0], cl, ev->end_ns);
				ev->ret_obj[0] = ev->fd_obj[0];
			}
		} else if ((ev->replayed ? val_is(cmd, F_SETFD, "F_SETFD") : ev->karg[1] == F_SETFD) &&
			   ev_arg_int(ev, 0, &fd)) {
			struct tslot *sl = slot_get(tab, fd);
			if (sl)
				sl->cloexec = ev->replayed ? val_has_flag(ev_arg(ev, 2), FD_CLOEXEC,
									  "FD_CLOEXEC")
							   : (ev->karg[2] & FD_CLOEXEC) != 0;
		}
	}

	if ((sem & SEM_ENDPOINT) && ev->endpoint && ev->fd_obj[0] &&
	    ev->fd_obj[0]->kind == FDK_SOCKET && !ev->fd_obj[0]->peer)
		((struct tobj *)ev->fd_obj[0])->peer = xstrdup(ev->endpoint);

	if ((sem & SEM_CLONE) && ret > 0) {
		uint64_t *v = intmap_get(&t->by_tid, (uint64_t)(uint32_t)ret);
		bool thread = clone_makes_thread(ev);
		struct ttask *child;
		/* a child that started (and maybe ended) before this event is
		 * there already: a tid used again was renamed by its start */
		if (v)
			child = t->tasks[*v];
		else
			child = task_new(t, (pid_t)ret, thread ? ev->pid : (pid_t)ret);
		link_task(t, task, child, thread);
	}
	if (sem & SEM_CHDIR) {
		const char *abs = NULL;
		int pi = role_arg(se, ROLE_PATH, -1);
		if (pi >= 0)
			abs = abs_path(t, task, ev, pi, -1);
		else if (ev->fd_obj[0] && ev->fd_obj[0]->path && ev->fd_obj[0]->path[0] == '/')
			abs = ev->fd_obj[0]->path;
		free(p->cwd);
		p->cwd = abs ? xstrdup(abs) : NULL;
	}
	if (se->memop && p->mem)
		amap_call(p->mem, ev, se->memop);
	if ((sem & SEM_EXEC) && p->mem)
		amap_clear(p->mem);     /* a new image: its memory starts again */
	if (sem & SEM_EXEC) {
		/* close-on-exec descriptors go */
		uint32_t i = 0;
		uint64_t k, v;
		int64_t *doomed = NULL;
		size_t nd = 0, ad = 0;
		while (intmap_next(&tab->fds, &i, &k, &v))
			if (((struct tslot *)(uintptr_t)v)->cloexec) {
				ALLOC_GROW(doomed, nd + 1, ad);
				doomed[nd++] = (int64_t)k;
			}
		for (size_t j = 0; j < nd; j++)
			fd_close(t, tab, doomed[j], UINT64_MAX);
		free(doomed);
	}
}

void tracker_event(struct tracker *t, struct event *ev)
{
	struct ttask *task, *creator;
	uint64_t *v;

	memset(ev->fd_obj, 0, sizeof(ev->fd_obj));
	ev->ret_obj[0] = ev->ret_obj[1] = NULL;
	switch (ev->type) {
	case EV_PROC_START:
		v = intmap_get(&t->by_tid, (uint64_t)(uint32_t)ev->tid);
		task = v && !t->tasks[*v]->dead ? t->tasks[*v] : task_new(t, ev->tid, ev->pid);
		v = ev->ppid > 0 ? intmap_get(&t->by_tid, (uint64_t)(uint32_t)ev->ppid) : NULL;
		creator = v ? t->tasks[*v] : NULL;
		if (creator && creator != task)
			link_task(t, creator, task, ev->is_thread);
		ev->task = task;
		return;
	case EV_PROC_EXIT:
	case EV_DETACH:
		v = intmap_get(&t->by_tid, (uint64_t)(uint32_t)ev->tid);
		task = v ? t->tasks[*v] : task_new(t, ev->tid, ev->pid);
		ev->task = task;
		task_dead(t, task);
		return;
	default:
		break;
	}
	task = task_get(t, ev->tid ? ev->tid : ev->pid, ev->pid);
	ev->task = task;
	if (ev->type == EV_SYSCALL)
		on_syscall(t, task, ev);
	else if (ev->type == EV_SYSCALL_ENTRY) {
		const struct sysent *se = sysent_get(ev->nr);
		int64_t fd;
		for (int i = 0; se && i < se->nargs && i < EVENT_MAX_ARGS; i++)
			if ((se->argrole[i] == ROLE_FD || se->argrole[i] == ROLE_DIRFD) &&
			    ev_arg_int(ev, (unsigned)i, &fd) && fd >= 0)
				ev->fd_obj[i] = fd_get(t, task, fd, ev->ts_ns);
	}
}
