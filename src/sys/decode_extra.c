/*
 * Value builders for strace's expressions (see decode_extra.h): calls,
 * name=value arguments, [N], a => b, signal names, sigsets and timevals.
 */
#include "sys/decode_extra.h"

#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "util/xmalloc.h"
#include "util/banned.h"

const char *xlat_name(const struct xlat *xl, uint64_t x)
{
	if (!xl)
		return NULL;
	for (uint32_t i = 0; i < xl->size; i++)
		if (xl->data[i].val == x && xl->data[i].str)
			return xl->data[i].str;
	return NULL;
}

const char *xlat_flags_text(struct dctx *c, const struct xlat *xl, uint64_t x)
{
	char buf[512];
	size_t n = 0;
	bool named = false;

	if (!xl)
		return NULL;
	if (!x) {
		const char *z = xlat_name(xl, 0);

		return z ? arena_strndup(c->arena, z, strlen(z)) : NULL;
	}
	for (uint32_t i = 0; i < xl->size && x; i++) {
		uint64_t bit = xl->data[i].val;

		if (!xl->data[i].str || !bit || (x & bit) != bit)
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", named ? "|" : "",
				      xl->data[i].str);
		if (n >= sizeof(buf))
			return NULL;
		named = true;
		x &= ~bit;
	}
	if (!named)
		return NULL;
	if (x)
		snprintf(buf + n, sizeof(buf) - n, "|%#llx", (unsigned long long)x);
	return arena_strndup(c->arena, buf, strlen(buf));
}

bool xlat_flags_named(const struct xlat *xl, uint64_t x)
{
	if (!xl)
		return false;
	for (uint32_t i = 0; i < xl->size; i++)
		if (xl->data[i].str && xl->data[i].val && (x & xl->data[i].val) == xl->data[i].val)
			return true;
	return false;
}

static char *fn_open(struct dctx *c, const char *fname)
{
	size_t n = strlen(fname);
	char *s = arena_alloc(c->arena, n + 2);

	memcpy(s, fname, n);
	s[n] = '(';
	s[n + 1] = '\0';
	return s;
}

void val_set_call(struct dctx *c, struct val *v, const char *name, const char *fname,
		  struct val *items, unsigned n)
{
	struct val *parts = val_new_array(c, 3);

	val_set_text(c, &parts[0], NULL, "");
	parts[0].s.p = fn_open(c, fname);
	parts[0].s.len = (uint32_t)strlen(parts[0].s.p);
	val_set_op(&parts[1], NULL, items, n, ", ");
	val_set_text(c, &parts[2], NULL, ")");
	val_set_op(v, name, parts, 3, NULL);
}

void val_set_call_u(struct dctx *c, struct val *v, const char *name, const char *fname,
		    uint64_t x)
{
	struct val *it = val_new_array(c, 1);

	val_set_uint(it, NULL, x);
	val_set_call(c, v, name, fname, it, 1);
}

void val_set_named(struct dctx *c, struct val *v, const char *name, const char *label,
		   const struct val *x)
{
	struct val *parts = val_new_array(c, 2);

	val_set_text(c, &parts[0], NULL, label);
	parts[1] = *x;
	parts[1].name = NULL;
	val_set_op(v, name, parts, 2, "=");
}

void val_set_boxed(struct dctx *c, struct val *v, const char *name, const struct val *x)
{
	struct val *it = val_new_array(c, 1);

	*it = *x;
	it->name = NULL;
	val_set_array(v, name, it, 1, false);
}

void val_set_changed(struct dctx *c, struct val *v, const char *name,
		     const struct val *a, const struct val *b)
{
	struct val *it = val_new_array(c, 2);

	it[0] = *a;
	it[0].name = NULL;
	it[1] = *b;
	it[1].name = NULL;
	val_set_op(v, name, it, 2, " => ");
}

/* Signal names 1..64 as a table, so that -X raw/verbose show numbers. */
static const struct xlat *signal_xlat(void)
{
	static struct xlat_data data[64];
	static struct xlat xl;

	if (!xl.data) {
		for (int i = 1; i <= 64; i++) {
			data[i - 1].val = (uint64_t)i;
			data[i - 1].str = signal_name(i);
		}
		xl.data = data;
		xl.size = 64;
		xl.type = XT_ENUM;
	}
	return &xl;
}

void val_set_signal(struct dctx *c, struct val *v, const char *name, int sig)
{
	const char *s = sig > 0 ? signal_name(sig) : NULL;

	if (s) {
		val_set_enum(v, name, (uint64_t)sig, signal_xlat());
		v->flags |= VF_DECIMAL;
	} else {
		val_set_int(v, name, sig);
	}
}

void val_read_int_boxed(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	int x;
	struct val t;

	if (!tread(c, addr, &x, sizeof(x))) {
		val_set_ptr(v, name, addr);
		return;
	}
	val_set_int(&t, NULL, x);
	val_set_boxed(c, v, name, &t);
}

void decode_sigset_min(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		       uint64_t size, uint64_t min_size)
{
	uint64_t mask = 0;
	unsigned words, bits;

	if (!addr || size < min_size || size > sizeof(mask) ||
	    !tread(c, addr, &mask, (size_t)size)) {
		val_set_ptr(v, name, addr);
		return;
	}
	val_set_sigset(v, name, mask);
	/* strace shows the complement when 2/3 or more of the 32-bit words'
	 * bits are set; the renderer inverts all 64 bits, so bits beyond the
	 * set's size are marked set to disappear in the complement. */
	words = (unsigned)((size + 3) / 4);
	bits = words * 32;
	v->flags &= (uint16_t)~VF_SIGSET_NOT;
	if ((unsigned)__builtin_popcountll(mask) >= bits * 2 / 3) {
		v->flags |= VF_SIGSET_NOT;
		if (bits < 64)
			v->sig.mask |= ~0ULL << bits;
	}
}

void decode_sigset(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		   uint64_t size)
{
	decode_sigset_min(c, v, name, addr, size, sizeof(long));
}

void decode_timeval(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct timeval tv;
	struct val *it;

	if (!tread(c, addr, &tv, sizeof(tv))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, 2);
	val_set_int(&it[0], "tv_sec", tv.tv_sec);
	val_set_int(&it[1], "tv_usec", tv.tv_usec);
	val_set_struct(v, name, it, 2, false);
}

struct val *arg_put(struct dctx *c, struct event *ev, unsigned i, const struct val *x)
{
	struct val *v = arg_slot(c, ev, i);
	const char *name = v->name;

	*v = *x;
	v->name = name;
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
	return v;
}

void val_set_clock_t(struct dctx *c, struct val *v, const char *name, uint64_t ticks)
{
	static long hz;
	char buf[96];
	struct val x;
	int digits = 0;

	if (!hz)
		hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : -1;
	val_set_uint(&x, NULL, ticks);
	if (!ticks || hz <= 0) {
		val_set_commented(c, v, name, &x, NULL);
		return;
	}
	for (long t = hz; t >= 10 && digits < 18; t /= 10)
		digits++;
	/* (digits is at most 18; the mask tells gcc -O1 so) */
	snprintf(buf, sizeof(buf), "%llu.%0*llu s", (unsigned long long)(ticks / (uint64_t)hz),
		 digits & 0x1f, (unsigned long long)(ticks % (uint64_t)hz));
	{
		/* strace leaves the comment out under -X raw */
		struct val forms[3];

		val_set_commented(c, &forms[0], NULL, &x, buf);
		forms[1] = x;
		forms[2] = forms[0];
		val_set_xforms(c, v, name, &forms[0], &forms[1], &forms[2]);
	}
}

/* The last call of each thread that ended with ERESTART_RESTARTBLOCK; a
 * small table, overwritten round robin (a thread resumes its call at once). */
static struct {
	pid_t tid;
	const char *name;
} restarts[64];
static unsigned restart_next;

void restart_note(const struct dctx *c, const struct event *ev)
{
	if (ev->err != 516 || !ev->name)
		return;
	for (unsigned i = 0; i < ARRAY_SIZE(restarts); i++) {
		if (restarts[i].tid == c->tid) {
			restarts[i].name = ev->name;
			return;
		}
	}
	restarts[restart_next].tid = c->tid;
	restarts[restart_next].name = ev->name;
	restart_next = (restart_next + 1) % ARRAY_SIZE(restarts);
}

const char *restart_take(pid_t tid)
{
	for (unsigned i = 0; i < ARRAY_SIZE(restarts); i++) {
		if (restarts[i].tid == tid && restarts[i].name) {
			const char *n = restarts[i].name;

			restarts[i].tid = 0;
			restarts[i].name = NULL;
			return n;
		}
	}
	return NULL;
}
