/*
 * The eBPF recording engine's user side: each call the kernel recorded
 * (bpf/abi.h: its registers, result, times and the user memory its
 * capture ops copied) becomes the event record the ptrace engine makes of
 * its two stops, decoded by the same decoders, which read the recorded
 * memory through sys/tmem.h's view instead of the process.  See
 * record.h and docs/architecture.md.
 */
#include "bpf/record.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/abi.h"
#include "core/lamport.h"
#include "core/quals.h"
#include "sys/tmem.h"
#include "sys/compat.h"
#include "sys/filter.h"
#include "sys/sysent.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define NBUCKETS 1024

/* A signal the kernel dropped as ignored, shown where a ptrace tracer
 * would have seen it delivered. */
struct sig_note {
	struct rb_signal s;
};

/* Per traced thread: the call whose entry half is delivered, if any. */
struct rtask {
	pid_t tid, pid;
	struct rtask *next;       /* hash chain */
	struct event ev;          /* the call (the sinks may keep the entry
				     until the exit of the same thread) */
	struct arena arena;       /* its decoded values */
	bool in_call;             /* an RB_EV_ENTRY record (entry) waits for its
				     RB_EV_CALL */
	bool entry_shown;         /* ...and its entry half was delivered */
	struct rtask *pend_next;  /* list of tasks with an entry not shown */
	struct sig_note *sigs;    /* ignored signals to show (see on_signal) */
	size_t nsigs, asigs;
	bool reported;            /* ev's call goes to the sinks */
	bool dec_exit;            /* its decoder wants the exit (RVAL_EXIT) */
	const struct sysent *se;  /* the row it is decoded with */
	struct sysent se_tmp;     /* a row for calls of another personality */
	uint8_t pers;             /* personality of its last call (PERS_*) */
	long last_nr;             /* its last call (-n on signal and exit lines) */
	uint8_t *entry;           /* the RB_EV_ENTRY record of ev's call */
	size_t entry_len, entry_alloc;
	uint8_t *exec;            /* the RB_EV_EXECARGS record of its execve */
	size_t exec_len, exec_alloc;
};

struct recorder {
	const struct tracer_opts *o;
	struct sink_list *sinks;
	uint64_t t0;
	struct rtask *buckets[NBUCKETS];
	struct lamport *lamport;
	bool all_status;          /* no -e status= filter */
	struct recorder_stats st;
	uint64_t gaps[RB_SLOTS], faults[RB_SLOTS];
	struct rtask *pending;    /* tasks whose entry is not shown yet, the
				     latest first */
	struct arena sigarena;    /* siginfo values of the signal being shown */
	struct tmem_region *regs; /* the current view's regions */
	size_t nregs, aregs;
	struct tmem_region *extra; /* regions added to the view last (execve's) */
	size_t nextra, aextra;
	uint8_t **late;           /* the view's bytes read late (late_read()) */
	size_t nlate, alate;
	struct tmem_view view;
};

struct recorder *recorder_new(const struct tracer_opts *o, struct sink_list *sinks, uint64_t t0)
{
	struct recorder *rc = xcalloc(1, sizeof(*rc));

	rc->o = o;
	rc->sinks = sinks;
	rc->t0 = t0;
	rc->lamport = lamport_new();
	rc->view.fd = -1;
	rc->all_status = (o->status_mask ? o->status_mask : STATUS_ALL) == STATUS_ALL;
	return rc;
}

static void task_free(struct rtask *t)
{
	arena_release(&t->arena);
	free(t->entry);
	free(t->exec);
	free(t->sigs);
	free(t);
}

void recorder_free(struct recorder *rc)
{
	if (!rc)
		return;
	for (unsigned b = 0; b < NBUCKETS; b++) {
		struct rtask *t = rc->buckets[b], *next;
		for (; t; t = next) {
			next = t->next;
			task_free(t);
		}
	}
	lamport_free(rc->lamport);
	arena_release(&rc->sigarena);
	while (rc->nlate)
		free(rc->late[--rc->nlate]);
	free(rc->late);
	free(rc->regs);
	free(rc->extra);
	free(rc);
}

/* ---- tasks ------------------------------------------------------------- */

static struct rtask *task_find(struct recorder *rc, pid_t tid)
{
	struct rtask *t = rc->buckets[(unsigned)tid % NBUCKETS];

	while (t && t->tid != tid)
		t = t->next;
	return t;
}

static struct rtask *task_get(struct recorder *rc, pid_t tid, pid_t pid)
{
	struct rtask *t = task_find(rc, tid);
	unsigned b = (unsigned)tid % NBUCKETS;

	if (t) {
		t->pid = pid;
		return t;
	}
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	t->next = rc->buckets[b];
	rc->buckets[b] = t;
	return t;
}

/* Takes t off the list of tasks whose entry is not shown. */
static void pending_del(struct recorder *rc, struct rtask *t)
{
	struct rtask **pp = &rc->pending;

	while (*pp && *pp != t)
		pp = &(*pp)->pend_next;
	if (*pp)
		*pp = t->pend_next;
	t->pend_next = NULL;
}

static void task_unlink(struct recorder *rc, struct rtask *t)
{
	struct rtask **pp = &rc->buckets[(unsigned)t->tid % NBUCKETS];

	pending_del(rc, t);
	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (*pp)
		*pp = t->next;
}

/* ---- delivering -------------------------------------------------------- */

static void call_begin(struct recorder *rc, struct rtask *t, const struct rb_call *h,
		       const uint8_t *entry, size_t elen, const uint8_t *call, size_t clen,
		       bool announce);

/*
 * Before an event of task tid goes to the sinks: the entry halves of other
 * tasks' calls still in progress (RB_EV_ENTRY records not yet shown) go
 * first, in the order they came, as a ptrace tracer would have shown
 * them ("<unfinished ...>").  A call that ends before anything else
 * happens shows whole, decoded from its entry and exit records at once.
 */
static void flush_entries(struct recorder *rc, pid_t tid)
{
	struct rtask **pp = &rc->pending;

	while (*pp) {
		struct rtask *t = *pp;

		/* (an execve waits for its end: strings its entry could not
		 * read come from the new image, RB_EV_EXECARGS) */
		if (t->tid == tid || ((const struct rb_call *)t->entry)->slot == 59 ||
		    ((const struct rb_call *)t->entry)->slot == 322) {
			pp = &t->pend_next;
			continue;
		}
		*pp = t->pend_next;
		t->pend_next = NULL;
		t->entry_shown = true;
		call_begin(rc, t, (const struct rb_call *)t->entry, t->entry, t->entry_len, NULL, 0,
			   true);
		pp = &rc->pending;     /* (the list may have changed) */
	}
}

static void view_fd(struct recorder *rc, const uint8_t *data, size_t size);

/* The Lamport clock of ev; what a call's descriptor referred to (a pipe's
 * inode) comes from its record (view_fd): the descriptor, or its process,
 * may be gone by now. */
static void stamp(struct recorder *rc, struct event *ev)
{
	if ((ev->type == EV_SYSCALL || ev->type == EV_SYSCALL_ENTRY) && rc->view.fd >= 0) {
		rc->view.n = 0;
		tmem_set_view(&rc->view);
		lamport_stamp(rc->lamport, ev);
		tmem_set_view(NULL);
		rc->view.fd = -1;
	} else {
		lamport_stamp(rc->lamport, ev);
	}
}

static void emit(struct recorder *rc, struct event *ev)
{
	if (rc->pending)
		flush_entries(rc, ev->tid);
	stamp(rc, ev);
	sink_list_event(rc->sinks, ev);
}

/* The view's descriptor from an RBR_FD region (r->len >= its record). */
static void set_fd(struct recorder *rc, const struct rb_region *r)
{
	struct rb_fdinfo fi;

	memcpy(&fi, (const uint8_t *)r + sizeof(*r), sizeof(fi));
	rc->view.fd = (int64_t)r->addr;
	rc->view.fd_ino = fi.ino;
	rc->view.fd_mode = fi.mode;
	rc->view.sock_family = fi.family;
	rc->view.sock_proto = fi.protocol;
}

/* Sets the view's descriptor (what RBR_FD recorded) from a call's record;
 * fd -1 if none. */
static void view_fd(struct recorder *rc, const uint8_t *data, size_t size)
{
	const struct rb_call *h = (const void *)data;
	size_t off = sizeof(*h);

	rc->view.fd = -1;
	for (unsigned i = 0; data && i < h->nregions; i++) {
		const struct rb_region *r = (const void *)(data + off);

		if (off + sizeof(*r) > size || rb_region_data(r) > size - off - sizeof(*r))
			return;
		if (r->kind == RBR_FD && r->len >= sizeof(struct rb_fdinfo)) {
			set_fd(rc, r);
			return;
		}
		off += sizeof(*r) + ((rb_region_data(r) + 7) & ~7u);
	}
}

/* Whether -e status= shows ev (as the ptrace engine's status_wanted()). */
static bool status_wanted(const struct recorder *rc, const struct event *ev)
{
	unsigned m = rc->o->status_mask ? rc->o->status_mask : STATUS_ALL;

	if (m == STATUS_ALL)
		return true;
	if (ev->state == SC_UNFINISHED)
		return m & STATUS_UNFINISHED;
	return ev->err ? (m & STATUS_FAILED) : (m & STATUS_SUCCESSFUL);
}

void recorder_process_event(struct recorder *rc, struct event *ev)
{
	struct rtask *t;

	if (ev->type == EV_EXEC && ev->exec_old_tid && ev->exec_old_tid != ev->tid &&
	    (t = task_find(rc, ev->exec_old_tid))) {
		/* a thread other than the leader exec'ed: it now has the
		 * leader's tid, and its call (execve) goes on there */
		struct rtask *o = task_find(rc, ev->tid);
		if (o) {
			task_unlink(rc, o);
			task_free(o);
		}
		task_unlink(rc, t);
		t->tid = ev->tid;
		t->pid = ev->pid;
		t->ev.pid = t->ev.tid = ev->tid;
		t->next = rc->buckets[(unsigned)t->tid % NBUCKETS];
		rc->buckets[(unsigned)t->tid % NBUCKETS] = t;
	}
	if (ev->type == EV_PROC_EXIT && !ev->last_nr && (t = task_find(rc, ev->tid)))
		ev->last_nr = t->last_nr;
	emit(rc, ev);
	if (ev->type == EV_PROC_EXIT && (t = task_find(rc, ev->tid))) {
		task_unlink(rc, t);
		task_free(t);
	}
}

/* ---- the recorded memory ----------------------------------------------- */

/*
 * From the file named in a struct rb_fileref (the path, the last component
 * first; checked to be the same file by device and inode): up to want
 * bytes at its offset into buf.  Returns the bytes read, or -1.
 */
static ssize_t fileref_read(const struct rb_fileref *fr, const char *comp, size_t clen,
			    uint8_t *buf, size_t want)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	ssize_t n = -1;
	size_t end = clen;
	int fd;

	if (!fr->dev || !clen)
		return -1;
	/* components from the root down: the last one in comp first */
	while (end > 0) {
		size_t start = end - 1;
		while (start > 0 && comp[start - 1])
			start--;
		strbuf_addch(&path, '/');
		strbuf_add(&path, comp + start, strnlen(comp + start, end - start));
		end = start;
	}
	fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_ino == fr->ino &&
	    major(st.st_dev) == fr->dev >> 20 && minor(st.st_dev) == (fr->dev & 0xfffff))
		n = pread(fd, buf, want, (off_t)fr->off);
	if (fd >= 0)
		close(fd);
	strbuf_release(&path);
	return n;
}

/*
 * A region the kernel could not read on a page the program never touched,
 * in a private read-only mapping (string constants written to /dev/null:
 * the call never read them): its bytes cannot have changed, so they are
 * read now, from the process while it lives (process_vm_readv faults the
 * page in), else from the file mapped there.  Added to the view, or as
 * unreadable when neither can be read.
 */
static void late_read(struct recorder *rc, pid_t tid, const struct rb_region *r,
		      const uint8_t *data)
{
	const struct rb_fileref *fr = (const void *)data;
	struct tmem_region *v;
	struct iovec local, remote;
	uint8_t *buf;
	size_t want;
	ssize_t n = -1;

	if (r->len < sizeof(*fr))
		return;
	want = fr->want;
	buf = xmalloc(want ? want : 1);
	local.iov_base = buf;
	local.iov_len = want;
	remote.iov_base = (void *)(uintptr_t)r->addr;
	remote.iov_len = want;
	if (want)
		n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
	/* (a string may end before an unmapped page: byte by byte then) */
	if (n < 0 && r->kind == RBR_STR && want) {
		n = 0;
		while ((size_t)n < want) {
			local.iov_base = buf + n;
			local.iov_len = 1;
			remote.iov_base = (void *)(uintptr_t)(r->addr + n);
			remote.iov_len = 1;
			if (process_vm_readv(tid, &local, 1, &remote, 1, 0) != 1 || !buf[n++])
				break;
		}
		if (!n)
			n = -1;
	}
	if (n < 0 && want && fr->pathlen <= r->len - sizeof(*fr))
		n = fileref_read(fr, (const char *)(fr + 1), fr->pathlen, buf, want);
	ALLOC_GROW(rc->regs, rc->nregs + 1, rc->aregs);
	v = &rc->regs[rc->nregs++];
	memset(v, 0, sizeof(*v));
	v->addr = r->addr;
	if (n <= 0) {
		free(buf);
		v->fault = true;
		rc->st.late_failed++;
		return;
	}
	if (r->kind == RBR_STR) {
		uint8_t *nul = memchr(buf, '\0', (size_t)n);
		if (nul)
			n = nul - buf + 1;
		else
			v->more = (size_t)n == want;
	}
	v->data = buf;
	v->len = (uint32_t)n;
	ALLOC_GROW(rc->late, rc->nlate + 1, rc->alate);
	rc->late[rc->nlate++] = buf;
	rc->st.late++;
}

/* The bytes of an RBR_ZERO region (a page not there in a private
 * anonymous mapping): zeros, not in the record. */
static const uint8_t zero_bytes[RB_REGION_MAX];

/* The bytes of region r, whose data (if any) is at data. */
static const uint8_t *region_bytes(const struct rb_region *r, const uint8_t *data)
{
	return r->status == RBR_ZERO ? zero_bytes : data;
}

/* Appends to the view the regions of record data (size bytes) of phase. */
static int add_regions(struct recorder *rc, const uint8_t *data, size_t size, unsigned phase)
{
	const struct rb_call *h = (const void *)data;
	size_t off = sizeof(*h);

	for (unsigned i = 0; i < h->nregions; i++) {
		const struct rb_region *r = (const void *)(data + off);
		struct tmem_region *v;

		if (off + sizeof(*r) > size || rb_region_data(r) > size - off - sizeof(*r))
			return -1;
		if (r->phase == phase && r->kind == RBR_FD && r->len >= sizeof(struct rb_fdinfo)) {
			set_fd(rc, r);
		} else if (r->phase == phase && r->status == RBR_FAULT_RO) {
			late_read(rc, h->tid, r, data + off + sizeof(*r));
		} else if (r->phase == phase) {
			ALLOC_GROW(rc->regs, rc->nregs + 1, rc->aregs);
			v = &rc->regs[rc->nregs++];
			v->addr = r->addr;
			v->data = region_bytes(r, data + off + sizeof(*r));
			v->len = r->len;
			v->fault = r->status == RBR_FAULT;
			v->more = r->status == RBR_LONG;
		}
		off += sizeof(*r) + ((rb_region_data(r) + 7) & ~7u);
	}
	return 0;
}

/* The view of the entry half (exit false) or the exit half of a call whose
 * records are entry (may be NULL) and call (may be NULL): the regions of
 * its own phase first. */
static void view_set(struct recorder *rc, const uint8_t *entry, size_t elen,
		     const uint8_t *call, size_t clen, bool exit)
{
	rc->nregs = 0;
	rc->view.fd = -1;
	while (rc->nlate)
		free(rc->late[--rc->nlate]);
	if (exit && call) {
		add_regions(rc, call, clen, RBR_EXIT);
		add_regions(rc, call, clen, RBR_ENTRY);
	}
	if (entry)
		add_regions(rc, entry, elen, RBR_ENTRY);
	if (!exit && call) {
		add_regions(rc, call, clen, RBR_ENTRY);
		add_regions(rc, call, clen, RBR_EXIT);
	}
	for (size_t i = 0; i < rc->nextra; i++) {
		ALLOC_GROW(rc->regs, rc->nregs + 1, rc->aregs);
		rc->regs[rc->nregs++] = rc->extra[i];
	}
	rc->view.r = rc->regs;
	rc->view.n = rc->nregs;
	rc->view.sp = entry ? ((const struct rb_call *)entry)->sp
			    : call ? ((const struct rb_call *)call)->sp : 0;
	tmem_set_view(&rc->view);
}

/* Runs the decoder of t's call with the view set; counts what it missed. */
static int decode(struct recorder *rc, struct rtask *t, uint32_t slot, int exiting)
{
	struct decode_opts dtmp;
	struct dctx ctx;
	uint64_t g = rc->view.gaps, f = rc->view.faults;
	int r;

	ctx.pid = t->pid;
	ctx.tid = t->tid;
	ctx.arena = &t->arena;
	ctx.opts = quals_dopts(rc->o->quals, &rc->o->dopts, t->ev.nr, &dtmp);
	ctx.se = t->se;
	ctx.ev = &t->ev;
	if (t->se->decode)
		r = t->se->decode(&ctx, &t->ev, exiting);
	else
		r = exiting ? RVAL_DONE : decode_default(&ctx, &t->ev, 0);
	tmem_set_view(NULL);
	if (slot < RB_SLOTS) {
		rc->gaps[slot] += rc->view.gaps - g;
		rc->faults[slot] += rc->view.faults - f;
	}
	return r;
}

/* ---- calls ------------------------------------------------------------- */

static const char *unknown_name(struct rtask *t, long nr)
{
	char buf[40];
	int n = snprintf(buf, sizeof(buf), "syscall_%#lx", (unsigned long)nr);

	return arena_strndup(&t->arena, buf, (size_t)n);
}

/*
 * The entry half of the call h of task t (as the ptrace engine's entry
 * stop): the event made, decoded at entry from the view of entry (the
 * call's RB_EV_ENTRY record, or NULL) and call (its RB_EV_CALL, or NULL),
 * and, with announce (another task's event comes before its exit),
 * delivered to the sinks that want entries.
 */
static void call_begin(struct recorder *rc, struct rtask *t, const struct rb_call *h,
		       const uint8_t *entry, size_t elen, const uint8_t *call, size_t clen,
		       bool announce)
{
	static const struct sysent unknown_se = { NULL, 6, 0, NULL, NULL };
	const struct trace_quals *q = rc->o->quals;
	struct event *ev = &t->ev;
	const struct compat_sysent *cse;
	const struct sysent *se;
	long nr = h->slot < RB_NR ? (long)h->slot : -1 - (long)(h->slot - RB_COMPAT);
	int pers;

	t->reported = false;
	t->dec_exit = false;
	t->last_nr = nr;
	/* strace's "[ Process PID=N runs in 32 bit mode. ]" at a change */
	cse = quals_compat_call(nr, &pers);
	if (pers != t->pers) {
		struct event pev;

		memset(&pev, 0, sizeof(pev));
		pev.type = EV_PERSONALITY;
		pev.pid = t->pid;
		pev.tid = t->tid;
		pev.nr = -1;
		pev.personality = (uint8_t)pers;
		pev.last_nr = nr;
		pev.ts_ns = pev.end_ns = h->enter_ns > rc->t0 ? h->enter_ns - rc->t0 : 0;
		t->pers = (uint8_t)pers;
		emit(rc, &pev);
	}
	if (!quals_compat_traced(q, nr) || !trace_set_has(rc->o->trace_set, nr))
		return;
	t->reported = true;
	arena_reset(&t->arena);
	memset(ev, 0, sizeof(*ev));
	ev->type = EV_SYSCALL_ENTRY;
	ev->pid = t->pid;
	ev->tid = t->tid;
	ev->nr = nr;
	ev->ts_ns = h->enter_ns > rc->t0 ? h->enter_ns - rc->t0 : 0;
	memcpy(ev->raw, h->args, sizeof(ev->raw));
	if (q && q->want_ip)
		ev->ip = h->ip;
	se = sysent_get(nr);
	if (se && se->name) {
		ev->name = se->name;
	} else if (cse) {
		/* arguments of another personality print undecoded */
		t->se_tmp = unknown_se;
		t->se_tmp.name = cse->name;
		t->se_tmp.nargs = cse->nargs;
		se = &t->se_tmp;
		ev->name = cse->name;
	} else {
		ev->name = unknown_name(t, nr);
		se = &unknown_se;
	}
	t->se = se;
	sysent_kernel_args(se, ev->raw, ev->karg);
	if (rc->sinks->needs_args) {
		view_set(rc, entry, elen, call, clen, false);
		t->dec_exit = decode(rc, t, h->slot, 0) == RVAL_EXIT;
	}
	view_fd(rc, entry ? entry : call, entry ? elen : clen);
	stamp(rc, ev);
	/* the entry half goes to the sinks only when something comes before
	 * the exit (flush_entries): else the call shows whole at its exit,
	 * as a line that nothing interrupted */
	if (announce && rc->sinks->wants_entry && rc->all_status) {
		if (rc->pending)
			flush_entries(rc, ev->tid);
		sink_list_event(rc->sinks, ev);
	}
}

/* The exit half of t's call from its RB_EV_CALL record h (call, clen). */
static void call_end(struct recorder *rc, struct rtask *t, const struct rb_call *h,
		     const uint8_t *call, size_t clen)
{
	struct event *ev = &t->ev;
	const uint8_t *entry = t->in_call ? t->entry : NULL;

	t->in_call = false;
	if (!t->reported)
		return;
	ev->type = EV_SYSCALL;
	ev->end_ns = h->exit_ns > rc->t0 ? h->exit_ns - rc->t0 : ev->ts_ns;
	if (h->flags & RBC_UNFINISHED) {
		ev->state = SC_UNFINISHED;
		ev->rv_fmt = RV_NONE;
	} else {
		ev->state = SC_COMPLETE;
		if (rc->o->cpu_time)
			ev->cpu_ns = h->cpu_ns;
		ev->retval = h->ret;
		ev->err = (uint64_t)h->ret >= (uint64_t)-4095 ? (int)-h->ret : 0;
		if (t->dec_exit) {
			view_set(rc, entry, t->entry_len, call, clen, true);
			decode(rc, t, h->slot, 1);
		}
	}
	if (status_wanted(rc, ev)) {
		/* (entries shown first: their stamps reset the view's fd) */
		if (rc->pending)
			flush_entries(rc, ev->tid);
		view_fd(rc, call, clen);
		if (rc->view.fd < 0 && entry)
			view_fd(rc, entry, t->entry_len);
		emit(rc, ev);
	}
}

static void signals_before(struct recorder *rc, struct rtask *t, uint64_t ts);

/* Counts the regions of a record the kernel could not read. */
static void count_faults(struct recorder *rc, const uint8_t *data, size_t size)
{
	const struct rb_call *h = (const void *)data;
	size_t off = sizeof(*h);

	for (unsigned i = 0; i < h->nregions; i++) {
		const struct rb_region *r = (const void *)(data + off);

		if (off + sizeof(*r) > size || rb_region_data(r) > size - off - sizeof(*r))
			return;
		if (r->status == RBR_FAULT || r->status == RBR_FAULT_RO)
			rc->st.kfaults++;
		off += sizeof(*r) + ((rb_region_data(r) + 7) & ~7u);
	}
}

static void on_entry(struct recorder *rc, const uint8_t *data, size_t size)
{
	const struct rb_call *h = (const void *)data;
	struct rtask *t = task_get(rc, (pid_t)h->tid, (pid_t)h->pid), **pp;

	rc->st.entries++;
	count_faults(rc, data, size);
	signals_before(rc, t, h->enter_ns);
	/* kept for the exit half, which reads its regions too; shown when
	 * another task's event comes first (flush_entries) */
	ALLOC_GROW(t->entry, size, t->entry_alloc);
	memcpy(t->entry, data, size);
	t->entry_len = size;
	t->in_call = true;
	t->entry_shown = false;
	pending_del(rc, t);
	for (pp = &rc->pending; *pp; pp = &(*pp)->pend_next)
		;
	*pp = t;
}

/* The region of record data (size bytes) at addr, or NULL. */
static const struct rb_region *find_region(const uint8_t *data, size_t size, uint64_t addr,
					   const uint8_t **bytes)
{
	const struct rb_call *h = (const void *)data;
	size_t off = sizeof(*h);

	for (unsigned i = 0; i < h->nregions; i++) {
		const struct rb_region *r = (const void *)(data + off);

		if (off + sizeof(*r) > size || rb_region_data(r) > size - off - sizeof(*r))
			return NULL;
		if (r->addr == addr) {
			*bytes = region_bytes(r, data + off + sizeof(*r));
			return r;
		}
		off += sizeof(*r) + ((rb_region_data(r) + 7) & ~7u);
	}
	return NULL;
}

/* The i-th region of record data, or NULL. */
static const struct rb_region *nth_region(const uint8_t *data, size_t size, unsigned n,
					  const uint8_t **bytes)
{
	const struct rb_call *h = (const void *)data;
	size_t off = sizeof(*h);

	for (unsigned i = 0; i < h->nregions; i++) {
		const struct rb_region *r = (const void *)(data + off);

		if (off + sizeof(*r) > size || rb_region_data(r) > size - off - sizeof(*r))
			return NULL;
		if (i == n) {
			*bytes = region_bytes(r, data + off + sizeof(*r));
			return r;
		}
		off += sizeof(*r) + ((rb_region_data(r) + 7) & ~7u);
	}
	return NULL;
}

static void extra_add(struct recorder *rc, uint64_t addr, const uint8_t *data, size_t len)
{
	struct tmem_region *v;

	ALLOC_GROW(rc->extra, rc->nextra + 1, rc->aextra);
	v = &rc->extra[rc->nextra++];
	memset(v, 0, sizeof(*v));
	v->addr = addr;
	v->data = data;
	v->len = (uint32_t)len;
}

/*
 * A successful execve whose entry record could not read some of its
 * strings (pages the program never touched, which the kernel faults in
 * only inside the call): those strings are the ones the kernel copied
 * into the new image (t's RB_EV_EXECARGS record), in order.
 */
static void exec_strings(struct recorder *rc, struct rtask *t)
{
	const struct rb_call *e = (const void *)t->entry;
	const uint8_t *args, *file, *ptrs, *b;
	const struct rb_region *ra, *rf, *rp, *r;
	long nr = e->slot;
	unsigned argi = nr == 322 /* execveat */ ? 2 : 1;
	size_t pos = 0;

	rc->nextra = 0;
	if (!t->exec_len || (nr != 59 && nr != 322) ||
	    !(ra = nth_region(t->exec, t->exec_len, 0, &args)) ||
	    !(rf = nth_region(t->exec, t->exec_len, 1, &file)))
		return;
	r = find_region(t->entry, t->entry_len, e->args[argi - 1], &b);
	if (nr == 59 && (!r || r->status == RBR_FAULT || r->status == RBR_FAULT_RO) &&
	    rf->status == RBR_OK)
		extra_add(rc, e->args[0], file, rf->len);
	rp = find_region(t->entry, t->entry_len, e->args[argi], &ptrs);
	for (uint32_t i = 0; rp && i + 8 <= rp->len; i += 8) {
		uint64_t p;
		size_t n;

		memcpy(&p, ptrs + i, sizeof(p));
		if (!p || pos >= ra->len)
			break;
		n = strnlen((const char *)args + pos, ra->len - pos);
		if (pos + n < ra->len)
			n++;       /* its NUL */
		r = find_region(t->entry, t->entry_len, p, &b);
		if (!r || r->status == RBR_FAULT || r->status == RBR_FAULT_RO)
			extra_add(rc, p, args + pos, n);
		pos += n;
	}
}

static void on_call(struct recorder *rc, const uint8_t *data, size_t size)
{
	const struct rb_call *h = (const void *)data;
	struct rtask *t = task_get(rc, (pid_t)h->tid, (pid_t)h->pid);
	bool paired = (h->flags & RBC_ENTRY) && t->in_call &&
		      ((const struct rb_call *)t->entry)->slot == h->slot;

	rc->st.calls++;
	count_faults(rc, data, size);
	if (h->flags & RBC_CUT)
		rc->st.cut++;
	if (!paired) {
		/* (an entry record lost, or none sent) */
		pending_del(rc, t);
		t->in_call = false;
		signals_before(rc, t, h->enter_ns);
		call_begin(rc, t, h, NULL, 0, data, size, false);
	} else {
		exec_strings(rc, t);
		if (!t->entry_shown) {
			/* (the entry record's registers: execve's are gone at
			 * the exit) */
			pending_del(rc, t);
			call_begin(rc, t, (const struct rb_call *)t->entry, t->entry, t->entry_len,
				   data, size, false);
		}
	}
	call_end(rc, t, h, data, size);
	rc->nextra = 0;
	t->exec_len = 0;
	signals_before(rc, t, h->exit_ns + 1);
}

/* EV_SIGNAL of t from a signal record. */
static void show_signal(struct recorder *rc, struct rtask *t, const struct rb_signal *g)
{
	struct dctx ctx = { t->pid, t->tid, &rc->sigarena, &rc->o->dopts, NULL };
	struct event ev;
	siginfo_t si;
	struct val *v;

	if (!quals_signal_shown(rc->o->quals, (int)g->signo))
		return;
	memset(&si, 0, sizeof(si));
	memcpy(&si, g->info, sizeof(g->info) < sizeof(si) ? sizeof(g->info) : sizeof(si));
	arena_reset(&rc->sigarena);
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SIGNAL;
	ev.pid = t->pid;
	ev.tid = t->tid;
	ev.nr = -1;
	ev.signo = (int)g->signo;
	ev.last_nr = t->last_nr;
	ev.ts_ns = ev.end_ns = g->ts_ns > rc->t0 ? g->ts_ns - rc->t0 : 0;
	v = arena_calloc(&rc->sigarena, sizeof(*v));
	decode_siginfo_val(&ctx, v, &si);
	ev.siginfo = v;
	emit(rc, &ev);
	if (g->flags & RBS_STOP) {
		/* the group stop that follows, as a ptrace tracer sees it */
		ev.siginfo = NULL;
		ev.group_stop = true;
		emit(rc, &ev);
	}
}

/*
 * The ignored signals noted for t that came before time ts: a ptrace
 * tracer would have shown them at t's next return to user space, so
 * before t's next call that began after them, or after the call they
 * came during.
 */
static void signals_before(struct recorder *rc, struct rtask *t, uint64_t ts)
{
	size_t k = 0;

	for (size_t i = 0; i < t->nsigs; i++) {
		if (t->sigs[i].s.ts_ns < ts)
			show_signal(rc, t, &t->sigs[i].s);
		else
			t->sigs[k++] = t->sigs[i];
	}
	t->nsigs = k;
}

static void on_signal(struct recorder *rc, const uint8_t *data, size_t size)
{
	const struct rb_signal *g = (const void *)data;
	struct rtask *t;

	if (size < sizeof(*g)) {
		rc->st.bad++;
		return;
	}
	rc->st.signals++;
	t = task_get(rc, (pid_t)g->tid, (pid_t)g->pid);
	if (g->flags & RBS_IGNORED) {
		ALLOC_GROW(t->sigs, t->nsigs + 1, t->asigs);
		t->sigs[t->nsigs++].s = *g;
		return;
	}
	signals_before(rc, t, g->ts_ns);
	show_signal(rc, t, g);
}

void recorder_record(struct recorder *rc, const void *data, size_t size)
{
	const struct rb_call *h = data;

	if (size >= sizeof(struct rb_signal) && h->type == RB_EV_SIGNAL) {
		on_signal(rc, data, size);
		return;
	}
	if (size >= sizeof(*h) && h->size <= size && h->type == RB_EV_EXECARGS) {
		struct rtask *t = task_get(rc, (pid_t)h->tid, (pid_t)h->pid);

		ALLOC_GROW(t->exec, size, t->exec_alloc);
		memcpy(t->exec, data, size);
		t->exec_len = size;
		return;
	}
	if (size < sizeof(*h) || h->size > size) {
		rc->st.bad++;
		return;
	}
	switch (h->type) {
	case RB_EV_ENTRY:
		on_entry(rc, data, size);
		break;
	case RB_EV_CALL:
		on_call(rc, data, size);
		break;
	case RB_EV_SIGNAL:
		on_signal(rc, data, size);
		break;
	default:
		rc->st.bad++;
		break;
	}
}

/* ---- statistics -------------------------------------------------------- */

void recorder_get_stats(const struct recorder *rc, struct recorder_stats *st)
{
	*st = rc->st;
	st->gaps = rc->view.gaps;
	st->faults = rc->view.faults;
}

void recorder_print_gaps(const struct recorder *rc, FILE *fp)
{
	fprintf(fp, "renacer: eBPF recorder: %llu calls (%llu with entry records, %llu cut), "
		"%llu bad records, %llu reads not recorded, %llu unreadable, "
		"%llu regions the kernel could not read (%llu read later, %llu not)\n",
		(unsigned long long)rc->st.calls, (unsigned long long)rc->st.entries,
		(unsigned long long)rc->st.cut, (unsigned long long)rc->st.bad,
		(unsigned long long)rc->view.gaps, (unsigned long long)rc->view.faults,
		(unsigned long long)rc->st.kfaults, (unsigned long long)rc->st.late,
		(unsigned long long)rc->st.late_failed);
	for (unsigned s = 0; s < RB_SLOTS; s++) {
		char buf[40];
		long nr = s < RB_NR ? (long)s : -1 - (long)(s - RB_COMPAT);

		if (rc->gaps[s] || rc->faults[s])
			fprintf(fp, "renacer:   %s: %llu not recorded, %llu unreadable\n",
				sysent_name(nr, buf), (unsigned long long)rc->gaps[s],
				(unsigned long long)rc->faults[s]);
	}
}
