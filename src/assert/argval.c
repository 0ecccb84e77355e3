/*
 * Reading argument values the same way from live events (typed values and
 * raw registers) and from replayed ones (strace text in V_TEXT), so that
 * every measurement works on a run and on a saved trace alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "assert/internal.h"
#include "util/banned.h"

bool ev_is_text(const struct event *ev)
{
	for (unsigned i = 0; i < ev->nargs && i < EVENT_MAX_ARGS; i++)
		if (ev->args[i].kind == V_TEXT)
			return true;
	return false;
}

const char *ev_arg_text(const struct event *ev, unsigned i, size_t *len)
{
	if (i >= ev->nargs || i >= EVENT_MAX_ARGS || ev->args[i].kind != V_TEXT)
		return NULL;
	const char *p = ev->args[i].s.p ? ev->args[i].s.p : "";
	*len = ev->args[i].s.len;
	return p;
}

/* Parses a number at the start of text: decimal, 0x hex, 0 octal, signed. */
static bool parse_num(const char *p, size_t len, uint64_t *out)
{
	char buf[48];
	size_t n = 0;
	while (len && (*p == ' ' || *p == '\t'))
		p++, len--;
	if (!len)
		return false;
	if (len >= 4 && !memcmp(p, "NULL", 4)) {
		*out = 0;
		return true;
	}
	if (len >= 8 && !memcmp(p, "AT_FDCWD", 8)) {
		*out = (uint64_t)(int64_t)AT_FDCWD;
		return true;
	}
	while (n < len && n < sizeof(buf) - 1 &&
	       (p[n] == '-' || p[n] == '+' || p[n] == 'x' || p[n] == 'X' ||
		(p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' && p[n] <= 'f') ||
		(p[n] >= 'A' && p[n] <= 'F'))) {
		buf[n] = p[n];
		n++;
	}
	buf[n] = '\0';
	if (!n || !(buf[0] == '-' || buf[0] == '+' || (buf[0] >= '0' && buf[0] <= '9')))
		return false;
	char *end;
	errno = 0;
	if (buf[0] == '-') {
		long long v = strtoll(buf, &end, 0);
		if (errno || end == buf)
			return false;
		*out = (uint64_t)(int64_t)v;
	} else {
		unsigned long long v = strtoull(buf, &end, 0);
		if (errno || end == buf)
			return false;
		*out = v;
	}
	/* "3</path>" and "4096" are numbers; "1024*1024" or "0x10|FLAG" are not. */
	if ((size_t)(end - buf) < len) {
		char c = p[end - buf];
		if (c != '<' && c != ' ' && c != ',' && c != '/')
			return false;
	}
	return true;
}

bool ev_arg_num(const struct event *ev, unsigned i, uint64_t *out)
{
	if (i >= EVENT_MAX_ARGS)
		return false;
	if (i < ev->nargs) {
		const struct val *v = &ev->args[i];
		switch (v->kind) {
		case V_TEXT:
			return parse_num(v->s.p ? v->s.p : "", v->s.len, out);
		case V_INT:
			*out = (uint64_t)v->i;
			return true;
		case V_UINT: case V_OCT: case V_HEX: case V_PTR:
			*out = v->u;
			return true;
		case V_FD:
			*out = (uint64_t)v->fd.fd;
			return true;
		case V_FLAGS: case V_ENUM:
			*out = v->x.v;
			return true;
		default:
			break;
		}
	}
	if (ev_is_text(ev))
		return false;
	*out = ev->karg[i];
	return true;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool unquote_strace(const char *p, size_t len, struct strbuf *out)
{
	if (!len || p[0] != '"')
		return false;
	size_t i = 1;
	while (i < len && p[i] != '"') {
		if (p[i] != '\\' || i + 1 >= len) {
			strbuf_addch(out, p[i++]);
			continue;
		}
		char c = p[i + 1];
		i += 2;
		switch (c) {
		case 'n': strbuf_addch(out, '\n'); break;
		case 't': strbuf_addch(out, '\t'); break;
		case 'r': strbuf_addch(out, '\r'); break;
		case 'v': strbuf_addch(out, '\v'); break;
		case 'f': strbuf_addch(out, '\f'); break;
		case 'a': strbuf_addch(out, '\a'); break;
		case 'b': strbuf_addch(out, '\b'); break;
		case 'x': {
			int v = 0, nd = 0, h;
			while (nd < 2 && i < len && (h = hexval((unsigned char)p[i])) >= 0) {
				v = v * 16 + h;
				i++, nd++;
			}
			strbuf_addch(out, nd ? v : 'x');
			break;
		}
		default:
			if (c >= '0' && c <= '7') {
				int v = c - '0', nd = 1;
				while (nd < 3 && i < len && p[i] >= '0' && p[i] <= '7') {
					v = v * 8 + (p[i] - '0');
					i++, nd++;
				}
				strbuf_addch(out, v & 0xff);
			} else {
				strbuf_addch(out, c);  /* \\ \" and anything else */
			}
		}
	}
	return i < len;  /* closing quote found */
}

bool an_arg_str(const struct event *ev, unsigned i, struct strbuf *out)
{
	if (i >= ev->nargs || i >= EVENT_MAX_ARGS)
		return false;
	const struct val *v = &ev->args[i];
	if (v->kind == V_STR) {
		strbuf_add(out, v->s.p, v->s.len);
		return true;
	}
	if (v->kind == V_TEXT) {
		size_t before = out->len;
		if (unquote_strace(v->s.p ? v->s.p : "", v->s.len, out))
			return true;
		strbuf_setlen(out, before);
	}
	return false;
}

bool ev_arg_fd_path(const struct event *ev, unsigned i, struct strbuf *out)
{
	if (i >= ev->nargs || i >= EVENT_MAX_ARGS)
		return false;
	const struct val *v = &ev->args[i];
	if (v->kind == V_FD && v->fd.path) {
		strbuf_addstr(out, v->fd.path);
		return true;
	}
	if (v->kind == V_TEXT && v->s.p) {
		const char *lt = memchr(v->s.p, '<', v->s.len);
		if (!lt || v->s.p[v->s.len - 1] != '>')
			return false;
		size_t n = (size_t)(v->s.p + v->s.len - 1 - (lt + 1));
		if (!n)
			return false;
		strbuf_add(out, lt + 1, n);
		return true;
	}
	return false;
}

/* True when text holds name as a whole token (delimited by non-identifier chars). */
static bool has_token(const char *p, size_t len, const char *name)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i + nl <= len; i++) {
		if (memcmp(p + i, name, nl))
			continue;
		bool lok = i == 0 || !(p[i - 1] == '_' || (p[i - 1] >= 'A' && p[i - 1] <= 'Z') ||
				       (p[i - 1] >= '0' && p[i - 1] <= '9'));
		char r = i + nl < len ? p[i + nl] : '\0';
		bool rok = !(r == '_' || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'));
		if (lok && rok)
			return true;
	}
	return false;
}

static bool an_val_has_flag(const struct val *v, const char *name, uint64_t bit)
{
	switch (v->kind) {
	case V_TEXT:
		return v->s.p && has_token(v->s.p, v->s.len, name);
	case V_FLAGS: case V_ENUM:
		return (v->x.v & bit) != 0;
	case V_INT: case V_UINT: case V_HEX: case V_OCT:
		return (v->u & bit) != 0;
	case V_STRUCT:
		/* clone3's struct: only its flags field holds flags */
		for (uint32_t k = 0; k < v->c.n; k++)
			if (v->c.items[k].name && !strcmp(v->c.items[k].name, "flags"))
				return an_val_has_flag(&v->c.items[k], name, bit);
		return false;
	case V_ARRAY: case V_OP:
		for (uint32_t k = 0; k < v->c.n; k++)
			if (an_val_has_flag(&v->c.items[k], name, bit))
				return true;
		return false;
	default:
		return false;
	}
}

bool ev_arg_has_flag(const struct event *ev, unsigned i, const char *name, uint64_t bit)
{
	if (i >= EVENT_MAX_ARGS)
		return false;
	if (i < ev->nargs && ev->args[i].kind != V_NONE)
		return an_val_has_flag(&ev->args[i], name, bit);
	if (ev_is_text(ev))
		return false;
	return (ev->karg[i] & bit) != 0;
}

static bool an_val_field(const struct val *v, const char *name, int64_t *out)
{
	if (v->kind == V_STRUCT || v->kind == V_ARRAY) {
		for (uint32_t k = 0; k < v->c.n; k++) {
			const struct val *f = &v->c.items[k];
			if (f->name && !strcmp(f->name, name)) {
				uint64_t u;
				switch (f->kind) {
				case V_INT: *out = f->i; return true;
				case V_UINT: case V_HEX: case V_OCT: case V_PTR:
					*out = (int64_t)f->u; return true;
				case V_FD: *out = f->fd.fd; return true;
				case V_TEXT:
					if (parse_num(f->s.p ? f->s.p : "", f->s.len, &u)) {
						*out = (int64_t)u;
						return true;
					}
					return false;
				default: return false;
				}
			}
			if (an_val_field(f, name, out))
				return true;
		}
		return false;
	}
	if (v->kind == V_TEXT && v->s.p) {
		size_t nl = strlen(name);
		for (size_t i = 0; i + nl + 1 < v->s.len; i++) {
			if (memcmp(v->s.p + i, name, nl) || v->s.p[i + nl] != '=')
				continue;
			if (i && (v->s.p[i - 1] == '_' ||
				  (v->s.p[i - 1] >= 'a' && v->s.p[i - 1] <= 'z')))
				continue;
			uint64_t u;
			if (parse_num(v->s.p + i + nl + 1, v->s.len - i - nl - 1, &u)) {
				*out = (int64_t)u;
				return true;
			}
		}
	}
	return false;
}

bool ev_arg_field(const struct event *ev, unsigned i, const char *name, int64_t *out)
{
	if (i >= ev->nargs || i >= EVENT_MAX_ARGS)
		return false;
	return an_val_field(&ev->args[i], name, out);
}
