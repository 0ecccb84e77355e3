/* Output plumbing, counts and JSON records shared by json/jsonl/csv/summary. */
#include "sink/sinkout.h"
#include "sys/decode_extra.h"
#include "sys/sysent.h"
#include "track/track.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/utf8.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sink/render.h"

#include "util/banned.h"

int sinkout_open(struct sinkout *o, FILE *out, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (path) {
		if (atomicfile_open(&o->af, path) < 0)
			return -1;
		o->fp = o->af.fp;
		o->atomic = true;
		o->name = xstrdup(path);
	} else {
		o->fp = out;
		o->name = xstrdup(out == stdout ? "<stdout>" : out == stderr ? "<stderr>" : "<output>");
	}
	return 0;
}

int sinkout_open_append(struct sinkout *o, const char *path)
{
	char buf[65536];
	FILE *old;
	size_t n;
	int ret = 0;

	if (sinkout_open(o, NULL, path) < 0)
		return -1;
	if (!o->af.tmp)
		return 0;       /* not a regular file: written in place */
	old = fopen(path, "re");
	if (!old) {
		if (errno == ENOENT)
			return 0;
		ret = error("cannot read '%s': %s", esc(path), strerror(errno));
		goto out;
	}
	while ((n = fread(buf, 1, sizeof(buf), old)) > 0)
		fwrite(buf, 1, n, o->fp);
	if (ferror(old))
		ret = error("cannot read '%s': %s", esc(path), strerror(errno ? errno : EIO));
	fclose(old);
out:
	if (ret < 0)
		sinkout_abort(o);
	return ret;
}

int sinkout_open_pipe(struct sinkout *o, const char *command)
{
	int fds[2];
	pid_t pid;

	memset(o, 0, sizeof(*o));
	if (pipe2(fds, O_CLOEXEC) < 0)
		return error("cannot create a pipe for '%s': %s", esc(command), strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error("cannot start '%s': %s", esc(command), strerror(errno));
	}
	if (pid == 0) {
		if (dup2(fds[0], 0) < 0)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	o->fp = fdopen(fds[1], "w");
	if (!o->fp) {
		close(fds[1]);
		waitpid(pid, NULL, 0);
		return error("cannot open a pipe to '%s': %s", esc(command), strerror(errno));
	}
	/* a reader that goes away must not kill renacer: the write fails */
	signal(SIGPIPE, SIG_IGN);
	o->pipe_pid = pid;
	o->name = xstrdup(command);
	return 0;
}

/* Closes the pipe of -o '|cmd' and waits for the command. */
static void close_pipe(struct sinkout *o)
{
	fclose(o->fp);
	/* the tracer's waitpid(-1) may have reaped it already: ECHILD */
	while (waitpid(o->pipe_pid, NULL, 0) < 0 && errno == EINTR)
		;
	o->pipe_pid = 0;
}

void sinkout_put(struct sinkout *o, struct strbuf *sb)
{
	if (sb->len && o->fp)
		fwrite(sb->buf, 1, sb->len, o->fp);
	strbuf_reset(sb);
}

int sinkout_close(struct sinkout *o)
{
	int ret = 0;

	if (!o->fp)
		goto out;
	if (o->atomic) {
		ret = atomicfile_commit(&o->af);
	} else if (o->pipe_pid) {
		if (fflush(o->fp) != 0 && errno != EPIPE)
			ret = error("cannot write to '%s': %s", esc(o->name), strerror(errno));
		close_pipe(o);
	} else if (fflush(o->fp) != 0 || ferror(o->fp)) {
		ret = error("cannot write to %s: %s", o->name,
			    strerror(errno ? errno : EIO));
		clearerr(o->fp);
	}
	o->fp = NULL;
out:
	free(o->name);
	o->name = NULL;
	return ret;
}

void sinkout_abort(struct sinkout *o)
{
	if (o->fp && o->atomic)
		atomicfile_abort(&o->af);
	else if (o->fp && o->pipe_pid)
		close_pipe(o);
	else if (o->fp)
		fflush(o->fp);
	o->fp = NULL;
	free(o->name);
	o->name = NULL;
}

/* --- counts --- */

void sc_counts_init(struct sc_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->tab = xcalloc(SC_COUNTS_NR, sizeof(*c->tab));
}

void sc_counts_release(struct sc_counts *c)
{
	if (c->tab)
		for (size_t i = 0; i < SC_COUNTS_NR; i++)
			free(c->tab[i].name);
	for (size_t i = 0; i < c->nextra; i++)
		free(c->extra[i].name);
	free(c->tab);
	free(c->extra);
	memset(c, 0, sizeof(*c));
}

static struct sc_count *sc_row(struct sc_counts *c, long nr, const char *name)
{
	struct sc_count *r;

	if (nr >= 0 && nr < SC_COUNTS_NR) {
		r = &c->tab[nr];
		if (!r->name) {
			r->name = xstrdup(name ? name : "?");
			r->nr = nr;
			r->min_ns = UINT64_MAX;
		}
		return r;
	}
	if (!name)
		name = "?";
	for (size_t i = 0; i < c->nextra; i++)
		if (!strcmp(c->extra[i].name, name))
			return &c->extra[i];
	ALLOC_GROW(c->extra, c->nextra + 1, c->aextra);
	r = &c->extra[c->nextra++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->nr = nr;
	r->min_ns = UINT64_MAX;
	return r;
}

void sc_counts_add(struct sc_counts *c, long nr, const char *name, bool failed,
		   bool unfinished, uint64_t ns)
{
	struct sc_count *r = sc_row(c, nr, name);

	r->calls++;
	c->calls++;
	if (failed) {
		r->errors++;
		c->errors++;
	}
	if (unfinished) {
		r->unfinished++;
		c->unfinished++;
	}
	r->time_ns += ns;
	c->time_ns += ns;
	if (ns < r->min_ns)
		r->min_ns = ns;
	if (ns > r->max_ns)
		r->max_ns = ns;
}

void sc_counts_add_many(struct sc_counts *c, long nr, const char *name, uint64_t calls,
			uint64_t errors, uint64_t unfinished, uint64_t ns, uint64_t min_ns,
			uint64_t max_ns)
{
	struct sc_count *r;

	if (!calls)
		return;
	r = sc_row(c, nr, name);
	r->calls += calls;
	c->calls += calls;
	r->errors += errors;
	c->errors += errors;
	r->unfinished += unfinished;
	c->unfinished += unfinished;
	r->time_ns += ns;
	c->time_ns += ns;
	if (min_ns < r->min_ns)
		r->min_ns = min_ns;
	if (max_ns > r->max_ns)
		r->max_ns = max_ns;
}

void sc_counts_add_totals(struct sc_counts *c, const struct trace_totals *tt)
{
	for (size_t i = 0; i < tt->n; i++) {
		const struct sc_total *r = &tt->rows[i];
		uint64_t n = r->calls + r->unfinished;
		uint64_t min = r->wall_min_ns, max = r->wall_max_ns;

		if (!r->calls)
			min = max = 0;
		sc_counts_add_many(c, r->nr, r->name, n, r->errors, r->unfinished,
				   r->wall_ns + r->unfinished_wall_ns, min, max);
	}
}

struct sc_count **sc_counts_rows(const struct sc_counts *c, size_t *n)
{
	struct sc_count **rows = xcalloc(SC_COUNTS_NR + c->nextra + 1, sizeof(*rows));
	size_t k = 0;

	for (size_t i = 0; i < SC_COUNTS_NR; i++)
		if (c->tab[i].calls)
			rows[k++] = &c->tab[i];
	for (size_t i = 0; i < c->nextra; i++)
		if (c->extra[i].calls)
			rows[k++] = &c->extra[i];
	*n = k;
	return rows;
}

bool sc_counted_by_strace(const struct event *ev)
{
	if (ev->type != EV_SYSCALL || ev->state == SC_UNFINISHED)
		return false;
	/* exit and exit_group never return; a core may still report them */
	if (ev->rv_fmt == RV_NONE && (sysent_sem(sysent_get(ev->nr)) & SEM_EXIT))
		return false;
	return true;
}

/* --- JSON records --- */

void add_us(struct strbuf *sb, uint64_t ns)
{
	char frac[5] = { '.', 0, 0, 0, 0 };
	unsigned r = (unsigned)(ns % 1000);

	strbuf_add_u64(sb, ns / 1000);
	frac[1] = (char)('0' + r / 100);
	frac[2] = (char)('0' + r / 10 % 10);
	frac[3] = (char)('0' + r % 10);
	strbuf_add(sb, frac, 4);
}

void add_val_text(struct strbuf *sb, const struct val *v)
{
	val_render(sb, v, NULL);
}

static void add_key(struct strbuf *sb, const char *key)
{
	strbuf_addch(sb, '"');
	strbuf_addstr(sb, key);
	strbuf_addstr(sb, "\": ");
}

/* Appends v's text as a JSON string, rendered in tmp first. */
static void add_val_json(struct strbuf *sb, struct strbuf *tmp, const struct val *v)
{
	strbuf_reset(tmp);
	add_val_text(tmp, v);
	strbuf_add_json_str(sb, tmp->buf, tmp->len);
}

/* Whether p[0..n) is valid UTF-8 (NULs allowed). */
static bool utf8_valid(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	unsigned cp;

	for (size_t i = 0; i < n;) {
		size_t l;
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if (!(l = utf8_seq_len(s + i, n - i, &cp)))
			return false;
		i += l;
	}
	return true;
}

/* A 64-bit unsigned number as the JSON integer of its bits (values above
 * INT64_MAX are written as their two's complement: docs/trace-format.md). */
static void add_u64_bits(struct strbuf *sb, uint64_t u)
{
	strbuf_add_i64(sb, (int64_t)u);
}

/* What a descriptor refers to, from the process/descriptor tracker. */
static void add_obj(struct strbuf *sb, const struct tobj *o)
{
	strbuf_addstr(sb, "{\"kind\": \"");
	strbuf_addstr(sb, fd_kind_name(o->kind));
	strbuf_addch(sb, '"');
	if (o->path) {
		strbuf_addstr(sb, ", \"path\": ");
		strbuf_add_json_str(sb, o->path, strlen(o->path));
	}
	if (o->peer) {
		strbuf_addstr(sb, ", \"peer\": ");
		strbuf_add_json_str(sb, o->peer, strlen(o->peer));
	}
	if (o->pipe) {
		strbuf_addstr(sb, ", \"pipe\": ");
		strbuf_add_u64(sb, o->pipe);
	}
	if (o->flags & TOBJ_INHERITED)
		strbuf_addstr(sb, ", \"inherited\": true");
	strbuf_addch(sb, '}');
}

/*
 * The typed value of v (renacer-json-v2, docs/trace-format.md): an object
 * whose first member names the kind; ref is what a descriptor referred to,
 * or NULL.  tmp is scratch for names rendered from tables.
 */
static void add_typed(struct strbuf *sb, struct strbuf *tmp, const struct val *v,
		      const struct tobj *ref)
{
	static const struct render_opts ro = RENDER_OPTS_INIT;

	if (v->kind == V_OP && (v->flags & VF_XALT) && v->c.n == 3)
		v = &v->c.items[0];
	switch (v->kind) {
	case V_INT:
		strbuf_addstr(sb, "{\"i\": ");
		strbuf_add_i64(sb, v->i);
		break;
	case V_UINT:
		strbuf_addstr(sb, "{\"u\": ");
		add_u64_bits(sb, v->u);
		break;
	case V_OCT:
		strbuf_addstr(sb, "{\"o\": ");
		add_u64_bits(sb, v->u);
		break;
	case V_HEX:
		strbuf_addstr(sb, "{\"x\": ");
		add_u64_bits(sb, v->u);
		break;
	case V_PTR:
		strbuf_addstr(sb, "{\"p\": ");
		add_u64_bits(sb, v->u);
		break;
	case V_STR:
		if (utf8_valid(v->s.p, v->s.p ? v->s.len : 0)) {
			strbuf_addstr(sb, "{\"s\": ");
			strbuf_add_json_str(sb, v->s.p ? v->s.p : "", v->s.p ? v->s.len : 0);
		} else {
			/* bytes that are not UTF-8: in hex, to come back exact */
			strbuf_addstr(sb, "{\"bytes\": \"");
			for (uint32_t i = 0; i < v->s.len; i++)
				strbuf_addf(sb, "%02x", (unsigned char)v->s.p[i]);
			strbuf_addch(sb, '"');
		}
		if (v->flags & VF_TRUNC)
			strbuf_addstr(sb, ", \"trunc\": true");
		break;
	case V_FLAGS:
	case V_ENUM:
		strbuf_addstr(sb, v->kind == V_FLAGS ? "{\"flags\": " : "{\"enum\": ");
		if (v->flags & VF_NOVAL)
			strbuf_addstr(sb, "null");
		else
			add_u64_bits(sb, v->x.v);
		strbuf_reset(tmp);
		if (v->x.sym)
			strbuf_addstr(tmp, v->x.sym);
		else if (v->kind == V_FLAGS || xlat_name(v->x.xl, v->x.v))
			val_render(tmp, v, &ro);
		if (tmp->len) {
			strbuf_addstr(sb, v->kind == V_FLAGS ? ", \"names\": " : ", \"name\": ");
			strbuf_add_json_str(sb, tmp->buf, tmp->len);
		}
		break;
	case V_FD:
		strbuf_addstr(sb, "{\"fd\": ");
		strbuf_add_i64(sb, v->fd.fd);
		if (v->fd.path) {
			strbuf_addstr(sb, ", \"path\": ");
			strbuf_add_json_str(sb, v->fd.path, strlen(v->fd.path));
		}
		if (ref) {
			strbuf_addstr(sb, ", \"ref\": ");
			add_obj(sb, ref);
		}
		break;
	case V_STRUCT:
		strbuf_addstr(sb, "{\"struct\": [");
		for (uint32_t i = 0; i < v->c.n; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			strbuf_addch(sb, '[');
			strbuf_add_json_cstr(sb, v->c.items[i].name);
			strbuf_addstr(sb, ", ");
			add_typed(sb, tmp, &v->c.items[i], NULL);
			strbuf_addch(sb, ']');
		}
		strbuf_addch(sb, ']');
		if (v->flags & VF_MORE)
			strbuf_addstr(sb, ", \"more\": true");
		break;
	case V_ARRAY:
	case V_OP:
		strbuf_addstr(sb, v->kind == V_ARRAY ? "{\"array\": [" : "{\"op\": ");
		if (v->kind == V_OP) {
			strbuf_add_json_cstr(sb, v->c.op ? v->c.op : "");
			strbuf_addstr(sb, ", \"items\": [");
		}
		for (uint32_t i = 0; i < v->c.n; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			add_typed(sb, tmp, &v->c.items[i], NULL);
		}
		strbuf_addch(sb, ']');
		if (v->kind == V_ARRAY && (v->flags & VF_MORE))
			strbuf_addstr(sb, ", \"more\": true");
		break;
	case V_SIGSET:
		strbuf_addstr(sb, "{\"sigset\": ");
		if (v->flags & VF_NOVAL)
			strbuf_addstr(sb, "null");
		else
			add_u64_bits(sb, v->sig.mask);
		if (v->flags & VF_SIGSET_NOT)
			strbuf_addstr(sb, ", \"not\": true");
		break;
	case V_COMMENT:
		strbuf_addstr(sb, "{\"comment\": ");
		strbuf_add_json_str(sb, v->s.p ? v->s.p : "", v->s.p ? v->s.len : 0);
		break;
	case V_TEXT:
		strbuf_addstr(sb, "{\"text\": ");
		strbuf_add_json_str(sb, v->s.p ? v->s.p : "", v->s.p ? v->s.len : 0);
		break;
	default:
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addch(sb, '}');
}

/* The register of displayed argument i of ev (its prototype name), or -1. */
static int arg_reg(const struct event *ev, unsigned i)
{
	const struct sysent *se = sysent_get(ev->nr);
	const char *n = ev->args[i].name;

	if (!se || !se->argnames || !n)
		return -1;
	if (i < se->nargs && (n == se->argnames[i] || !strcmp(n, se->argnames[i])))
		return (int)i;
	for (unsigned r = 0; r < se->nargs; r++)
		if (!strcmp(n, se->argnames[r]))
			return (int)r;
	return -1;
}

/* [name, text, typed value] */
static void add_arg_json(struct strbuf *sb, struct strbuf *tmp, const struct event *ev,
			 const struct val *v, int reg)
{
	strbuf_addch(sb, '[');
	strbuf_add_json_cstr(sb, v->name);
	strbuf_addstr(sb, ", ");
	add_val_json(sb, tmp, v);
	strbuf_addstr(sb, ", ");
	add_typed(sb, tmp, v, reg >= 0 && reg < EVENT_MAX_ARGS ? ev->fd_obj[reg] : NULL);
	strbuf_addch(sb, ']');
}

static const char *rv_fmt_name(int f)
{
	switch (f) {
	case RV_HEX: return "hex";
	case RV_OCT: return "oct";
	case RV_FD: return "fd";
	case RV_NONE: return "none";
	}
	return NULL;
}

static void add_hexstr(struct strbuf *sb, uint64_t v)
{
	strbuf_addch(sb, '"');
	strbuf_add_hex(sb, v);
	strbuf_addch(sb, '"');
}

/* -s: "source": {"file", "line", "function"}; -k: "stack": [...]. */
static void add_frames(struct strbuf *sb, const struct event *ev)
{
	const struct frame *src = ev->source;

	if (src) {
		strbuf_addstr(sb, ", \"source\": {\"file\": ");
		strbuf_add_json_cstr(sb, src->file);
		strbuf_addstr(sb, ", \"line\": ");
		if (src->line)
			strbuf_add_u64(sb, src->line);
		else
			strbuf_addstr(sb, "null");
		strbuf_addstr(sb, ", \"function\": ");
		strbuf_add_json_cstr(sb, src->function);
		strbuf_addch(sb, '}');
	}
	if (!ev->stack_trace)
		return;
	strbuf_addstr(sb, ", \"stack\": [");
	for (uint32_t i = 0; i < ev->nframes && ev->frames; i++) {
		const struct frame *f = &ev->frames[i];
		if (i)
			strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, "{\"pc\": ");
		add_hexstr(sb, f->pc);
		strbuf_addstr(sb, ", \"module\": ");
		strbuf_add_json_cstr(sb, f->module);
		strbuf_addstr(sb, ", \"offset\": ");
		add_hexstr(sb, f->offset);
		strbuf_addstr(sb, ", \"symbol\": ");
		strbuf_add_json_cstr(sb, f->symbol);
		if (f->symbol) {
			strbuf_addstr(sb, ", \"symbol_offset\": ");
			add_hexstr(sb, f->symoff);
		}
		strbuf_addstr(sb, ", \"function\": ");
		strbuf_add_json_cstr(sb, f->function);
		strbuf_addstr(sb, ", \"file\": ");
		strbuf_add_json_cstr(sb, f->file);
		strbuf_addstr(sb, ", \"line\": ");
		if (f->line)
			strbuf_add_u64(sb, f->line);
		else
			strbuf_addstr(sb, "null");
		if (f->flags & FRAME_INLINED)
			strbuf_addstr(sb, ", \"inlined\": true");
		if (f->flags & FRAME_TAILCALL)
			strbuf_addstr(sb, ", \"tail_call\": true");
		strbuf_addstr(sb, ", \"own\": ");
		strbuf_addstr(sb, f->flags & FRAME_OWN ? "true" : "false");
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, ']');
	if (ev->stack_error) {
		strbuf_addstr(sb, ", \"stack_error\": ");
		strbuf_add_json_cstr(sb, ev->stack_error);
	}
}

static void add_type(struct strbuf *sb, const char *type)
{
	strbuf_addch(sb, '{');
	if (type) {
		add_key(sb, "type");
		strbuf_add_json_cstr(sb, type);
		strbuf_addstr(sb, ", ");
	}
}

void json_add_syscall(struct strbuf *sb, struct strbuf *tmp, const struct event *ev,
		      const char *type)
{
	bool unfinished = ev->state == SC_UNFINISHED;
	const char *rvf = rv_fmt_name(ev->rv_fmt);

	add_type(sb, type);
	add_key(sb, "name");
	strbuf_add_json_cstr(sb, ev->name ? ev->name : "?");
	strbuf_addstr(sb, ", \"args\": [");
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		add_arg_json(sb, tmp, ev, &ev->args[i], arg_reg(ev, i));
	}
	strbuf_addstr(sb, "], \"result\": ");
	if (unfinished)
		strbuf_addstr(sb, "null");
	else
		strbuf_add_i64(sb, ev->retval);
	if (ev->err && !unfinished) {
		const char *en = errno_name(ev->err);
		strbuf_addstr(sb, ", \"errno\": ");
		if (en)
			strbuf_add_json_cstr(sb, en);
		else
			strbuf_add_i64(sb, ev->err);
	}
	strbuf_addstr(sb, ", \"pid\": ");
	strbuf_add_i64(sb, ev->pid);
	strbuf_addstr(sb, ", \"tid\": ");
	strbuf_add_i64(sb, ev->tid);
	strbuf_addstr(sb, ", \"nr\": ");
	strbuf_add_i64(sb, ev->nr);
	strbuf_addstr(sb, ", \"ts_us\": ");
	add_us(sb, ev->ts_ns);
	strbuf_addstr(sb, ", \"duration_us\": ");
	add_us(sb, ev->end_ns > ev->ts_ns ? ev->end_ns - ev->ts_ns : 0);
	strbuf_addstr(sb, ", \"lamport\": ");
	strbuf_add_u64(sb, ev->lamport);
	if (unfinished)
		strbuf_addstr(sb, ", \"unfinished\": true");
	/* -e inject=: the marks strace prints, (INJECTED) and (DELAYED) */
	if (ev->tamper && !unfinished) {
		const char *sep = "";
		strbuf_addstr(sb, ", \"tamper\": [");
		if (ev->tamper & (TAMPER_INJECTED | TAMPER_POKED)) {
			strbuf_addstr(sb, (ev->tamper & TAMPER_POKED) ?
				      ((ev->tamper & TAMPER_INJECTED) ? "\"INJECTED: args, retval\"" :
				       "\"INJECTED: args\"") : "\"INJECTED\"");
			sep = ", ";
		}
		if (ev->tamper & TAMPER_DELAYED)
			strbuf_addf(sb, "%s\"DELAYED\"", sep);
		strbuf_addch(sb, ']');
	}
	if (rvf && !unfinished) {
		strbuf_addstr(sb, ", \"rv_fmt\": ");
		strbuf_add_json_cstr(sb, rvf);
	}
	if (ev->ret_aux && !unfinished) {
		strbuf_addstr(sb, ", \"ret_aux\": ");
		add_arg_json(sb, tmp, ev, ev->ret_aux, -1);
	}
	if (ev->endpoint) {
		strbuf_addstr(sb, ", \"endpoint\": ");
		strbuf_add_json_str(sb, ev->endpoint, strlen(ev->endpoint));
	}
	if (ev->ret_obj[0] && !unfinished) {
		strbuf_addstr(sb, ", \"ret_ref\": [");
		for (int k = 0; k < 2 && ev->ret_obj[k]; k++) {
			if (k)
				strbuf_addstr(sb, ", ");
			add_obj(sb, ev->ret_obj[k]);
		}
		strbuf_addch(sb, ']');
	}
	if (ev->ret_path && !unfinished) {
		strbuf_addstr(sb, ", \"ret_path\": ");
		strbuf_add_json_cstr(sb, ev->ret_path);
	}
	add_frames(sb, ev);
	strbuf_addch(sb, '}');
}

void json_add_signal(struct strbuf *sb, struct strbuf *tmp, const struct event *ev,
		     const char *type)
{
	const char *sn = signal_name(ev->signo);

	add_type(sb, type);
	add_key(sb, "pid");
	strbuf_add_i64(sb, ev->pid);
	strbuf_addstr(sb, ", \"tid\": ");
	strbuf_add_i64(sb, ev->tid);
	strbuf_addstr(sb, ", \"signal\": ");
	if (sn)
		strbuf_add_json_cstr(sb, sn);
	else
		strbuf_add_i64(sb, ev->signo);
	strbuf_addstr(sb, ", \"signo\": ");
	strbuf_add_i64(sb, ev->signo);
	strbuf_addstr(sb, ", \"ts_us\": ");
	add_us(sb, ev->ts_ns);
	strbuf_addstr(sb, ", \"lamport\": ");
	strbuf_add_u64(sb, ev->lamport);
	strbuf_addstr(sb, ", \"siginfo\": ");
	if (ev->siginfo)
		add_val_json(sb, tmp, ev->siginfo);
	else
		strbuf_addstr(sb, "null");
	strbuf_addch(sb, '}');
}

void json_add_argv(struct strbuf *sb, char *const *argv)
{
	if (!argv) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addch(sb, '[');
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		strbuf_add_json_cstr(sb, argv[i]);
	}
	strbuf_addch(sb, ']');
}

static int row_name_cmp(const void *a, const void *b)
{
	const struct sc_count *x = *(struct sc_count *const *)a;
	const struct sc_count *y = *(struct sc_count *const *)b;
	return strcmp(x->name, y->name);
}

void json_add_summary(struct strbuf *sb, const struct sc_counts *c,
		      const struct trace_end *te, const char *type)
{
	size_t n;
	struct sc_count **rows = sc_counts_rows(c, &n);
	const char *nl = type ? "" : "\n    ";
	const char *sn;

	QSORT(rows, n, row_name_cmp);
	add_type(sb, type);
	add_key(sb, "total_syscalls");
	strbuf_add_u64(sb, c->calls);
	strbuf_addstr(sb, ", \"total_errors\": ");
	strbuf_add_u64(sb, c->errors);
	strbuf_addstr(sb, ", \"total_unfinished\": ");
	strbuf_add_u64(sb, c->unfinished);
	strbuf_addstr(sb, ", \"total_time_us\": ");
	add_us(sb, c->time_ns);
	strbuf_addstr(sb, ", \"wall_time_us\": ");
	add_us(sb, te ? te->wall_ns : 0);
	strbuf_addstr(sb, ", \"exit_code\": ");
	strbuf_add_i64(sb, te ? te->exit_code : 0);
	if (te && te->term_signal) {
		strbuf_addstr(sb, ", \"signal\": ");
		if ((sn = signal_name(te->term_signal)))
			strbuf_add_json_cstr(sb, sn);
		else
			strbuf_add_i64(sb, te->term_signal);
	}
	if (te && te->detached)
		strbuf_addstr(sb, ", \"detached\": true");
	strbuf_addstr(sb, ", \"by_syscall\": {");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, i ? "," : "");
		strbuf_addstr(sb, *nl ? nl : (i ? " " : ""));
		strbuf_add_json_cstr(sb, rows[i]->name);
		strbuf_addstr(sb, ": {\"calls\": ");
		strbuf_add_u64(sb, rows[i]->calls);
		strbuf_addstr(sb, ", \"errors\": ");
		strbuf_add_u64(sb, rows[i]->errors);
		if (rows[i]->unfinished) {
			strbuf_addstr(sb, ", \"unfinished\": ");
			strbuf_add_u64(sb, rows[i]->unfinished);
		}
		strbuf_addstr(sb, ", \"total_us\": ");
		add_us(sb, rows[i]->time_ns);
		strbuf_addch(sb, '}');
	}
	if (n && *nl)
		strbuf_addstr(sb, "\n  ");
	strbuf_addstr(sb, "}}");
	free(rows);
}
