/*
 * Decoders of the waiting calls: poll, ppoll, select, pselect6 and the epoll
 * family.  Requests are read at entry; what became ready is read at exit and
 * shown after the result as strace does: "= 1 ([{fd=3, revents=POLLIN}])",
 * "= 2 (in [3], out [4], left {...})", "= 0 (Timeout)".
 */
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/time.h>

#include "sys/decode.h"
#include "xlat/epollctls.h"
#include "xlat/epollevents.h"
#include "xlat/epollflags.h"
#include "xlat/pollflags.h"

#include "util/banned.h"

/* Entries shown of n: the string limit, all of them with -v (as strace's
 * abbrev()), at most 4096. */
static unsigned shown(struct dctx *c, uint64_t n)
{
	uint64_t lim = c->opts->verbose ? 4096 : c->opts->string_limit;

	if (lim > 4096)
		lim = 4096;
	return (unsigned)(n < lim ? n : lim);
}

static struct val *new_aux(struct dctx *c)
{
	return arena_calloc(c->arena, sizeof(struct val));
}

static void set_timeout_aux(struct dctx *c, struct event *ev)
{
	struct val *aux = new_aux(c);

	val_set_text(c, aux, NULL, "Timeout");
	ev->ret_aux = aux;
}

/* "left {...}" for the time a call left unused. */
static void set_left(struct dctx *c, struct val *v, const struct val *t)
{
	struct val *items = val_new_array(c, 2);

	val_set_text(c, &items[0], NULL, "left");
	items[1] = *t;
	items[1].name = NULL;
	val_set_op(v, NULL, items, 2, " ");
}

static void pollfd_item(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct pollfd p;
	struct val *f = val_new_array(c, 2);

	memcpy(&p, elem, sizeof(p));
	val_set_fd(c, &f[0], "fd", p.fd);
	/* strace shows no events for a negative fd (the kernel ignores it) */
	if (p.fd >= 0)
		val_set_flags(&f[1], "events", (uint16_t)p.events, pollflags, NULL);
	val_set_struct(item, NULL, f, p.fd >= 0 ? 2 : 1, false);
}

/* poll/ppoll: [{fd=3, events=POLLIN}, ...] at entry, as decode_array. */
static void poll_fds(struct dctx *c, struct event *ev)
{
	struct val *v = arg_slot(c, ev, 0);

	decode_array(c, v, v->name, ev->karg[0], ev->karg[1], sizeof(struct pollfd),
		     pollfd_item, NULL);
}

/* The revents of a finished poll as the result's comment: every entry with
 * revents set, up to the string limit of them ("..." when more are set). */
static void poll_exit(struct dctx *c, struct event *ev, const struct val *left)
{
	uint64_t nfds = ev->karg[1];
	unsigned lim = shown(c, nfds), k = 0;
	struct pollfd *p;
	struct val *items, *arr, *aux;
	bool more = false;

	if (ev->err)
		return;
	if (ev->retval == 0) {
		set_timeout_aux(c, ev);
		return;
	}
	if (!nfds || nfds > 65536)
		return;
	p = arena_alloc(c->arena, nfds * sizeof(*p));
	if (!tread(c, ev->karg[0], p, nfds * sizeof(*p)))
		return;
	items = val_new_array(c, lim);
	for (uint64_t i = 0; i < nfds; i++) {
		struct val *f;

		if (!p[i].revents)
			continue;
		if (k >= lim) {
			more = true;
			break;
		}
		f = val_new_array(c, 2);
		/* no -y paths in the result's comment (strace prints them plain) */
		val_set_int(&f[0], "fd", p[i].fd);
		val_set_flags(&f[1], "revents", (uint16_t)p[i].revents, pollflags, NULL);
		val_set_struct(&items[k++], NULL, f, 2, false);
	}
	arr = new_aux(c);
	val_set_array(arr, NULL, items, k, more);
	if (!left) {
		ev->ret_aux = arr;
		return;
	}
	aux = new_aux(c);
	items = val_new_array(c, 2);
	items[0] = *arr;
	set_left(c, &items[1], left);
	val_set_op(aux, NULL, items, 2, ", ");
	ev->ret_aux = aux;
}

SYS_FUNC(poll)
{
	if (exiting) {
		poll_exit(ctx, ev, NULL);
		return RVAL_DONE;
	}
	poll_fds(ctx, ev);
	arg_uint(ctx, ev, 1);
	arg_int(ctx, ev, 2);
	return RVAL_EXIT;
}

/* A timespec argument: NULL, {tv_sec=..., tv_nsec=...} or the address. */
static void arg_timespec(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	decode_timespec(c, v, v->name, ev->karg[i]);
}

SYS_FUNC(ppoll)
{
	struct val *v;

	if (exiting) {
		struct val t = { 0 };

		if (ev->karg[2] && ev->retval > 0 && !ev->err) {
			decode_timespec(ctx, &t, NULL, ev->karg[2]);
			poll_exit(ctx, ev, &t);
		} else {
			poll_exit(ctx, ev, NULL);
		}
		return RVAL_DONE;
	}
	poll_fds(ctx, ev);
	arg_uint(ctx, ev, 1);
	arg_timespec(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	decode_sigset(ctx, v, v->name, ev->karg[3], ev->karg[4]);
	arg_uint(ctx, ev, 4);
	return RVAL_EXIT;
}

/* select's nfds as strace reads it: negative as 0 (the sets then show as
 * addresses), at most 1024 * 1024
 * (select(2^31-1, ...) reads no more). */
static uint64_t select_nfds(const struct event *ev)
{
	int nfds = (int)ev->karg[0];

	return nfds < 0 ? 0 : nfds > 1024 * 1024 ? 1024 * 1024 : (uint64_t)nfds;
}

/* fd_set bytes for nfds descriptors, rounded up to longs as the kernel does. */
static uint64_t fdset_bytes(uint64_t nfds)
{
	return (nfds + 63) / 64 * 8;
}

/* [3 5]: the descriptors set in an fd_set of nfds bits read from addr
 * (with -y paths unless plain); false when unreadable. */
static bool set_fdset(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      uint64_t nfds, bool *any, bool plain)
{
	uint64_t bytes = fdset_bytes(nfds);
	uint64_t *bits;
	struct val *parts, *fds;
	unsigned n = 0, cap = 0;
	bool more = false;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return true;
	}
	/* no descriptors (nfds <= 0): strace shows the address */
	bits = arena_alloc(c->arena, bytes ? bytes : 8);
	if (!bytes || !tread(c, addr, bits, bytes)) {
		val_set_ptr(v, name, addr);
		return false;
	}
	for (uint64_t i = 0; i < bytes / 8; i++)
		cap += (unsigned)__builtin_popcountll(bits[i]);
	/* at most DECODE_MAX_ELEMS descriptors, then "..." (strace lists
	 * them all) */
	if (cap > DECODE_MAX_ELEMS) {
		cap = DECODE_MAX_ELEMS;
		more = true;
	}
	fds = val_new_array(c, cap + 1);
	for (uint64_t fd = 0; fd < nfds && n < cap; fd++)
		if (bits[fd / 64] & (1ull << (fd % 64))) {
			if (plain)
				val_set_int(&fds[n++], NULL, (int64_t)fd);
			else
				val_set_fd(c, &fds[n++], NULL, (int64_t)fd);
		}
	if (more)
		val_set_text(c, &fds[n++], NULL, "...");
	parts = val_new_array(c, 3);
	val_set_text(c, &parts[0], NULL, "[");
	val_set_op(&parts[1], NULL, fds, n, " ");
	val_set_text(c, &parts[2], NULL, "]");
	val_set_op(v, name, parts, 3, NULL);
	if (any)
		*any = n > 0;
	return true;
}

static bool set_timeval(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct timeval tv;
	struct val *f;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return true;
	}
	if (!tread(c, addr, &tv, sizeof(tv))) {
		val_set_ptr(v, name, addr);
		return false;
	}
	f = val_new_array(c, 2);
	val_set_int(&f[0], "tv_sec", tv.tv_sec);
	val_set_int(&f[1], "tv_usec", tv.tv_usec);
	val_set_struct(v, name, f, 2, false);
	return true;
}

/* select/pselect6 at entry: nfds and the three sets. */
static void select_entry(struct dctx *c, struct event *ev)
{
	uint64_t nfds = select_nfds(ev);

	arg_int(c, ev, 0);
	for (unsigned i = 1; i <= 3; i++) {
		struct val *v = arg_slot(c, ev, i);

		set_fdset(c, v, v->name, ev->karg[i], nfds, NULL, false);
	}
}

/* select/pselect6 at exit: "in [3], out [4], except [5], left {...}". */
static void select_exit(struct dctx *c, struct event *ev, bool timespec)
{
	static const char *const names[] = { "in", "out", "except" };
	uint64_t nfds = select_nfds(ev);
	struct val *items, *aux;
	unsigned k = 0;

	if (ev->err)
		return;
	if (ev->retval == 0) {
		set_timeout_aux(c, ev);
		return;
	}
	items = val_new_array(c, 4);
	for (unsigned i = 0; i < 3; i++) {
		struct val set = { 0 }, *pair;
		bool any = false;

		if (!ev->karg[i + 1] || !set_fdset(c, &set, NULL, ev->karg[i + 1], nfds, &any, true) || !any)
			continue;
		pair = val_new_array(c, 2);
		val_set_text(c, &pair[0], NULL, names[i]);
		pair[1] = set;
		val_set_op(&items[k++], NULL, pair, 2, " ");
	}
	if (ev->karg[4]) {
		struct val t = { 0 };

		if (timespec)
			decode_timespec(c, &t, NULL, ev->karg[4]);
		else
			set_timeval(c, &t, NULL, ev->karg[4]);
		set_left(c, &items[k++], &t);
	}
	aux = new_aux(c);
	val_set_op(aux, NULL, items, k, ", ");
	ev->ret_aux = aux;
}

SYS_FUNC(select)
{
	struct val *v;

	if (exiting) {
		select_exit(ctx, ev, false);
		return RVAL_DONE;
	}
	select_entry(ctx, ev);
	v = arg_slot(ctx, ev, 4);
	set_timeval(ctx, v, v->name, ev->karg[4]);
	return RVAL_EXIT;
}

SYS_FUNC(pselect6)
{
	struct { uint64_t ss, ss_len; } sig;
	struct val *v;

	if (exiting) {
		select_exit(ctx, ev, true);
		return RVAL_DONE;
	}
	select_entry(ctx, ev);
	arg_timespec(ctx, ev, 4);
	v = arg_slot(ctx, ev, 5);
	if (!ev->karg[5]) {
		val_set_ptr(v, v->name, 0);
	} else if (!tread(ctx, ev->karg[5], &sig, sizeof(sig))) {
		val_set_ptr(v, v->name, ev->karg[5]);
	} else {
		struct val *f = val_new_array(ctx, 2);

		decode_sigset(ctx, &f[0], "sigmask", sig.ss, sig.ss_len);
		val_set_uint(&f[1], "sigsetsize", sig.ss_len);
		val_set_struct(v, v->name, f, 2, false);
	}
	return RVAL_EXIT;
}

static int ret_fd(struct dctx *c, struct event *ev, int exiting)
{
	if (exiting) {
		ret_set_fd(c, ev);
		return RVAL_DONE;
	}
	ev->rv_fmt = RV_FD;
	return c->opts->decode_fds ? RVAL_EXIT : RVAL_DONE;
}

SYS_FUNC(epoll_create)
{
	if (!exiting)
		arg_int(ctx, ev, 0);
	return ret_fd(ctx, ev, exiting);
}

SYS_FUNC(epoll_create1)
{
	if (!exiting)
		arg_flags(ctx, ev, 0, epollflags, NULL);
	return ret_fd(ctx, ev, exiting);
}

static void set_epoll_event(struct dctx *c, struct val *v, const char *name,
			    const struct epoll_event *e)
{
	struct val *f = val_new_array(c, 2), *d = val_new_array(c, 2);

	val_set_flags(&f[0], "events", e->events, epollevents, NULL);
	val_set_uint(&d[0], "u32", e->data.u32);
	val_set_uint(&d[1], "u64", e->data.u64);
	val_set_struct(&f[1], "data", d, 2, false);
	val_set_struct(v, name, f, 2, false);
}

SYS_FUNC(epoll_ctl)
{
	struct epoll_event e;
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_enum(ctx, ev, 1, epollctls);
	arg_fd(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	/* EPOLL_CTL_DEL ignores the event: strace shows only its address */
	if (!ev->karg[3] || (uint32_t)ev->karg[1] == EPOLL_CTL_DEL)
		val_set_ptr(v, v->name, ev->karg[3]);
	else if (!tread(ctx, ev->karg[3], &e, sizeof(e)))
		val_set_ptr(v, v->name, ev->karg[3]);
	else
		set_epoll_event(ctx, v, v->name, &e);
	return RVAL_DONE;
}

/* The events array filled by epoll_wait/epoll_pwait (argument 1, at exit). */
static void epoll_events_out(struct dctx *c, struct event *ev)
{
	struct val *v = arg_slot(c, ev, 1);
	uint64_t cnt = ev->err ? 0 : (uint64_t)ev->retval;
	unsigned n = shown(c, cnt);
	struct epoll_event *e;
	struct val *items;

	v->flags |= VF_EXIT;
	e = arena_alloc(c->arena, (n ? n : 1) * sizeof(*e));
	if (ev->err || (n && !tread(c, ev->karg[1], e, n * sizeof(*e)))) {
		val_set_ptr(v, v->name, ev->karg[1]);
		v->flags |= VF_EXIT;
		return;
	}
	items = val_new_array(c, n);
	for (unsigned i = 0; i < n; i++)
		set_epoll_event(c, &items[i], NULL, &e[i]);
	val_set_array(v, v->name, items, n, cnt > n);
	v->flags |= VF_EXIT;
}

SYS_FUNC(epoll_wait)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	epoll_events_out(ctx, ev);
	arg_int(ctx, ev, 2);
	arg_int(ctx, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(epoll_pwait)
{
	struct val *v;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 6);
		return RVAL_EXIT;
	}
	epoll_events_out(ctx, ev);
	arg_int(ctx, ev, 2);
	arg_int(ctx, ev, 3);
	v = arg_slot(ctx, ev, 4);
	decode_sigset(ctx, v, v->name, ev->karg[4], ev->karg[5]);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 5);
	return RVAL_DONE;
}

/* epoll_pwait2(epfd, events, maxevents, timeout, sigmask, sigsetsize): as
 * epoll_pwait with a struct timespec timeout */
SYS_FUNC(epoll_pwait2)
{
	struct val *v;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 6);
		return RVAL_EXIT;
	}
	epoll_events_out(ctx, ev);
	arg_int(ctx, ev, 2);
	/* strace 6.1 shows the timeout and the mask by address when the
	 * call failed */
	v = arg_slot(ctx, ev, 3);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[3]);
	else
		decode_timespec(ctx, v, v->name, ev->karg[3]);
	v->flags |= VF_EXIT;
	v = arg_slot(ctx, ev, 4);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[4]);
	else
		decode_sigset(ctx, v, v->name, ev->karg[4], ev->karg[5]);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 5);
	return RVAL_DONE;
}
