/*
 * Credentials, scheduling and miscellaneous process calls: set*uid/gid
 * family, getres*id, get/setgroups, times, sched_*affinity, scheduler
 * policies, getpgid/setpgid/getsid, unshare/setns, seccomp.
 */
#include "sys/decode.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>
#include <sys/times.h>
#include <unistd.h>

#include "sys/decode_extra.h"
#include "sys/pidns.h"
#include "xlat/cap.h"
#include "xlat/cap_version.h"
#include "xlat/membarrier_cmd_bits.h"
#include "xlat/membarrier_cmds.h"
#include "xlat/membarrier_flags.h"
#include "xlat/personality_flags.h"
#include "xlat/personality_types.h"
#include "xlat/clone_flags.h"
#include "xlat/ioprio_class.h"
#include "xlat/ioprio_who.h"
#include "xlat/sched_flags.h"
#include "xlat/schedulers.h"
#include "xlat/seccomp_filter_flags.h"
#include "xlat/seccomp_mode.h"
#include "xlat/seccomp_ops.h"
#include "xlat/seccomp_ret_action.h"
#include "xlat/setns_types.h"
#include "xlat/unshare_flags.h"
#include "util/banned.h"

/* ---- credentials ---------------------------------------------------------- */

/* strace's printuid: -1 as "-1", anything else unsigned */
static void uid_val(struct val *v, const char *name, uint32_t id)
{
	if (id == UINT32_MAX)
		val_set_int(v, name, -1);
	else
		val_set_uint(v, name, id);
}

static void arg_uid(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	uid_val(v, v->name, (uint32_t)ev->karg[i]);
}

static int uids(struct dctx *c, struct event *ev, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		arg_uid(c, ev, i);
	return RVAL_DONE;
}

SYS_FUNC(setuid) { return uids(ctx, ev, 1); }
SYS_FUNC(setgid) { return uids(ctx, ev, 1); }
SYS_FUNC(setfsuid) { return uids(ctx, ev, 1); }
SYS_FUNC(setfsgid) { return uids(ctx, ev, 1); }
SYS_FUNC(setreuid) { return uids(ctx, ev, 2); }
SYS_FUNC(setregid) { return uids(ctx, ev, 2); }
SYS_FUNC(setresuid) { return uids(ctx, ev, 3); }
SYS_FUNC(setresgid) { return uids(ctx, ev, 3); }

/* getresuid([r], [e], [s]) at exit */
static int getres(struct dctx *c, struct event *ev, int exiting)
{
	if (!exiting) {
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	for (unsigned i = 0; i < 3; i++) {
		struct val *v = arg_slot(c, ev, i);
		uint32_t id;

		if (ev->err || !tread(c, ev->karg[i], &id, sizeof(id))) {
			val_set_ptr(v, v->name, ev->karg[i]);
		} else {
			struct val x;

			uid_val(&x, NULL, id);
			val_set_boxed(c, v, v->name, &x);
		}
		v->flags |= VF_EXIT;
	}
	return RVAL_DONE;
}

SYS_FUNC(getresuid) { return getres(ctx, ev, exiting); }
SYS_FUNC(getresgid) { return getres(ctx, ev, exiting); }

/* A gid array of len elements (strace's print_groups). */
static void groups_val(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		       uint64_t len)
{
	long max = sysconf(_SC_NGROUPS_MAX);
	uint64_t shown = len < c->opts->string_limit || c->opts->verbose
		? len : c->opts->string_limit;
	uint32_t *g;
	struct val *it;

	if ((max > 0 && len > (uint64_t)max) || !addr) {
		val_set_ptr(v, name, addr);
		return;
	}
	g = arena_alloc(c->arena, (size_t)(shown ? shown : 1) * sizeof(*g));
	if (shown && !tread(c, addr, g, (size_t)shown * sizeof(*g))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, (unsigned)shown);
	for (uint64_t i = 0; i < shown; i++)
		uid_val(&it[i], NULL, g[i]);
	val_set_array(v, name, it, (unsigned)shown, shown < len);
}

SYS_FUNC(getgroups)
{
	struct val *v;

	if (!exiting) {
		arg_int(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	groups_val(ctx, v, v->name, ev->karg[1], ev->err ? UINT64_MAX : (uint64_t)ev->retval);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(setgroups)
{
	struct val *v;

	arg_int(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	groups_val(ctx, v, v->name, ev->karg[1], (uint32_t)ev->karg[0]);
	return RVAL_DONE;
}

/* ---- times ---------------------------------------------------------------- */

SYS_FUNC(times)
{
	struct tms t;
	struct val *v, *it;

	if (!exiting) {
		arg_count(ev, 1);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 0);
	if (ev->err || !tread(ctx, ev->karg[0], &t, sizeof(t))) {
		val_set_ptr(v, v->name, ev->karg[0]);
	} else {
		it = val_new_array(ctx, 4);
		val_set_clock_t(ctx, &it[0], "tms_utime", (uint64_t)t.tms_utime);
		val_set_clock_t(ctx, &it[1], "tms_stime", (uint64_t)t.tms_stime);
		val_set_clock_t(ctx, &it[2], "tms_cutime", (uint64_t)t.tms_cutime);
		val_set_clock_t(ctx, &it[3], "tms_cstime", (uint64_t)t.tms_cstime);
		val_set_struct(v, v->name, it, 4, false);
	}
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

/* ---- scheduling ----------------------------------------------------------- */

/* [0 1 3]: the CPUs set in the first size bytes at addr (decode_extra.h) */
void decode_cpuset(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		       uint64_t size)
{
	unsigned char *m;
	char *buf, *p;
	size_t cap;

	if (size > 8192 || !size || !(m = arena_alloc(c->arena, (size_t)size)) ||
	    !tread(c, addr, m, (size_t)size)) {
		val_set_ptr(v, name, addr);
		return;
	}
	cap = (size_t)size * 8 * 7 + 3;
	buf = arena_alloc(c->arena, cap);
	p = buf;
	*p++ = '[';
	for (uint64_t i = 0; i < size * 8; i++) {
		if (!(m[i / 8] & (1U << (i % 8))))
			continue;
		if (p > buf + 1)
			*p++ = ' ';
		p += snprintf(p, cap - (size_t)(p - buf), "%llu", (unsigned long long)i);
	}
	*p++ = ']';
	*p = '\0';
	val_set_text(c, v, name, buf);
}

SYS_FUNC(sched_getaffinity)
{
	struct val *v;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		arg_uint(ctx, ev, 1);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 2);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[2]);
	else
		decode_cpuset(ctx, v, v->name, ev->karg[2], (uint64_t)ev->retval);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(sched_setaffinity)
{
	struct val *v;

	arg_pid(ctx, ev, 0, PT_TGID);
	arg_uint(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	decode_cpuset(ctx, v, v->name, ev->karg[2], ev->karg[1]);
	return RVAL_DONE;
}

static void arg_policy(struct dctx *c, struct event *ev, unsigned i)
{
	arg_enum(c, ev, i, schedulers);
	ev->args[i].x.v = (uint32_t)ev->karg[i];
}

/* [priority] of a struct sched_param */
static void param_val(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	int prio;
	struct val x;

	if (!tread(c, addr, &prio, sizeof(prio))) {
		val_set_ptr(v, name, addr);
		return;
	}
	val_set_int(&x, NULL, prio);
	val_set_boxed(c, v, name, &x);
}

SYS_FUNC(sched_getscheduler)
{
	const char *s;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		return RVAL_EXIT;
	}
	if (!ev->err && (s = xlat_name(schedulers, (uint64_t)ev->retval & ~0x40000000ULL))) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

		val_set_text(ctx, aux, NULL, s);
		ev->ret_aux = aux;
	}
	return RVAL_DONE;
}

SYS_FUNC(sched_setscheduler)
{
	struct val *v;

	arg_pid(ctx, ev, 0, PT_TGID);
	arg_policy(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	param_val(ctx, v, v->name, ev->karg[2]);
	return RVAL_DONE;
}

SYS_FUNC(sched_getparam)
{
	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, param_val);
	return RVAL_DONE;
}

SYS_FUNC(sched_setparam)
{
	struct val *v;

	arg_pid(ctx, ev, 0, PT_TGID);
	v = arg_slot(ctx, ev, 1);
	param_val(ctx, v, v->name, ev->karg[1]);
	return RVAL_DONE;
}

SYS_FUNC(sched_rr_get_interval)
{
	struct val *v;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[1]);
	else
		decode_timespec(ctx, v, v->name, ev->karg[1]);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

/* struct sched_attr (linux/sched/types.h) */
struct sched_attr_k {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};
enum { SCHED_ATTR_VER0 = 48, SCHED_ATTR_VER1 = 56 };

/*
 * A struct sched_attr as strace's print_sched_attr: usize 0 for
 * sched_setattr (the size field says how much to read), else the size
 * sched_getattr was given (the kernel writes attr.size).
 */
static void sched_attr_val(struct dctx *c, struct val *v, const char *name, uint64_t addr,
			   uint32_t usize)
{
	struct sched_attr_k a;
	uint32_t size;
	bool is_set = !usize;
	struct val *f;
	unsigned n = 0;

	memset(&a, 0, sizeof(a));
	if (!is_set) {
		size = usize < sizeof(a) ? usize : (uint32_t)sizeof(a);
		if (!tread(c, addr, &a, size)) {
			val_set_ptr(v, name, addr);
			return;
		}
		size = a.size;
	} else {
		if (!tread(c, addr, &a.size, sizeof(a.size))) {
			val_set_ptr(v, name, addr);
			return;
		}
		usize = a.size ? a.size : SCHED_ATTR_VER0;
		size = usize < sizeof(a) ? usize : (uint32_t)sizeof(a);
		if (size >= SCHED_ATTR_VER0 && !tread(c, addr, &a, size)) {
			val_set_ptr(v, name, addr);
			return;
		}
	}
	f = val_new_array(c, 11);
	val_set_uint(&f[n++], "size", a.size);
	if (size >= SCHED_ATTR_VER0) {
		/* what SCHED_FLAG_KEEP_POLICY (0x08) and SCHED_FLAG_KEEP_PARAMS
		 * (0x10) tell the kernel to ignore is left out, as strace 6.1:
		 * the policy under either, the parameters under KEEP_PARAMS */
		if (!(a.sched_flags & 0x18))
			val_set_enum(&f[n++], "sched_policy", a.sched_policy, schedulers);
		val_set_flags(&f[n++], "sched_flags", a.sched_flags, sched_flags, NULL);
		if (!(a.sched_flags & 0x10)) {
			val_set_int(&f[n++], "sched_nice", a.sched_nice);
			val_set_uint(&f[n++], "sched_priority", a.sched_priority);
			val_set_uint(&f[n++], "sched_runtime", a.sched_runtime);
			val_set_uint(&f[n++], "sched_deadline", a.sched_deadline);
			val_set_uint(&f[n++], "sched_period", a.sched_period);
		}
		if (size >= SCHED_ATTR_VER1) {
			val_set_uint(&f[n++], "sched_util_min", a.sched_util_min);
			val_set_uint(&f[n++], "sched_util_max", a.sched_util_max);
		}
	}
	val_set_struct(v, name, f, n, (is_set ? usize : a.size) > size);
}

/* sched_setattr(pid, attr, flags): attr at entry; on E2BIG the size the
 * kernel wrote back ("=> {size=N}"); flags at exit. */
SYS_FUNC(sched_setattr)
{
	struct val *v;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		v = arg_slot(ctx, ev, 1);
		sched_attr_val(ctx, v, v->name, ev->karg[1], 0);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	if (ev->err == 7 /* E2BIG */) {
		uint32_t size;

		if (tread(ctx, ev->karg[1], &size, sizeof(size))) {
			struct val *f = val_new_array(ctx, 1), *parts = val_new_array(ctx, 2);

			val_set_uint(&f[0], "size", size);
			val_set_text(ctx, &parts[0], NULL, " => ");
			val_set_struct(&parts[1], NULL, f, 1, false);
			v = arg_slot(ctx, ev, 2);
			val_set_op(v, NULL, parts, 2, NULL);
			v->flags |= VF_EXIT | VF_CONT;
			v = arg_slot(ctx, ev, 3);
			val_set_uint(v, "flags", (uint32_t)ev->karg[2]);
			v->flags |= VF_EXIT;
			return RVAL_DONE;
		}
	}
	arg_uint(ctx, ev, 2);
	return RVAL_DONE;
}

/* sched_getattr(pid, attr, size, flags) at exit */
SYS_FUNC(sched_getattr)
{
	uint32_t size = (uint32_t)ev->karg[2];
	struct val *v;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (size && !ev->err)   /* strace: the address when the call failed */
		sched_attr_val(ctx, v, v->name, ev->karg[1], size);
	else
		val_set_ptr(v, v->name, ev->karg[1]);
	v->flags |= VF_EXIT;
	arg_uint(ctx, ev, 2);
	arg_uint(ctx, ev, 3);
	return RVAL_DONE;
}

SYS_FUNC(sched_get_priority_max)
{
	arg_policy(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(sched_get_priority_min)
{
	arg_policy(ctx, ev, 0);
	return RVAL_DONE;
}

/* ---- process groups and namespaces ---------------------------------------- */

/* Calls that return an id: with -Y or --pidns-translation it is shown at
 * exit with its command or translation (strace's RVAL_TGID, ...). */
static int ret_pid(struct dctx *c, struct event *ev, int exiting, enum pid_type type)
{
	if (!exiting)
		return c->opts->decode_pids ? RVAL_EXIT : RVAL_DONE;
	ret_set_pid(c, ev, type);
	return RVAL_DONE;
}

SYS_FUNC(getpid) { return ret_pid(ctx, ev, exiting, PT_TGID); }
SYS_FUNC(getppid) { return ret_pid(ctx, ev, exiting, PT_TGID); }
SYS_FUNC(gettid) { return ret_pid(ctx, ev, exiting, PT_TID); }
SYS_FUNC(getpgrp) { return ret_pid(ctx, ev, exiting, PT_PGID); }

SYS_FUNC(getpgid)
{
	if (!exiting)
		arg_pid(ctx, ev, 0, PT_TGID);
	return ret_pid(ctx, ev, exiting, PT_PGID);
}

SYS_FUNC(getsid)
{
	if (!exiting)
		arg_pid(ctx, ev, 0, PT_TGID);
	return ret_pid(ctx, ev, exiting, PT_SID);
}

SYS_FUNC(setpgid)
{
	arg_pid(ctx, ev, 0, PT_TGID);
	arg_pid(ctx, ev, 1, PT_PGID);
	return RVAL_DONE;
}

SYS_FUNC(unshare)
{
	arg_flags(ctx, ev, 0, unshare_flags, NULL);
	return RVAL_DONE;
}

SYS_FUNC(setns)
{
	arg_fd(ctx, ev, 0);
	arg_flags(ctx, ev, 1, setns_types, NULL);
	ev->args[1].x.v = (uint32_t)ev->karg[1];
	return RVAL_DONE;
}

/* ---- seccomp --------------------------------------------------------------- */

/* {seccomp_notif=80, seccomp_notif_resp=24, seccomp_data=64} */
static void val_read_notif_sizes(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	uint16_t sz[3];
	struct val *f;

	if (!tread(c, addr, sz, sizeof(sz))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 3);
	val_set_uint(&f[0], "seccomp_notif", sz[0]);
	val_set_uint(&f[1], "seccomp_notif_resp", sz[1]);
	val_set_uint(&f[2], "seccomp_data", sz[2]);
	val_set_struct(v, name, f, 3, false);
}

/* seccomp(operation, flags, args): args by operation, as strace; the
 * notification sizes are read at exit. */
SYS_FUNC(seccomp)
{
	uint32_t op = (uint32_t)ev->karg[0];
	struct val *v;

	if (!exiting) {
		arg_enum(ctx, ev, 0, seccomp_ops);
		switch (op) {
		case 1: /* SECCOMP_SET_MODE_FILTER */
			arg_flags(ctx, ev, 1, seccomp_filter_flags, NULL);
			v = arg_slot(ctx, ev, 2);
			decode_bpf_fprog(ctx, v, v->name, ev->karg[2], BPF_PROG_SECCOMP);
			return RVAL_DONE;
		case 2: { /* SECCOMP_GET_ACTION_AVAIL: [action] */
			uint32_t act;

			arg_uint(ctx, ev, 1);
			ev->args[1].u = (uint32_t)ev->karg[1];
			v = arg_slot(ctx, ev, 2);
			if (ev->karg[2] && tread(ctx, ev->karg[2], &act, sizeof(act))) {
				struct val t;

				val_set_enum(&t, NULL, act, seccomp_ret_action);
				val_set_boxed(ctx, v, v->name, &t);
			} else {
				val_set_ptr(v, v->name, ev->karg[2]);
			}
			return RVAL_DONE;
		}
		case 3: /* SECCOMP_GET_NOTIF_SIZES: the sizes at exit */
			arg_uint(ctx, ev, 1);
			ev->args[1].u = (uint32_t)ev->karg[1];
			arg_count(ev, 3);
			return RVAL_EXIT;
		default:
			arg_hex(ctx, ev, 1);
			ev->args[1].u = (uint32_t)ev->karg[1];
			arg_ptr(ctx, ev, 2);
			return RVAL_DONE;
		}
	}
	arg_out(ctx, ev, 2, val_read_notif_sizes);
	return RVAL_DONE;
}

/* ---- I/O priority ---------------------------------------------------------- */

/* IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4): class in the top 3 of 16 bits */
void val_set_ioprio(struct dctx *c, struct val *v, const char *name, uint32_t x)
{
	struct val *it = val_new_array(c, 2), call, num;

	val_set_enum(&it[0], NULL, x >> 13, ioprio_class);
	val_set_uint(&it[1], NULL, x & 0x1fff);
	val_set_call(c, &call, NULL, "IOPRIO_PRIO_VALUE", it, 2);
	/* -X raw: the number; -X verbose: the number and the expression */
	val_set_int(&num, NULL, (int)x);
	val_set_num_expr(c, v, name, &num, &call);
}

/* ioprio's who: a process or a process group by which (strace's
 * ioprio.c), else a number (a user id). */
static void arg_ioprio_who(struct dctx *c, struct event *ev)
{
	switch ((int)ev->karg[0]) {
	case 1: /* IOPRIO_WHO_PROCESS */
		arg_pid(c, ev, 1, PT_TGID);
		break;
	case 2: /* IOPRIO_WHO_PGRP */
		arg_pid(c, ev, 1, PT_PGID);
		break;
	default:
		arg_int(c, ev, 1);
	}
}

/* ioprio_set(which, who, ioprio) */
SYS_FUNC(ioprio_set)
{
	struct val *v;

	arg_enum(ctx, ev, 0, ioprio_who);
	arg_ioprio_who(ctx, ev);
	v = arg_slot(ctx, ev, 2);
	val_set_ioprio(ctx, v, v->name, (uint32_t)ev->karg[2]);
	return RVAL_DONE;
}

/* ioprio_get(which, who) = N (IOPRIO_PRIO_VALUE(...)) */
SYS_FUNC(ioprio_get)
{
	if (!exiting) {
		arg_enum(ctx, ev, 0, ioprio_who);
		arg_ioprio_who(ctx, ev);
		return RVAL_EXIT;
	}
	if (!ev->err) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

		val_set_ioprio(ctx, aux, NULL, (uint32_t)ev->retval);
		/* the result's text is strace's auxstr: the expression, and
		 * nothing under -X raw */
		*aux = aux->c.items[0];
		aux->flags |= VF_AUXSTR;
		ev->ret_aux = aux;
	}
	return RVAL_DONE;
}

/* ---- capabilities --------------------------------------------------------- */

/* 1<<CAP_CHOWN|1<<CAP_KILL|...: each set bit by name, unknown bits of each
 * 32-bit half as hex; 0 when empty (strace's print_cap_bits). */
/* The "1<<CAP_X" names of one 32-bit half of a capability set (strace's
 * cap_mask0/cap_mask1), made from the capability numbers once. */
static const struct xlat *cap_mask(unsigned half)
{
	static struct xlat_data data[2][32];
	static struct xlat xl[2];
	static char names[64][40];

	if (!xl[half].data) {
		unsigned n = 0;

		for (unsigned b = 0; b < 32; b++) {
			const char *nm = xlat_name(cap, half * 32 + b);

			if (!nm)
				continue;
			snprintf(names[half * 32 + b], sizeof(names[0]), "1<<%s", nm);
			data[half][n].val = 1u << b;
			data[half][n++].str = names[half * 32 + b];
		}
		xl[half].data = data[half];
		xl[half].size = n;
		xl[half].type = XT_FLAGS;
		xl[half].unknown = "CAP_???";
	}
	return &xl[half];
}

/* 1<<CAP_CHOWN|1<<CAP_KILL|...: the two 32-bit halves, each in its own
 * -X style (strace's print_cap_bits); 0 when empty. */
static void val_set_caps(struct dctx *c, struct val *v, const char *name, uint32_t lo, uint32_t hi)
{
	struct val it[2];
	unsigned n = 0;

	if (lo || !hi)
		val_set_flags(&it[n++], NULL, lo, cap_mask(0), NULL);
	if (hi)
		val_set_flags(&it[n++], NULL, hi, cap_mask(1), NULL);
	if (n == 1) {
		*v = it[0];
		v->name = name;
	} else {
		val_set_or(c, v, name, it, n);
	}
}

struct cap_header { uint32_t version; int32_t pid; };
struct cap_data { uint32_t effective, permitted, inheritable; };

/* The header {version=..., pid=...}; *version set when read. */
static bool cap_header_val(struct dctx *c, struct event *ev, uint32_t *version)
{
	struct val *v = arg_slot(c, ev, 0), *f;
	struct cap_header h;

	if (!ev->karg[0] || !tread(c, ev->karg[0], &h, sizeof(h))) {
		val_set_ptr(v, v->name, ev->karg[0]);
		return false;
	}
	f = val_new_array(c, 2);
	val_set_enum(&f[0], "version", h.version, cap_version);
	val_set_pid(c, &f[1], "pid", h.pid, PT_TGID);
	val_set_struct(v, v->name, f, 2, false);
	*version = h.version;
	return true;
}

/* {effective=..., permitted=..., inheritable=...}: one structure for
 * version 1, two (low and high 32 bits) for versions 2 and 3. */
static void cap_data_val(struct dctx *c, struct event *ev, bool have_version, uint32_t version)
{
	struct val *v = arg_slot(c, ev, 1), *f;
	struct cap_data d[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	unsigned n = version == 0x19980330 ? 1 :
		     (version == 0x20071026 || version == 0x20080522) ? 2 : 0;

	if (!ev->karg[1] || !have_version || !n ||
	    !tread(c, ev->karg[1], d, n * sizeof(d[0]))) {
		val_set_ptr(v, v->name, ev->karg[1]);
		return;
	}
	f = val_new_array(c, 3);
	val_set_caps(c, &f[0], "effective", d[0].effective, d[1].effective);
	val_set_caps(c, &f[1], "permitted", d[0].permitted, d[1].permitted);
	val_set_caps(c, &f[2], "inheritable", d[0].inheritable, d[1].inheritable);
	val_set_struct(v, v->name, f, 3, false);
}

/* capget(header, data): the header as passed, the data at exit */
SYS_FUNC(capget)
{
	uint32_t version = 0;
	bool ok;

	if (!exiting) {
		cap_header_val(ctx, ev, &version);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	/* the header as it was at entry: the kernel rewrites a bad version */
	ok = ev->args[0].kind == V_STRUCT;
	if (ok)
		version = (uint32_t)ev->args[0].c.items[0].x.v;
	if (ev->err)
		arg_ptr(ctx, ev, 1);
	else
		cap_data_val(ctx, ev, ok, version);
	ev->args[1].flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(capset)
{
	uint32_t version = 0;
	bool ok = cap_header_val(ctx, ev, &version);

	cap_data_val(ctx, ev, ok, version);
	return RVAL_DONE;
}

/* ---- personality, membarrier ---------------------------------------------- */

/* PER_LINUX32|READ_IMPLIES_EXEC: the domain (low byte) and the flags */
static void val_set_personality(struct dctx *c, struct val *v, const char *name, uint32_t p)
{
	struct val *it;

	if (!(p & ~0xffu)) {
		val_set_enum(v, name, p, personality_types);
		return;
	}
	it = val_new_array(c, 2);
	val_set_enum(&it[0], NULL, p & 0xff, personality_types);
	val_set_flags(&it[1], NULL, p & ~0xffu, personality_flags, NULL);
	/* each part in its own -X style: "0|0x7000000" under -X raw */
	val_set_or(c, v, name, it, 2);
}

/* personality(persona) = 0x400008 (PER_LINUX32|READ_IMPLIES_EXEC);
 * 0xffffffff (a query) in hex */
SYS_FUNC(personality)
{
	struct val *v;

	if (!exiting) {
		v = arg_slot(ctx, ev, 0);
		if ((uint32_t)ev->karg[0] == 0xffffffffu)
			val_set_hex(v, v->name, 0xffffffffu);
		else
			val_set_personality(ctx, v, v->name, (uint32_t)ev->karg[0]);
		return RVAL_EXIT;
	}
	if (!ev->err) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

		val_set_personality(ctx, aux, NULL, (uint32_t)ev->retval);
		ev->ret_aux = aux;
		ev->rv_fmt = RV_HEX;
	}
	return RVAL_DONE;
}

/* membarrier(cmd, flags[, cpu_id]): cpu_id only with MEMBARRIER_CMD_FLAG_CPU;
 * MEMBARRIER_CMD_QUERY returns the supported commands. */
SYS_FUNC(membarrier)
{
	if (!exiting) {
		arg_enum(ctx, ev, 0, membarrier_cmds);
		arg_flags(ctx, ev, 1, membarrier_flags, NULL);
		if (ev->karg[1] & 1)
			arg_int(ctx, ev, 2);
		else
			ev->nargs = 2;
		return (uint32_t)ev->karg[0] == 0 ? RVAL_EXIT : RVAL_DONE;
	}
	if (!ev->err && ev->retval) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

		val_set_flags(aux, NULL, (uint64_t)ev->retval, membarrier_cmd_bits, NULL);
		ev->ret_aux = aux;
		ev->rv_fmt = RV_HEX;
	}
	return RVAL_DONE;
}
