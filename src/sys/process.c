/*
 * Process decoders: execve/execveat, clone/clone3, wait4/waitid, exit,
 * prlimit64/getrlimit/setrlimit, getrusage, arch_prctl, set_tid_address,
 * set_robust_list, uname, sysinfo, getpriority/setpriority.
 */
#include "sys/decode.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "sys/decode_extra.h"
#include "sys/pidns.h"
#include "xlat/archvals.h"
#include "xlat/at_flags.h"
#include "xlat/clone_flags.h"
#include "xlat/pidfd_open_flags.h"
#include "xlat/priorities.h"
#include "xlat/ptrace_events.h"
#include "xlat/resources.h"
#include "xlat/usagewho.h"
#include "xlat/wait4_options.h"
#include "xlat/waitid_types.h"
#include "util/banned.h"

#define CSIGNAL_MASK 0xffULL
#define F_PARENT_SETTID 0x00100000ULL
#define F_PIDFD 0x00001000ULL
#define F_CHILD_SETTID 0x01000000ULL
#define F_CHILD_CLEARTID 0x00200000ULL
#define F_SETTLS 0x00080000ULL
#define F_INTO_CGROUP 0x200000000ULL

/* ---- execve --------------------------------------------------------------- */

/* "... / * 0xADDR * /": an array that runs into unreadable memory at addr. */
static void set_unreadable_tail(struct dctx *c, struct val *v, uint64_t addr)
{
	struct val *m = val_new_array(c, 2);
	char text[32];

	val_set_text(c, &m[0], NULL, "...");
	snprintf(text, sizeof(text), "%#llx", (unsigned long long)addr);
	val_set_comment(c, &m[1], text);
	val_set_op(v, NULL, m, 2, " ");
}

/* Pointers of argv/envp read from the tracee at a time. */
#define ARGV_WORDS 512

/*
 * argv as strace's printargv: at most the string limit of strings (all
 * with -v), "..." beyond, and "... / * 0xADDR * /" where the array runs into
 * unreadable memory.  Memory stays bounded whatever the array holds: at
 * most DECODE_MAX_ELEMS strings, fewer when the event's budget is spent,
 * then "..." (strace prints every string with -v; decode.h).
 */
static void decode_argv(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	unsigned limit = c->opts->string_limit;
	unsigned max = c->opts->verbose || limit > DECODE_MAX_ELEMS ? DECODE_MAX_ELEMS : limit;
	unsigned n = 0, alloc = 16;
	uint64_t words[ARGV_WORDS];
	size_t have = 0, pos = 0;
	struct val *it;
	bool more = false;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return;
	}
	it = val_new_array(c, alloc);
	for (;; addr += sizeof(uint64_t)) {
		uint64_t p;

		if (pos == have) {
			have = tread_words(c, addr, words, ARGV_WORDS);
			pos = 0;
		}
		if (!have) {
			if (!n) {
				val_set_ptr(v, name, addr);
				return;
			}
			set_unreadable_tail(c, &it[n++], addr);
			break;
		}
		p = words[pos++];
		if (!p)
			break;
		if (n >= max || (n && decode_over_budget(c))) {
			more = true;
			break;
		}
		if (n + 2 >= alloc) {
			struct val *bigger = val_new_array(c, alloc * 2);

			memcpy(bigger, it, alloc * sizeof(*it));
			it = bigger;
			alloc *= 2;
		}
		val_read_cstr(c, &it[n++], NULL, p, limit);
	}
	val_set_array(v, name, it, n, more);
}

/* envp: the address and "/ * N vars * /" (the whole array with -v). */
static void decode_envp(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	uint64_t words[ARGV_WORDS];
	uint64_t count = 0;
	bool unterminated = false;
	char buf[64];
	struct val x;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return;
	}
	if (c->opts->verbose) {
		decode_argv(c, v, name, addr);
		return;
	}
	for (uint64_t a = addr;;) {
		size_t got = tread_words(c, a, words, ARGV_WORDS), i;

		if (!got) {
			if (!count) {
				val_set_ptr(v, name, addr);
				return;
			}
			unterminated = true;
			break;
		}
		for (i = 0; i < got && words[i]; i++)
			;
		count += i;
		if (i < got)
			break;
		a += got * sizeof(uint64_t);
		if (a < addr) {   /* wrapped around */
			unterminated = true;
			break;
		}
	}
	snprintf(buf, sizeof(buf), "%llu var%s%s", (unsigned long long)count,
		 count == 1 ? "" : "s", unterminated ? ", unterminated" : "");
	val_set_ptr(&x, NULL, addr);
	val_set_commented(c, v, name, &x, buf);
}

SYS_FUNC(execve)
{
	struct val *v;

	arg_path(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	decode_argv(ctx, v, v->name, ev->karg[1]);
	v = arg_slot(ctx, ev, 2);
	decode_envp(ctx, v, v->name, ev->karg[2]);
	return RVAL_DONE;
}

SYS_FUNC(execveat)
{
	struct val *v;

	arg_dirfd(ctx, ev, 0);
	arg_path(ctx, ev, 1);
	v = arg_slot(ctx, ev, 2);
	decode_argv(ctx, v, v->name, ev->karg[2]);
	v = arg_slot(ctx, ev, 3);
	decode_envp(ctx, v, v->name, ev->karg[3]);
	arg_flags(ctx, ev, 4, at_flags, NULL);
	return RVAL_DONE;
}

/* ---- exit ----------------------------------------------------------------- */

SYS_FUNC(exit_group)
{
	arg_int(ctx, ev, 0);
	ev->rv_fmt = RV_NONE;
	return RVAL_DONE;
}

SYS_FUNC(exit)
{
	arg_int(ctx, ev, 0);
	ev->rv_fmt = RV_NONE;
	return RVAL_DONE;
}

/* ---- clone ---------------------------------------------------------------- */

/* slot i = "label=x" */
static void put_named(struct dctx *c, struct event *ev, unsigned i, const char *label,
		      const struct val *x)
{
	struct val *v = arg_slot(c, ev, i);

	/* strace shows these arguments in its own order, with their names */
	val_set_named(c, v, label, label, x);
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
}

/* flags=CLONE_VM|...|SIGCHLD */
static void clone_flags_val(struct dctx *c, struct val *v, uint64_t raw)
{
	uint64_t flags = raw & ~CSIGNAL_MASK;
	int sig = (int)(raw & CSIGNAL_MASK);

	if (!flags) {
		val_set_signal(c, v, NULL, sig);
		return;
	}
	if (!sig) {
		val_set_flags(v, NULL, flags, clone_flags, NULL);
		return;
	}
	struct val it[2];

	val_set_flags(&it[0], NULL, flags, clone_flags, NULL);
	val_set_signal(c, &it[1], NULL, sig);
	val_set_or(c, v, NULL, it, 2);
}

/* clone(flags, stack, parent_tid, child_tid, tls) on x86_64, printed
 * as strace: child_stack=, flags=, then parent_tid=, tls=, child_tidptr=
 * at exit when the flags use them. */
SYS_FUNC(clone)
{
	uint64_t flags = ev->karg[0] & ~CSIGNAL_MASK;
	struct val x;
	unsigned pos = 2;

	if (!exiting) {
		val_set_ptr(&x, NULL, ev->karg[1]);
		put_named(ctx, ev, 0, "child_stack", &x);
		clone_flags_val(ctx, &x, ev->karg[0]);
		put_named(ctx, ev, 1, "flags", &x);
		ev->nargs = 2;
		if (!(flags & (F_PARENT_SETTID | F_PIDFD | F_CHILD_SETTID |
			       F_CHILD_CLEARTID | F_SETTLS)))
			return ctx->opts->decode_pids ? RVAL_EXIT : RVAL_DONE;
		/* strace prints the ", " before the exit-time arguments
		 * after "resumed>" */
		arg_count(ev, 3);
		ev->args[2].flags = VF_LATE_SEP;
		return RVAL_EXIT;
	}
	ret_set_pid(ctx, ev, PT_TID);
	if (flags & (F_PARENT_SETTID | F_PIDFD)) {
		int t;

		if (!ev->err && tread(ctx, ev->karg[2], &t, sizeof(t))) {
			struct val in;

			if (flags & F_PIDFD)
				val_set_int(&in, NULL, t);
			else
				val_set_pid(ctx, &in, NULL, t, PT_TID);
			val_set_boxed(ctx, &x, NULL, &in);
		} else {
			val_set_ptr(&x, NULL, ev->karg[2]);
		}
		put_named(ctx, ev, pos++, "parent_tid", &x);
	}
	if (flags & F_SETTLS) {
		val_set_ptr(&x, NULL, ev->karg[4]);
		put_named(ctx, ev, pos++, "tls", &x);
	}
	if (flags & (F_CHILD_SETTID | F_CHILD_CLEARTID)) {
		val_set_ptr(&x, NULL, ev->karg[3]);
		put_named(ctx, ev, pos++, "child_tidptr", &x);
	}
	ev->nargs = (uint8_t)pos;
	if (pos > 2)
		ev->args[2].flags |= VF_LATE_SEP;
	return RVAL_DONE;
}

SYS_FUNC(fork)
{
	if (!exiting)
		return ctx->opts->decode_pids ? RVAL_EXIT : RVAL_DONE;
	ret_set_pid(ctx, ev, PT_TGID);
	return RVAL_DONE;
}

SYS_FUNC(vfork)
{
	return SYS_FUNC_NAME(fork)(ctx, ev, exiting);
}

/* The kernel's struct clone_args (up to cgroup). */
struct k_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};
#define CLONE_ARGS_MIN 64  /* offsetofend(tls) */

static void ptr64(struct val *v, const char *name, uint64_t x)
{
	val_set_ptr(v, name, x);
}

/* clone3({flags=..., ...}[ => {pidfd=[N], parent_tid=[N]}], size) */
SYS_FUNC(clone3)
{
	struct k_clone_args a;
	uint64_t size = ev->karg[1];
	size_t fetch = size < sizeof(a) ? (size_t)size : sizeof(a);
	struct val *v = arg_slot(ctx, ev, 0);

	memset(&a, 0, sizeof(a));
	if (!exiting) {
		struct val *it;
		unsigned n = 0;

		if (fetch < CLONE_ARGS_MIN || !tread(ctx, ev->karg[0], &a, fetch)) {
			val_set_ptr(v, v->name, ev->karg[0]);
			arg_uint(ctx, ev, 1);
			return RVAL_DONE;
		}
		it = val_new_array(ctx, 12);
		val_set_flags(&it[n++], "flags", a.flags, clone_flags, NULL);
		if (a.flags & F_PIDFD)
			ptr64(&it[n++], "pidfd", a.pidfd);
		if (a.flags & (F_CHILD_SETTID | F_CHILD_CLEARTID))
			ptr64(&it[n++], "child_tid", a.child_tid);
		if (a.flags & F_PARENT_SETTID)
			ptr64(&it[n++], "parent_tid", a.parent_tid);
		if (a.exit_signal < 0x7fffffff)
			val_set_signal(ctx, &it[n++], "exit_signal", (int)a.exit_signal);
		else
			val_set_uint(&it[n++], "exit_signal", a.exit_signal);
		ptr64(&it[n++], "stack", a.stack);
		val_set_hex(&it[n++], "stack_size", a.stack_size);
		if (a.flags & F_SETTLS)
			ptr64(&it[n++], "tls", a.tls);
		if (a.set_tid || a.set_tid_size) {
			ptr64(&it[n++], "set_tid", a.set_tid);
			val_set_uint(&it[n++], "set_tid_size", a.set_tid_size);
		}
		if (fetch > offsetof(struct k_clone_args, cgroup) &&
		    (a.cgroup || (a.flags & F_INTO_CGROUP)))
			val_set_uint(&it[n++], "cgroup", a.cgroup);
		/* the bytes past the structure strace 6.1 knows, when set */
		if (val_nonzero_bytes(ctx, &it[n], ev->karg[0], sizeof(a), size))
			n++;
		val_set_struct(v, v->name, it, n, false);
		if (a.flags & (F_PIDFD | F_PARENT_SETTID)) {
			/* " => {...}" follows the structure at exit, with no
			 * separator, even after "<unfinished ...>" */
			arg_count(ev, 3);
			ev->args[1].flags = VF_CONT;
			return RVAL_EXIT;
		}
		arg_uint(ctx, ev, 1);
		return ctx->opts->decode_pids ? RVAL_EXIT : RVAL_DONE;
	}
	ret_set_pid(ctx, ev, PT_TID);
	if (ev->nargs == 2 && ev->args[1].kind == V_UINT && !(ev->args[1].flags & VF_CONT))
		return RVAL_DONE;   /* the size was shown at entry */
	if (!ev->err && tread(ctx, ev->karg[0], &a, fetch)) {
		struct val *it = val_new_array(ctx, 2), *cont = val_new_array(ctx, 2), in;
		unsigned n = 0;
		int t;

		if (a.flags & F_PIDFD) {
			if (tread(ctx, a.pidfd, &t, sizeof(t))) {
				val_set_fd(ctx, &in, NULL, t);
				val_set_boxed(ctx, &it[n], "pidfd", &in);
			} else {
				val_set_ptr(&it[n], "pidfd", a.pidfd);
			}
			n++;
		}
		if (a.flags & F_PARENT_SETTID) {
			if (tread(ctx, a.parent_tid, &t, sizeof(t))) {
				val_set_pid(ctx, &in, NULL, t, PT_TID);
				val_set_boxed(ctx, &it[n], "parent_tid", &in);
			} else {
				val_set_ptr(&it[n], "parent_tid", a.parent_tid);
			}
			n++;
		}
		val_set_text(ctx, &cont[0], NULL, " => ");
		val_set_struct(&cont[1], NULL, it, n, false);
		v = arg_slot(ctx, ev, 1);
		val_set_op(v, "uargs_out", cont, 2, NULL);
		v->flags |= VF_EXIT | VF_CONT;
		v = arg_slot(ctx, ev, 2);
		val_set_uint(v, "size", size);
		v->flags |= VF_EXIT;
		return RVAL_DONE;
	}
	/* failed: no result structure; the size right after the arguments */
	v = arg_slot(ctx, ev, 1);
	val_set_uint(v, v->name, size);
	v->flags |= VF_EXIT;
	ev->nargs = 2;
	return RVAL_DONE;
}

/* ---- wait ----------------------------------------------------------------- */

/* [{WIFEXITED(s) && WEXITSTATUS(s) == 0}] as strace's printstatus */
static void status_val(struct dctx *c, struct val *v, const char *name, int status)
{
	char buf[160];
	size_t n = 0;
	unsigned rest;
	struct val t;

	if (WIFSTOPPED(status)) {
		int sig = WSTOPSIG(status);
		char num[16];
		const char *sn = signal_name(sig & 0x7f);

		if (!sn) {
			snprintf(num, sizeof(num), "%d", sig & 0x7f);
			sn = num;
		}
		n = (size_t)snprintf(buf, sizeof(buf), "{WIFSTOPPED(s) && WSTOPSIG(s) == %s%s}",
				     sn, (sig & 0x80) ? " | 0x80" : "");
		rest = (unsigned)status & ~0xffffU;
	} else if (WIFSIGNALED(status)) {
		char num[16];
		const char *sn = signal_name(WTERMSIG(status));

		if (!sn) {
			snprintf(num, sizeof(num), "%d", WTERMSIG(status));
			sn = num;
		}
		n = (size_t)snprintf(buf, sizeof(buf), "{WIFSIGNALED(s) && WTERMSIG(s) == %s%s}",
				     sn, WCOREDUMP(status) ? " && WCOREDUMP(s)" : "");
		rest = (unsigned)status & ~0xffU;
	} else if (WIFEXITED(status)) {
		n = (size_t)snprintf(buf, sizeof(buf), "{WIFEXITED(s) && WEXITSTATUS(s) == %d}",
				     WEXITSTATUS(status));
		rest = (unsigned)status & ~0xff00U;
	} else if (WIFCONTINUED(status)) {
		n = (size_t)snprintf(buf, sizeof(buf), "{WIFCONTINUED(s)}");
		rest = (unsigned)status & ~0xffffU;
	} else {
		snprintf(buf, sizeof(buf), "%#x", (unsigned)status);
		val_set_text(c, &t, NULL, buf);
		val_set_boxed(c, v, name, &t);
		return;
	}
	if (rest) {
		unsigned event = rest >> 16;

		if (event) {
			const char *en = xlat_name(ptrace_events, event);

			if (en)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, " | %s << 16", en);
			else
				n += (size_t)snprintf(buf + n, sizeof(buf) - n,
						      " | %#x /* PTRACE_EVENT_??? */ << 16", event);
			rest &= 0xffff;
		}
		if (rest && n < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n, " | %#x", rest);
	}
	val_set_text(c, &t, NULL, buf);
	val_set_boxed(c, v, name, &t);
}

static void decode_rusage(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct rusage ru;
	struct val *it, *tv;
	unsigned n = 0;

	if (!tread(c, addr, &ru, sizeof(ru))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, 16);
	tv = val_new_array(c, 4);
	val_set_int(&tv[0], "tv_sec", ru.ru_utime.tv_sec);
	val_set_int(&tv[1], "tv_usec", ru.ru_utime.tv_usec);
	val_set_struct(&it[n++], "ru_utime", tv, 2, false);
	val_set_int(&tv[2], "tv_sec", ru.ru_stime.tv_sec);
	val_set_int(&tv[3], "tv_usec", ru.ru_stime.tv_usec);
	val_set_struct(&it[n++], "ru_stime", tv + 2, 2, false);
	if (!c->opts->verbose) {
		val_set_struct(v, name, it, n, true);
		return;
	}
	val_set_int(&it[n++], "ru_maxrss", ru.ru_maxrss);
	val_set_int(&it[n++], "ru_ixrss", ru.ru_ixrss);
	val_set_int(&it[n++], "ru_idrss", ru.ru_idrss);
	val_set_int(&it[n++], "ru_isrss", ru.ru_isrss);
	val_set_int(&it[n++], "ru_minflt", ru.ru_minflt);
	val_set_int(&it[n++], "ru_majflt", ru.ru_majflt);
	val_set_int(&it[n++], "ru_nswap", ru.ru_nswap);
	val_set_int(&it[n++], "ru_inblock", ru.ru_inblock);
	val_set_int(&it[n++], "ru_oublock", ru.ru_oublock);
	val_set_int(&it[n++], "ru_msgsnd", ru.ru_msgsnd);
	val_set_int(&it[n++], "ru_msgrcv", ru.ru_msgrcv);
	val_set_int(&it[n++], "ru_nsignals", ru.ru_nsignals);
	val_set_int(&it[n++], "ru_nvcsw", ru.ru_nvcsw);
	val_set_int(&it[n++], "ru_nivcsw", ru.ru_nivcsw);
	val_set_struct(v, name, it, n, false);
}

/* wait4(pid, status, options, rusage): the rest at exit. */
SYS_FUNC(wait4)
{
	struct val *v;
	int st;

	if (!exiting) {
		v = arg_slot(ctx, ev, 0);
		val_set_pid_tgid_pgid(ctx, v, v->name, (int)ev->karg[0]);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	ret_set_pid(ctx, ev, PT_TGID);
	v = arg_slot(ctx, ev, 1);
	if (ev->err || ev->retval == 0 || !tread(ctx, ev->karg[1], &st, sizeof(st)))
		val_set_ptr(v, v->name, ev->karg[1]);
	else
		status_val(ctx, v, v->name, st);
	v->flags |= VF_EXIT;
	arg_flags(ctx, ev, 2, wait4_options, NULL);
	v = arg_slot(ctx, ev, 3);
	if (!ev->err && ev->retval > 0)
		decode_rusage(ctx, v, v->name, ev->karg[3]);
	else
		val_set_ptr(v, v->name, ev->karg[3]);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

/* waitid(idtype, id, infop, options, rusage) */
SYS_FUNC(waitid)
{
	struct val *v;
	siginfo_t si;

	if (!exiting) {
		arg_enum(ctx, ev, 0, waitid_types);
		ev->args[0].x.v = (uint32_t)ev->karg[0];
		switch ((uint32_t)ev->karg[0]) {
		case P_PID:
			arg_pid(ctx, ev, 1, PT_TGID);
			break;
		case P_PGID:
			arg_pid(ctx, ev, 1, PT_PGID);
			break;
		default:
			arg_int(ctx, ev, 1);
		}
		arg_count(ev, 5);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 2);
	if (!ev->err && tread(ctx, ev->karg[2], &si, sizeof(si))) {
		decode_siginfo_val(ctx, v, &si);
		v->name = ctx->se->argnames && 2 < ctx->se->nargs ? ctx->se->argnames[2] : NULL;
	} else {
		val_set_ptr(v, v->name, ev->karg[2]);
	}
	v->flags |= VF_EXIT;
	arg_flags(ctx, ev, 3, wait4_options, NULL);
	v = arg_slot(ctx, ev, 4);
	if (!ev->err)
		decode_rusage(ctx, v, v->name, ev->karg[4]);
	else
		val_set_ptr(v, v->name, ev->karg[4]);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

/* ---- resources ------------------------------------------------------------ */

static void rlim_val(struct dctx *c, struct val *v, const char *name, uint64_t lim)
{
	char buf[48];
	struct val num;

	val_set_uint(&num, NULL, lim);
	if (lim == UINT64_MAX) {
		val_set_num_text(c, v, name, &num, "RLIM64_INFINITY");
	} else if (lim > 1024 && lim % 1024 == 0) {
		snprintf(buf, sizeof(buf), "%llu*1024", (unsigned long long)(lim / 1024));
		val_set_num_text(c, v, name, &num, buf);
	} else {
		val_set_uint(v, name, lim);
	}
}

static void decode_rlimit(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	uint64_t r[2];
	struct val *it;

	if (!tread(c, addr, r, sizeof(r))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, 2);
	rlim_val(c, &it[0], "rlim_cur", r[0]);
	rlim_val(c, &it[1], "rlim_max", r[1]);
	val_set_struct(v, name, it, 2, false);
}

static void arg_resource(struct dctx *c, struct event *ev, unsigned i)
{
	arg_enum(c, ev, i, resources);
	ev->args[i].x.v = (uint32_t)ev->karg[i];
}

/* prlimit64(pid, resource, new, old): old at exit. */
SYS_FUNC(prlimit64)
{
	struct val *v;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		arg_resource(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		decode_rlimit(ctx, v, v->name, ev->karg[2]);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 3, decode_rlimit);
	return RVAL_DONE;
}

SYS_FUNC(getrlimit)
{
	if (!exiting) {
		arg_resource(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, decode_rlimit);
	return RVAL_DONE;
}

SYS_FUNC(setrlimit)
{
	struct val *v;

	arg_resource(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	decode_rlimit(ctx, v, v->name, ev->karg[1]);
	return RVAL_DONE;
}

SYS_FUNC(getrusage)
{
	if (!exiting) {
		arg_enum(ctx, ev, 0, usagewho);
		ev->args[0].x.v = (uint64_t)(int64_t)(int)ev->karg[0];
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, decode_rusage);
	return RVAL_DONE;
}

/* get/setpriority's which and who: a process or a process group (strace's
 * resource.c), else a number (a user id). */
static void arg_prio_who(struct dctx *c, struct event *ev)
{
	arg_enum(c, ev, 0, priorities);
	ev->args[0].x.v = (uint32_t)ev->karg[0];
	switch ((uint32_t)ev->karg[0]) {
	case PRIO_PROCESS:
		arg_pid(c, ev, 1, PT_TGID);
		break;
	case PRIO_PGRP:
		arg_pid(c, ev, 1, PT_PGID);
		break;
	default:
		arg_int(c, ev, 1);
	}
}

SYS_FUNC(getpriority)
{
	arg_prio_who(ctx, ev);
	return RVAL_DONE;
}

SYS_FUNC(setpriority)
{
	arg_prio_who(ctx, ev);
	arg_int(ctx, ev, 2);
	return RVAL_DONE;
}

/* ---- thread set-up -------------------------------------------------------- */

/* arch_prctl(code, addr): ARCH_GET_FS/GS show [value] at exit. */
SYS_FUNC(arch_prctl)
{
	uint32_t code = (uint32_t)ev->karg[0];
	struct val *v;
	uint64_t x;

	if (!exiting) {
		arg_enum(ctx, ev, 0, archvals);
		ev->args[0].x.v = code;
		switch (code) {
		case 0x1003: /* ARCH_GET_FS */
		case 0x1004: /* ARCH_GET_GS */
			arg_count(ev, 2);
			return RVAL_EXIT;
		case 0x1011: /* ARCH_GET_CPUID */
			ev->nargs = 1;
			return RVAL_DONE;
		}
		arg_hex(ctx, ev, 1);
		return RVAL_DONE;
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err || !tread(ctx, ev->karg[1], &x, sizeof(x))) {
		val_set_ptr(v, v->name, ev->karg[1]);
	} else {
		struct val in;

		val_set_ptr(&in, NULL, x);
		val_set_boxed(ctx, v, v->name, &in);
	}
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(set_tid_address)
{
	arg_ptr(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(set_robust_list)
{
	arg_ptr(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(get_robust_list)
{
	struct val *v;
	uint64_t x;

	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TID);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (!ev->err && tread(ctx, ev->karg[1], &x, sizeof(x))) {
		struct val in;

		val_set_ptr(&in, NULL, x);
		val_set_boxed(ctx, v, v->name, &in);
	} else {
		val_set_ptr(v, v->name, ev->karg[1]);
	}
	v->flags |= VF_EXIT;
	v = arg_slot(ctx, ev, 2);
	if (!ev->err && tread(ctx, ev->karg[2], &x, sizeof(x))) {
		struct val in;

		val_set_uint(&in, NULL, x);
		val_set_boxed(ctx, v, v->name, &in);
	} else {
		val_set_ptr(v, v->name, ev->karg[2]);
	}
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

/* ---- system information --------------------------------------------------- */

static void cstr_field(struct dctx *c, struct val *v, const char *name, const char *s, size_t max)
{
	val_set_str(c, v, name, s, strnlen(s, max), false);
}

/* uname({sysname="Linux", nodename="host", ...}); everything with -v. */
SYS_FUNC(uname)
{
	struct utsname u;
	struct val *v, *it;

	if (!exiting) {
		arg_count(ev, 1);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 0);
	if (ev->err || !tread(ctx, ev->karg[0], &u, sizeof(u))) {
		val_set_ptr(v, v->name, ev->karg[0]);
		v->flags |= VF_EXIT;
		return RVAL_DONE;
	}
	it = val_new_array(ctx, 6);
	cstr_field(ctx, &it[0], "sysname", u.sysname, sizeof(u.sysname));
	cstr_field(ctx, &it[1], "nodename", u.nodename, sizeof(u.nodename));
	if (ctx->opts->verbose) {
		cstr_field(ctx, &it[2], "release", u.release, sizeof(u.release));
		cstr_field(ctx, &it[3], "version", u.version, sizeof(u.version));
		cstr_field(ctx, &it[4], "machine", u.machine, sizeof(u.machine));
		cstr_field(ctx, &it[5], "domainname", u.domainname, sizeof(u.domainname));
		val_set_struct(v, v->name, it, 6, false);
	} else {
		val_set_struct(v, v->name, it, 2, true);
	}
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(sysinfo)
{
	struct sysinfo si;
	struct val *v, *it, *loads;
	unsigned n = 0;

	if (!exiting) {
		arg_count(ev, 1);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 0);
	if (ev->err || !tread(ctx, ev->karg[0], &si, sizeof(si))) {
		val_set_ptr(v, v->name, ev->karg[0]);
		v->flags |= VF_EXIT;
		return RVAL_DONE;
	}
	it = val_new_array(ctx, 12);
	loads = val_new_array(ctx, 3);
	val_set_int(&it[n++], "uptime", si.uptime);
	for (unsigned i = 0; i < 3; i++)
		val_set_uint(&loads[i], NULL, si.loads[i]);
	val_set_array(&it[n++], "loads", loads, 3, false);
	val_set_uint(&it[n++], "totalram", si.totalram);
	val_set_uint(&it[n++], "freeram", si.freeram);
	val_set_uint(&it[n++], "sharedram", si.sharedram);
	val_set_uint(&it[n++], "bufferram", si.bufferram);
	val_set_uint(&it[n++], "totalswap", si.totalswap);
	val_set_uint(&it[n++], "freeswap", si.freeswap);
	val_set_uint(&it[n++], "procs", si.procs);
	val_set_uint(&it[n++], "totalhigh", si.totalhigh);
	val_set_uint(&it[n++], "freehigh", si.freehigh);
	val_set_uint(&it[n++], "mem_unit", si.mem_unit);
	val_set_struct(v, v->name, it, n, false);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

/* ---- pidfd, getcpu -------------------------------------------------------- */

SYS_FUNC(pidfd_open)
{
	if (!exiting) {
		arg_pid(ctx, ev, 0, PT_TGID);
		arg_flags(ctx, ev, 1, pidfd_open_flags, NULL);
		return RVAL_EXIT;
	}
	ret_set_fd(ctx, ev);
	return RVAL_DONE;
}

SYS_FUNC(pidfd_getfd)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_int(ctx, ev, 1);
		arg_hex(ctx, ev, 2);   /* strace: PRINT_VAL_X */
		return RVAL_EXIT;
	}
	ret_set_fd(ctx, ev);
	return RVAL_DONE;
}

/* getcpu([cpu], [node], tcache) at exit */
SYS_FUNC(getcpu)
{
	if (!exiting) {
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	for (unsigned i = 0; i < 2; i++) {
		struct val *v = arg_slot(ctx, ev, i);
		uint32_t x;

		if (!ev->err && tread(ctx, ev->karg[i], &x, sizeof(x))) {
			struct val in;

			val_set_uint(&in, NULL, x);
			val_set_boxed(ctx, v, v->name, &in);
		} else {
			val_set_ptr(v, v->name, ev->karg[i]);
		}
		v->flags |= VF_EXIT;
	}
	arg_ptr(ctx, ev, 2);
	return RVAL_DONE;
}
