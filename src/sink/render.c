/*
 * The value model rendered as strace prints it (see render.h).  On the hot
 * path of the text sink: no allocation beyond the strbuf, no stdio.
 */
#include "sink/render.h"

#include <stdbool.h>
#include <string.h>

#include "util/banned.h"

static const struct render_opts default_opts = RENDER_OPTS_INIT;

static inline char *sb_reserve(struct strbuf *sb, size_t n)
{
	strbuf_grow(sb, n);
	return sb->buf + sb->len;
}

static inline void sb_commit(struct strbuf *sb, char *end)
{
	strbuf_setlen(sb, (size_t)(end - sb->buf));
}

static void add_comment(struct strbuf *sb, const char *text)
{
	strbuf_addstr(sb, " /* ");
	strbuf_addstr(sb, text);
	strbuf_addstr(sb, " */");
}

/* strace's PRINT_VAL_X: 0 is "0", anything else 0x... */
static void add_hex0(struct strbuf *sb, uint64_t v)
{
	if (v)
		strbuf_add_hex(sb, v);
	else
		strbuf_addch(sb, '0');
}

/* strace's "%#03o" for modes: 0 is "000", 07 is "007", 0644 is "0644". */
static void add_oct(struct strbuf *sb, uint64_t v)
{
	char tmp[24];
	int n = 0;

	while (v) {
		tmp[n++] = (char)('0' + (v & 7));
		v >>= 3;
	}
	tmp[n++] = '0';
	while (n < 3)
		tmp[n++] = '0';
	char *s = sb_reserve(sb, (size_t)n);
	while (n)
		*s++ = tmp[--n];
	sb_commit(sb, s);
}

/* The names of the bits of v that its table knows, '|'-joined, then any
 * leftover bits in hex; returns how many names were added. */
static unsigned flag_names(struct strbuf *sb, const struct val *v)
{
	const struct xlat *xl = v->x.xl;
	uint64_t rem = v->x.v;
	unsigned n = 0;

	if (!rem && v->x.dflt) {
		strbuf_addstr(sb, v->x.dflt);
		return 1;
	}
	if (xl) {
		for (uint32_t i = 0; i < xl->size && (rem || !n); i++) {
			uint64_t bit = xl->data[i].val;

			if (!xl->data[i].str)
				continue;
			if (rem == bit || (bit && (rem & bit) == bit)) {
				if (n++)
					strbuf_addch(sb, '|');
				strbuf_addstr(sb, xl->data[i].str);
				rem &= ~bit;
			}
			if (!rem)
				break;
		}
	}
	if (n && rem) {
		strbuf_addch(sb, '|');
		strbuf_add_hex(sb, rem);
	}
	return n;
}

static void render_flags(struct strbuf *sb, const struct val *v, int style)
{
	size_t start = sb->len;
	const struct xlat *xl = v->x.xl;

	if (style == XS_RAW) {
		add_hex0(sb, v->x.v);
		return;
	}
	if (style == XS_VERBOSE) {
		/* 0x80002 / * O_RDWR|O_CLOEXEC * /, 0 / * O_RDONLY * / */
		add_hex0(sb, v->x.v);
		strbuf_addstr(sb, " /* ");
		size_t names = sb->len;
		if (flag_names(sb, v)) {
			strbuf_addstr(sb, " */");
		} else {
			strbuf_setlen(sb, names - 4);
			if (v->x.v && xl && xl->unknown)
				add_comment(sb, xl->unknown);
		}
		return;
	}
	if (flag_names(sb, v))
		return;
	strbuf_setlen(sb, start);
	add_hex0(sb, v->x.v);
	if (v->x.v && xl && xl->unknown)
		add_comment(sb, xl->unknown);
}

/* The number of an enum: hex, or decimal for VF_DECIMAL (signals). */
static void enum_number(struct strbuf *sb, const struct val *v)
{
	if (v->flags & VF_DECIMAL)
		strbuf_add_i64(sb, (int64_t)v->x.v);
	else
		add_hex0(sb, v->x.v);
}

static void render_enum(struct strbuf *sb, const struct val *v, int style)
{
	const struct xlat *xl = v->x.xl;

	if (xl && style != XS_RAW) {
		for (uint32_t i = 0; i < xl->size; i++) {
			if (xl->data[i].val == v->x.v && xl->data[i].str) {
				if (style == XS_VERBOSE) {
					enum_number(sb, v);
					add_comment(sb, xl->data[i].str);
				} else {
					strbuf_addstr(sb, xl->data[i].str);
				}
				return;
			}
		}
	}
	enum_number(sb, v);
	if (style != XS_RAW && xl && xl->unknown)
		add_comment(sb, xl->unknown);
}

static void render_sigset(struct strbuf *sb, const struct val *v, int style)
{
	uint64_t mask = v->sig.mask;
	const char *sep = "";

	if (v->flags & VF_SIGSET_NOT) {
		strbuf_addch(sb, '~');
		mask = ~mask;
	}
	strbuf_addch(sb, '[');
	while (mask) {
		int sig = __builtin_ctzll(mask) + 1;
		const char *name = signal_name(sig);

		mask &= mask - 1;
		strbuf_addstr(sb, sep);
		sep = " ";
		if (style != XS_ABBREV) {
			/* -X raw: [10]; -X verbose: [10 / * USR1 * /] */
			strbuf_add_u64(sb, (uint64_t)sig);
			if (style == XS_VERBOSE && name && !strncmp(name, "SIG", 3))
				add_comment(sb, name + 3);
		} else if (name && !strncmp(name, "SIG", 3))
			strbuf_addstr(sb, name + 3);
		else if (sig > 32)
			strbuf_addf(sb, "RT_%d", sig - 32);
		else
			strbuf_add_u64(sb, (uint64_t)sig);
	}
	strbuf_addch(sb, ']');
}

static void render_items(struct strbuf *sb, const struct val *v,
			 const struct render_opts *ro, const char *sep, int names)
{
	for (uint32_t i = 0; i < v->c.n; i++) {
		const struct val *it = &v->c.items[i];

		if (i)
			strbuf_addstr(sb, sep);
		if (names && it->name && !(it->flags & VF_EQ_ONLY)) {
			strbuf_addstr(sb, it->name);
			strbuf_addch(sb, '=');
		}
		val_render(sb, it, ro);
	}
	if (v->flags & VF_MORE)
		strbuf_addstr(sb, v->c.n ? ", ..." : "...");
}

/* The exit part of a structure shown in two parts (VF_TAIL): ", b=2}". */
static void render_tail_items(struct strbuf *sb, const struct val *v,
			      const struct render_opts *ro)
{
	for (uint32_t i = 0; i < v->c.n; i++) {
		const struct val *it = &v->c.items[i];

		if (!(it->flags & VF_CONT))
			strbuf_addstr(sb, ", ");
		if (it->name && !(it->flags & VF_EQ_ONLY)) {
			strbuf_addstr(sb, it->name);
			strbuf_addch(sb, '=');
		}
		val_render(sb, it, ro);
	}
	if (v->flags & VF_MORE)
		strbuf_addstr(sb, ", ...");
	strbuf_addch(sb, '}');
}

/* <path> after an fd; the kernel's " (deleted)" suffix goes after the
 * brackets, as strace prints it: 5</memfd:x>(deleted). */
static void render_fd_path(struct strbuf *sb, const char *path, const char *detail,
			   int xstyle)
{
	static const char del[] = " (deleted)";
	size_t n = path ? strlen(path) : 0, dn = sizeof(del) - 1;
	bool deleted = n > dn && !memcmp(path + n - dn, del, dn);

	if (deleted)
		n -= dn;
	strbuf_addch(sb, '<');
	if (path)
		render_escaped_x(sb, path, n, "<>", xstyle);
	if (detail)
		strbuf_addstr(sb, detail);
	strbuf_addch(sb, '>');
	if (deleted)
		strbuf_addstr(sb, "(deleted)");
}

/*
 * -X raw/verbose of a "|" expression of named parts (O_RDONLY|O_CLOEXEC,
 * MAP_PRIVATE|MAP_ANONYMOUS, S_IFREG|0644): the number it stands for, in
 * octal when a part is octal.  False when a part has no number (a name
 * printed as text, a shift).
 */
static bool op_number(const struct val *v, uint64_t *num, bool *oct)
{
	if (v->kind != V_OP || !v->c.op || strcmp(v->c.op, "|") || !v->c.n)
		return false;
	*num = 0;
	*oct = false;
	for (uint32_t i = 0; i < v->c.n; i++) {
		const struct val *it = &v->c.items[i];
		switch (it->kind) {
		case V_FLAGS: case V_ENUM:
			*num |= it->x.v;
			break;
		case V_OCT:
			*oct = true;
			*num |= it->u;
			break;
		case V_HEX: case V_UINT:
			*num |= it->u;
			break;
		default:
			return false;
		}
	}
	return true;
}

void val_render(struct strbuf *sb, const struct val *v, const struct render_opts *ro)
{
	uint64_t num;
	bool oct;

	if (!ro)
		ro = &default_opts;
	if (v->text) {
		/* read back from a saved trace: printed as it was saved */
		strbuf_add(sb, v->text, v->text_len);
		return;
	}
	if (v->kind == V_OP && (v->flags & VF_XALT) && v->c.n == 3) {
		val_render(sb, &v->c.items[ro->xlat == XS_RAW ? 1 : ro->xlat == XS_VERBOSE ? 2 : 0], ro);
		return;
	}
	if ((v->kind == V_FLAGS || v->kind == V_ENUM) && !v->x.xl && v->x.sym) {
		/* read back from a saved trace: its names as they were saved */
		strbuf_addstr(sb, v->x.sym);
		return;
	}
	if (ro->xlat != XS_ABBREV && op_number(v, &num, &oct)) {
		static const struct render_opts abbrev_ro = RENDER_OPTS_INIT;
		struct render_opts inner = abbrev_ro;

		if (oct)
			add_oct(sb, num);
		else
			add_hex0(sb, num);
		if (ro->xlat == XS_VERBOSE) {
			inner.xstyle = ro->xstyle;
			strbuf_addstr(sb, " /* ");
			val_render(sb, v, &inner);
			strbuf_addstr(sb, " */");
		}
		return;
	}
	switch (v->kind) {
	case V_INT:
		strbuf_add_i64(sb, v->i);
		break;
	case V_UINT:
		strbuf_add_u64(sb, v->u);
		break;
	case V_OCT:
		add_oct(sb, v->u);
		break;
	case V_HEX:
		add_hex0(sb, v->u);
		break;
	case V_PTR:
		if (v->u)
			strbuf_add_hex(sb, v->u);
		else
			strbuf_addstr(sb, "NULL");
		break;
	case V_STR:
		if (v->flags & VF_HEXSTR)
			render_quoted_x(sb, v->s.p, v->s.len, NULL, RX_ALL);
		else
			render_quoted_x(sb, v->s.p, v->s.len, NULL, ro->xstyle);
		if (v->flags & (VF_TRUNC | VF_STR_UNTERM))
			strbuf_addstr(sb, "...");
		break;
	case V_FLAGS:
		render_flags(sb, v, (v->flags & VF_XVERBOSE) && ro->xlat == XS_ABBREV ?
				    XS_VERBOSE : ro->xlat);
		break;
	case V_ENUM:
		render_enum(sb, v, (v->flags & VF_XVERBOSE) && ro->xlat == XS_ABBREV ?
				   XS_VERBOSE : ro->xlat);
		break;
	case V_FD:
		if (v->fd.fd == -100 && ro->xlat == XS_ABBREV)
			strbuf_addstr(sb, "AT_FDCWD");
		else
			strbuf_add_i64(sb, v->fd.fd);
		if (v->fd.fd == -100 && ro->xlat == XS_VERBOSE)
			add_comment(sb, "AT_FDCWD");
		if (v->fd.path || v->fd.detail)
			render_fd_path(sb, v->fd.path, v->fd.detail, ro->xstyle);
		break;
	case V_STRUCT:
		if (v->flags & VF_TAIL) {
			render_tail_items(sb, v, ro);
			break;
		}
		strbuf_addch(sb, '{');
		render_items(sb, v, ro, ", ", 1);
		if (!(v->flags & VF_OPEN))
			strbuf_addch(sb, '}');
		break;
	case V_ARRAY:
		strbuf_addch(sb, '[');
		render_items(sb, v, ro, ", ", 1);
		strbuf_addch(sb, ']');
		break;
	case V_SIGSET:
		render_sigset(sb, v, ro->xlat);
		break;
	case V_COMMENT:
		strbuf_addstr(sb, "/* ");
		strbuf_add(sb, v->s.p, v->s.len);
		strbuf_addstr(sb, " */");
		break;
	case V_TEXT:
		strbuf_add(sb, v->s.p, v->s.len);
		break;
	case V_OP:
		for (uint32_t i = 0; i < v->c.n; i++) {
			if (i && v->c.op)
				strbuf_addstr(sb, v->c.op);
			val_render(sb, &v->c.items[i], ro);
		}
		break;
	default:
		strbuf_addch(sb, '?');
		break;
	}
}

static bool is_restart(int err)
{
	return err == 512 || err == 513 || err == 514 || err == 516;
}

void event_render_result(struct strbuf *sb, const struct event *ev,
			 const struct render_opts *ro)
{
	if (!ro)
		ro = &default_opts;
	if (ev->state == SC_UNFINISHED || ev->rv_fmt == RV_NONE) {
		strbuf_addch(sb, '?');
		return;
	}
	if (ev->err) {
		const char *name = errno_name(ev->err);
		const char *msg = errno_message(ev->err);

		if (is_restart(ev->err)) {
			strbuf_addstr(sb, "? ");
		} else if (ev->retval >= 0) {
			/* an error a decoder found in a non-negative return
			 * (modify_ldt's int in a long): strace shows the value */
			strbuf_add_i64(sb, ev->retval);
			strbuf_addch(sb, ' ');
		} else {
			strbuf_addstr(sb, "-1 ");
		}
		if (name)
			strbuf_addstr(sb, name);
		else
			strbuf_add_u64(sb, (uint64_t)ev->err);
		strbuf_addstr(sb, " (");
		if (msg) {
			strbuf_addstr(sb, msg);
		} else {
			strbuf_addstr(sb, "Unknown error ");
			strbuf_add_u64(sb, (uint64_t)ev->err);
		}
		strbuf_addch(sb, ')');
		return;
	}
	switch (ev->rv_fmt) {
	case RV_HEX:
		add_hex0(sb, (uint64_t)ev->retval);
		break;
	case RV_OCT:
		add_oct(sb, (uint64_t)ev->retval);
		break;
	default:
		strbuf_add_i64(sb, ev->retval);
		break;
	}
	if (ev->rv_fmt == RV_FD && (ev->ret_path || ev->ret_detail))
		render_fd_path(sb, ev->ret_path, ev->ret_detail, ro->xstyle);
	if (ev->ret_aux && (ev->ret_aux->flags & VF_RET_SUFFIX)) {
		val_render(sb, ev->ret_aux, ro);
	} else if (ev->ret_aux && !((ev->ret_aux->flags & VF_AUXSTR) && ro->xlat == XS_RAW)) {
		strbuf_addstr(sb, " (");
		if (ev->ret_aux->name) {
			strbuf_addstr(sb, ev->ret_aux->name);
			strbuf_addch(sb, ' ');
		}
		val_render(sb, ev->ret_aux, ro);
		strbuf_addch(sb, ')');
	}
}

unsigned event_entry_split(const struct event *ev)
{
	unsigned n = ev->nargs < EVENT_MAX_ARGS ? ev->nargs : EVENT_MAX_ARGS;

	for (unsigned i = 0; i < n; i++)
		if (ev->args[i].kind == V_NONE || (ev->args[i].flags & VF_EXIT))
			return i;
	return n;
}

static void render_args(struct strbuf *sb, const struct event *ev,
			const struct render_opts *ro, unsigned from, unsigned to)
{
	for (unsigned i = from; i < to; i++) {
		if (i > from && !(ev->args[i].flags & VF_CONT))
			strbuf_addstr(sb, ", ");
		val_render(sb, &ev->args[i], ro);
	}
}

static unsigned shown_args(const struct event *ev)
{
	return ev->nargs < EVENT_MAX_ARGS ? ev->nargs : EVENT_MAX_ARGS;
}

/* ") " then spaces up to the result column, then "= result". */
static void render_tail(struct strbuf *sb, const struct event *ev,
			const struct render_opts *ro, size_t line_start)
{
	unsigned col = ro->acolumn;
	size_t cur;

	strbuf_addstr(sb, ") ");
	cur = sb->len - line_start;
	if (cur < col)
		strbuf_addchars(sb, ' ', col - cur);
	strbuf_addstr(sb, "= ");
	event_render_result(sb, ev, ro);
}

void event_render_entry(struct strbuf *sb, const struct event *ev,
			const struct render_opts *ro)
{
	unsigned k = event_entry_split(ev);

	if (!ro)
		ro = &default_opts;
	strbuf_addstr(sb, ev->name ? ev->name : "?");
	strbuf_addch(sb, '(');
	render_args(sb, ev, ro, 0, k);
	if (k && k < shown_args(ev) && !(ev->args[k].flags & (VF_CONT | VF_LATE_SEP)))
		strbuf_addstr(sb, ", ");
}

void event_render_unfinished(struct strbuf *sb, const struct event *ev,
			     const struct render_opts *ro)
{
	event_render_entry(sb, ev, ro);
	strbuf_addstr(sb, " <unfinished ...>");
}

void event_render_rest(struct strbuf *sb, const struct event *ev,
		       const struct render_opts *ro, size_t line_start)
{
	unsigned k = event_entry_split(ev), n = shown_args(ev);

	if (!ro)
		ro = &default_opts;
	if (ev->state == SC_UNFINISHED) {
		if (k < n)
			strbuf_addstr(sb, " <unfinished ...>");
	} else {
		if (k && k < n && (ev->args[k].flags & VF_LATE_SEP))
			strbuf_addstr(sb, ", ");
		render_args(sb, ev, ro, k, n);
	}
	render_tail(sb, ev, ro, line_start);
}

void event_render_call(struct strbuf *sb, const struct event *ev,
		       const struct render_opts *ro, size_t line_start)
{
	event_render_entry(sb, ev, ro);
	event_render_rest(sb, ev, ro, line_start);
}

void event_render_resumed(struct strbuf *sb, const struct event *ev,
			  const struct render_opts *ro, size_t line_start)
{
	strbuf_addstr(sb, "<... ");
	strbuf_addstr(sb, ev->name ? ev->name : "?");
	strbuf_addstr(sb, " resumed>");
	event_render_rest(sb, ev, ro, line_start);
}
