/* A run's stacks and timeline from its saved trace (see runview.h). */
#include "report/runview.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "golden/model.h"
#include "replay/reader.h"
#include "sink/sink.h"
#include "track/track.h"
#include "util/intern.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Deepest chain of programs put under a stack. */
#define MAX_CHAIN 64

struct rvsink {
	struct sink base;
	struct runview *v;
	const struct runview_opts *o;
	struct intern names;     /* programs and syscall names */
	struct rv_task *t;       /* by tracker index */
	size_t nt, at;
	uint32_t first_name;     /* the command's base name */
	uint64_t last_ns;
	const char *chain[MAX_CHAIN];
};

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s && s[1] ? s + 1 : p && *p ? p : "?";
}

static uint32_t name_id(struct rvsink *s, const char *n)
{
	return intern_add(&s->names, n, strlen(n));
}

/* The task of ev (made when new), or NULL without the tracker. */
static struct rv_task *task(struct rvsink *s, const struct event *ev)
{
	const struct ttask *tt = ev->task;
	struct rv_task *t;

	if (!tt)
		return NULL;
	if (tt->idx >= s->at) {
		size_t old = s->at;
		s->at = s->at ? s->at * 2 : 64;
		while (s->at <= tt->idx)
			s->at *= 2;
		s->t = xreallocarray(s->t, s->at, sizeof(*s->t));
		memset(s->t + old, 0, (s->at - old) * sizeof(*s->t));
	}
	if (tt->idx >= s->nt) {
		for (size_t i = s->nt; i <= tt->idx; i++) {
			s->t[i].parent = -1;
			s->t[i].name_id = UINT32_MAX;
		}
		s->nt = tt->idx + 1;
	}
	t = &s->t[tt->idx];
	if (!t->ncalls && !t->start_ns && !t->end_ns && !t->tid) {
		t->start_ns = ev->ts_ns;
		t->end_ns = ev->ts_ns;
	}
	t->pid = ev->pid;
	t->tid = ev->tid;
	/* linkage can come after the first event (a clone's result) */
	if (t->parent < 0 && tt->parent >= 0) {
		t->parent = tt->parent;
		t->ordinal = tt->ordinal;
	}
	t->thread = tt->is_thread;
	t->proc = tt->proc;
	if (t->name_id == UINT32_MAX) {
		if (tt->idx == 0)
			t->name_id = s->first_name;
		else if (tt->parent >= 0 && (size_t)tt->parent < s->nt)
			t->name_id = s->t[s->t[tt->parent].proc].name_id;
	}
	if (ev->ts_ns < t->start_ns)
		t->start_ns = ev->ts_ns;
	if (ev->ts_ns > t->end_ns)
		t->end_ns = ev->ts_ns;
	if (ev->ts_ns > s->last_ns)
		s->last_ns = ev->ts_ns;
	return t;
}

/* The name of a task's process. */
static const char *proc_name(struct rvsink *s, const struct rv_task *t)
{
	uint32_t id = t->proc < s->nt ? s->t[t->proc].name_id : t->name_id;
	return id == UINT32_MAX ? "?" : intern_str(&s->names, id);
}

/* Keeps call ev among t's longest. */
static void add_wait(struct rvsink *s, struct rv_task *t, const struct event *ev, uint64_t dur)
{
	size_t i = t->nwaits;

	if (i == RV_WAITS && t->waits[i - 1].dur_ns >= dur)
		return;
	if (i == RV_WAITS)
		i--;
	else
		t->nwaits++;
	while (i > 0 && t->waits[i - 1].dur_ns < dur) {
		t->waits[i] = t->waits[i - 1];
		i--;
	}
	t->waits[i].ts_ns = ev->ts_ns;
	t->waits[i].dur_ns = dur;
	t->waits[i].name = NULL;
	/* an id: the table's strings move as it grows */
	t->waits[i].name_id = name_id(s, ev->name ? ev->name : "?");
}

static void on_syscall(struct rvsink *s, const struct event *ev)
{
	struct rv_task *t = task(s, ev);
	uint64_t dur = ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0;
	size_t n = 0;

	s->v->ncalls++;
	if (ev->nframes || ev->source)
		s->v->own_frames = true;
	if (t) {
		t->ncalls++;
		t->call_ns += dur;
		if (ev->end_ns > t->end_ns)
			t->end_ns = ev->end_ns;
		add_wait(s, t, ev, dur);
		/* no name is added to the table from here to profile_add_under:
		 * the chain points into it */
		if (!s->o->no_programs) {
			/* the programs, the command's first */
			const struct rv_task *p = t;
			for (size_t k = 0; k < MAX_CHAIN; k++) {
				s->chain[n++] = proc_name(s, p);
				p = &s->t[p->proc];
				if (p->parent < 0 || (size_t)p->parent >= s->nt)
					break;
				p = &s->t[p->parent];
			}
			for (size_t a = 0, b = n ? n - 1 : 0; a < b; a++, b--) {
				const char *x = s->chain[a];
				s->chain[a] = s->chain[b];
				s->chain[b] = x;
			}
		}
	}
	if (ev->end_ns > s->last_ns)
		s->last_ns = ev->end_ns;
	profile_add_under(s->v->stacks, ev, n ? s->chain : NULL, n);
}

static void rv_event(struct sink *sk, const struct event *ev)
{
	struct rvsink *s = (struct rvsink *)sk;
	struct rv_task *t;

	switch (ev->type) {
	case EV_SYSCALL:
		on_syscall(s, ev);
		break;
	case EV_EXEC:
		if ((t = task(s, ev))) {
			uint32_t id = name_id(s, base_name(ev->exec_path));
			t->name_id = id;
			if (t->proc < s->nt)
				s->t[t->proc].name_id = id;
		}
		break;
	case EV_PROC_START:
	case EV_SIGNAL:
		task(s, ev);
		break;
	case EV_DETACH:
	case EV_PROC_EXIT:
		task(s, ev);
		break;
	default:
		break;
	}
}

static void rv_proc_exit(struct sink *sk, const struct event *ev)
{
	task((struct rvsink *)sk, ev);
}

static int rv_begin(struct sink *sk, const struct trace_info *ti)
{
	struct rvsink *s = (struct rvsink *)sk;
	struct strbuf sb = STRBUF_INIT;

	s->first_name = name_id(s, ti->argv && ti->argv[0] ? base_name(ti->argv[0]) : "?");
	for (size_t i = 0; ti->argv && ti->argv[i]; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, ti->argv[i]);
	}
	if (sb.len && !s->v->command)
		s->v->command = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	return 0;
}

static int rv_end(struct sink *sk, const struct trace_end *te)
{
	struct rvsink *s = (struct rvsink *)sk;

	s->v->wall_ns = te && te->wall_ns ? te->wall_ns : s->last_ns;
	return 0;
}

static void rv_free(struct sink *sk)
{
	(void)sk;   /* owned by runview_load */
}

static const struct sink_ops rv_ops = {
	.name = "runview",
	.needs_track = 1,
	.begin = rv_begin,
	.event = rv_event,
	.proc_exit = rv_proc_exit,
	.end = rv_end,
	.free = rv_free,
};

/* Labels as the golden model makes them (model.c make_label). */
static void make_label(struct rvsink *s, size_t i, unsigned *orphan)
{
	struct rv_task *t = &s->t[i];
	struct strbuf sb = STRBUF_INIT;
	int32_t base;

	if (t->label)
		return;
	if (i == 0) {
		t->label = xstrdup("1");
		return;
	}
	if (t->parent < 0 || (size_t)t->parent >= s->nt) {
		strbuf_addf(&sb, "?%u", ++*orphan);
		t->label = strbuf_detach(&sb, NULL);
		return;
	}
	base = t->parent;
	if (!t->thread)
		while (base >= 0 && s->t[base].thread && s->t[base].parent >= 0)
			base = s->t[base].parent;
	make_label(s, (size_t)base, orphan);
	strbuf_addstr(&sb, s->t[base].label);
	strbuf_addstr(&sb, t->thread && !s->t[base].thread ? "/t" : ".");
	strbuf_add_u64(&sb, t->ordinal);
	t->label = strbuf_detach(&sb, NULL);
}

static int task_cmp(const void *a, const void *b)
{
	return gproc_label_cmp(((const struct rv_task *)a)->label, ((const struct rv_task *)b)->label);
}

int runview_load(const char *path, const struct runview_opts *o, struct runview **out)
{
	static const struct runview_opts dflt;
	struct rvsink s;
	struct sink_list sl = SINK_LIST_INIT;
	struct trace_limits lim;
	struct runview *v = xcalloc(1, sizeof(*v));
	unsigned orphan = 0;
	int ret;

	memset(&s, 0, sizeof(s));
	s.base.ops = &rv_ops;
	s.v = v;
	s.o = o ? o : &dflt;
	v->stacks = profile_new();
	lim.string_bytes = s.o->string_bytes;
	lim.records = s.o->records;
	sink_list_add(&sl, &s.base);
	ret = trace_read_limited(path, &sl, NULL, NULL, &lim);
	sink_list_release(&sl);
	if (ret < 0) {
		for (size_t i = 0; i < s.nt; i++)
			free(s.t[i].label);
		free(s.t);
		intern_release(&s.names);
		runview_free(v);
		*out = NULL;
		return -1;
	}
	for (size_t i = 0; i < s.nt; i++)
		make_label(&s, i, &orphan);
	v->tasks = xcalloc(s.nt + 1, sizeof(*v->tasks));
	for (size_t i = 0; i < s.nt; i++) {
		struct rv_task *t = &s.t[i];
		if (!t->tid && !t->ncalls) {
			free(t->label);
			continue;
		}
		t->name = xstrdup(t->name_id == UINT32_MAX ? "?" : intern_str(&s.names, t->name_id));
		/* the syscall names of the waits outlive the sink's table */
		for (size_t k = 0; k < t->nwaits; k++)
			t->waits[k].name = xstrdup(intern_str(&s.names, t->waits[k].name_id));
		v->tasks[v->ntasks++] = *t;
	}
	QSORT(v->tasks, v->ntasks, task_cmp);
	if (!v->wall_ns)
		v->wall_ns = s.last_ns;
	free(s.t);
	intern_release(&s.names);
	*out = v;
	return 0;
}

void runview_free(struct runview *v)
{
	if (!v)
		return;
	profile_free(v->stacks);
	for (size_t i = 0; i < v->ntasks; i++) {
		free(v->tasks[i].label);
		free(v->tasks[i].name);
		for (size_t k = 0; k < v->tasks[i].nwaits; k++)
			free((char *)v->tasks[i].waits[k].name);
	}
	free(v->tasks);
	free(v->command);
	free(v);
}

static bool is_file(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISREG(st.st_mode);
}

char *runview_stacks_path(const char *path)
{
	/* a golden, or a pending update of one (NAME_source.json.new goes with it) */
	static const char *const exts[] = { ".json.zst.new", ".json.new", ".json.zst", ".json" };
	size_t l = strlen(path);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s.stacks", path);
	if (is_file(sb.buf))
		return strbuf_detach(&sb, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++) {
		size_t e = strlen(exts[i]);

		if (l <= e || strcmp(path + l - e, exts[i]))
			continue;
		strbuf_reset(&sb);
		strbuf_add(&sb, path, l - e);
		if (sb.len > 7 && !strcmp(sb.buf + sb.len - 7, "_source"))
			break;
		strbuf_addstr(&sb, i < 2 ? "_source.json.new" : "_source.json");
		if (is_file(sb.buf))
			return strbuf_detach(&sb, NULL);
		break;
	}
	strbuf_release(&sb);
	return xstrdup(path);
}
