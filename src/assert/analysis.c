/*
 * The analysis sink: folds every event of a run (live or replayed) into the
 * bounded state that assertions and anti-pattern detectors read
 * (internal.h).  It reads typed events only: what a call does comes from the
 * semantics table (sys/sysent.h), tasks and what descriptors refer to from
 * the tracker (track/track.h).  Nothing here keeps an event or a pointer
 * into one.
 */
#include <stdlib.h>
#include <string.h>

#include "assert/internal.h"
#include "sink/render.h"
#include "sys/sysent.h"
#include "track/track.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define MIN_REPEATS 20        /* cycles shorter than this are not loops */
#define PATH_IDS_MAX (4 * PATHS_MAX)  /* path strings kept before compacting */

/* ---- small hash helpers (loop signatures) -------------------------------- */

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

/* ---- syscall names --------------------------------------------------------- */

static uint32_t name_id(struct analysis *a, const char *name)
{
	if (!name)
		name = "?";
	uint32_t id = intern_add(&a->names, name, strlen(name));
	if (id >= a->astats) {
		size_t n = a->astats ? a->astats * 2 : 64;
		a->stats = xreallocarray(a->stats, n, sizeof(*a->stats));
		memset(a->stats + a->astats, 0, (n - a->astats) * sizeof(*a->stats));
		a->astats = n;
	}
	return id;
}

/* ---- the analysis ------------------------------------------------------------ */

struct analysis *analysis_new(void)
{
	struct analysis *a = xcalloc(1, sizeof(*a));
	a->root = -1;
	return a;
}

static void proc_release(struct proc *p);
static void loop_state_free(struct loop_state *l);

static void paths_clear(struct analysis *a)
{
	uint32_t i = 0;
	uint64_t v;
	while (intmap_next(&a->paths, &i, NULL, &v))
		free((struct path_use *)(uintptr_t)v);
	intmap_clear(&a->paths);
}

/* Frees what a holds, not a itself. */
static void analysis_clear(struct analysis *a)
{
	intern_release(&a->names);
	free(a->stats);
	for (size_t i = 0; i < a->nprocs; i++) {
		proc_release(&a->procs[i]);
		free(a->procs[i].name);
	}
	free(a->procs);
	intmap_release(&a->pids);
	free(a->rt_net_us);
	free(a->rt_wall_us);
	for (size_t i = 0; i < a->ntasks; i++)
		loop_state_free(a->tasks[i].loop);
	free(a->tasks);
	for (size_t i = 0; i < a->nloops; i++)
		free(a->loops[i].sample);
	paths_clear(a);
	intmap_release(&a->paths);
	intern_release(&a->path_ids);
	for (size_t i = 0; i < a->nkept_paths; i++)
		free(a->kept_paths[i].path);
	for (size_t i = 0; i < a->nio; i++)
		free(a->io[i].path);
	for (size_t i = 0; i < a->ngpu; i++)
		free(a->gpu[i].path);
}

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	analysis_clear(a);
	free(a);
}

void analysis_reset(struct analysis *a)
{
	analysis_clear(a);
	memset(a, 0, sizeof(*a));
	a->root = -1;
}

/* ---- processes (by pid: the latest one) and tasks (by tracker idx) -------- */

static int proc_find(const struct analysis *a, pid_t pid)
{
	const uint64_t *v = intmap_get(&a->pids, (uint64_t)(uint32_t)pid);
	return v ? (int)*v : -1;
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
	*intmap_put(&a->pids, (uint64_t)(uint32_t)pid, NULL) = (uint64_t)idx;
	if (a->root < 0)
		a->root = idx;
	return idx;
}

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

/* The record of the task that made ev (NULL without the tracker's task). */
static struct task *task_of(struct analysis *a, const struct event *ev, uint64_t ts)
{
	const struct ttask *tt = ev->task;
	if (!tt)
		return NULL;
	if (tt->idx >= a->atasks) {
		size_t n = a->atasks ? a->atasks * 2 : 64;
		while (n <= tt->idx)
			n *= 2;
		a->tasks = xreallocarray(a->tasks, n, sizeof(*a->tasks));
		memset(a->tasks + a->atasks, 0, (n - a->atasks) * sizeof(*a->tasks));
		for (size_t i = a->atasks; i < n; i++)
			a->tasks[i].proc = -1;
		a->atasks = n;
	}
	if (tt->idx >= a->ntasks)
		a->ntasks = tt->idx + 1;
	struct task *t = &a->tasks[tt->idx];
	pid_t pid = ev->pid ? ev->pid : tt->pid;
	int pi = proc_get(a, pid, ts);
	if (!t->seen) {
		t->seen = true;
		t->tid = tt->tid;
		t->first_ns = t->last_ns = ts;
	}
	/* (a thread that exec'ed takes the leader's role) */
	t->pid = pid;
	t->proc = pi;
	return t;
}

/* ---- descriptors: bytes moved through each object ---------------------------- */

static bool is_gpu_path(const char *p)
{
	return p && (!strncmp(p, "/dev/nvidia", 11) || !strncmp(p, "/dev/dri/", 9) ||
		     !strcmp(p, "/dev/kfd") || !strncmp(p, "/dev/accel/", 11));
}

/* The path of the object argument i refers to: the tracker's, else the one
 * the call showed beside the number (-y). */
static const char *obj_path(const struct event *ev, unsigned i)
{
	const struct tobj *o = ev->fd_obj[i];
	const struct val *v;
	if (o && o->path)
		return o->path;
	v = ev_arg(ev, i);
	return v && v->kind == V_FD ? v->fd.path : NULL;
}

/* Objects whose reads and writes are not data (a counter, a timer...). */
static bool counts_bytes(uint8_t kind)
{
	switch (kind) {
	case FDK_EVENTFD: case FDK_TIMERFD: case FDK_SIGNALFD: case FDK_EPOLL:
	case FDK_INOTIFY: case FDK_PIDFD: case FDK_ANON:
		return false;
	default:
		return true;
	}
}

double unbuffered_confidence(uint64_t calls, uint64_t bytes)
{
	if ((double)calls <= IO_MIN_CALLS)
		return 0;
	double size_f = 1 - (double)bytes / calls / IO_TINY_BYTES;
	return (size_f > 0 ? size_f : 0) * (1 - IO_MIN_CALLS / calls);
}

/* Keeps the worst tiny-transfer descriptors (by confidence, then calls). */
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

static void fdst_fold(struct analysis *a, struct proc *p, struct fdst *st)
{
	if (st->rd_calls)
		io_keep(a, p->pid, st->fd, st->path, st->rd_calls, st->rd_bytes, false);
	if (st->wr_calls)
		io_keep(a, p->pid, st->fd, st->path, st->wr_calls, st->wr_bytes, true);
	free(st->path);
	free(st);
}

/* p closed a descriptor of object id: what it moved through it is folded. */
static void fd_fold(struct analysis *a, struct proc *p, uint32_t id)
{
	uint64_t *v = intmap_get(&p->fds, id);
	if (!v)
		return;
	fdst_fold(a, p, (struct fdst *)(uintptr_t)*v);
	intmap_del(&p->fds, id);
}

/* p's record of object o (used as descriptor fd), made on first use with
 * path (the path it was opened by, or NULL for the object's). */
static struct fdst *fd_state(struct proc *p, const struct tobj *o, int64_t fd,
			     const char *path)
{
	bool added;
	uint64_t *v = intmap_put(&p->fds, o->id, &added);
	struct fdst *st;
	if (added) {
		st = xcalloc(1, sizeof(*st));
		path = path ? path : o->path;
		st->path = path ? xstrdup(path) : NULL;
		*v = (uint64_t)(uintptr_t)st;
	}
	st = (struct fdst *)(uintptr_t)*v;
	st->fd = fd;
	return st;
}

/* ---- redundant file access ------------------------------------------------ */

static uint64_t path_key(int pidx, uint32_t id)
{
	return (uint64_t)(uint32_t)pidx << 32 | id;
}

/* Re-interns the paths still in the table, dropping those folded away. */
static void paths_compact(struct analysis *a)
{
	struct intern ids = INTERN_INIT;
	struct intmap m = INTMAP_INIT;
	uint32_t i = 0;
	uint64_t v;
	while (intmap_next(&a->paths, &i, NULL, &v)) {
		struct path_use *u = (struct path_use *)(uintptr_t)v;
		const char *s = intern_str(&a->path_ids, u->id);
		u->id = intern_add(&ids, s, intern_len(&a->path_ids, u->id));
		*intmap_put(&m, path_key(u->proc, u->id), NULL) = v;
	}
	intern_release(&a->path_ids);
	intmap_release(&a->paths);
	a->path_ids = ids;
	a->paths = m;
}

static struct path_use *path_lookup(struct analysis *a, int pidx, const char *path, bool create)
{
	size_t len = strlen(path);
	uint32_t id = intern_find(&a->path_ids, path, len);
	uint64_t *v = id != UINT32_MAX ? intmap_get(&a->paths, path_key(pidx, id)) : NULL;
	if (v || !create)
		return v ? (struct path_use *)(uintptr_t)*v : NULL;
	if (a->paths.n >= PATHS_MAX) {
		a->paths_dropped++;
		return NULL;
	}
	if (id == UINT32_MAX && a->path_ids.n >= PATH_IDS_MAX)
		paths_compact(a);
	struct path_use *u = xcalloc(1, sizeof(*u));
	u->id = intern_add(&a->path_ids, path, len);
	u->seq = a->paths_seq++;
	u->pid = a->procs[pidx].pid;
	u->proc = pidx;
	*intmap_put(&a->paths, path_key(pidx, u->id), NULL) = (uint64_t)(uintptr_t)u;
	a->procs[pidx].npaths++;
	return u;
}

/* Keeps u among the most redundant paths (it is about to leave the table). */
static void path_keep(struct analysis *a, const struct path_use *u)
{
	if ((uint64_t)u->opens + u->stats < 2)
		return;
	size_t slot = a->nkept_paths;
	if (slot == PATHS_KEPT) {
		slot = 0;
		for (size_t i = 1; i < PATHS_KEPT; i++)
			if (path_more_redundant(&a->kept_paths[slot], &a->kept_paths[i]))
				slot = i;
		if (!path_more_redundant(u, &a->kept_paths[slot]))
			return;
		free(a->kept_paths[slot].path);
	} else {
		a->nkept_paths++;
	}
	a->kept_paths[slot] = *u;
	a->kept_paths[slot].path = xstrdup(intern_str(&a->path_ids, u->id));
}

/* Moves p's path counters to the kept list and out of the table. */
static void paths_fold_proc(struct analysis *a, int pidx)
{
	struct proc *p = &a->procs[pidx];
	uint64_t *doomed, k, v;
	size_t n = 0;
	uint32_t i = 0;

	if (!p->npaths)
		return;
	doomed = xcalloc(p->npaths, sizeof(*doomed));
	while (n < p->npaths && intmap_next(&a->paths, &i, &k, &v))
		if ((k >> 32) == (uint32_t)pidx) {
			path_keep(a, (struct path_use *)(uintptr_t)v);
			free((struct path_use *)(uintptr_t)v);
			doomed[n++] = k;
		}
	for (size_t j = 0; j < n; j++)
		intmap_del(&a->paths, doomed[j]);
	free(doomed);
	p->npaths = 0;
}

/* The index of the first argument of se with role r, or -1. */
static int role_arg(const struct sysent *se, uint8_t r)
{
	for (int i = 0; se && i < se->nargs && i < EVENT_MAX_ARGS; i++)
		if (se->argrole[i] == r)
			return i;
	return -1;
}

/*
 * The path a call names, as the table keys it: its first path argument,
 * joined to the path of its directory descriptor when relative to one;
 * false when there is none ("" with AT_EMPTY_PATH is a call on the
 * descriptor).
 */
static bool call_path(const struct event *ev, const struct sysent *se, struct strbuf *out)
{
	int pi = role_arg(se, ROLE_PATH), di = role_arg(se, ROLE_DIRFD);
	const char *p;
	size_t len;

	if (pi < 0 || !ev_arg_str(ev, (unsigned)pi, &p, &len) || !len)
		return false;
	if (p[0] != '/' && di >= 0 && ev->fd_obj[di] && ev->fd_obj[di]->path) {
		strbuf_addstr(out, ev->fd_obj[di]->path);
		strbuf_addch(out, '/');
	}
	strbuf_add(out, p, len);
	return true;
}

/* ---- GPU devices ------------------------------------------------------------- */

enum { GPU_CTL, GPU_READ, GPU_WRITE, GPU_MMAP };

static void gpu_note(struct analysis *a, const char *path, int kind, uint64_t bytes,
		     uint64_t dur)
{
	struct gpu_dev *d = NULL;
	for (size_t i = 0; i < a->ngpu; i++)
		if (!strcmp(a->gpu[i].path, path))
			d = &a->gpu[i];
	if (!d) {
		if (a->ngpu == GPU_DEVS)
			d = &a->gpu[GPU_DEVS - 1];   /* the last slot collects the rest */
		else {
			d = &a->gpu[a->ngpu++];
			d->path = xstrdup(path);
		}
	}
	d->calls++;
	d->time_ns += dur;
	a->gpu_calls++;
	a->gpu_ns += dur;
	switch (kind) {
	case GPU_CTL: d->ioctls++; break;
	case GPU_READ: d->reads++; d->bytes_in += bytes; break;
	case GPU_WRITE: d->writes++; d->bytes_out += bytes; break;
	case GPU_MMAP: d->mmaps++; d->bytes_mapped += bytes; break;
	}
}

/* ---- tight loops ------------------------------------------------------------ */

static uint64_t hash_val(uint64_t h, const struct val *v)
{
	h = hash_u64(h, v->kind);
	if ((v->flags & VF_NOVAL) && v->text)   /* names only (a text-only trace) */
		return hash_bytes(h, v->text, v->text_len);
	switch (v->kind) {
	case V_INT: return hash_u64(h, (uint64_t)v->i);
	case V_UINT: case V_OCT: return hash_u64(h, v->u);
	case V_FD: return hash_u64(h, (uint64_t)v->fd.fd);
	case V_FLAGS: case V_ENUM: return hash_u64(h, v->x.v);
	case V_SIGSET: return hash_u64(h, v->sig.mask);
	case V_STR: case V_TEXT:
		if (v->flags & VF_EXIT)
			return h;
		return v->s.p ? hash_bytes(h, v->s.p, v->s.len) : h;
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

static void loop_state_free(struct loop_state *l)
{
	if (!l)
		return;
	for (unsigned p = 0; p <= LOOP_MAXP; p++)
		free(l->run[p].sample);
	free(l);
}

/* Ends t's loops (it exited, or the trace ended) and frees its window. */
static void loops_flush(struct analysis *a, struct task *t)
{
	if (!t->loop)
		return;
	for (unsigned p = 1; p <= LOOP_MAXP; p++)
		if (t->loop->run[p].len)
			loop_close(a, t, p, t->loop->ring_n);
	loop_state_free(t->loop);
	t->loop = NULL;
}

/* ---- processes -------------------------------------------------------------- */

static void proc_release(struct proc *p)
{
	uint32_t i = 0;
	uint64_t v;
	amap_release(&p->mem);
	while (intmap_next(&p->fds, &i, NULL, &v)) {
		struct fdst *st = (struct fdst *)(uintptr_t)v;
		free(st->path);
		free(st);
	}
	intmap_release(&p->fds);
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
	uint32_t i = 0;
	uint64_t v;
	if (p->exited)
		return;
	p->exited = true;
	if (ts > p->end_ns)
		p->end_ns = ts;
	while (intmap_next(&p->fds, &i, NULL, &v))
		fdst_fold(a, p, (struct fdst *)(uintptr_t)v);
	intmap_release(&p->fds);
	paths_fold_proc(a, idx);
	mem_exit(a, p);
}

static void proc_exec(struct analysis *a, struct proc *p, const char *path, size_t len,
		      uint64_t ts)
{
	if (path && len)
		proc_set_name(p, path, len);
	mem_reset(a, p, ts);
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
		if (!cp->calls && amap_empty(&cp->mem))
			cp->copy_from = parent;
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

/*
 * Whether a clone's flags have bit: clone3's structure's flags field, or
 * clone's flags argument; -1 when they cannot be read (clone3's structure
 * unreadable), 0 for fork and vfork.
 */
static int clone_flag(const struct event *ev, const struct sysent *se, uint64_t bit,
		      const char *name)
{
	const struct val *v = ev_arg(ev, 0);
	int64_t n;

	if (!se->nargs)
		return 0;
	if (se->argtype[0] == ARG_PTR) {       /* clone3(struct clone_args *, size) */
		v = v && v->kind == V_STRUCT ? val_field(v, "flags") : NULL;
		return v ? val_has_flag(v, bit, name) : -1;
	}
	if (!ev->replayed)
		return ev_arg_int(ev, 0, &n) ? (n & (int64_t)bit) != 0 : -1;
	return v ? val_has_flag(v, bit, name) : -1;
}

/* A clone, fork or vfork of pi that made task or process rv. */
static void on_clone(struct analysis *a, int pi, const struct event *ev,
		     const struct sysent *se, pid_t rv, uint64_t ts, uint64_t end)
{
	int c0 = proc_find(a, rv);
	bool known = c0 >= 0 && a->procs[c0].parent == pi && c0 != pi;
	int thread = clone_flag(ev, se, 0x10000 /* CLONE_THREAD */, "CLONE_THREAD");
	bool vm = (se->sem & SEM_VFORK) ||
		  clone_flag(ev, se, 0x100 /* CLONE_VM */, "CLONE_VM") > 0;

	/* a process its PROC_START made already; else what the flags say
	 * (unreadable ones: a thread, glibc's clone3) */
	if (!known && thread != 0)
		return;
	struct proc *cp = &a->procs[child_link(a, pi, rv, ts)];
	if (vm) {
		cp->copy_from = -1;
		cp->vm_shared = true;
	} else {
		mem_materialize(a, cp, end);
	}
}

/* The child a wait reaped: its result, or the si_pid of the siginfo it filled. */
static int64_t waited_pid(const struct event *ev, uint32_t sem)
{
	int64_t pid;
	if (sem & SEM_PIDRET)
		return ev->retval;
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++)
		if (val_int(val_field(&ev->args[i], "si_pid"), &pid))
			return pid;
	return -1;
}

static void on_wait(struct analysis *a, int pi, int64_t cpid, uint64_t ts, uint64_t end)
{
	int c = cpid > 0 ? proc_find(a, (pid_t)cpid) : -1;
	if (c < 0)
		return;
	struct proc *cp = &a->procs[c];
	if (cp->parent < 0 && c != pi && c != a->root)
		cp->parent = pi;
	if (cp->parent == pi && !cp->waited) {
		cp->waited = true;
		cp->wait_start = ts;
		cp->wait_end = end;
	}
}

/* An open or lookup of a path, for RedundantFileAccess; *key gets the path. */
static void on_path(struct analysis *a, int pi, const struct event *ev, const struct sysent *se,
		    bool is_open, uint64_t dur, struct strbuf *key)
{
	if (!call_path(ev, se, key))
		return;
	struct path_use *u = path_lookup(a, pi, key->buf, true);
	if (!u)
		return;
	if (is_open)
		u->opens++;
	else
		u->stats++;
	u->time_ns += dur;
}

/*
 * A call on a descriptor (fd argument i): on a GPU device, a GPU call;
 * else the bytes it read (dir 0) or wrote (dir 1), when it moved data one
 * way, for UnbufferedIO and RedundantFileAccess.
 */
static void on_fd_use(struct analysis *a, struct proc *p, const struct event *ev,
		      unsigned i, int gpu_kind, int dir, bool fail, uint64_t dur)
{
	const struct tobj *o = ev->fd_obj[i];
	const char *path = obj_path(ev, i);
	uint64_t bytes = !fail && ev->retval > 0 ? (uint64_t)ev->retval : 0;
	int64_t fd;

	if (!o)
		return;
	if (is_gpu_path(path)) {
		gpu_note(a, path, gpu_kind, bytes, dur);
		return;
	}
	if (dir < 0 || !bytes || !counts_bytes(o->kind) || !ev_arg_int(ev, i, &fd))
		return;
	struct fdst *st = fd_state(p, o, fd, path);
	if (dir == 0) {
		st->rd_calls++;
		st->rd_bytes += bytes;
		if (st->path && o->kind == FDK_FILE) {
			struct path_use *u = path_lookup(a, (int)(p - a->procs), st->path, false);
			if (u) {
				u->reads++;
				u->bytes_read += bytes;
			}
		}
	} else {
		st->wr_calls++;
		st->wr_bytes += bytes;
	}
}

static void on_syscall(struct analysis *a, const struct event *ev)
{
	const struct sysent *se = sysent_get(ev->nr);
	uint32_t sem = sysent_sem(se);
	uint64_t ts = ev->ts_ns;
	uint64_t end = ev->end_ns >= ts ? ev->end_ns : ts;
	uint64_t dur = end - ts;
	uint32_t ni = name_id(a, ev->name);
	struct sc_stat *nm = &a->stats[ni];
	struct task *t = task_of(a, ev, ts);
	bool fail = failed(ev);
	int64_t rv = ev->retval;
	bool moves = se && (se->io_in >= 0) != (se->io_out >= 0);   /* one way */
	struct strbuf sb = STRBUF_INIT;

	if (!t)
		return;
	int pi = t->proc;
	struct proc *p = &a->procs[pi];

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
	if (!(sem & SEM_BLOCKING)) {
		p->work_calls++;
		p->work_ns += dur;
		t->work_calls++;
		t->work_ns += dur;
	}

	/* the loop signature: name, arguments (addresses masked), result */
	bool progress = se && (se->io_in >= 0 || se->io_out >= 0 || (sem & SEM_PROGRESS)) &&
			!fail && rv > 0;
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
		else if (ev->rv_fmt != RV_HEX && !(sem & SEM_MAP))
			sig = hash_u64(sig, (uint64_t)rv);
	}
	loop_push(a, t, ev, ni, sig);

	/* no result to follow: cut short, or counted at the entry only */
	if (!se || ev->state == SC_UNFINISHED || ev->state == SC_ENTRY_ONLY || p->exited)
		goto out;

	if (sem & (SEM_OPEN | SEM_LOOKUP))
		on_path(a, pi, ev, se, (sem & SEM_OPEN) != 0, dur, &sb);
	if ((sem & SEM_OPEN) && !fail && ev->ret_obj[0]) {
		const struct tobj *o = ev->ret_obj[0];
		fd_state(p, o, rv, sb.len ? sb.buf : NULL);
		if (is_gpu_path(o->path))
			a->gpu_opens++;
	}
	if (moves && se->io_in >= 0)
		on_fd_use(a, p, ev, (unsigned)se->io_in, GPU_READ, 0, fail, dur);
	else if (moves)
		on_fd_use(a, p, ev, (unsigned)se->io_out, GPU_WRITE, 1, fail, dur);
	else if ((sem & SEM_DEVCTL) && role_arg(se, ROLE_FD) >= 0)
		on_fd_use(a, p, ev, (unsigned)role_arg(se, ROLE_FD), GPU_CTL, -1, fail, dur);
	if ((sem & SEM_CLOSE) && ev->fd_obj[0])
		fd_fold(a, p, ev->fd_obj[0]->id);
	if (se->memop && !fail && mem_call(a, p, ev, se->memop) && se->memop == MEMOP_MAP &&
	    role_arg(se, ROLE_FD) >= 0) {
		unsigned fi = (unsigned)role_arg(se, ROLE_FD);
		int64_t len;
		if (ev->fd_obj[fi] && is_gpu_path(obj_path(ev, fi)) && ev_arg_int(ev, 1, &len))
			gpu_note(a, obj_path(ev, fi), GPU_MMAP, ((uint64_t)len + 4095) & ~4095ULL,
				 dur);
	}
	if ((sem & SEM_CLONE) && !fail && rv > 0)
		on_clone(a, pi, ev, se, (pid_t)rv, ts, end);
	if ((sem & SEM_EXEC) && !fail) {
		const char *path = NULL;
		size_t len = 0;
		int ai = role_arg(se, ROLE_PATH);
		if (ai < 0 || !ev_arg_str(ev, (unsigned)ai, &path, &len))
			path = NULL, len = 0;
		proc_exec(a, p, path, len, end);
	}
	if ((sem & SEM_WAIT) && !fail)
		on_wait(a, pi, waited_pid(ev, sem), ts, end);
out:
	strbuf_release(&sb);
}

static void on_proc_start(struct analysis *a, const struct event *ev)
{
	uint64_t ts = ev->ts_ns;
	const struct ttask *tt = ev->task;
	if (ev->is_thread) {
		task_of(a, ev, ts);
		return;
	}
	/* the creator is a thread of the parent process */
	int parent = -1;
	if (tt && tt->parent >= 0 && (size_t)tt->parent < a->ntasks &&
	    a->tasks[tt->parent].seen)
		parent = a->tasks[tt->parent].proc;
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
	task_of(a, ev, ts);
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
	const struct ttask *tt = ev->task;
	if (tt && tt->idx < a->ntasks && a->tasks[tt->idx].seen && !a->tasks[tt->idx].exited) {
		struct task *t = &a->tasks[tt->idx];
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

static void analysis_event(struct analysis *a, const struct event *ev)
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
	uint32_t i = 0;
	uint64_t v;

	if (a->ended)
		return;
	a->ended = true;
	if (te && te->wall_ns)
		a->wall_ns = te->wall_ns;
	for (size_t k = 0; k < a->ntasks; k++)
		if (a->tasks[k].seen && !a->tasks[k].exited)
			loops_flush(a, &a->tasks[k]);
	for (size_t k = 0; k < a->nprocs; k++)
		if (!a->procs[k].exited) {
			proc_exit(a, (int)k, a->procs[k].end_ns);
			a->procs[k].exited = false;   /* never seen exiting */
		}
	/* fold what is still in the path table (processes never seen exiting) */
	while (intmap_next(&a->paths, &i, NULL, &v))
		path_keep(a, (struct path_use *)(uintptr_t)v);
	paths_clear(a);
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

		if (!n)
			continue;
		uint32_t id = name_id(a, r->name);     /* may move a->stats */
		struct sc_stat *nm = &a->stats[id];
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
	.needs_track = 1,
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
