/*
 * strace 6.1's qualifier sets other than trace= and status= (see qualify.h),
 * after its filter_qualify.c: qualify_tokens() semantics and wording.
 */
#include "sys/qualify.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "event.h"
#include "sys/decode.h"
#include "sys/filter.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

bool numset_has(const struct numset *s, uint64_t n)
{
	bool in = n / 64 < s->nwords && (s->bits[n / 64] >> (n % 64)) & 1;
	return in != s->invert;
}

bool numset_empty(const struct numset *s)
{
	if (s->invert)
		return false;
	for (unsigned i = 0; i < s->nwords; i++)
		if (s->bits[i])
			return false;
	return true;
}

void numset_release(struct numset *s)
{
	free(s->bits);
	s->bits = NULL;
	s->nwords = 0;
	s->invert = false;
}

static void numset_add(struct numset *s, uint64_t n)
{
	unsigned w = (unsigned)(n / 64);

	if (w >= s->nwords) {
		s->bits = xrealloc(s->bits, (w + 1) * sizeof(*s->bits));
		memset(s->bits + s->nwords, 0, (w + 1 - s->nwords) * sizeof(*s->bits));
		s->nwords = w + 1;
	}
	s->bits[w] |= (uint64_t)1 << (n % 64);
}

/* strace's string_to_uint_upto: decimal digits only, <= max; -1 if not. */
static long to_uint(const char *s, long max)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v < 0 || v > max)
		return -1;
	return v;
}

typedef long (*token_fn)(const char *token);

/*
 * strace's qualify_tokens(): clears s, applies leading '!', "all" and
 * "none", then adds fn(token) for each comma-separated token.  what names
 * the kind in the error: "invalid <what> '<token>'".
 */
static int qualify_tokens(struct numset *s, const char *spec, token_fn fn, const char *what)
{
	const char *p = spec;
	char *copy, *save = NULL, *tok;
	long n = -1;

	numset_release(s);
	while (*p == '!') {
		s->invert = !s->invert;
		p++;
	}
	if (!strcmp(p, "none"))
		return 0;
	if (!strcmp(p, "all")) {
		s->invert = !s->invert;
		return 0;
	}
	copy = xstrdup(p);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		n = fn(tok);
		if (n < 0) {
			error("invalid %s '%s'", what, esc(tok));
			free(copy);
			return -1;
		}
		numset_add(s, (uint64_t)n);
	}
	free(copy);
	if (n < 0)
		return error("invalid %s '%s'", what, esc(spec));
	return 0;
}

static long fd_token(const char *t)
{
	return to_uint(t, 0x7fffffff);
}

int qualify_fds(struct numset *s, const char *spec)
{
	return qualify_tokens(s, spec, fd_token, "descriptor");
}

/* strace's sigstr_to_uint: 0..255, or a name with or without SIG. */
static long sig_token(const char *t)
{
	if (isdigit((unsigned char)*t))
		return to_uint(t, 255);
	int sig = signal_by_name(t);
	return sig > 0 ? sig : -1;
}

int qualify_signals(uint64_t *mask, const char *spec)
{
	struct numset s = NUMSET_INIT;
	uint64_t m = 0;

	if (qualify_tokens(&s, spec, sig_token, "signal") < 0) {
		numset_release(&s);
		return -1;
	}
	for (unsigned sig = 1; sig <= 64; sig++)
		if (numset_has(&s, sig))
			m |= (uint64_t)1 << (sig - 1);
	numset_release(&s);
	*mask = m;
	return 0;
}

static const struct { const char *name; unsigned bit; } quiet_names[] = {
	{ "attach", QUIET_ATTACH }, { "exit", QUIET_EXIT }, { "exits", QUIET_EXIT },
	{ "path-resolution", QUIET_PATH_RESOLVE }, { "personality", QUIET_PERSONALITY },
	{ "superseded", QUIET_THREAD_EXECVE }, { "thread-execve", QUIET_THREAD_EXECVE },
};

static long quiet_token(const char *t)
{
	for (size_t i = 0; i < sizeof(quiet_names) / sizeof(quiet_names[0]); i++)
		if (!strcasecmp(t, quiet_names[i].name))
			return __builtin_ctz(quiet_names[i].bit);
	return -1;
}

/* The bits 0..31 of a numset as a mask limited to all. */
static unsigned numset_mask(const struct numset *s, unsigned all)
{
	unsigned m = 0;

	for (unsigned b = 0; b < 32; b++)
		if (((all >> b) & 1) && numset_has(s, b))
			m |= 1u << b;
	return m;
}

int qualify_quiet(unsigned *mask, const char *spec)
{
	struct numset s = NUMSET_INIT;
	int r = qualify_tokens(&s, spec, quiet_token, "quiet");

	if (r == 0)
		*mask = numset_mask(&s, QUIET_ALL);
	numset_release(&s);
	return r;
}

static const struct { const char *name; unsigned bit; } decode_fd_names[] = {
	{ "path", DECODE_FD_PATH }, { "socket", DECODE_FD_SOCKET },
	{ "dev", DECODE_FD_DEV }, { "pidfd", DECODE_FD_PIDFD },
};

static long decode_fd_token(const char *t)
{
	for (size_t i = 0; i < sizeof(decode_fd_names) / sizeof(decode_fd_names[0]); i++)
		if (!strcasecmp(t, decode_fd_names[i].name))
			return __builtin_ctz(decode_fd_names[i].bit);
	return -1;
}

int qualify_decode_fds(unsigned *mask, const char *spec)
{
	struct numset s = NUMSET_INIT;
	int r = qualify_tokens(&s, spec, decode_fd_token, "decode-fds");

	if (r == 0)
		*mask = numset_mask(&s, DECODE_FD_ALL);
	numset_release(&s);
	return r;
}

static long decode_pid_token(const char *t)
{
	if (!strcasecmp(t, "pidns"))
		return __builtin_ctz(DECODE_PID_NS);
	if (!strcasecmp(t, "comm"))
		return __builtin_ctz(DECODE_PID_COMM);
	return -1;
}

int qualify_decode_pids(unsigned *mask, const char *spec)
{
	struct numset s = NUMSET_INIT;
	int r = qualify_tokens(&s, spec, decode_pid_token, "decode-pids");

	if (r == 0)
		*mask = numset_mask(&s, DECODE_PID_NS | DECODE_PID_COMM);
	numset_release(&s);
	return r;
}

int qualify_syscalls(uint8_t **set, const char *spec)
{
	struct trace_filter f;
	int r;

	filter_init(&f);
	r = filter_trace(&f, spec);
	if (r < 0) {
		filter_release(&f);
		return -1;
	}
	free(*set);
	*set = f.set;     /* ownership moves to the caller */
	f.set = NULL;
	filter_release(&f);
	return 0;
}

int parse_precision(const char *s)
{
	if (!strcmp(s, "s"))
		return 0;
	if (!strcmp(s, "ms"))
		return 3;
	if (!strcmp(s, "us"))
		return 6;
	if (!strcmp(s, "ns"))
		return 9;
	return -1;
}

int parse_time_ns(const char *s, uint64_t default_ns, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 0 }, { "s", 1000000000u }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 },
	};
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		double total = v * (double)(units[i].ns ? units[i].ns : default_ns);
		if (total >= 1.8e19)
			return -1;
		*ns = (uint64_t)(total + 0.5);
		return 0;
	}
	return -1;
}
