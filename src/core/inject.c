/*
 * -e inject= / -e fault= (see inject.h), after strace 6.1's
 * filter_qualify.c (the syntax) and syscall.c (tamper_with_syscall_*).
 */
#include "core/inject.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch.h"
#include "sys/tmem.h"
#include "event.h"
#include "sys/filter.h"
#include "sys/qualify.h"
#include "sys/sysent.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

enum {
	INJ_ERROR = 1 << 0,
	INJ_RETVAL = 1 << 1,
	INJ_SIGNAL = 1 << 2,
	INJ_SYSCALL = 1 << 3,
	INJ_DELAY_ENTER = 1 << 4,
	INJ_DELAY_EXIT = 1 << 5,
	INJ_POKE_ENTER = 1 << 6,
	INJ_POKE_EXIT = 1 << 7,
	INJ_ACTIONS = INJ_ERROR | INJ_RETVAL | INJ_SIGNAL | INJ_DELAY_ENTER |
		      INJ_DELAY_EXIT | INJ_POKE_ENTER | INJ_POKE_EXIT,
};

#define LAST_INF 0xffff   /* strace's INJECT_LAST_INF */
#define MAX_ERRNO 4095

struct poke {
	unsigned arg;          /* 1..7 */
	uint8_t *data;
	size_t len;
	bool enter;
};

struct rule {
	unsigned flags;        /* INJ_* */
	uint16_t first, last, step;
	int err;               /* error= */
	uint64_t retval;       /* retval= */
	int signo;             /* signal= */
	long scno;             /* syscall=: the pure syscall run instead */
	uint64_t delay_enter_ns, delay_exit_ns;
	struct poke *pokes;
	size_t npokes, apokes;
};

struct inject_set {
	struct rule *rules;
	size_t n, alloc;
	int32_t *rule_of;      /* per syscall number: rule index or -1 */
	bool delays;
};

/* The current call of a task. */
enum {
	T_TAMPERED = 1 << 0,   /* the number was replaced: set the result */
	T_NOFAIL = 1 << 1,     /* replaced by a pure syscall (no ENOSYS) */
	T_POKE_EXIT = 1 << 2,
	T_DELAY_EXIT = 1 << 3,
	T_POKED = 1 << 4,
	T_DELAYED = 1 << 5,
};

struct inject_task {
	uint16_t *first, *last;  /* per syscall number, counting down */
	unsigned cur;            /* T_* of the call in progress */
};

struct inject_set *inject_set_new(void)
{
	struct inject_set *s = xcalloc(1, sizeof(*s));

	s->rule_of = xmalloc((sysent_count ? sysent_count : 1) * sizeof(*s->rule_of));
	for (unsigned i = 0; i < sysent_count; i++)
		s->rule_of[i] = -1;
	return s;
}

static void rule_release(struct rule *r)
{
	for (size_t i = 0; i < r->npokes; i++)
		free(r->pokes[i].data);
	free(r->pokes);
}

void inject_set_free(struct inject_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		rule_release(&s->rules[i]);
	free(s->rules);
	free(s->rule_of);
	free(s);
}

bool inject_set_has_signals(const struct inject_set *s)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (s->rules[i].flags & INJ_SIGNAL)
			return true;
	return false;
}

bool inject_set_has_delays(const struct inject_set *s)
{
	return s && s->delays;
}

/* strace's string_to_uint_ex: digits up to a character of accept; -1 when
 * the number is missing, too big or followed by anything else. */
static long num(const char *s, char **end, long max, const char *accept)
{
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, end, 10);
	if (errno || v > max || (**end && !strchr(accept, **end)))
		return -1;
	return v;
}

/* when=FIRST[..LAST][+[STEP]] */
static bool parse_when(const char *val, struct rule *r)
{
	char *end;
	long v = num(val, &end, 0xffff, "+.");

	if (v < 1)
		return false;
	r->first = (uint16_t)v;
	if (end[0] == '.') {
		if (end[1] != '.')
			return false;
		v = num(end + 2, &end, 0xffff, "+");
		if (v < r->first || v == LAST_INF)
			return false;
		r->last = (uint16_t)v;
	} else {
		r->last = LAST_INF;
	}
	if (end[0]) {
		const char *step = end + 1;
		if (*step) {
			v = num(step, &end, 0xffff, "");
			if (v < 1)
				return false;
			r->step = (uint16_t)v;
		} else {
			r->step = 1;
		}
	} else {
		r->step = r->last == LAST_INF ? 0 : 1;
	}
	return true;
}

static int errno_by_name(const char *name)
{
	for (int i = 1; i <= MAX_ERRNO; i++) {
		const char *n = errno_name(i);
		if (n && !strcasecmp(n, name))
			return i;
	}
	return -1;
}

/* @argN=HEX[,@argM=HEX...] */
static bool parse_pokes(const char *val, struct rule *r, bool enter)
{
	unsigned flag = enter ? INJ_POKE_ENTER : INJ_POKE_EXIT;
	char *copy, *save = NULL, *tok;
	bool ok = true;

	if ((r->flags & flag) || !*val)
		return false;
	copy = xstrdup(val);
	for (tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
		struct poke p = { 0 };
		size_t hex;

		if (strncmp(tok, "@arg", 4) || tok[4] < '1' || tok[4] > '7' || tok[5] != '=') {
			ok = false;
			break;
		}
		p.arg = (unsigned)(tok[4] - '0');
		p.enter = enter;
		hex = strlen(tok + 6);
		if (!hex || hex % 2 || hex > 2048) {
			ok = false;
			break;
		}
		p.len = hex / 2;
		p.data = xmalloc(p.len);
		for (size_t i = 0; i < p.len && ok; i++) {
			char b[3] = { tok[6 + 2 * i], tok[7 + 2 * i], 0 };
			char *e;
			if (!isxdigit((unsigned char)b[0]) || !isxdigit((unsigned char)b[1]))
				ok = false;
			else
				p.data[i] = (uint8_t)strtoul(b, &e, 16);
		}
		if (!ok) {
			free(p.data);
			break;
		}
		ALLOC_GROW(r->pokes, r->npokes + 1, r->apokes);
		r->pokes[r->npokes++] = p;
	}
	free(copy);
	if (ok)
		r->flags |= flag;
	return ok;
}

/* One ":key=value" of an inject expression; false when it is invalid. */
static bool parse_token(const char *tok, struct rule *r, bool fault)
{
	const char *v;

	if (!strncmp(tok, "when=", 5))
		return parse_when(tok + 5, r);
	if (!strncmp(tok, "syscall=", 8)) {
		long nr;
		const struct sysent *se;
		if (r->flags & INJ_SYSCALL)
			return false;
		nr = sysent_lookup(tok + 8);
		se = sysent_get(nr);
		/* only pure syscalls, which have no side effects */
		if (!se || !(se->flags & TRACE_PURE))
			return false;
		r->scno = nr;
		r->flags |= INJ_SYSCALL;
		return true;
	}
	if (!strncmp(tok, "error=", 6)) {
		char *end;
		long e;
		v = tok + 6;
		if (r->flags & (INJ_ERROR | INJ_RETVAL))
			return false;
		e = num(v, &end, MAX_ERRNO, "");
		if (e < 0)
			e = errno_by_name(v);
		if (e < 1)
			return false;
		r->err = (int)e;
		r->flags |= INJ_ERROR;
		return true;
	}
	if (fault)
		return false;
	if (!strncmp(tok, "retval=", 7)) {
		char *end;
		unsigned long long u;
		v = tok + 7;
		if (r->flags & (INJ_ERROR | INJ_RETVAL))
			return false;
		errno = 0;
		u = strtoull(v, &end, 0);
		if (end == v || *end || ((u == 0 || u == ULLONG_MAX) && errno))
			return false;
		if ((int64_t)u < 0 && (int64_t)u >= -MAX_ERRNO)
			warning("inadvertent injection of error %lld is possible for retval=%llu",
				-(long long)(int64_t)u, u);
		r->retval = u;
		r->flags |= INJ_RETVAL;
		return true;
	}
	if (!strncmp(tok, "signal=", 7)) {
		long sig;
		char *end;
		v = tok + 7;
		if (r->flags & INJ_SIGNAL)
			return false;
		sig = isdigit((unsigned char)*v) ? num(v, &end, 255, "") : signal_by_name(v);
		if (sig < 1 || sig > 64)
			return false;
		r->signo = (int)sig;
		r->flags |= INJ_SIGNAL;
		return true;
	}
	if (!strncmp(tok, "poke_enter=", 11))
		return parse_pokes(tok + 11, r, true);
	if (!strncmp(tok, "poke_exit=", 10))
		return parse_pokes(tok + 10, r, false);
	if (!strncmp(tok, "delay_enter=", 12) || !strncmp(tok, "delay_exit=", 11)) {
		bool enter = tok[7] == 'n';  /* delay_e(n)ter, delay_e(x)it */
		unsigned flag = enter ? INJ_DELAY_ENTER : INJ_DELAY_EXIT;
		uint64_t ns;
		if ((r->flags & flag) || parse_time_ns(tok + (enter ? 12 : 11), 1000, &ns) < 0)
			return false;
		if (enter)
			r->delay_enter_ns = ns;
		else
			r->delay_exit_ns = ns;
		r->flags |= flag;
		return true;
	}
	return false;
}

int inject_set_add(struct inject_set *s, const char *spec, bool fault)
{
	const char *what = fault ? "fault argument" : "inject argument";
	struct rule r = { 0 };
	uint8_t *set = NULL;
	char *copy, *save = NULL, *name, *tok;
	int ret = -1;

	r.first = 1;
	r.last = LAST_INF;
	r.step = 1;
	copy = xstrdup(spec);
	if (copy[0] == '\0' || copy[0] == ':') {
		name = "";
	} else {
		name = strtok_r(copy, ":", &save);
		while ((tok = strtok_r(NULL, ":", &save)))
			if (!parse_token(tok, &r, fault)) {
				error("invalid %s '%s'", what, esc(spec));
				goto out;
			}
	}
	if (qualify_syscalls(&set, name) < 0)
		goto out;
	if (!(r.flags & INJ_ACTIONS)) {
		if (!fault) {
			error("invalid %s '%s'", what, esc(spec));
			goto out;
		}
		r.err = ENOSYS;     /* fault='s default */
		r.flags |= INJ_ERROR;
	}
	ALLOC_GROW(s->rules, s->n + 1, s->alloc);
	s->rules[s->n] = r;
	memset(&r, 0, sizeof(r));
	for (unsigned i = 0; i < sysent_count; i++)
		if (set[i >> 3] & (1u << (i & 7)))
			s->rule_of[i] = (int32_t)s->n;
	if (s->rules[s->n].flags & (INJ_DELAY_ENTER | INJ_DELAY_EXIT))
		s->delays = true;
	s->n++;
	ret = 0;
out:
	rule_release(&r);
	free(set);
	free(copy);
	return ret;
}

struct inject_task *inject_task_new(const struct inject_set *s)
{
	struct inject_task *t = xcalloc(1, sizeof(*t));
	size_t n = sysent_count ? sysent_count : 1;

	t->first = xcalloc(n, sizeof(*t->first));
	t->last = xcalloc(n, sizeof(*t->last));
	for (unsigned i = 0; i < sysent_count; i++) {
		int32_t k = s->rule_of[i];
		if (k >= 0) {
			t->first[i] = s->rules[k].first;
			t->last[i] = s->rules[k].last;
		}
	}
	return t;
}

void inject_task_free(struct inject_task *t)
{
	if (!t)
		return;
	free(t->first);
	free(t->last);
	free(t);
}

static const struct rule *rule_for(const struct inject_set *s, long nr)
{
	if (!s || nr < 0 || (unsigned long)nr >= sysent_count || s->rule_of[nr] < 0)
		return NULL;
	return &s->rules[s->rule_of[nr]];
}

/* Writes the data of the pokes of r for this stop; true when any was. */
static bool do_pokes(const struct rule *r, pid_t tid, const uint64_t *args, bool enter)
{
	bool any = false;

	for (size_t i = 0; i < r->npokes; i++) {
		const struct poke *p = &r->pokes[i];
		if (p->enter != enter || p->arg > 6 || !args[p->arg - 1])
			continue;
		if (tmem_write(tid, args[p->arg - 1], p->data, p->len) == 0)
			any = true;
	}
	return any;
}

void inject_enter(const struct inject_set *s, struct inject_task *t, pid_t tid,
		  long nr, const uint64_t *args, struct inject_act *act)
{
	const struct rule *r = rule_for(s, nr);

	memset(act, 0, sizeof(*act));
	t->cur = 0;
	/* strace's tamper_with_syscall_entering: count down to the
	 * invocation :when= selects, then every step-th up to last */
	if (!r || t->first[nr] == 0 || t->last[nr] == 0)
		return;
	if (t->last[nr] != LAST_INF)
		t->last[nr]--;
	if (--t->first[nr] != 0)
		return;
	t->first[nr] = r->step;

	if (r->flags & INJ_SIGNAL)
		act->signo = r->signo;
	if (r->flags & (INJ_ERROR | INJ_RETVAL)) {
		long scno = (r->flags & INJ_SYSCALL) ? r->scno : -1;
		if (arch_set_scno(tid, scno) == 0) {
			t->cur |= T_TAMPERED;
			if (scno != -1)
				t->cur |= T_NOFAIL;
		}
	}
	if ((r->flags & INJ_POKE_ENTER) && do_pokes(r, tid, args, true))
		t->cur |= T_POKED;
	if (r->flags & INJ_POKE_EXIT)
		t->cur |= T_POKE_EXIT;
	if (r->flags & INJ_DELAY_ENTER) {
		act->delay_ns = r->delay_enter_ns;
		t->cur |= T_DELAYED;
	}
	if (r->flags & INJ_DELAY_EXIT)
		t->cur |= T_DELAY_EXIT;
}

uint8_t inject_exit(const struct inject_set *s, struct inject_task *t, pid_t tid,
		    long nr, const uint64_t *args, int64_t *rval, bool *is_error,
		    struct inject_act *act)
{
	const struct rule *r = rule_for(s, nr);
	uint8_t tamper = 0;

	memset(act, 0, sizeof(*act));
	if (!r || !t->cur)
		return 0;
	if ((t->cur & T_POKE_EXIT) && do_pokes(r, tid, args, false))
		t->cur |= T_POKED;
	if (t->cur & T_DELAY_EXIT) {
		act->delay_ns = r->delay_exit_ns;
		t->cur |= T_DELAYED;
	}
	if (t->cur & T_TAMPERED) {
		/* the call was skipped (-1: ENOSYS) or was the pure one */
		if (*is_error == !(t->cur & T_NOFAIL)) {
			int64_t v = (r->flags & INJ_RETVAL) ? (int64_t)r->retval : -(int64_t)r->err;
			if (arch_set_rval(tid, v) == 0) {
				*rval = v;
				*is_error = !(r->flags & INJ_RETVAL);
				tamper |= TAMPER_INJECTED;
			}
		} else {
			warning("failed to tamper with process %d: unexpectedly got %serror "
				"(return value %#llx)", (int)tid, (t->cur & T_NOFAIL) ? "" : "no ",
				(unsigned long long)*rval);
		}
	}
	if (t->cur & T_POKED)
		tamper |= TAMPER_POKED;
	if (t->cur & T_DELAYED)
		tamper |= TAMPER_DELAYED;
	t->cur = 0;
	return tamper;
}
