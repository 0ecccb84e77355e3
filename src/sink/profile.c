/*
 * The stack tree of the program's own frames under its syscalls, and the
 * reports made from it (see profile.h): the --function-time table, the
 * JSON function_profile, folded stacks.  The SVG is in flamesvg.c,
 * speedscope's format in speedscope.c and the sink in profsink.c: they use
 * this file, never the other way round.
 */
#include "sink/profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sink/sinkout.h"
#include "sink/srcloc.h"
#include "util/arena.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Syscalls that move data or wait for it to reach storage: "I/O". */
static const char *const io_calls[] = {
	"copy_file_range", "fdatasync", "fsync", "pread64", "preadv", "preadv2", "pwrite64",
	"pwritev", "pwritev2", "read", "readv", "recvfrom", "recvmmsg", "recvmsg", "sendfile",
	"sendmmsg", "sendmsg", "sendto", "splice", "sync", "sync_file_range", "syncfs", "tee",
	"vmsplice", "write", "writev",
};
#define SLOW_IO_NS 1000000u      /* "slow I/O": over 1 ms */
#define TOP_FUNCTIONS 25
#define TOP_PATHS 10
#define TOP_EDGES 15

/* A function of the table: the frame that made calls. */
struct fstat {
	const char *name, *file;
	uint64_t calls, ns, io, slow_io;
	struct fstat *next;      /* hash chain */
};

/* A caller -> callee edge. */
struct edge {
	const char *caller, *callee;
	uint64_t calls, ns;
	struct edge *next;
};

#define NHASH 4096

struct profile {
	struct arena arena;      /* nodes, rows, interned strings */
	const char **strs;       /* interned strings, open addressing */
	size_t nstrs, used;
	struct pnode root;
	uint32_t nnodes;
	uint64_t calls, ns;
	struct fstat *fn[NHASH];
	size_t nfn;
	struct edge *edges[NHASH];
	size_t nedges;
	struct strbuf tmp;
	const struct pnode **path;   /* scratch: a stack being added */
	size_t apath;
};

static uint32_t hash_bytes(const char *s, size_t n, uint32_t h)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* The interned copy of s[0..n) (stable for the profile's life). */
static const char *intern(struct profile *p, const char *s, size_t n)
{
	size_t i;

	if ((p->used + 1) * 2 > p->nstrs) {
		const char **old = p->strs;
		size_t oldn = p->nstrs;
		p->nstrs = oldn ? oldn * 2 : 1024;
		p->strs = xcalloc(p->nstrs, sizeof(*p->strs));
		for (size_t j = 0; j < oldn; j++) {
			if (!old[j])
				continue;
			i = hash_bytes(old[j], strlen(old[j]), 2166136261u) & (p->nstrs - 1);
			while (p->strs[i])
				i = (i + 1) & (p->nstrs - 1);
			p->strs[i] = old[j];
		}
		free(old);
	}
	i = hash_bytes(s, n, 2166136261u) & (p->nstrs - 1);
	for (; p->strs[i]; i = (i + 1) & (p->nstrs - 1))
		if (!strncmp(p->strs[i], s, n) && !p->strs[i][n])
			return p->strs[i];
	p->strs[i] = arena_strndup(&p->arena, s, n);
	p->used++;
	return p->strs[i];
}

struct profile *profile_new(void)
{
	struct profile *p = xcalloc(1, sizeof(*p));

	strbuf_init(&p->tmp, 256);
	p->nnodes = 1;
	return p;
}

static bool is_io(const char *name)
{
	size_t lo = 0, hi = ARRAY_SIZE(io_calls);

	while (name && lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, io_calls[mid]);
		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/* The child of parent called name (interned), made when new. */
static struct pnode *child(struct profile *p, struct pnode *parent, const char *name,
			   const char *file)
{
	struct pnode *c, **pp;

	/* one node per name: folded stacks know names only */
	for (pp = &parent->child; (c = *pp); pp = &c->next)
		if (c->name == name) {
			/* move to front: a stack repeats its last path */
			*pp = c->next;
			c->next = parent->child;
			parent->child = c;
			return c;
		}
	c = arena_calloc(&p->arena, sizeof(*c));
	c->name = name;
	c->file = file;
	c->parent = parent;
	c->id = p->nnodes++;
	c->depth = parent->depth + 1;
	c->next = parent->child;
	parent->child = c;
	return c;
}

/* A frame's name as the profile shows it (';' would split a folded line). */
static const char *frame_key(struct profile *p, const struct frame *f)
{
	strbuf_reset(&p->tmp);
	frame_name(&p->tmp, f);
	for (size_t i = 0; i < p->tmp.len; i++)
		if (p->tmp.buf[i] == ';' || p->tmp.buf[i] == '\n')
			p->tmp.buf[i] = ':';
	return intern(p, p->tmp.buf, p->tmp.len);
}

static const char *bracketed(struct profile *p, const char *s)
{
	const char *b = s ? strrchr(s, '/') : NULL;

	strbuf_reset(&p->tmp);
	strbuf_addch(&p->tmp, '[');
	strbuf_addstr(&p->tmp, b && b[1] ? b + 1 : s ? s : "unknown");
	strbuf_addch(&p->tmp, ']');
	return intern(p, p->tmp.buf, p->tmp.len);
}

static void add_function(struct profile *p, const char *name, const char *file, uint64_t ns,
			 bool io)
{
	uint32_t h = hash_bytes(name, strlen(name), 2166136261u);
	struct fstat *f;

	if (file)
		h = hash_bytes(file, strlen(file), h);
	for (f = p->fn[h % NHASH]; f; f = f->next)
		if (f->name == name && f->file == file)
			break;
	if (!f) {
		f = arena_calloc(&p->arena, sizeof(*f));
		f->name = name;
		f->file = file;
		f->next = p->fn[h % NHASH];
		p->fn[h % NHASH] = f;
		p->nfn++;
	}
	f->calls++;
	f->ns += ns;
	if (io) {
		f->io++;
		if (ns > SLOW_IO_NS)
			f->slow_io++;
	}
}

static void add_edge(struct profile *p, const char *caller, const char *callee, uint64_t ns)
{
	uint32_t h = hash_bytes(caller, strlen(caller), 2166136261u);
	struct edge *e;

	h = hash_bytes(callee, strlen(callee), h);
	for (e = p->edges[h % NHASH]; e; e = e->next)
		if (e->caller == caller && e->callee == callee)
			break;
	if (!e) {
		e = arena_calloc(&p->arena, sizeof(*e));
		e->caller = caller;
		e->callee = callee;
		e->next = p->edges[h % NHASH];
		p->edges[h % NHASH] = e;
		p->nedges++;
	}
	e->calls++;
	e->ns += ns;
}

/* A frame name made safe for folded lines (';' and newlines would split one). */
static const char *safe_key(struct profile *p, const char *s, size_t len)
{
	strbuf_reset(&p->tmp);
	strbuf_add(&p->tmp, s, len);
	for (size_t i = 0; i < p->tmp.len; i++)
		if (p->tmp.buf[i] == ';' || p->tmp.buf[i] == '\n')
			p->tmp.buf[i] = ':';
	return intern(p, p->tmp.buf, p->tmp.len);
}

const struct pnode *profile_add_under(struct profile *p, const struct event *ev,
				      const char *const *prefix, size_t npre)
{
	uint64_t ns;
	struct pnode *n = &p->root;
	const char *fname = NULL, *ffile = NULL;
	size_t depth = 0;
	bool io;

	if (ev->type != EV_SYSCALL)
		return NULL;
	ns = ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0;
	io = is_io(ev->name);
	p->calls++;
	p->ns += ns;
	n->calls++;
	n->ns += ns;
	for (size_t i = 0; i < npre; i++) {
		n = child(p, n, safe_key(p, prefix[i], strlen(prefix[i])), NULL);
		n->calls++;
		n->ns += ns;
	}
	/* the own frames, outermost first */
	for (uint32_t i = ev->nframes; i-- > 0;) {
		const struct frame *f = &ev->frames[i];
		if (!(f->flags & FRAME_OWN))
			continue;
		n = child(p, n, frame_key(p, f), f->file ? intern(p, f->file, strlen(f->file)) : NULL);
		n->calls++;
		n->ns += ns;
		ALLOC_GROW(p->path, depth + 1, p->apath);
		p->path[depth++] = n;
	}
	if (!depth && ev->source) {
		/* a trace saved with -s and without -k: the frame that made it */
		const struct frame *f = ev->source;
		n = child(p, n, frame_key(p, f), f->file ? intern(p, f->file, strlen(f->file)) : NULL);
		n->calls++;
		n->ns += ns;
		ALLOC_GROW(p->path, depth + 1, p->apath);
		p->path[depth++] = n;
	} else if (!depth && (ev->nframes || !npre)) {
		const char *m = NULL;
		for (uint32_t i = 0; i < ev->nframes && !m; i++)
			m = ev->frames[i].module;
		n = child(p, n, bracketed(p, m), NULL);
		n->calls++;
		n->ns += ns;
		fname = n->name;
	}
	/* the function that made the call: -s's source, else the innermost own frame */
	if (ev->source) {
		fname = frame_key(p, ev->source);
		ffile = ev->source->file ? intern(p, ev->source->file, strlen(ev->source->file)) : NULL;
	} else if (depth) {
		fname = p->path[depth - 1]->name;
		ffile = p->path[depth - 1]->file;
	}
	if (fname)
		add_function(p, fname, ffile, ns, io);
	/* caller -> callee, each edge once per call (recursion repeats them) */
	for (size_t i = 1; i < depth; i++) {
		bool seen = false;
		for (size_t j = 1; j < i && !seen; j++)
			seen = p->path[j - 1]->name == p->path[i - 1]->name &&
			       p->path[j]->name == p->path[i]->name;
		if (!seen)
			add_edge(p, p->path[i - 1]->name, p->path[i]->name, ns);
	}
	/* the syscall itself is the leaf */
	strbuf_reset(&p->tmp);
	strbuf_addch(&p->tmp, '[');
	strbuf_addstr(&p->tmp, ev->name ? ev->name : "?");
	strbuf_addch(&p->tmp, ']');
	n = child(p, n, intern(p, p->tmp.buf, p->tmp.len), NULL);
	n->calls++;
	n->ns += ns;
	return n;
}

const struct pnode *profile_add(struct profile *p, const struct event *ev)
{
	return profile_add_under(p, ev, NULL, 0);
}

const struct pnode *profile_add_stack(struct profile *p, const char *const *names, size_t n,
				      uint64_t calls, uint64_t ns)
{
	struct pnode *node = &p->root;

	p->calls += calls;
	p->ns += ns;
	node->calls += calls;
	node->ns += ns;
	for (size_t i = 0; i < n; i++) {
		node = child(p, node, safe_key(p, names[i], strlen(names[i])), NULL);
		node->calls += calls;
		node->ns += ns;
	}
	return node;
}

const struct pnode *profile_root(const struct profile *p)
{
	return &p->root;
}

uint32_t profile_nodes(const struct profile *p)
{
	return p->nnodes;
}

/* ---- reports ---------------------------------------------------------- */

/* Every leaf (syscall node) under n, into *v. */
static void leaves(const struct pnode *n, const struct pnode ***v, size_t *nv, size_t *av)
{
	for (const struct pnode *c = n->child; c; c = c->next) {
		if (!c->child) {
			ALLOC_GROW(*v, *nv + 1, *av);
			(*v)[(*nv)++] = c;
		} else {
			leaves(c, v, nv, av);
		}
	}
}

static int node_by_time(const void *a, const void *b)
{
	const struct pnode *x = *(const struct pnode *const *)a, *y = *(const struct pnode *const *)b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int fn_by_time(const void *a, const void *b)
{
	const struct fstat *x = *(const struct fstat *const *)a, *y = *(const struct fstat *const *)b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int edge_by_time(const void *a, const void *b)
{
	const struct edge *x = *(const struct edge *const *)a, *y = *(const struct edge *const *)b;
	int c;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	c = strcmp(x->caller, y->caller);
	return c ? c : strcmp(x->callee, y->callee);
}

static struct fstat **fn_rows(const struct profile *p)
{
	struct fstat **v = xcalloc(p->nfn + 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < NHASH; i++)
		for (struct fstat *f = p->fn[i]; f; f = f->next)
			v[k++] = f;
	QSORT(v, k, fn_by_time);
	return v;
}

static struct edge **edge_rows(const struct profile *p)
{
	struct edge **v = xcalloc(p->nedges + 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < NHASH; i++)
		for (struct edge *e = p->edges[i]; e; e = e->next)
			v[k++] = e;
	QSORT(v, k, edge_by_time);
	return v;
}

/* The names from the root's child down to n, joined with sep. */
static void path_text(struct strbuf *sb, const struct pnode *n, const char *sep)
{
	if (!n->parent)
		return;
	if (n->parent->parent) {
		path_text(sb, n->parent, sep);
		strbuf_addstr(sb, sep);
	}
	strbuf_addstr(sb, n->name);
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void profile_table(const struct profile *p, struct strbuf *sb)
{
	struct fstat **fn = fn_rows(p);
	struct edge **ed = edge_rows(p);
	const struct pnode **lv = NULL;
	size_t nlv = 0, alv = 0;

	strbuf_addf(sb, "Function profile: %" PRIu64 " syscalls, %.3f ms, by the function of the"
		    " program that made them\n", p->calls, p->ns / 1e6);
	strbuf_addstr(sb, "  time (ms)      calls   avg (us)       I/O  slow I/O  function\n");
	for (size_t i = 0; i < p->nfn && i < TOP_FUNCTIONS; i++) {
		const struct fstat *f = fn[i];
		strbuf_addf(sb, "%11.3f %10" PRIu64 " %10.3f %9" PRIu64 " %9" PRIu64 "  %s",
			    f->ns / 1e6, f->calls, f->calls ? f->ns / 1e3 / (double)f->calls : 0.0,
			    f->io, f->slow_io, f->name);
		if (f->file)
			strbuf_addf(sb, " (%s)", f->file);
		strbuf_addch(sb, '\n');
	}
	if (p->nfn > TOP_FUNCTIONS)
		strbuf_addf(sb, "  ... %zu more (all of them in the JSON output's function_profile)\n",
			    p->nfn - TOP_FUNCTIONS);

	leaves(&p->root, &lv, &nlv, &alv);
	QSORT(lv, nlv, node_by_time);
	strbuf_addstr(sb, "\nHot paths (syscall time under each stack):\n");
	strbuf_addstr(sb, "   share  time (ms)      calls  path\n");
	for (size_t i = 0; i < nlv && i < TOP_PATHS; i++) {
		strbuf_addf(sb, "  %5.1f%% %10.3f %10" PRIu64 "  ", share(lv[i]->ns, p->ns),
			    lv[i]->ns / 1e6, lv[i]->calls);
		path_text(sb, lv[i], " > ");
		strbuf_addch(sb, '\n');
	}

	strbuf_addstr(sb, "\nCaller -> callee (syscall time under the call):\n");
	strbuf_addstr(sb, "  time (ms)      calls  edge\n");
	for (size_t i = 0; i < p->nedges && i < TOP_EDGES; i++)
		strbuf_addf(sb, "%11.3f %10" PRIu64 "  %s -> %s\n", ed[i]->ns / 1e6, ed[i]->calls,
			    ed[i]->caller, ed[i]->callee);
	if (!p->nedges)
		strbuf_addstr(sb, "  (none: no stack had two frames of the program's own)\n");
	free(lv);
	free(fn);
	free(ed);
}

/* The names from the root's child down to n as a JSON array. */
static void path_json(struct strbuf *sb, const struct pnode *n)
{
	if (!n->parent)
		return;
	if (n->parent->parent) {
		path_json(sb, n->parent);
		strbuf_addstr(sb, ", ");
	}
	strbuf_add_json_cstr(sb, n->name);
}

/* Before item i of a list: ", " on one line (JSON Lines), else a new line. */
static void item(struct strbuf *sb, size_t i, const char *type)
{
	if (i)
		strbuf_addch(sb, ',');
	strbuf_addstr(sb, type ? (i ? " " : "") : "\n    ");
}

/* After a list of n items. */
static void list_end(struct strbuf *sb, size_t n, const char *type)
{
	strbuf_addstr(sb, n && !type ? "\n  ]" : "]");
}

void profile_json(const struct profile *p, struct strbuf *sb, const char *type)
{
	struct fstat **fn = fn_rows(p);
	struct edge **ed = edge_rows(p);
	const struct pnode **lv = NULL;
	size_t nlv = 0, alv = 0;

	strbuf_addch(sb, '{');
	if (type) {
		strbuf_addstr(sb, "\"type\": ");
		strbuf_add_json_cstr(sb, type);
		strbuf_addstr(sb, ", ");
	}
	strbuf_addstr(sb, "\"total_syscalls\": ");
	strbuf_add_u64(sb, p->calls);
	strbuf_addstr(sb, ", \"total_us\": ");
	add_us(sb, p->ns);
	strbuf_addstr(sb, ", \"functions\": [");
	for (size_t i = 0; i < p->nfn; i++) {
		const struct fstat *f = fn[i];
		item(sb, i, type);
		strbuf_addstr(sb, "{\"function\": ");
		strbuf_add_json_cstr(sb, f->name);
		strbuf_addstr(sb, ", \"file\": ");
		strbuf_add_json_cstr(sb, f->file);
		strbuf_addstr(sb, ", \"calls\": ");
		strbuf_add_u64(sb, f->calls);
		strbuf_addstr(sb, ", \"total_us\": ");
		add_us(sb, f->ns);
		strbuf_addstr(sb, ", \"avg_us\": ");
		add_us(sb, f->calls ? f->ns / f->calls : 0);
		strbuf_addstr(sb, ", \"io_calls\": ");
		strbuf_add_u64(sb, f->io);
		strbuf_addstr(sb, ", \"slow_io_calls\": ");
		strbuf_add_u64(sb, f->slow_io);
		strbuf_addch(sb, '}');
	}
	list_end(sb, p->nfn, type);
	strbuf_addstr(sb, ", \"hot_paths\": [");
	leaves(&p->root, &lv, &nlv, &alv);
	QSORT(lv, nlv, node_by_time);
	for (size_t i = 0; i < nlv && i < TOP_PATHS; i++) {
		item(sb, i, type);
		strbuf_addstr(sb, "{\"stack\": [");
		path_json(sb, lv[i]);
		strbuf_addstr(sb, "], \"calls\": ");
		strbuf_add_u64(sb, lv[i]->calls);
		strbuf_addstr(sb, ", \"total_us\": ");
		add_us(sb, lv[i]->ns);
		strbuf_addf(sb, ", \"share\": %.4f}", p->ns ? (double)lv[i]->ns / (double)p->ns : 0.0);
	}
	list_end(sb, nlv, type);
	strbuf_addstr(sb, ", \"edges\": [");
	for (size_t i = 0; i < p->nedges; i++) {
		item(sb, i, type);
		strbuf_addstr(sb, "{\"caller\": ");
		strbuf_add_json_cstr(sb, ed[i]->caller);
		strbuf_addstr(sb, ", \"callee\": ");
		strbuf_add_json_cstr(sb, ed[i]->callee);
		strbuf_addstr(sb, ", \"calls\": ");
		strbuf_add_u64(sb, ed[i]->calls);
		strbuf_addstr(sb, ", \"total_us\": ");
		add_us(sb, ed[i]->ns);
		strbuf_addch(sb, '}');
	}
	list_end(sb, p->nedges, type);
	strbuf_addch(sb, '}');
	free(lv);
	free(fn);
	free(ed);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every node that calls end at (its own calls, not its children's), into *v. */
static void ends(const struct pnode *n, const struct pnode ***v, size_t *nv, size_t *av)
{
	uint64_t below = 0;

	for (const struct pnode *c = n->child; c; c = c->next) {
		below += c->calls;
		ends(c, v, nv, av);
	}
	if (n->parent && n->calls > below) {
		ALLOC_GROW(*v, *nv + 1, *av);
		(*v)[(*nv)++] = n;
	}
}

/* The calls and time that end at n itself. */
static void self_weight(const struct pnode *n, uint64_t *calls, uint64_t *ns)
{
	*calls = n->calls;
	*ns = n->ns;
	for (const struct pnode *c = n->child; c; c = c->next) {
		*calls -= c->calls <= *calls ? c->calls : *calls;
		*ns -= c->ns <= *ns ? c->ns : *ns;
	}
}

void profile_folded(const struct profile *p, struct strbuf *sb, bool count)
{
	const struct pnode **lv = NULL;
	size_t nlv = 0, alv = 0;
	char **lines;
	struct strbuf line = STRBUF_INIT;

	ends(&p->root, &lv, &nlv, &alv);
	lines = xcalloc(nlv + 1, sizeof(*lines));
	for (size_t i = 0; i < nlv; i++) {
		uint64_t calls, ns, w;
		self_weight(lv[i], &calls, &ns);
		w = count ? calls : (ns + 500) / 1000;
		strbuf_reset(&line);
		path_text(&line, lv[i], ";");
		strbuf_addch(&line, ' ');
		strbuf_add_u64(&line, w || !calls ? w : 1);
		lines[i] = xstrdup(line.buf);
	}
	QSORT(lines, nlv, str_cmp);
	for (size_t i = 0; i < nlv; i++) {
		strbuf_addstr(sb, lines[i]);
		strbuf_addch(sb, '\n');
		free(lines[i]);
	}
	free(lines);
	free(lv);
	strbuf_release(&line);
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	arena_release(&p->arena);
	free(p->strs);
	free(p->path);
	strbuf_release(&p->tmp);
	free(p);
}
