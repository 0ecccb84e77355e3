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
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/xattr.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/abi.h"
#include "bpf/capture.h"
#include "core/lamport.h"
#include "core/quals.h"
#include "sys/tmem.h"
#include "sys/compat.h"
#include "sys/filter.h"
#include "sys/sysent.h"
#include "util/arena.h"
#include "util/intmap.h"
#include "util/intern.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* A signal the kernel dropped as ignored, shown where a ptrace tracer
 * would have seen it delivered. */
struct sig_note {
	struct rb_signal s;
};

/*
 * A process's executable file mappings (bpf/abi.h's RB_EV_MAP records), by
 * start: a version is never changed once made, so that a call's stack is
 * unwound with the mappings of the moment it was taken, however late its
 * records are read.  Shared (ref) by the process, the tasks whose stack was
 * taken then, and children forked meanwhile.
 */
struct modtab {
	unsigned ref;
	uint64_t gen;             /* unique to this version */
	size_t n;
	struct ev_module m[];
};

/* Per traced process: its mappings now. */
struct rproc {
	pid_t pid;
	struct modtab *cur;       /* NULL: none known */
	unsigned threads;         /* its threads alive but the leader */
	bool leader_gone;         /* the leader exited before them */
	bool held;                /* exit: the leader's end, delivered after
				     its threads' (as the kernel reports it
				     to a ptrace tracer) */
	struct event exit;
};

/* Per traced thread: the call whose entry half is delivered, if any. */
struct rtask {
	pid_t tid, pid;
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
	bool entry_unread;        /* its entry half read memory the entry
				     record lacked (see call_end()) */
	const struct sysent *se;  /* the row it is decoded with */
	struct sysent se_tmp;     /* a row for calls of another personality */
	uint8_t pers;             /* personality of its last call (PERS_*) */
	long last_nr;             /* its last call (-n on signal and exit lines) */
	uint8_t *entry;           /* the RB_EV_ENTRY record of ev's call */
	size_t entry_len, entry_alloc;
	uint8_t *exec;            /* the RB_EV_EXECARGS record of its execve */
	size_t exec_len, exec_alloc;
	struct tmem_region *data; /* RB_EV_DATA chunks of its call (-e read=,
				     -e write=; data malloc'ed) */
	size_t ndata, adata;
	uint8_t *stk;             /* the RB_EV_STACK record of its last call */
	size_t stk_len, stk_alloc;
	struct modtab *stk_mods;  /* its process's mappings then (a ref) */
};

struct recorder {
	const struct tracer_opts *o;
	struct sink_list *sinks;
	uint64_t t0;
	struct intmap tasks;      /* tid -> struct rtask * */
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
	/* -y, -P: what descriptors referred to (see rec_fd_link()) */
	bool fdpaths;
	struct fdreg *fdregs;     /* the view's RBR_FDPATH regions, its own
				     phase first */
	size_t nfdregs, afdregs;
	struct intmap procfds;    /* pid -> struct intmap * of its descriptors
				     (fd -> struct fdent *) */
	struct strbuf link;       /* rec_fd_link()'s answer */
	/* -Y: the command of each task (tid -> char *) */
	struct intmap comms;
	/* the call being decoded (rec_fd_link(), rec_task_comm()) */
	pid_t cur_pid;
	long cur_nr;
	const uint64_t *cur_args;
	int64_t cur_ret;
	bool cur_exit;
	struct intmap procs;      /* pid -> struct rproc * (stacks) */
	struct intern paths;      /* the mapped files' paths */
	uint64_t gen;             /* last modtab.gen given */
};

/* What a process's descriptor referred to when a call last named it
 * (malloc'ed; fp.pathlen unused). */
struct fdent {
	struct rb_fdpath fp;      /* its record (the proto and socket details) */
	char text[];              /* what readlink() says (fdpath_text()) */
};

/* A descriptor's path as the kernel recorded it with the call. */
struct fdreg {
	int32_t fd;               /* (AT_FDCWD: the working directory) */
	unsigned phase;           /* RBR_ENTRY, RBR_EXIT */
	const struct rb_fdpath *fp;  /* then RB_FILEREF_PATH bytes of path */
};

/* ---- descriptors and commands (-y, -P, -Y) ------------------------------ */

#ifndef PIPEFS_MAGIC
#define PIPEFS_MAGIC 0x50495045
#endif
#ifndef SOCKFS_MAGIC
#define SOCKFS_MAGIC 0x534F434B
#endif
#ifndef ANON_INODE_FS_MAGIC
#define ANON_INODE_FS_MAGIC 0x09041934
#endif
#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif
#ifndef PID_FS_MAGIC
#define PID_FS_MAGIC 0x50494446
#endif

/* Appends the path whose components the kernel wrote leaf first (each
 * NUL-terminated, comp[0..end)), from the root down. */
static void add_components(struct strbuf *path, const char *comp, size_t end)
{
	while (end > 0) {
		size_t start = end - 1;
		while (start > 0 && comp[start - 1])
			start--;
		strbuf_addch(path, '/');
		strbuf_add(path, comp + start, strnlen(comp + start, end - start));
		end = start;
	}
}

/* What readlink(/proc/PID/fd/N) says of the descriptor fp recorded (the
 * kernel's d_path(): a pseudo file's name, else the path up through the
 * mounts, " (deleted)" when unlinked), into sb. */
static void fdpath_text(const struct rb_fdpath *fp, struct strbuf *sb)
{
	const char *comp = (const char *)(fp + 1);
	size_t end = fp->pathlen < RB_FILEREF_PATH ? fp->pathlen : RB_FILEREF_PATH;
	char name[sizeof(fp->name) + 1];

	memcpy(name, fp->name, sizeof(fp->name));
	name[sizeof(fp->name)] = '\0';
	strbuf_reset(sb);
	switch (fp->magic) {
	case PIPEFS_MAGIC:
		strbuf_addf(sb, "pipe:[%llu]", (unsigned long long)fp->ino);
		return;
	case SOCKFS_MAGIC:
		strbuf_addf(sb, "socket:[%llu]", (unsigned long long)fp->ino);
		return;
	case ANON_INODE_FS_MAGIC:
		strbuf_addf(sb, "anon_inode:%s", name);
		return;
	case PID_FS_MAGIC:
		strbuf_addstr(sb, "anon_inode:[pidfd]");
		return;
	case NSFS_MAGIC:
		strbuf_addf(sb, "%s:[%llu]", name, (unsigned long long)fp->ino);
		return;
	}
	add_components(sb, comp, end);
	if (!sb->len)
		strbuf_addch(sb, '/');
	if (fp->flags & RBP_DELETED)
		strbuf_addstr(sb, " (deleted)");
}

/* The descriptors of process pid as recorded so far (NULL: none known). */
static struct intmap *procfds_get(struct recorder *rc, pid_t pid, bool make)
{
	uint64_t *v = make ? intmap_put(&rc->procfds, (uint64_t)pid, NULL)
			   : intmap_get(&rc->procfds, (uint64_t)pid);

	if (!v)
		return NULL;
	if (!*v) {
		struct intmap *m = xcalloc(1, sizeof(*m));
		*v = (uint64_t)(uintptr_t)m;
	}
	return (struct intmap *)(uintptr_t)*v;
}

static bool free_entry(uint64_t key, uint64_t val, void *arg)
{
	(void)key;
	(void)arg;
	free((char *)(uintptr_t)val);
	return true;
}

static void fds_free(struct intmap *m)
{
	if (!m)
		return;
	intmap_del_if(m, free_entry, NULL);
	intmap_release(m);
	free(m);
}

static void procfds_del(struct recorder *rc, pid_t pid)
{
	struct intmap *m = procfds_get(rc, pid, false);

	fds_free(m);
	intmap_del(&rc->procfds, (uint64_t)pid);
}

static void procfds_release(struct recorder *rc)
{
	for (uint32_t i = 0; ; ) {
		uint64_t k, v;

		if (!intmap_next(&rc->procfds, &i, &k, &v))
			break;
		fds_free((struct intmap *)(uintptr_t)v);
	}
	intmap_release(&rc->procfds);
}

/* A table entry of fp and text (text copied). */
static struct fdent *fdent_new(const struct rb_fdpath *fp, const char *text)
{
	size_t n = strlen(text);
	struct fdent *e = xmalloc(sizeof(*e) + n + 1);

	e->fp = *fp;
	memcpy(e->text, text, n + 1);
	return e;
}

/* A new process (a fork) starts with its creator's descriptors. */
static void procfds_fork(struct recorder *rc, pid_t parent, pid_t child)
{
	struct intmap *from = procfds_get(rc, parent, false), *to;

	if (!from || parent == child)
		return;
	procfds_del(rc, child);
	to = procfds_get(rc, child, true);
	/* (to was made after from was looked up: look it up again) */
	from = procfds_get(rc, parent, false);
	for (uint32_t i = 0; from; ) {
		uint64_t k, v;

		if (!intmap_next(from, &i, &k, &v))
			break;
		const struct fdent *e = (const void *)(uintptr_t)v;

		*intmap_put(to, k, NULL) = (uint64_t)(uintptr_t)fdent_new(&e->fp, e->text);
	}
}

void recorder_seed_fds(struct recorder *rc, pid_t pid, pid_t from)
{
	char dir[64], link[96], target[PATH_MAX], proto[32], info[64];
	struct intmap *m;
	struct dirent *de;
	DIR *d;

	if (!rc->fdpaths)
		return;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)from);
	if (!(d = opendir(dir)))
		return;
	m = procfds_get(rc, pid, true);
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);
		ssize_t n, pn;
		FILE *f;
		bool cloexec = false;
		struct rb_fdpath fp;
		uint64_t *v;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || intmap_get(m, (uint64_t)fd))
			continue;
		snprintf(link, sizeof(link), "/proc/%d/fdinfo/%d", (int)from, fd);
		if ((f = fopen(link, "re"))) {
			unsigned long flags;

			while (fgets(info, sizeof(info), f))
				if (sscanf(info, "flags: %lo", &flags) == 1)
					cloexec = flags & O_CLOEXEC;
			fclose(f);
		}
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)from, fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (cloexec || n <= 0)
			continue;
		target[n] = '\0';
		memset(&fp, 0, sizeof(fp));
		pn = getxattr(link, "system.sockprotoname", proto, sizeof(proto) - 1);
		if (pn > 0 && (size_t)pn < sizeof(fp.proto))
			memcpy(fp.proto, proto, (size_t)pn);
		v = intmap_put(m, (uint64_t)fd, NULL);
		*v = (uint64_t)(uintptr_t)fdent_new(&fp, target);
	}
	closedir(d);
}

/* Whether the call being decoded had fd recorded (its mask names it):
 * then no region of it means it was not open.  mask: the bits looked at. */
static bool fd_covered(const struct recorder *rc, int32_t fd, uint32_t mask)
{
	uint32_t m = capture_fdpath_mask(rc->cur_nr) & mask;

	if (!m || !rc->cur_args)
		return false;
	for (unsigned i = 0; i < 6; i++)
		if ((m & ((1u << i) | RBD_ENTRY(i))) && (int32_t)rc->cur_args[i] == fd)
			return true;
	return (m & RBD_RET) && rc->cur_exit && rc->cur_ret == fd;
}

/* out = what fp recorded, text its readlink() form. */
static void link_from(struct tmem_fdlink *out, const struct rb_fdpath *fp, const char *text)
{
	out->target = text;
	out->proto = fp->proto[0] && strnlen(fp->proto, sizeof(fp->proto)) < sizeof(fp->proto)
		     ? fp->proto : NULL;
	if (fp->family == AF_INET || fp->family == AF_INET6) {
		out->inet_known = true;
		out->inet_family = fp->family;
		out->inet_sport = fp->sport;
		out->inet_dport = fp->dport;
		out->inet_saddr = fp->saddr;
		out->inet_daddr = fp->daddr;
	}
	if (fp->family == AF_NETLINK) {
		out->nl_known = true;
		out->nl_proto = fp->sport;
		out->nl_portid = fp->peer;
	}
	if (fp->magic == PID_FS_MAGIC ||
	    (fp->magic == ANON_INODE_FS_MAGIC && !strncmp(fp->name, "[pidfd]", sizeof(fp->name)))) {
		out->pidfd_known = true;
		out->pidfd_pid = (int)fp->peer;
	}
	if (out->proto && !strncmp(out->proto, "UNIX", 4)) {
		out->unix_known = true;
		out->unix_peer = fp->peer;
		out->unix_path = fp->sun_path;
		out->unix_plen = fp->plen <= 108 ? fp->plen : 0;
	}
}

/*
 * The view's answer for descriptor fd (tmem_view.fd_link): the path the
 * kernel recorded with the call, else what the process's earlier calls
 * recorded (descriptors inside structures: poll's, select's), else
 * unknown (the live process is asked, if it is still there).
 */
static int rec_fd_link(void *data, pid_t tid, int64_t fd, struct tmem_fdlink *out)
{
	struct recorder *rc = data;
	/* at the entry, a descriptor the call replaces or closes is what
	 * it was before (an entry region), never what the call made of it */
	bool before = !rc->cur_exit && fd_covered(rc, (int32_t)fd, RBD_ENTRIES);
	struct intmap *m;
	uint64_t *v;

	(void)tid;
	for (size_t i = 0; i < rc->nfdregs; i++) {
		const struct rb_fdpath *fp = rc->fdregs[i].fp;

		if (rc->fdregs[i].fd != (int32_t)fd || (before && rc->fdregs[i].phase != RBR_ENTRY))
			continue;
		/* a path longer than the record holds: asked of the process */
		if (fp->flags & RBP_LONG)
			return -1;
		fdpath_text(fp, &rc->link);
		link_from(out, fp, rc->link.buf);
		return 1;
	}
	if (fd_covered(rc, (int32_t)fd, ~0u))
		return 0;
	m = procfds_get(rc, rc->cur_pid, false);
	if (m && fd >= 0 && (v = intmap_get(m, (uint64_t)fd))) {
		const struct fdent *e = (const void *)(uintptr_t)*v;

		link_from(out, &e->fp, e->text);
		return 1;
	}
	return -1;
}

/* The view's answer for the command of task tid (tmem_view.task_comm):
 * the one the kernel's fork and exec events gave it; none for a child
 * the call reaps (wait4's result). */
static int rec_task_comm(void *data, pid_t tid, const char **comm)
{
	struct recorder *rc = data;
	uint64_t *v;

	if (rc->cur_exit && rc->cur_ret == tid && rc->cur_ret > 0 &&
	    (sysent_sem(sysent_get(rc->cur_nr)) & SEM_WAIT))
		return 0;
	v = intmap_get(&rc->comms, (uint64_t)tid);
	if (!v)
		return -1;
	*comm = (const char *)(uintptr_t)*v;
	return 1;
}

void recorder_note_comm(struct recorder *rc, pid_t tid, const char *comm, size_t n)
{
	uint64_t *v;
	char *s;

	if (!rc->o->dopts.decode_pids)
		return;
	s = xmalloc(n + 1);
	memcpy(s, comm, n);
	s[n] = '\0';
	v = intmap_put(&rc->comms, (uint64_t)tid, NULL);
	free((char *)(uintptr_t)*v);
	*v = (uint64_t)(uintptr_t)s;
}

static void comm_del(struct recorder *rc, pid_t tid)
{
	uint64_t *v = intmap_get(&rc->comms, (uint64_t)tid);

	if (v) {
		free((char *)(uintptr_t)*v);
		intmap_del(&rc->comms, (uint64_t)tid);
	}
}

/* The call rec_fd_link() and rec_task_comm() answer for. */
static void cur_call(struct recorder *rc, pid_t pid, long nr, const uint64_t *args, int64_t ret,
		     bool exit)
{
	rc->cur_pid = pid;
	rc->cur_nr = nr;
	rc->cur_args = args;
	rc->cur_ret = ret;
	rc->cur_exit = exit;
}

struct range { int64_t lo, hi; };

static bool in_range(uint64_t key, uint64_t val, void *arg)
{
	const struct range *r = arg;

	if ((int64_t)key < r->lo || (int64_t)key > r->hi)
		return false;
	free((char *)(uintptr_t)val);
	return true;
}

static const struct rb_region *find_region(const uint8_t *data, size_t size, uint64_t addr,
					   const uint8_t **bytes);

/* -Y: the command a successful prctl(PR_SET_NAME) of task tid gave it,
 * from the name its record holds. */
static void set_name(struct recorder *rc, pid_t tid, const uint8_t *data, size_t size)
{
	const struct rb_call *h = (const void *)data;
	const struct rb_region *r;
	const uint8_t *b;

	if (h->args[0] != PR_SET_NAME || h->ret != 0 ||
	    !(r = find_region(data, size, h->args[1], &b)) || r->status != RBR_OK || !r->len)
		return;
	/* (the kernel keeps 15 bytes and a NUL) */
	recorder_note_comm(rc, tid, (const char *)b, strnlen((const char *)b, r->len < 15 ? r->len : 15));
}

/*
 * After call h of task t (record data, size bytes): its process's table
 * of descriptors learns what the call's descriptors refer to now (the
 * exit's regions) and forgets those it closed; a task it reaped has no
 * command any more.
 */
static void after_call(struct recorder *rc, const struct rtask *t, const uint8_t *data,
		       size_t size)
{
	const struct rb_call *h = (const void *)data;
	long nr = h->slot < RB_NR ? (long)h->slot : -1;
	uint32_t sem = sysent_sem(sysent_get(nr));
	bool done = !(h->flags & RBC_UNFINISHED);
	size_t off = sizeof(*h);
	struct intmap *m;

	if (rc->o->dopts.decode_pids && done && h->ret > 0 && (sem & SEM_WAIT))
		comm_del(rc, (pid_t)h->ret);
	if (rc->o->dopts.decode_pids && done && nr == SYS_prctl)
		set_name(rc, t->tid, data, size);
	if (!rc->fdpaths || nr < 0)
		return;
	m = procfds_get(rc, t->pid, true);
	if (done && h->ret == 0 && (sem & SEM_CLOSE)) {
		struct range r = { (int32_t)h->args[0], (int32_t)h->args[0] };
		intmap_del_if(m, in_range, &r);
	} else if (done && h->ret == 0 && (sem & SEM_CLOSE_RANGE)) {
		struct range r = { (int64_t)(uint32_t)h->args[0], (int64_t)(uint32_t)h->args[1] };
		intmap_del_if(m, in_range, &r);
	}
	for (unsigned i = 0; i < h->nregions; i++) {
		const struct rb_region *r = (const void *)(data + off);

		if (off + sizeof(*r) > size || rb_region_data(r) > size - off - sizeof(*r))
			return;
		if (r->kind == RBR_FDPATH && r->phase == RBR_EXIT && (int32_t)r->addr >= 0 &&
		    r->len >= sizeof(struct rb_fdpath) + RB_FILEREF_PATH) {
			const struct rb_fdpath *fp = (const void *)(data + off + sizeof(*r));
			uint64_t *v;

			if (fp->flags & RBP_LONG) {
				v = intmap_get(m, (uint64_t)(int32_t)r->addr);
				if (v) {
					free((void *)(uintptr_t)*v);
					intmap_del(m, (uint64_t)(int32_t)r->addr);
				}
				off += sizeof(*r) + ((rb_region_data(r) + 7) & ~7u);
				continue;
			}
			fdpath_text(fp, &rc->link);
			v = intmap_put(m, (uint64_t)(int32_t)r->addr, NULL);
			free((void *)(uintptr_t)*v);
			*v = (uint64_t)(uintptr_t)fdent_new(fp, rc->link.buf);
		}
		off += sizeof(*r) + ((rb_region_data(r) + 7) & ~7u);
	}
}

struct recorder *recorder_new(const struct tracer_opts *o, struct sink_list *sinks, uint64_t t0)
{
	struct recorder *rc = xcalloc(1, sizeof(*rc));

	rc->o = o;
	rc->sinks = sinks;
	rc->t0 = t0;
	rc->lamport = lamport_new();
	rc->view.fd = -1;
	strbuf_init(&rc->link, 0);
	rc->fdpaths = o->dopts.decode_fds || (o->quals && o->quals->paths);
	rc->view.fd_data = rc;
	if (rc->fdpaths)
		rc->view.fd_link = rec_fd_link;
	if (o->dopts.decode_pids)
		rc->view.task_comm = rec_task_comm;
	rc->all_status = (o->status_mask ? o->status_mask : STATUS_ALL) == STATUS_ALL;
	return rc;
}

/* The bytes of every RBDF_ZERO chunk (a page at most): never freed. */
static const uint8_t zero_page[4096];

/* Forgets the data chunks of t's call. */
static void data_clear(struct rtask *t)
{
	while (t->ndata) {
		const uint8_t *d = t->data[--t->ndata].data;

		if (d != zero_page)
			free((void *)d);
	}
}

static void modtab_put(struct modtab *m)
{
	if (m && !--m->ref)
		free(m);
}

static struct modtab *modtab_get(struct modtab *m)
{
	if (m)
		m->ref++;
	return m;
}

static void task_free(struct rtask *t)
{
	data_clear(t);
	free(t->data);
	modtab_put(t->stk_mods);
	free(t->stk);
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
	for (uint32_t i = 0; ; ) {
		uint64_t k, v;

		if (!intmap_next(&rc->tasks, &i, &k, &v))
			break;
		task_free((struct rtask *)(uintptr_t)v);
	}
	intmap_release(&rc->tasks);
	for (uint32_t i = 0; ; ) {
		uint64_t k, v;
		struct rproc *p;

		if (!intmap_next(&rc->procs, &i, &k, &v))
			break;
		p = (struct rproc *)(uintptr_t)v;
		modtab_put(p->cur);
		free(p);
	}
	intmap_release(&rc->procs);
	intern_release(&rc->paths);
	lamport_free(rc->lamport);
	arena_release(&rc->sigarena);
	while (rc->nlate)
		free(rc->late[--rc->nlate]);
	free(rc->late);
	free(rc->regs);
	free(rc->extra);
	free(rc->fdregs);
	procfds_release(rc);
	for (uint32_t i = 0; ; ) {
		uint64_t k, v;

		if (!intmap_next(&rc->comms, &i, &k, &v))
			break;
		free((char *)(uintptr_t)v);
	}
	intmap_release(&rc->comms);
	strbuf_release(&rc->link);
	free(rc);
}

/* ---- tasks ------------------------------------------------------------- */

static struct rtask *task_find(struct recorder *rc, pid_t tid)
{
	uint64_t *v = intmap_get(&rc->tasks, (uint32_t)tid);

	return v ? (struct rtask *)(uintptr_t)*v : NULL;
}

/* Files t under its tid. */
static void task_link(struct recorder *rc, struct rtask *t)
{
	*intmap_put(&rc->tasks, (uint32_t)t->tid, NULL) = (uintptr_t)t;
}

static struct rtask *task_get(struct recorder *rc, pid_t tid, pid_t pid)
{
	struct rtask *t = task_find(rc, tid);

	if (t) {
		t->pid = pid;
		return t;
	}
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	task_link(rc, t);
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
	pending_del(rc, t);
	if (task_find(rc, t->tid) == t)
		intmap_del(&rc->tasks, (uint32_t)t->tid);
}

/* ---- mappings (stacks) ------------------------------------------------ */

static struct rproc *proc_find(struct recorder *rc, pid_t pid, bool create)
{
	uint64_t *v = intmap_get(&rc->procs, (uint32_t)pid);
	struct rproc *p;

	if (v || !create)
		return v ? (struct rproc *)(uintptr_t)*v : NULL;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	*intmap_put(&rc->procs, (uint32_t)pid, NULL) = (uintptr_t)p;
	return p;
}

static void proc_drop(struct recorder *rc, pid_t pid)
{
	struct rproc *p = proc_find(rc, pid, false);

	if (p) {
		intmap_del(&rc->procs, (uint32_t)pid);
		modtab_put(p->cur);
		free(p);
	}
}

/* A new version of p's mappings: the current ones less those whose start
 * is in [lo, hi), plus add (may be NULL). */
static void maps_change(struct recorder *rc, struct rproc *p, uint64_t lo, uint64_t hi,
			const struct ev_module *add)
{
	size_t n = p->cur ? p->cur->n : 0, k = 0;
	struct modtab *m = xmalloc(sizeof(*m) + (n + 1) * sizeof(m->m[0]));

	m->ref = 1;
	m->gen = ++rc->gen;
	for (size_t i = 0; i < n; i++)
		if (!(p->cur->m[i].start >= lo && p->cur->m[i].start < hi))
			m->m[k++] = p->cur->m[i];
	m->n = k;
	if (add) {
		size_t i = 0;     /* (kept sorted by start) */
		while (i < m->n && m->m[i].start < add->start)
			i++;
		if (!(i < m->n && m->m[i].start == add->start)) {
			memmove(&m->m[i + 1], &m->m[i], (m->n - i) * sizeof(m->m[0]));
			m->m[i] = *add;
			m->n++;
		}
	}
	modtab_put(p->cur);
	p->cur = m;
}

/* An RB_EV_MAP record: p's mappings change. */
static void on_map(struct recorder *rc, const uint8_t *data, size_t size)
{
	const struct rb_map *r = (const void *)data;
	struct rproc *p;
	struct ev_module mod;
	struct strbuf path = STRBUF_INIT;
	const char *comp = (const char *)(r + 1);
	size_t end;

	if (size < sizeof(*r) || r->pathlen > size - sizeof(*r)) {
		rc->st.bad++;
		return;
	}
	p = proc_find(rc, (pid_t)r->pid, true);
	if (r->kind == RBM_UNMAP) {
		for (size_t i = 0; p->cur && i < p->cur->n; i++)
			if (p->cur->m[i].start >= r->start && p->cur->m[i].start < r->end) {
				maps_change(rc, p, r->start, r->end, NULL);
				break;
			}
		return;
	}
	if (r->kind == RBM_VDSO) {
		memset(&mod, 0, sizeof(mod));
		mod.start = r->start;
		mod.end = r->end;
		mod.path = intern_str(&rc->paths, intern_add(&rc->paths, "[vdso]", 6));
		maps_change(rc, p, r->start, r->end, &mod);
		return;
	}
	if (r->kind != RBM_EXEC || !r->pathlen)
		return;
	/* components from the root down: the last one first in the record */
	end = r->pathlen;
	add_components(&path, comp, end);
	memset(&mod, 0, sizeof(mod));
	mod.start = r->start;
	mod.end = r->end;
	mod.pgoff = r->pgoff;
	mod.dev = r->dev;
	mod.ino = r->ino;
	mod.path = intern_str(&rc->paths, intern_add(&rc->paths, path.buf, path.len));
	strbuf_release(&path);
	/* (a new mapping replaces those it covers) */
	maps_change(rc, p, r->start, r->end, &mod);
}

void recorder_fork(struct recorder *rc, pid_t pid, pid_t parent)
{
	struct rproc *pp = proc_find(rc, parent, false), *p;

	if (!pp || !pp->cur)
		return;
	p = proc_find(rc, pid, true);
	modtab_put(p->cur);
	p->cur = modtab_get(pp->cur);
	p->threads = 0;
	p->leader_gone = false;
}

static void emit(struct recorder *rc, struct event *ev);

/*
 * Keeps a process's mappings while any of its tasks lives: a thread may go
 * on after its leader exited (pthread_exit in main).
 */
static void proc_task_event(struct recorder *rc, const struct event *ev)
{
	struct rproc *p;

	if (ev->type == EV_PROC_START && ev->is_thread) {
		proc_find(rc, ev->pid, true)->threads++;
	} else if (ev->type == EV_PROC_EXIT && (p = proc_find(rc, ev->pid, false))) {
		if (ev->tid != ev->pid && p->threads)
			p->threads--;
		else if (ev->tid == ev->pid)
			p->leader_gone = true;
		if (p->leader_gone && !p->threads) {
			if (p->held) {
				struct event x = p->exit;

				p->held = false;
				emit(rc, &x);
			}
			proc_drop(rc, ev->pid);
		}
	}
}

/*
 * Whether ev, the end of a process's leader while threads of it live on
 * (exit_group: they die after it; pthread_exit in main), is kept to be
 * delivered after the last of them, where a ptrace tracer sees it (so
 * that the calls they die inside belong to a process not yet ended).
 */
static bool proc_hold_exit(struct recorder *rc, const struct event *ev)
{
	struct rproc *p;

	if (ev->type != EV_PROC_EXIT || ev->tid != ev->pid ||
	    !(p = proc_find(rc, ev->pid, false)) || !p->threads || p->held)
		return false;
	p->exit = *ev;
	p->held = true;
	p->leader_gone = true;
	return true;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = (*(struct rproc *const *)a)->pid, y = (*(struct rproc *const *)b)->pid;

	return (x > y) - (x < y);
}

void recorder_flush_exits(struct recorder *rc)
{
	struct rproc **held = NULL;
	size_t n = 0, alloc = 0;
	uint64_t k, v;

	/* (in the order of the pids: the map has none) */
	for (uint32_t i = 0; intmap_next(&rc->procs, &i, &k, &v); ) {
		struct rproc *p = (struct rproc *)(uintptr_t)v;

		if (p->held) {
			ALLOC_GROW(held, n + 1, alloc);
			held[n++] = p;
		}
	}
	if (n > 1)
		qsort(held, n, sizeof(*held), by_pid);
	for (size_t i = 0; i < n; i++) {
		struct event x = held[i]->exit;

		held[i]->held = false;
		emit(rc, &x);
	}
	free(held);
}

/* An RB_EV_STACK record: kept for its call, with the mappings of now. */
static void on_stack(struct recorder *rc, const uint8_t *data, size_t size)
{
	const struct rb_stack *k = (const void *)data;
	struct rtask *t;
	struct rproc *p;

	if (size < sizeof(*k) || k->len > size - sizeof(*k) || k->regs_len > sizeof(k->regs)) {
		rc->st.bad++;
		return;
	}
	t = task_get(rc, (pid_t)k->tid, (pid_t)k->pid);
	ALLOC_GROW(t->stk, size, t->stk_alloc);
	memcpy(t->stk, data, size);
	t->stk_len = size;
	p = proc_find(rc, (pid_t)k->pid, false);
	modtab_put(t->stk_mods);
	t->stk_mods = modtab_get(p ? p->cur : NULL);
}

/*
 * The stack taken at the entry of t's call h into *us (regs NULL: its
 * record was lost).  Returns false for a call that has none to show (the
 * execve starting the command, RBK_LAUNCH).
 */
static bool task_ustack(struct rtask *t, const struct rb_call *h, struct ev_ustack *us)
{
	const struct rb_stack *k = (const void *)t->stk;

	memset(us, 0, sizeof(*us));
	if (!t->stk_len || k->enter_ns != h->enter_ns)
		return true;
	if (k->flags & RBK_LAUNCH)
		return false;
	us->regs = k->regs;
	us->regs_len = k->regs_len;
	us->compat = k->compat;
	us->cut = k->flags & RBK_CUT;
	us->sp = k->sp;
	us->stack = t->stk + sizeof(*k);
	us->len = k->len;
	if (t->stk_mods) {
		us->mods = t->stk_mods->m;
		us->nmods = t->stk_mods->n;
		us->mods_gen = t->stk_mods->gen;
	}
	return true;
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
	/* (a netlink socket not bound when a ptrace tracer looks: its
	 * protocol unknown, as /proc/PID/net/netlink says then) */
	rc->view.sock_proto = fi.family == AF_NETLINK && fi.protocol == RB_NL_UNBOUND
			      ? -1 : fi.protocol;
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
		task_link(rc, t);
	}
	if (ev->type == EV_PROC_EXIT && !ev->last_nr && (t = task_find(rc, ev->tid)))
		ev->last_nr = t->last_nr;
	if (ev->type == EV_PROC_START && !ev->is_thread && rc->fdpaths) {
		/* (ppid is the creating thread) */
		struct rtask *p = task_find(rc, ev->ppid);
		procfds_fork(rc, p ? p->pid : ev->ppid, ev->pid);
	}
	if (ev->type == EV_EXEC) {
		struct rproc *p = proc_find(rc, ev->pid, false);

		/* (a thread's exec ended the leader: its end comes first) */
		if (p && p->held) {
			struct event x = p->exit;

			p->held = false;
			emit(rc, &x);
		}
		proc_drop(rc, ev->pid);        /* the new image's come next */
	}
	if (!proc_hold_exit(rc, ev))
		emit(rc, ev);
	proc_task_event(rc, ev);
	if (ev->type == EV_PROC_EXIT && ev->tid == ev->pid && rc->fdpaths)
		procfds_del(rc, ev->pid);
	/* a thread's /proc entry goes with it; a process's stays until its
	 * parent reaps it (after_call()) */
	if (ev->type == EV_PROC_EXIT && ev->tid != ev->pid)
		comm_del(rc, ev->tid);
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
	add_components(&path, comp, end);
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
static void late_read(struct recorder *rc, pid_t pid, pid_t tid, const struct rb_region *r,
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
	/* (the thread may be gone while its process lives on) */
	if (want)
		n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
	if (n < 0 && want && pid != tid) {
		tid = pid;
		n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
	}
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
		} else if (r->kind == RBR_FDPATH) {
			if (r->phase == phase &&
			    r->len >= sizeof(struct rb_fdpath) + RB_FILEREF_PATH) {
				ALLOC_GROW(rc->fdregs, rc->nfdregs + 1, rc->afdregs);
				rc->fdregs[rc->nfdregs].fd = (int32_t)r->addr;
				rc->fdregs[rc->nfdregs].phase = phase;
				rc->fdregs[rc->nfdregs++].fp = (const void *)(data + off + sizeof(*r));
			}
		} else if (r->phase == phase && r->status == RBR_FAULT_RO) {
			late_read(rc, (pid_t)h->pid, (pid_t)h->tid, r, data + off + sizeof(*r));
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

/* The view of the entry half (exit false) or the exit half of t's call
 * whose records are entry (may be NULL) and call (may be NULL): the
 * regions of its own phase first, then its data chunks (-e read=, -s). */
static void view_set(struct recorder *rc, const struct rtask *t, const uint8_t *entry,
		     size_t elen, const uint8_t *call, size_t clen, bool exit)
{
	rc->nregs = 0;
	rc->nfdregs = 0;
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
	/* (RB_EV_DATA chunks: view_find() takes a region that holds a read
	 * whole, or runs furthest) */
	for (size_t i = 0; i < t->ndata; i++) {
		ALLOC_GROW(rc->regs, rc->nregs + 1, rc->aregs);
		rc->regs[rc->nregs++] = t->data[i];
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
	cur_call(rc, t->pid, t->ev.nr, t->ev.raw, t->ev.retval, exiting);
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

/*
 * -e read=, -e write=: the dumps of t's call (quals_dumpio(), as the
 * ptrace engine), from its data chunks (the whole data) and its record.
 */
static void dump_call(struct recorder *rc, struct rtask *t, const uint8_t *entry,
		      const uint8_t *call, size_t clen)
{
	struct dctx ctx = { t->pid, t->tid, &t->arena, &rc->o->dopts, t->se, &t->ev };

	view_set(rc, t, entry, t->entry_len, call, clen, true);
	cur_call(rc, t->pid, t->ev.nr, t->ev.raw, t->ev.retval, true);
	quals_dumpio(rc->o->quals, &ctx, &t->ev);
	tmem_set_view(NULL);
}

/* An RB_EV_DATA chunk: kept for the call of its task that follows. */
static void on_data(struct recorder *rc, const uint8_t *data, size_t size)
{
	const struct rb_data *d = (const void *)data;
	struct rtask *t;
	struct tmem_region *r;
	uint8_t *copy;

	if (size < RB_DATA_HEAD || (size < sizeof(*d) && !(d->flags & RBDF_ZERO)) ||
	    d->len > ((d->flags & RBDF_ZERO) ? 4096 : RB_DATA_CHUNK)) {
		rc->st.bad++;
		return;
	}
	t = task_get(rc, (pid_t)d->tid, (pid_t)d->pid);
	if (d->flags & RBDF_ZERO) {
		copy = NULL;
	} else {
		copy = xmalloc(d->len ? d->len : 1);
		memcpy(copy, d->data, d->len);
	}
	ALLOC_GROW(t->data, t->ndata + 1, t->adata);
	r = &t->data[t->ndata++];
	r->addr = d->addr;
	r->data = copy ? copy : zero_page;
	r->len = d->len;
	r->fault = !d->len;
	r->more = false;
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
	/* -P: only calls that touch one of the paths (as at a ptrace entry:
	 * the recorded strings, and the descriptors as they were then) */
	if (q && q->paths) {
		uint64_t args[6];
		bool want;

		memcpy(args, h->args, sizeof(args));
		view_set(rc, t, entry, elen, call, clen, false);
		cur_call(rc, t->pid, nr, args, 0, false);
		want = quals_entry_wanted(q, t->pid, t->tid, nr, args);
		cur_call(rc, t->pid, nr, NULL, 0, false);
		tmem_set_view(NULL);
		if (!want)
			return;
	}
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
	t->entry_unread = false;
	if (rc->sinks->needs_args) {
		uint64_t unread = rc->view.gaps + rc->view.faults;

		view_set(rc, t, entry, elen, call, clen, false);
		t->dec_exit = decode(rc, t, h->slot, 0) == RVAL_EXIT;
		t->entry_unread = !call && rc->view.gaps + rc->view.faults != unread;
	}
	if (rc->o->enrich) {
		/* unwound from the stack taken at the entry; the execve that
		 * starts the command (no mapping of the process recorded, no
		 * stack) is not, as under ptrace */
		struct ev_ustack us;

		if (task_ustack(t, entry ? (const struct rb_call *)entry : h, &us)) {
			ev->ustack = &us;
			rc->o->enrich(rc->o->enrich_data, ev);
			ev->ustack = NULL;
		}
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
		/* input the entry half could not read from its record (a page
		 * the call itself faulted in, read late from a task already
		 * gone): decoded again with the exit record's copy, for the
		 * call the sinks keep (its entry line may have shown before) */
		if (t->entry_unread && entry) {
			t->ev.nargs = 0;
			t->ev.endpoint = NULL;
			view_set(rc, t, entry, t->entry_len, call, clen, false);
			t->dec_exit = decode(rc, t, h->slot, 0) == RVAL_EXIT;
		}
		if (t->dec_exit) {
			view_set(rc, t, entry, t->entry_len, call, clen, true);
			decode(rc, t, h->slot, 1);
		}
		if (rc->o->quals && (rc->o->quals->read_fds || rc->o->quals->write_fds))
			dump_call(rc, t, entry, call, clen);
	}
	if (rc->o->enrich)
		rc->o->enrich(rc->o->enrich_data, ev);
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
	data_clear(t);
	after_call(rc, t, data, size);
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
	/* (an empty view: -Y names si_pid as the task was then) */
	rc->nregs = rc->nfdregs = 0;
	rc->view.r = rc->regs;
	rc->view.n = 0;
	rc->view.fd = -1;
	cur_call(rc, t->pid, -1, NULL, 0, false);
	tmem_set_view(&rc->view);
	decode_siginfo_val(&ctx, v, &si);
	tmem_set_view(NULL);
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

	if (size >= sizeof(uint32_t) && h->type == RB_EV_STACK) {
		on_stack(rc, data, size);
		return;
	}
	if (size >= sizeof(uint32_t) && h->type == RB_EV_MAP) {
		on_map(rc, data, size);
		return;
	}
	if (size >= sizeof(struct rb_signal) && h->type == RB_EV_SIGNAL) {
		on_signal(rc, data, size);
		return;
	}
	if (size >= RB_DATA_HEAD && h->type == RB_EV_DATA) {
		on_data(rc, data, size);
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
