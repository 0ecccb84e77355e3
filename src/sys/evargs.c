/*
 * Typed access to an event's arguments (event.h): by their position in the
 * prototype, from the decoded values or, for a live event, the registers.
 */
#include <string.h>

#include "event.h"
#include "sys/sysent.h"
#include "util/banned.h"

const struct val *ev_arg(const struct event *ev, unsigned i)
{
	const struct sysent *se = sysent_get(ev->nr);
	const char *want;

	if (!se || !se->argnames || i >= se->nargs)
		return i < ev->nargs && ev->args[i].kind != V_NONE ? &ev->args[i] : NULL;
	want = se->argnames[i];
	if (i < ev->nargs && ev->args[i].kind != V_NONE && ev->args[i].name &&
	    (ev->args[i].name == want || !strcmp(ev->args[i].name, want)))
		return &ev->args[i];
	/* shown at another position (clone's arguments in strace's order) */
	for (unsigned j = 0; j < ev->nargs && j < EVENT_MAX_ARGS; j++)
		if (ev->args[j].kind != V_NONE && ev->args[j].name &&
		    !strcmp(ev->args[j].name, want))
			return &ev->args[j];
	/* a trace that named it otherwise: by position */
	return i < ev->nargs && ev->args[i].kind != V_NONE ? &ev->args[i] : NULL;
}

const struct val *val_unwrap(const struct val *v)
{
	while (v && v->kind == V_OP) {
		if ((v->flags & VF_XALT) && v->c.n == 3)
			v = &v->c.items[0];
		else if (v->c.n == 2 && v->c.op && !strcmp(v->c.op, "=") &&
			 v->c.items[0].kind == V_TEXT)
			v = &v->c.items[1];
		else
			break;
	}
	return v;
}

bool val_is(const struct val *v, int64_t n, const char *name)
{
	int64_t x;
	v = val_unwrap(v);
	if (!v)
		return false;
	if ((v->kind == V_FLAGS || v->kind == V_ENUM) && (v->flags & VF_NOVAL))
		return v->x.sym && name && !strcmp(v->x.sym, name);
	return val_int(v, &x) && x == n;
}

bool val_int(const struct val *v, int64_t *out)
{
	v = val_unwrap(v);
	if (!v)
		return false;
	switch (v->kind) {
	case V_INT:
		*out = v->i;
		return true;
	case V_UINT: case V_OCT: case V_HEX: case V_PTR:
		*out = (int64_t)v->u;
		return true;
	case V_FD:
		*out = v->fd.fd;
		return true;
	case V_FLAGS: case V_ENUM:
		if (v->flags & VF_NOVAL)
			return false;
		*out = (int64_t)v->x.v;
		return true;
	default:
		return false;
	}
}

bool ev_arg_int(const struct event *ev, unsigned i, int64_t *out)
{
	const struct sysent *se;

	/* the decoded value first: a live run and its saved trace agree */
	if (val_int(ev_arg(ev, i), out))
		return true;
	if (ev->replayed || i >= EVENT_MAX_ARGS)
		return false;
	/* live, not decoded: the register as the kernel read it, signed at
	 * its C width (descriptors and pids are ints whatever the prototype) */
	se = sysent_get(ev->nr);
	unsigned bits = se ? arg_type_bits(se->argtype[i]) : 64;
	if (se && i < se->nargs && (se->argrole[i] == ROLE_FD || se->argrole[i] == ROLE_DIRFD ||
				    se->argrole[i] == ROLE_PID))
		bits = 32;
	*out = bits == 64 ? (int64_t)ev->karg[i]
			  : (int64_t)(ev->karg[i] << (64 - bits)) >> (64 - bits);
	return true;
}

bool ev_arg_str(const struct event *ev, unsigned i, const char **p, size_t *len)
{
	const struct val *v = val_unwrap(ev_arg(ev, i));

	if (!v || v->kind != V_STR)
		return false;
	*p = v->s.p ? v->s.p : "";
	*len = v->s.p ? v->s.len : 0;
	return true;
}

/* Whether the '|'-separated names of sym hold name. */
static bool sym_has(const char *sym, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *p = sym, *e = sym + len;

	while (p < e) {
		const char *q = memchr(p, '|', e - p);
		if (!q)
			q = e;
		if ((size_t)(q - p) == n && !memcmp(p, name, n))
			return true;
		p = q + 1;
	}
	return false;
}

bool val_has_flag(const struct val *v, uint64_t bit, const char *name)
{
	if (!v)
		return false;
	switch (v->kind) {
	case V_FLAGS: case V_ENUM:
		if (!(v->flags & VF_NOVAL))
			return (v->x.v & bit) != 0;
		return v->x.sym && name && sym_has(v->x.sym, strlen(v->x.sym), name);
	case V_INT: case V_UINT: case V_HEX: case V_OCT:
		return (v->u & bit) != 0;
	case V_OP:
		for (uint32_t k = 0; k < v->c.n; k++)
			if (val_has_flag(&v->c.items[k], bit, name))
				return true;
		return false;
	default:
		return false;
	}
}

const struct val *val_field(const struct val *v, const char *name)
{
	v = val_unwrap(v);
	if (!v || v->kind != V_STRUCT)
		return NULL;
	for (uint32_t k = 0; k < v->c.n; k++)
		if (v->c.items[k].name && !strcmp(v->c.items[k].name, name))
			return &v->c.items[k];
	return NULL;
}

bool text_is_symbolic(const char *p, size_t len)
{
	if (!len || !(((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z') || p[0] == '_'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '"' || p[i] == '{' || p[i] == '(' || p[i] == ' ')
			return false;
	return true;
}
