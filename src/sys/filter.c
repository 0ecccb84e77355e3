/*
 * -e trace= and -e status= parsing, after strace 6.1's filter_qualify.c:
 * same syntax, same acceptance, same error wording.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sys/compat.h"
#include "sys/filter.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/relimit.h"
#include "util/xmalloc.h"
#include "util/banned.h"

size_t filter_set_bytes(void)
{
	return (sysent_count + 7) / 8;
}

static void set_bit(uint8_t *set, unsigned nr)
{
	set[nr >> 3] |= (uint8_t)(1u << (nr & 7));
}

/* Bytes of a compat personality's bitmap. */
static size_t compat_bytes(int pers)
{
	return (compat_count(pers) + 7) / 8 + 1;
}

void filter_init(struct trace_filter *f)
{
	f->set = xmalloc(filter_set_bytes());
	memset(f->set, 0xff, filter_set_bytes());
	f->cset[PERS_64] = NULL;
	for (int p = PERS_32; p <= PERS_X32; p++) {
		f->cset[p] = xmalloc(compat_bytes(p));
		memset(f->cset[p], 0xff, compat_bytes(p));
	}
	f->all = true;
	f->status_mask = STATUS_ALL;
}

void filter_release(struct trace_filter *f)
{
	free(f->set);
	f->set = NULL;
	for (int p = PERS_32; p <= PERS_X32; p++) {
		free(f->cset[p]);
		f->cset[p] = NULL;
	}
	f->all = false;
	f->status_mask = 0;
}

static bool name_is_compat(const char *name)
{
	for (const char *const *p = sysent_compat_names; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

static bool add_number(uint8_t *set, const char *s)
{
	char *end;
	long n;

	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	n = strtol(s, &end, 10);
	if (*end || n < 0 || (unsigned long)n >= sysent_count)
		return false;
	set_bit(set, (unsigned)n);
	return true;
}

/* Returns 1 when something matched, 0 when nothing did, -1 on a bad regex. */
static int add_regex(uint8_t *set, const char *re, const char *as_typed)
{
	regex_t rx;
	char msg[256];
	int rc = re_compile_bounded(&rx, re, REG_EXTENDED | REG_NOSUB, 0, msg, sizeof(msg));
	bool found = false;

	if (rc)
		return error("invalid regular expression '%s': %s", esc(as_typed), msg);
	for (unsigned i = 0; i < sysent_count; i++) {
		if (!sysent_table[i].name || regexec(&rx, sysent_table[i].name, 0, NULL, 0))
			continue;
		set_bit(set, i);
		found = true;
	}
	regfree(&rx);
	return found;
}

static bool add_class(uint8_t *set, const char *name)
{
	uint32_t bit;

	if (!strcmp(name, "all")) {
		memset(set, 0xff, filter_set_bytes());
		return true;
	}
	bit = sysent_class_by_name(name);
	if (!bit)
		return false;
	for (unsigned i = 0; i < sysent_count; i++)
		if (sysent_table[i].flags & bit)
			set_bit(set, i);
	return true;
}

/*
 * An element in the i386 or x32 table (strace's @32/@x32): a number, a
 * /regex, a class (by the class of the 64-bit call of the same name) or a
 * name.  1 when it selects, 0 when not, -1 on a bad regex.
 */
static int add_compat(uint8_t *set, int pers, const char *t)
{
	unsigned n = compat_count(pers);
	bool found = false;

	if (*t >= '0' && *t <= '9') {
		char *end;
		long v = strtol(t, &end, 10);
		if (*end || v < 0 || (unsigned long)v >= n || !compat_get(pers, v))
			return 0;
		set_bit(set, (unsigned)v);
		return 1;
	}
	if (*t == '/') {
		regex_t rx;
		if (regcomp(&rx, t + 1, REG_EXTENDED | REG_NOSUB))
			return -1;     /* reported by the 64-bit pass */
		for (unsigned i = 0; i < n; i++) {
			const struct compat_sysent *c = compat_get(pers, i);
			if (c && !regexec(&rx, c->name, 0, NULL, 0)) {
				set_bit(set, i);
				found = true;
			}
		}
		regfree(&rx);
		return found;
	}
	uint32_t cls = !strcmp(t, "all") ? ~0u : sysent_class_by_name(t);
	for (unsigned i = 0; i < n; i++) {
		const struct compat_sysent *c = compat_get(pers, i);
		const struct sysent *se;
		if (!c)
			continue;
		if (cls) {
			long nr = sysent_lookup(c->name);
			se = nr >= 0 ? sysent_get(nr) : NULL;
			if (cls != ~0u && !(se && (se->flags & cls)))
				continue;
		} else if (strcmp(c->name, t)) {
			continue;
		}
		set_bit(set, i);
		found = true;
	}
	return found || cls;
}

/*
 * One element of a trace set, for the personalities it names (an @64,
 * @32 or @x32 suffix; all without one); 1 when it selects, 0 when not, -1
 * on error.
 */
static int add_token(struct trace_filter *f, const char *token)
{
	const char *t = token;
	bool ignore = false;
	unsigned pers = (1u << PERS_64) | (1u << PERS_32) | (1u << PERS_X32);
	char *name = NULL;
	const char *at;
	long nr;
	int r = 0, c;

	while (*t == '?') {
		t++;
		ignore = true;
	}
	if ((at = strrchr(t, '@')) && at != t) {
		if (!strcmp(at, "@64"))
			pers = 1u << PERS_64;
		else if (!strcmp(at, "@32"))
			pers = 1u << PERS_32;
		else if (!strcmp(at, "@x32"))
			pers = 1u << PERS_X32;
		else
			at = NULL;
		if (at)
			t = name = xstrndup(t, (size_t)(at - t));
	}
	if (pers & (1u << PERS_64)) {
		if (*t >= '0' && *t <= '9') {
			r = add_number(f->set, t);
		} else if (*t == '/') {
			r = add_regex(f->set, t + 1, token);
		} else if (add_class(f->set, t)) {
			r = 1;
		} else if ((nr = sysent_lookup(t)) >= 0) {
			set_bit(f->set, (unsigned)nr);
			r = 1;
		}
		if (r < 0)
			goto out;
	}
	for (int p = PERS_32; p <= PERS_X32; p++) {
		if (!(pers & (1u << p)))
			continue;
		c = add_compat(f->cset[p], p, t);
		if (c < 0 && !(pers & (1u << PERS_64))) {
			r = error("invalid regular expression '%s'", esc(token));
			goto out;
		}
		if (c > 0)
			r = 1;
	}
	/* a name of another personality strace accepts even where it
	 * selects nothing here */
	if (!r && pers != (1u << PERS_64))
		r = name_is_compat(t);
out:
	free(name);
	return r < 0 ? -1 : (r || ignore);
}

/*
 * Calls fn on each comma-separated non-empty element of s; stops at the
 * first that does not return 1.  Returns the last result, or 0 when s holds
 * no element.  *bad is the element that failed.
 */
static int for_each_token(const char *s, int (*fn)(void *data, const char *token),
			  void *data, char **bad)
{
	char *copy = xstrdup(s), *p = copy;
	int r = 0;

	*bad = NULL;
	while (*p) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (*p) {
			r = fn(data, p);
			if (r != 1) {
				*bad = xstrdup(p);
				break;
			}
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	free(copy);
	return r;
}

static int trace_token(void *data, const char *token)
{
	return add_token(data, token);
}

/* Sets (all) or clears every bit of the compat personalities' sets. */
static void compat_fill(struct trace_filter *f, int byte)
{
	for (int p = PERS_32; p <= PERS_X32; p++)
		memset(f->cset[p], byte, compat_bytes(p));
}

int filter_trace(struct trace_filter *f, const char *spec)
{
	size_t n = filter_set_bytes();
	const char *s = spec;
	bool invert = false;
	char *bad;
	int r;

	while (*s == '!') {
		invert = !invert;
		s++;
	}
	memset(f->set, 0, n);
	compat_fill(f, 0);
	if (!strcmp(s, "all")) {
		memset(f->set, 0xff, n);
		compat_fill(f, 0xff);
	} else if (strcmp(s, "none")) {
		r = for_each_token(s, trace_token, f, &bad);
		if (r != 1) {
			if (r == 0)
				error("invalid system call '%s'", esc(bad ? bad : spec));
			free(bad);
			return -1;
		}
	}
	if (invert) {
		for (size_t i = 0; i < n; i++)
			f->set[i] = (uint8_t)~f->set[i];
		for (int p = PERS_32; p <= PERS_X32; p++)
			for (size_t i = 0; i < compat_bytes(p); i++)
				f->cset[p][i] = (uint8_t)~f->cset[p][i];
	}
	/* numbers without a row are always traced (strace does so) */
	f->all = true;
	for (unsigned i = 0; i < sysent_count; i++) {
		if (!sysent_table[i].name)
			set_bit(f->set, i);
		else if (!(f->set[i >> 3] & (1u << (i & 7))))
			f->all = false;
	}
	return 0;
}

static const struct {
	const char *name;
	unsigned bit;
} status_names[] = {
	{ "successful", STATUS_SUCCESSFUL },
	{ "failed", STATUS_FAILED },
	{ "unfinished", STATUS_UNFINISHED },
	{ "unavailable", STATUS_UNAVAILABLE },
	{ "detached", STATUS_DETACHED },
};

static int status_token(void *data, const char *token)
{
	unsigned *mask = data;
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++) {
		if (!strcasecmp(token, status_names[i].name)) {
			*mask |= status_names[i].bit;
			return 1;
		}
	}
	return 0;
}

int filter_status(struct trace_filter *f, const char *spec)
{
	const char *s = spec;
	bool invert = false;
	unsigned mask = 0;
	char *bad;

	while (*s == '!') {
		invert = !invert;
		s++;
	}
	if (!strcmp(s, "all")) {
		mask = STATUS_ALL;
	} else if (strcmp(s, "none")) {
		if (for_each_token(s, status_token, &mask, &bad) != 1) {
			error("invalid status '%s'", esc(bad ? bad : spec));
			free(bad);
			return -1;
		}
	}
	if (invert)
		mask = ~mask & STATUS_ALL;
	f->status_mask = mask ? mask : STATUS_NONE;
	return 0;
}

/* strace 6.1's qualifiers that are not ours, without the '='. */
static const char *const other_qualifiers[] = {
	"abbrev", "a", "verbose", "v", "raw", "x", "signal", "signals", "s",
	"read", "reads", "r", "write", "writes", "w", "fault", "inject",
	"quiet", "silent", "silence", "q", "decode-fds", "decode-fd",
	"decode-pids", "decode-pid", "kvm", "secontext", "trace-fds",
	"trace-fd", "fd", "fds",
};

int filter_qualifier(struct trace_filter *f, const char *expr)
{
	const char *eq = strchr(expr, '=');
	size_t len;

	if (!eq)
		return filter_trace(f, expr);
	len = (size_t)(eq - expr);
	if ((len == 5 && !strncmp(expr, "trace", 5)) || (len == 1 && expr[0] == 't'))
		return filter_trace(f, eq + 1);
	if (len == 6 && !strncmp(expr, "status", 6))
		return filter_status(f, eq + 1);
	for (size_t i = 0; i < sizeof(other_qualifiers) / sizeof(other_qualifiers[0]); i++)
		if (strlen(other_qualifiers[i]) == len && !strncmp(expr, other_qualifiers[i], len))
			return 1;
	return filter_trace(f, expr);
}

bool compat_set_has(const uint8_t *cset, int pers, long pers_nr)
{
	if (!cset || pers_nr < 0 || (unsigned long)pers_nr >= compat_count(pers))
		return true;
	return cset[pers_nr >> 3] & (1u << (pers_nr & 7));
}
