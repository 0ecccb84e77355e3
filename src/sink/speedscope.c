/*
 * speedscope's JSON file format (see profile.h): one evented profile per
 * thread.  Each syscall opens the frames of its stack (the program's own
 * frames, outermost first, then "[syscall]") at its entry and closes them
 * at its exit, so the timeline shows when the program was in the kernel
 * and for which code; the frames are shared between threads.
 */
#include "sink/speedscope.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sink/sinkout.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "util/banned.h"

struct scall {
	uint64_t ts, end;        /* ns since the trace began */
	const struct pnode *leaf;
};

struct sthread {
	pid_t pid, tid;
	struct scall *calls;
	size_t n, alloc;
	struct sthread *next;    /* hash chain */
};

struct sproc {
	pid_t pid;
	char *name;              /* the program it last executed (base name) */
	struct sproc *next;
};

#define NB 1024

struct speedscope {
	struct sthread *buckets[NB];
	struct sthread **order;  /* in order of appearance */
	size_t nthreads, athreads;
	struct sproc *procs[NB];
};

struct speedscope *speedscope_new(void)
{
	return xcalloc(1, sizeof(struct speedscope));
}

static struct sthread *thread(struct speedscope *s, pid_t pid, pid_t tid)
{
	struct sthread **pp = &s->buckets[(unsigned)tid % NB], *t;

	for (t = *pp; t; t = t->next)
		if (t->tid == tid && t->pid == pid)
			return t;
	t = xcalloc(1, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->next = *pp;
	*pp = t;
	ALLOC_GROW(s->order, s->nthreads + 1, s->athreads);
	s->order[s->nthreads++] = t;
	return t;
}

static struct sproc *proc(struct speedscope *s, pid_t pid)
{
	struct sproc **pp = &s->procs[(unsigned)pid % NB], *p;

	for (p = *pp; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->next = *pp;
	*pp = p;
	return p;
}

void speedscope_add(struct speedscope *s, const struct event *ev, const struct pnode *leaf)
{
	struct sthread *t;
	struct scall *c;
	uint64_t ts = ev->ts_ns, end = ev->end_ns;

	if (!leaf)
		return;
	t = thread(s, ev->pid, ev->tid);
	/* a thread makes one call at a time: keep its calls in order */
	if (t->n && ts < t->calls[t->n - 1].end)
		ts = t->calls[t->n - 1].end;
	if (end < ts)
		end = ts;
	ALLOC_GROW(t->calls, t->n + 1, t->alloc);
	c = &t->calls[t->n++];
	c->ts = ts;
	c->end = end;
	c->leaf = leaf;
}

void speedscope_proc(struct speedscope *s, const struct event *ev)
{
	struct sproc *p;
	const char *b;

	if (ev->type != EV_EXEC || !ev->exec_path)
		return;
	p = proc(s, ev->pid);
	b = strrchr(ev->exec_path, '/');
	free(p->name);
	p->name = xstrdup(b && b[1] ? b + 1 : ev->exec_path);
}

/* Frame index of every node (by id): one frame per distinct name and file. */
struct frames {
	uint32_t *of;            /* node id -> frame index */
	const struct pnode **first;   /* frame index -> a node with it */
	uint32_t n;
	uint32_t *slots;         /* open addressing: frame index + 1 */
	size_t nslots;
};

static size_t slot_of(const struct frames *f, const char *name, const char *file)
{
	uintptr_t h = ((uintptr_t)name >> 4) * 0x9e3779b97f4a7c15ull ^ (uintptr_t)file;
	size_t i = (size_t)(h ^ (h >> 29)) & (f->nslots - 1);

	while (f->slots[i]) {
		const struct pnode *x = f->first[f->slots[i] - 1];
		if (x->name == name && x->file == file)
			break;
		i = (i + 1) & (f->nslots - 1);
	}
	return i;
}

static void number(const struct pnode *nd, struct frames *f)
{
	for (const struct pnode *c = nd->child; c; c = c->next) {
		size_t i = slot_of(f, c->name, c->file);
		if (!f->slots[i]) {
			f->first[f->n++] = c;
			f->slots[i] = f->n;
		}
		f->of[c->id] = f->slots[i] - 1;
		number(c, f);
	}
}

/* Microseconds with three decimals, as the trace formats write them. */
static void at(struct strbuf *sb, uint64_t ns)
{
	add_us(sb, ns);
}

int speedscope_write(struct speedscope *s, const struct profile *p, FILE *out, const char *title)
{
	struct frames f;
	struct strbuf sb = STRBUF_INIT;
	const struct pnode **path = NULL;
	size_t apath = 0;
	uint32_t nn = profile_nodes(p);
	int ret = 0;

	f.of = xcalloc(nn, sizeof(*f.of));
	f.first = xcalloc(nn, sizeof(*f.first));
	f.n = 0;
	for (f.nslots = 64; f.nslots < 2 * (size_t)nn; f.nslots *= 2)
		;
	f.slots = xcalloc(f.nslots, sizeof(*f.slots));
	number(profile_root(p), &f);

	strbuf_addstr(&sb, "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\",\n");
	strbuf_addstr(&sb, " \"name\": ");
	strbuf_add_json_cstr(&sb, title && *title ? title : "renacer");
	strbuf_addstr(&sb, ",\n \"exporter\": \"renacer " RENACER_VERSION "\",\n \"activeProfileIndex\": 0,\n");
	strbuf_addstr(&sb, " \"shared\": {\"frames\": [");
	for (uint32_t k = 0; k < f.n; k++) {
		strbuf_addstr(&sb, k ? ",\n  " : "\n  ");
		strbuf_addstr(&sb, "{\"name\": ");
		strbuf_add_json_cstr(&sb, f.first[k]->name);
		if (f.first[k]->file) {
			strbuf_addstr(&sb, ", \"file\": ");
			strbuf_add_json_cstr(&sb, f.first[k]->file);
		}
		strbuf_addch(&sb, '}');
	}
	strbuf_addstr(&sb, f.n ? "\n ]},\n \"profiles\": [" : "]},\n \"profiles\": [");
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_reset(&sb);
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct sthread *t = s->order[i];
		struct sproc *pr = proc(s, t->pid);

		strbuf_addstr(&sb, i ? ",\n  " : "\n  ");
		strbuf_addstr(&sb, "{\"type\": \"evented\", \"name\": ");
		{
			struct strbuf nm = STRBUF_INIT;
			if (t->tid == t->pid)
				strbuf_addf(&nm, "pid %d", (int)t->pid);
			else
				strbuf_addf(&nm, "pid %d, thread %d", (int)t->pid, (int)t->tid);
			if (pr->name)
				strbuf_addf(&nm, " (%s)", pr->name);
			strbuf_add_json_cstr(&sb, nm.buf);
			strbuf_release(&nm);
		}
		strbuf_addstr(&sb, ", \"unit\": \"microseconds\", \"startValue\": ");
		at(&sb, t->n ? t->calls[0].ts : 0);
		strbuf_addstr(&sb, ", \"endValue\": ");
		at(&sb, t->n ? t->calls[t->n - 1].end : 0);
		strbuf_addstr(&sb, ", \"events\": [");
		for (size_t j = 0; j < t->n; j++) {
			size_t depth = 0;
			for (const struct pnode *nd = t->calls[j].leaf; nd && nd->parent; nd = nd->parent) {
				ALLOC_GROW(path, depth + 1, apath);
				path[depth++] = nd;
			}
			for (size_t k = depth; k-- > 0;) {
				strbuf_addstr(&sb, j || k + 1 < depth ? ",\n   " : "\n   ");
				strbuf_addf(&sb, "{\"type\": \"O\", \"frame\": %u, \"at\": ", f.of[path[k]->id]);
				at(&sb, t->calls[j].ts);
				strbuf_addch(&sb, '}');
			}
			for (size_t k = 0; k < depth; k++) {
				strbuf_addf(&sb, ",\n   {\"type\": \"C\", \"frame\": %u, \"at\": ", f.of[path[k]->id]);
				at(&sb, t->calls[j].end);
				strbuf_addch(&sb, '}');
			}
			if (sb.len > 65536) {
				fwrite(sb.buf, 1, sb.len, out);
				strbuf_reset(&sb);
			}
		}
		strbuf_addstr(&sb, t->n ? "\n  ]}" : "]}");
	}
	strbuf_addstr(&sb, s->nthreads ? "\n ]\n}\n" : "]\n}\n");
	fwrite(sb.buf, 1, sb.len, out);
	if (ferror(out))
		ret = error("cannot write the speedscope profile: %s", strerror(errno ? errno : EIO));
	strbuf_release(&sb);
	free(path);
	free(f.of);
	free(f.first);
	free(f.slots);
	return ret;
}

void speedscope_free(struct speedscope *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nthreads; i++) {
		free(s->order[i]->calls);
		free(s->order[i]);
	}
	free(s->order);
	for (size_t i = 0; i < NB; i++)
		while (s->procs[i]) {
			struct sproc *p = s->procs[i];
			s->procs[i] = p->next;
			free(p->name);
			free(p);
		}
	free(s);
}
