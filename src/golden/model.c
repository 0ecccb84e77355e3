/*
 * Building the golden trace model (see model.h): a sink turns each event
 * into a compact call record with a structurally normalized key; the
 * string-level normalization (paths, pids, user rules, ignore lists) runs
 * once per distinct key at gmodel_finalize().
 */
#include "golden/model.h"
#include "sink/srcloc.h"
#include "sys/sysent.h"
#include "sys/decode_extra.h"
#include "track/track.h"
#include "util/intmap.h"
#include "sink/env.h"
#include "sink/render.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

/* The I/O kind of what a descriptor refers to (enum fd_kind). */
static int gio_of(const struct tobj *o)
{
	switch (o ? o->kind : FDK_UNKNOWN) {
	case FDK_FILE: case FDK_DIR: return GK_FILE;
	case FDK_PIPE: return GK_PIPE;
	case FDK_SOCKET: return GK_SOCKET;
	case FDK_TTY: return GK_TTY;
	case FDK_DEVICE: return GK_DEVICE;
	default: return GK_OTHER;
	}
}

/* Errors whose occurrence depends on timing, not on behaviour. */
static bool volatile_errno(int e)
{
	return e == EAGAIN || e == EINTR || e == ETIMEDOUT || e == EINPROGRESS ||
	       e == EALREADY || (e >= 512 && e <= 516);
}

/* --- building state --- */

/* What the model adds to the semantics table, per syscall name id. */
enum {
	P_KNOWN = 1 << 0,       /* filled */
	P_IGNORED = 1 << 1,     /* in ignore_syscalls */
	P_VOLATILE = 1 << 2,    /* in volatile_syscalls (besides SEM_VOLATILE) */
};

/* A task of the trace (by the tracker's task idx). */
struct btask {
	bool seen;               /* an event of it arrived */
	int32_t parent;          /* creator task idx, -1 */
	uint32_t ordinal;        /* the tracker's (see struct ttask) */
	bool is_thread, exited;
	int exit_code, term_signal;
	uint32_t exe;            /* id in b->strs of the program (key text), UINT32_MAX */
	uint32_t argv;           /* id in b->strs of its argv (key text), UINT32_MAX */
	uint64_t io[GIO_NBUCKETS];
	uint64_t mem_peak;       /* its process's committed peak when last seen */
	uint64_t rss_kb;         /* VmHWM at its exit */
	struct gcall *calls;
	uint32_t ncalls, acalls;
	uint32_t *src;           /* per call: 1 + source id (gmodel.srcs), or NULL */
	uint32_t asrc;
	uint32_t nkept;          /* calls[0..nkept) one by one, the rest GC_AGG */
	struct gagg *agg;        /* per aggregate (index - nkept) */
	uint32_t aagg;
	struct intmap aggs;      /* raw key, name, flags, errno -> first aggregate */
};

struct build {
	const struct golden_opts *o;
	struct gmodel *m;
	struct sink sink;
	struct intern raw;       /* raw keys */
	uint8_t *props;          /* name id -> P_* */
	uint32_t aprops;
	struct btask *tasks;     /* by tracker task idx */
	uint32_t ntasks, atasks;
	struct intmap tids;      /* tid -> idx of its latest task */
	struct intern strs;      /* programs and argvs (key text) */
	struct intern rawres;    /* raw resources "<kind>\t<value>" */
	struct intern randoms;   /* basenames created with O_EXCL (mkstemp) */
	struct strbuf key, tmp;
	struct strbuf qp;        /* a quoted path or argv for add_res() */
	uint32_t asig;           /* capacity of m->sig_counts */
	uint64_t wall_ns;
	int exit_code, term_signal;
	bool ended;
	uint64_t kept, limit;    /* calls kept one by one, and how many may be */
};

/* The model's record of the task of ev (made on first sight). */
static struct btask *task_of(struct build *b, const struct event *ev)
{
	const struct ttask *tt = ev->task;
	uint32_t i = tt ? tt->idx : 0;
	struct btask *t;

	if (i >= b->atasks) {
		uint32_t n = b->atasks ? b->atasks * 2 : 64;
		while (n <= i)
			n *= 2;
		b->tasks = xreallocarray(b->tasks, n, sizeof(*b->tasks));
		memset(b->tasks + b->atasks, 0, (n - b->atasks) * sizeof(*b->tasks));
		for (uint32_t k = b->atasks; k < n; k++) {
			b->tasks[k].parent = -1;
			b->tasks[k].exe = b->tasks[k].argv = UINT32_MAX;
		}
		b->atasks = n;
	}
	if (i >= b->ntasks)
		b->ntasks = i + 1;
	t = &b->tasks[i];
	if (tt) {
		/* linkage can come after the first event (a clone's result) */
		if (!t->seen || (t->parent < 0 && tt->parent >= 0)) {
			t->parent = tt->parent;
			t->ordinal = tt->ordinal;
			t->is_thread = tt->is_thread;
			if (t->parent >= 0 && (uint32_t)t->parent < b->ntasks) {
				const struct btask *p = &b->tasks[t->parent];
				if (t->exe == UINT32_MAX)
					t->exe = p->exe;
				if (t->argv == UINT32_MAX)
					t->argv = p->argv;
			}
		}
		*intmap_put(&b->tids, (uint64_t)(uint32_t)tt->tid, NULL) = i;
		if (tt->mem && tt->mem->peak > t->mem_peak)
			t->mem_peak = tt->mem->peak;
	}
	t->seen = true;
	return t;
}

/* The task that leads the thread group of task i (i itself for a process). */
static int32_t leader_of(const struct build *b, int32_t i)
{
	while (i >= 0 && b->tasks[i].is_thread && b->tasks[i].parent >= 0)
		i = b->tasks[i].parent;
	return i;
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
	const char *base = p;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '/')
			base = p + i + 1;
	if (p + len - base >= 6)
		intern_add(&b->randoms, base, p + len - base);
}

/*
 * Whether a raw path matches an ignore_paths pattern, seen before
 * normalization: a pattern's leading $CWD, $HOME or $TMPDIR matches any
 * prefix here.  Used to leave descriptors of ignored files unnumbered.
 */
static bool raw_path_ignored(struct build *b, const char *p, size_t len)
{
	struct strbuf *sb = &b->tmp;
	if (!b->o->nignore_paths || !p)
		return false;
	strbuf_reset(sb);
	strbuf_add(sb, p, len);
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
		memset(b->props + b->aprops, 0, (n - b->aprops) * sizeof(*b->props));
		b->aprops = n;
	}
	if (!b->props[id]) {
		uint8_t pr = P_KNOWN;
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

/* A string as the key shows it: in quotes, escaped as strace does. */
static void add_quoted(struct strbuf *sb, const char *p, size_t len)
{
	render_quoted(sb, p, len, NULL);
}

/*
 * What a descriptor argument is in a key: the object it refers to, never
 * its number, so that reordering independent opens changes no key (docs/
 * golden.md).  0-2 as the command inherited them stay numbers.
 */
static void add_fd(struct strbuf *k, int64_t fd, const struct tobj *o)
{
	if (fd == -100) {
		strbuf_addstr(k, "AT_FDCWD");
		return;
	}
	if (fd < 0 || !o || ((o->flags & TOBJ_INHERITED) && (fd <= 2 || !o->path))) {
		strbuf_add_i64(k, fd);
		return;
	}
	strbuf_addch(k, '<');
	if (o->path) {
		add_quoted(k, o->path, strlen(o->path));
	} else {
		strbuf_addstr(k, fd_kind_name(o->kind));
		if (o->kind == FDK_SOCKET && o->peer) {
			strbuf_addch(k, ' ');
			strbuf_addstr(k, o->peer);
		}
	}
	strbuf_addch(k, '>');
}

/*
 * Any other argument in a key: what it means symbolically (flags, names,
 * modes, signal sets, NULL), or '_' for a number, an address, a buffer or
 * a structure, whose values change from run to run.  A symbolic value is
 * kept as it renders (its saved text when read back) when that is a name
 * or names ("O_RDONLY|O_CLOEXEC", "S_IFREG|0644", "SIGCHLD"); an unknown
 * value renders as a number and is dropped the same way live and replayed.
 */
static void add_other(struct strbuf *k, const struct val *v)
{
	static const struct render_opts ro = RENDER_OPTS_INIT;
	size_t at = k->len;

	if (v->kind == V_OP && val_unwrap(v) != v) {
		add_other(k, val_unwrap(v));   /* the value, not how it is shown */
		return;
	}
	switch (v->kind) {
	case V_FLAGS:
	case V_ENUM:
	case V_OP:
	case V_TEXT:
		break;
	case V_OCT:
		if (v->u) {
			if (v->text)
				strbuf_add(k, v->text, v->text_len);
			else
				val_render(k, v, &ro);
		} else {
			strbuf_addch(k, '_');
		}
		return;
	case V_SIGSET:
		if (v->text)
			strbuf_add(k, v->text, v->text_len);
		else
			val_render(k, v, &ro);
		return;
	case V_PTR:
		strbuf_addstr(k, v->u ? "_" : "NULL");
		return;
	case V_ARRAY:
		strbuf_addstr(k, v->c.n ? "_" : "[]");
		return;
	default:
		strbuf_addch(k, '_');
		return;
	}
	if (v->text)
		strbuf_add(k, v->text, v->text_len);
	else if (v->kind == V_TEXT)
		strbuf_add(k, v->s.p ? v->s.p : "", v->s.p ? v->s.len : 0);
	else if ((v->flags & VF_NOVAL) && v->x.sym)
		strbuf_addstr(k, v->x.sym);
	else
		val_render(k, v, &ro);
	if (!text_is_symbolic(k->buf + at, k->len - at)) {
		strbuf_setlen(k, at);
		strbuf_addch(k, '_');
	}
}

/* An argv argument: ["ls", "-l"] (a "..." item when it was cut). */
static bool add_argv(struct strbuf *k, const struct val *v)
{
	v = val_unwrap(v);
	if (!v || v->kind != V_ARRAY)
		return false;
	strbuf_addch(k, '[');
	for (uint32_t i = 0; i < v->c.n; i++) {
		const struct val *it = &v->c.items[i];
		if (i)
			strbuf_addstr(k, ", ");
		if (it->kind == V_STR)
			add_quoted(k, it->s.p, it->s.len);
		else
			strbuf_addch(k, '_');
	}
	if (v->flags & VF_MORE)
		strbuf_addstr(k, v->c.n ? ", ..." : "...");
	strbuf_addch(k, ']');
	return true;
}

/* The register index of displayed argument v of a call (its prototype
 * name), or -1. */
static int reg_of(const struct sysent *se, const struct val *v, unsigned shown)
{
	if (!se || !se->argnames)
		return shown < EVENT_MAX_ARGS ? (int)shown : -1;
	if (shown < se->nargs && v->name &&
	    (v->name == se->argnames[shown] || !strcmp(v->name, se->argnames[shown])))
		return (int)shown;
	for (unsigned i = 0; v->name && i < se->nargs; i++)
		if (!strcmp(v->name, se->argnames[i]))
			return (int)i;
	/* a trace that named it otherwise: by position */
	return shown < se->nargs ? (int)shown : -1;
}

/* -s: the call's source "src/x.c:41 in f" (sink/srcloc.h) as 1 + its id in
 * gmodel.srcs, 0 for none. */
static uint32_t source_id(struct build *b, const struct event *ev)
{
	if (!ev->source)
		return 0;
	strbuf_reset(&b->tmp);
	srcloc_render(&b->tmp, ev->source);
	return intern_add(&b->m->srcs, b->tmp.buf, b->tmp.len) + 1;
}

/* Keeps source id (source_id()) beside the task's last call (the array is
 * made at the first call that has one). */
static void add_source(struct btask *t, uint32_t id)
{
	if (!id && !t->src)
		return;
	if (t->asrc < t->acalls) {
		t->src = xreallocarray(t->src, t->acalls, sizeof(*t->src));
		memset(t->src + t->asrc, 0, (t->acalls - t->asrc) * sizeof(*t->src));
		t->asrc = t->acalls;
	}
	t->src[t->ncalls - 1] = id;
}

/*
 * Adds call c (source src) to the task: one by one while the model's budget
 * of calls (limits.sequence_calls) lasts, then into the aggregate of its
 * raw key, name, flags, errno and source, appended to the calls the first
 * time (GC_AGG).
 */
static void add_call(struct build *b, struct btask *t, struct gcall c, uint32_t src)
{
	uint64_t pack, *slot;
	uint32_t i;
	bool added;

	if (b->kept < b->limit) {
		b->kept++;
		t->nkept++;
		ALLOC_GROW(t->calls, t->ncalls + 1, t->acalls);
		t->calls[t->ncalls++] = c;
		add_source(t, src);
		return;
	}
	b->m->cut_calls++;
	c.flags |= GC_AGG;
	pack = (uint64_t)c.key << 32 | (uint64_t)c.sc << 16 | (uint64_t)c.flags << 8 | c.err;
	slot = intmap_put(&t->aggs, pack, &added);
	if (!added) {
		/* the aggregates of this pack, chained by source */
		for (i = (uint32_t)*slot; i != UINT32_MAX; i = t->agg[i - t->nkept].next)
			if ((t->src ? t->src[i] : 0) == src)
				break;
	} else {
		i = UINT32_MAX;
	}
	if (i == UINT32_MAX) {
		uint32_t head = added ? UINT32_MAX : (uint32_t)*slot;

		ALLOC_GROW(t->calls, t->ncalls + 1, t->acalls);
		ALLOC_GROW(t->agg, t->ncalls + 1 - t->nkept, t->aagg);
		i = t->ncalls;
		t->calls[t->ncalls++] = c;
		t->agg[i - t->nkept] = (struct gagg){ 0, 0, head };
		add_source(t, src);
		*slot = i;
	}
	t->agg[i - t->nkept].n++;
	t->agg[i - t->nkept].dur_us += c.dur_us;
}

/* What a call did, for the resources and processes of the trace. */
struct callinfo {
	const char *path[2];     /* its path arguments (raw bytes), in order */
	size_t plen[2];
	unsigned npaths;
	int path_reg[2];
	bool ignored_path;       /* an fd it returns opens an ignored file */
};

static void on_syscall(struct build *b, const struct event *ev)
{
	const char *name = ev->name ? ev->name : "?";
	const struct sysent *se = sysent_get(ev->nr);
	uint32_t sem = sysent_sem(se);
	uint16_t sc = name_id(b, name);
	uint8_t pr = b->props[sc];
	struct btask *t = task_of(b, ev);
	struct strbuf *k = &b->key;
	bool unfinished = ev->state == SC_UNFINISHED;
	bool failed = !unfinished && ev->err != 0;
	bool ignored = (pr & P_IGNORED) != 0, stream_in = false;
	int64_t ret = ev->retval, fd0 = -1;
	const struct tobj *o0 = NULL;
	int fd0_reg = -1;
	struct callinfo ci;
	unsigned kept_end;
	struct gcall c;

	memset(&ci, 0, sizeof(ci));
	strbuf_reset(k);
	strbuf_addstr(k, name);
	strbuf_addch(k, '(');
	kept_end = k->len;
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++) {
		const struct val *v = &ev->args[i];
		int reg = reg_of(se, v, i);
		uint8_t role = se && reg >= 0 && reg < se->nargs ? se->argrole[reg] : ROLE_NONE;
		size_t before;
		int64_t n;
		const char *p;
		size_t len;

		if (i)
			strbuf_addstr(k, ", ");
		before = k->len;
		switch (role) {
		case ROLE_FD:
		case ROLE_DIRFD:
			if (!ev_arg_int(ev, (unsigned)reg, &n)) {
				strbuf_addch(k, '_');
				break;
			}
			if (fd0_reg < 0) {
				fd0 = n;
				fd0_reg = reg;
				o0 = ev->fd_obj[reg];
			}
			if ((sem & SEM_DUP2) && reg == 1)
				strbuf_addstr(k, "newfd");   /* the number a dup2 chose */
			else
				add_fd(k, n, ev->fd_obj[reg]);
			break;
		case ROLE_PID:
			if (ev_arg_int(ev, (unsigned)reg, &n))
				add_pid_ref(k, n);
			else
				strbuf_addch(k, '_');
			break;
		case ROLE_PATH:
			if (v->kind == V_STR) {
				p = v->s.p ? v->s.p : "";
				len = v->s.p ? v->s.len : 0;
				add_quoted(k, p, len);
				if (ci.npaths < 2) {
					ci.path[ci.npaths] = p;
					ci.plen[ci.npaths] = len;
					ci.path_reg[ci.npaths++] = reg;
				}
			} else {
				add_other(k, v);
			}
			break;
		case ROLE_ARGV:
			if (!add_argv(k, v))
				add_other(k, v);
			break;
		case ROLE_SOCKADDR:
		case ROLE_MSGHDR:
			if ((sem & SEM_ENDPOINT) && ev->endpoint) {
				strbuf_addch(k, '{');
				strbuf_addstr(k, ev->endpoint);
				strbuf_addch(k, '}');
			} else {
				strbuf_addch(k, '_');
			}
			break;
		case ROLE_FDPAIR:
			strbuf_addstr(k, failed ? "[_]" : "[fd, fd]");
			break;
		default:
			add_other(k, v);
			break;
		}
		if (k->len > before + 1 || k->buf[before] != '_')
			kept_end = k->len;
	}
	strbuf_setlen(k, kept_end);   /* drop trailing "_" arguments */
	strbuf_addch(k, ')');

	/* reads of a stream: how many it takes depends on timing */
	if (se && se->io_in >= 0 && ev->fd_obj[se->io_in]) {
		int kind = ev->fd_obj[se->io_in]->kind;
		stream_in = kind == FDK_PIPE || kind == FDK_SOCKET || kind == FDK_TTY ||
			    kind == FDK_EVENTFD || kind == FDK_SIGNALFD || kind == FDK_TIMERFD ||
			    kind == FDK_INOTIFY;
	}
	/* calls on a descriptor of an ignored file are ignored too */
	if (o0 && o0->path && raw_path_ignored(b, o0->path, strlen(o0->path)))
		ignored = true;
	if ((sem & SEM_FDRET) && ci.npaths && raw_path_ignored(b, ci.path[0], ci.plen[0]))
		ignored = true;
	if (ev->ret_obj[0] && ev->ret_obj[0]->path &&
	    raw_path_ignored(b, ev->ret_obj[0]->path, strlen(ev->ret_obj[0]->path)))
		ignored = true;

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
	} else if (ev->ret_obj[0] && !(sem & SEM_FDPAIR)) {
		strbuf_addstr(k, ignored ? "_" : "fd");
	} else if ((sem & SEM_WAIT) && (sem & SEM_PIDRET) && ret > 0) {
		/* which child a wait for any child reaps depends on scheduling */
		int64_t n;
		if (ev_arg_int(ev, 0, &n) && n > 0)
			add_pid_ref(k, ret);
		else
			strbuf_addstr(k, "pid:child");
	} else if ((sem & SEM_PIDRET) && ret > 0) {
		add_pid_ref(k, ret);
	} else if (ret == 0) {
		strbuf_addch(k, '0');
	} else {
		strbuf_addstr(k, "ok");
	}

	/* bytes moved, by kind of file */
	if (!failed && !unfinished && ret > 0 && se && !ignored) {
		for (int side = 0; side < 2; side++) {
			int reg = side ? se->io_out : se->io_in;
			int64_t fd;
			if (reg < 0 || !ev_arg_int(ev, (unsigned)reg, &fd))
				continue;
			/* the standard streams the command was given carry its
			 * messages, whatever they are (a file, a pipe, a tty) */
			int kind = fd >= 0 && fd <= 2 && ev->fd_obj[reg] &&
					   (ev->fd_obj[reg]->flags & TOBJ_INHERITED)
					   ? GK_STDIO : gio_of(ev->fd_obj[reg]);
			t->io[GIO_BUCKET(kind, side)] += (uint64_t)ret;
		}
	}

	/* the record */
	memset(&c, 0, sizeof(c));
	c.sc = sc;
	c.key = intern_add(&b->raw, k->buf, k->len);
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
		if (!(sem & SEM_EXIT))
			c.flags |= GC_VOLATILE;
	}
	if ((sem & SEM_VOLATILE) || (pr & P_VOLATILE) || stream_in ||
	    (failed && volatile_errno(ev->err)))
		c.flags |= GC_VOLATILE;
	if (sem & SEM_MEM)
		c.flags |= GC_MEM;
	if (fd0_reg >= 0 && fd0 >= 0 && fd0 <= 2 && o0 && (o0->flags & TOBJ_INHERITED))
		c.flags |= (uint8_t)((fd0 + 1) << GC_STD_SHIFT);
	if (ignored)
		c.flags |= GC_IGNORED;
	add_call(b, t, c, source_id(b, ev));

	if (failed || unfinished || ignored)
		return;

	/* resources */
	if ((sem & SEM_OPEN) && ci.npaths) {
		bool creat = !strcmp(name, "creat");
		const struct val *fl = ev_arg(ev, (unsigned)(ci.path_reg[0] + 1));
		bool ocreat = val_has_flag(fl, O_CREAT, "O_CREAT");
		bool oexcl = val_has_flag(fl, O_EXCL, "O_EXCL");
		strbuf_reset(&b->qp);
		add_quoted(&b->qp, ci.path[0], ci.plen[0]);
		add_res(b, GR_OPEN, b->qp.buf, b->qp.len);
		if (ocreat || creat)
			add_res(b, GR_CREATE, b->qp.buf, b->qp.len);
		if (ocreat && oexcl)
			add_random(b, ci.path[0], ci.plen[0]);
	} else if ((sem & SEM_CREATE) && ci.npaths) {
		int64_t mode;
		strbuf_reset(&b->qp);
		add_quoted(&b->qp, ci.path[ci.npaths - 1], ci.plen[ci.npaths - 1]);
		add_res(b, GR_CREATE, b->qp.buf, b->qp.len);
		if ((sem & SEM_MKDIR) && ev_arg_int(ev, (unsigned)(ci.path_reg[0] + 1), &mode) &&
		    mode == 0700)
			add_random(b, ci.path[0], ci.plen[0]);     /* mkdtemp */
	} else if ((sem & SEM_DELETE) && ci.npaths) {
		strbuf_reset(&b->qp);
		add_quoted(&b->qp, ci.path[0], ci.plen[0]);
		add_res(b, GR_DELETE, b->qp.buf, b->qp.len);
	} else if ((sem & SEM_RENAME) && ci.npaths == 2) {
		strbuf_reset(&b->qp);
		add_quoted(&b->qp, ci.path[0], ci.plen[0]);
		add_res(b, GR_DELETE, b->qp.buf, b->qp.len);
		strbuf_reset(&b->qp);
		add_quoted(&b->qp, ci.path[1], ci.plen[1]);
		add_res(b, GR_CREATE, b->qp.buf, b->qp.len);
	} else if ((sem & SEM_EXEC) && ci.npaths) {
		/* the program and its argv, as in the key */
		const char *s = strchr(k->buf, '(') + 1, *e = strrchr(k->buf, ')');
		int ar = -1;
		add_res(b, GR_EXEC, s, e > s ? (size_t)(e - s) : 0);
		strbuf_reset(&b->qp);
		add_quoted(&b->qp, ci.path[0], ci.plen[0]);
		t->exe = intern_add(&b->strs, b->qp.buf, b->qp.len);
		for (int i = 0; se && i < se->nargs; i++)
			if (se->argrole[i] == ROLE_ARGV)
				ar = i;
		strbuf_reset(&b->qp);
		if (ar >= 0 && add_argv(&b->qp, ev_arg(ev, (unsigned)ar)))
			t->argv = intern_add(&b->strs, b->qp.buf, b->qp.len);
	}
	if ((sem & SEM_ENDPOINT) && ev->endpoint)
		add_res(b, GR_ENDPOINT, ev->endpoint, strlen(ev->endpoint));
}

static void on_exit_ev(struct build *b, const struct event *ev)
{
	struct btask *t = task_of(b, ev);

	if (ev->type == EV_PROC_EXIT) {
		t->exited = true;
		t->exit_code = ev->exit_code;
		t->term_signal = ev->term_signal;
		t->rss_kb = ev->max_rss_kb;
	}
}

static void on_exec(struct build *b, const struct event *ev)
{
	struct btask *t = task_of(b, ev);
	if (ev->exec_path) {
		struct strbuf *sb = &b->tmp;
		strbuf_reset(sb);
		add_quoted(sb, ev->exec_path, strlen(ev->exec_path));
		t->exe = intern_add(&b->strs, sb->buf, sb->len);
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
	task_of(b, ev);
}

/* --- the sink --- */

static struct build *sink_build(struct sink *s)
{
	return (struct build *)((char *)s - offsetof(struct build, sink));
}

static int mb_begin(struct sink *s, const struct trace_info *ti)
{
	struct build *b = sink_build(s);
	if (ti && ti->env && !b->m->has_env) {
		trace_env_copy(&b->m->env, ti->env);
		b->m->has_env = true;
	}
	if (ti && ti->argv && !b->m->command) {
		struct strbuf sb = STRBUF_INIT;
		size_t n = 0;
		while (ti->argv[n])
			n++;
		b->m->argv = xcalloc(n + 1, sizeof(*b->m->argv));
		for (size_t i = 0; i < n; i++) {
			if (i)
				strbuf_addch(&sb, ' ');
			strbuf_addstr(&sb, ti->argv[i]);
			b->m->argv[i] = xstrdup(ti->argv[i]);
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
		task_of(b, ev);
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
	.needs_track = 1,
};

struct gmodel *gmodel_new(const struct golden_opts *o)
{
	struct gmodel *m = xcalloc(1, sizeof(*m));
	struct build *b = xcalloc(1, sizeof(*b));

	b->o = o;
	b->m = m;
	b->limit = o && o->sequence_calls ? o->sequence_calls : GOLDEN_SEQUENCE_CALLS;
	b->sink.ops = &model_ops;
	strbuf_init(&b->key, 256);
	strbuf_init(&b->tmp, 256);
	strbuf_init(&b->qp, 256);
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
	uint64_t *i = intmap_get(&nc->b->tids, (uint64_t)(uint32_t)tid);
	return i ? nc->task_labels[*i] : NULL;
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
		if (t->mem_peak > gr->mem_peak)
			gr->mem_peak = t->mem_peak;
		if (t->rss_kb > gr->rss_kb)
			gr->rss_kb = t->rss_kb;
		for (uint32_t j = 0; j < p->ncalls; j++) {
			const struct gcall *c = &p->calls[j];
			if (!(c->flags & (GC_VOLATILE | GC_IGNORED)))
				gr->counts[c->sc] += (uint32_t)gcall_n(p, j);
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
		p->nkept = t->nkept;
		p->agg = t->agg;
		t->agg = NULL;
		p->seq = xmalloc((p->nkept + 1) * sizeof(*p->seq));
		p->seq_idx = xmalloc((p->nkept + 1) * sizeof(*p->seq_idx));
		for (uint32_t j = 0; j < p->ncalls; j++) {
			struct gcall *c = &p->calls[j];
			struct gsc_stat *st = &m->sc[c->sc];
			uint64_t n = gcall_n(p, j);
			if (ignored[c->key])
				c->flags |= GC_IGNORED;
			c->key = remap[c->key];
			st->calls += n;
			st->time_us += gcall_dur(p, j);
			if (c->flags & GC_FAILED)
				st->errors += n;
			if (c->flags & (GC_VOLATILE | GC_IGNORED))
				continue;
			st->stable += n;
			if (c->flags & GC_FAILED)
				st->stable_errors += n;
			if (c->flags & GC_AGG)
				continue;
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
		free(b->tasks[i].agg);
		intmap_release(&b->tasks[i].aggs);
	}
	free(b->tasks);
	intmap_release(&b->tids);
	free(b->props);
	intern_release(&b->raw);
	intern_release(&b->strs);
	intern_release(&b->rawres);
	intern_release(&b->randoms);
	strbuf_release(&b->key);
	strbuf_release(&b->tmp);
	strbuf_release(&b->qp);
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
		free(m->procs[i].agg);
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
	for (size_t i = 0; m->argv && m->argv[i]; i++)
		free(m->argv[i]);
	free(m->argv);
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
		n += (size_t)m->procs[i].ncalls * (sizeof(struct gcall) + 8) +
		     (size_t)(m->procs[i].ncalls - m->procs[i].nkept) * sizeof(struct gagg);
	return n;
}

/* --- what varied between runs (golden/variation.h) --- */

static int vcalls_cmp(const void *a, const void *b)
{
	return strcmp(((const struct gvar_calls *)a)->name, ((const struct gvar_calls *)b)->name);
}

static int var_proc_cmp(const void *a, const void *b)
{
	return gproc_label_cmp(((const struct gvar_proc *)a)->label,
			       ((const struct gvar_proc *)b)->label);
}

/* Widens r by value v against the reference value ref. */
static void widen(struct grange *r, uint64_t v, uint64_t ref)
{
	int64_t d = (int64_t)v - (int64_t)ref;
	if (d < r->lo)
		r->lo = d;
	if (d > r->hi)
		r->hi = d;
}

static bool varied(const struct grange *r)
{
	return r->lo || r->hi;
}

/* The count of name in process g of m (0 when absent). */
static uint64_t count_of(const struct gmodel *m, const struct ggroup *g, const char *name)
{
	uint32_t id;
	if (!g || (id = intern_find(&m->names, name, strlen(name))) == UINT32_MAX)
		return 0;
	return g->counts[id];
}

void gvar_from_models(struct gvar *v, struct gmodel *const *models, size_t n, size_t ref)
{
	const struct gmodel *rm = models[ref];
	struct intern labels = INTERN_INIT, names = INTERN_INIT;
	size_t aprocs = 0;

	memset(v, 0, sizeof(*v));
	v->runs = (int)n;
	for (size_t r = 0; r < n; r++)
		for (size_t g = 0; g < models[r]->ngroups; g++)
			intern_add(&labels, models[r]->groups[g].label,
				   strlen(models[r]->groups[g].label));
	for (uint32_t li = 0; li < labels.n; li++) {
		const char *label = intern_str(&labels, li);
		const struct ggroup *rg = gmodel_group(rm, label);
		struct gvar_proc p;
		size_t acalls = 0;

		memset(&p, 0, sizeof(p));
		intern_release(&names);
		for (size_t r = 0; r < n; r++) {
			const struct gmodel *m = models[r];
			const struct ggroup *g = gmodel_group(m, label);
			if (!g)
				continue;
			p.seen++;
			for (uint32_t k = 0; k < m->names.n; k++)
				if (g->counts[k])
					intern_add(&names, intern_str(&m->names, k),
						   intern_len(&m->names, k));
		}
		for (size_t r = 0; r < n; r++) {
			const struct gmodel *m = models[r];
			const struct ggroup *g = gmodel_group(m, label);
			widen(&p.threads, g ? g->nthreads : 0, rg ? rg->nthreads : 0);
			for (int b = 0; b < GIO_NBUCKETS; b++)
				widen(&p.io[b], g ? g->io[b] : 0, rg ? rg->io[b] : 0);
			if (g && rg) {
				widen(&p.mem, g->mem_peak, rg->mem_peak);
				if (g->rss_kb && rg->rss_kb)
					widen(&p.rss, g->rss_kb, rg->rss_kb);
			}
		}
		for (uint32_t k = 0; k < names.n; k++) {
			const char *nm = intern_str(&names, k);
			struct grange cr = { 0, 0 };
			for (size_t r = 0; r < n; r++)
				widen(&cr, count_of(models[r], gmodel_group(models[r], label), nm),
				      count_of(rm, rg, nm));
			if (!varied(&cr))
				continue;
			ALLOC_GROW(p.calls, p.ncalls + 1, acalls);
			p.calls[p.ncalls].name = xstrdup(nm);
			p.calls[p.ncalls++].r = cr;
		}
		QSORT(p.calls, p.ncalls, vcalls_cmp);
		p.label = xstrdup(label);
		ALLOC_GROW(v->procs, v->nprocs + 1, aprocs);
		v->procs[v->nprocs++] = p;
	}
	QSORT(v->procs, v->nprocs, var_proc_cmp);
	intern_release(&labels);
	intern_release(&names);
}


