/*
 * The ptrace engine: spawn or attach, one waitpid loop over all tracees,
 * every stop turned into an event record for the sinks.  Tracees are never
 * left stopped and their signals are always re-injected.
 */
#include "core/procstat.h"
#include "core/tracer.h"
#include "core/cpus.h"
#include "core/lamport.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "core/inject.h"
#include "core/quals.h"
#include "core/setup.h"
#include "core/startup.h"
#include "sys/tmem.h"
#include "sys/compat.h"
#include "sys/filter.h"
#include "sys/sysent.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO 0x420e
#endif
#ifndef CLONE_THREAD
#define CLONE_THREAD 0x00010000
#endif

/* Per-thread state. */
enum {
	TCB_STARTUP = 1 << 0,     /* waiting for its first stop */
	TCB_HIDE = 1 << 1,        /* launched child before its execve */
	TCB_ATTACHED = 1 << 2,    /* attached with -p: detach, never kill */
	TCB_INSYSCALL = 1 << 3,   /* between entry and exit */
	TCB_REPORT = 1 << 4,      /* the current syscall is reported */
	TCB_DEC_EXIT = 1 << 5,    /* decoder wants the exit stop */
	TCB_DETACHING = 1 << 6,   /* interrupted, detach at next stop */
	TCB_ORPHAN = 1 << 7,      /* first stop seen before its creator's event */
	TCB_HELD = 1 << 8,        /* stopped and not resumed (orphan) */
	TCB_IGNORE_EXIT = 1 << 9, /* attached mid-syscall: skip one exit */
	TCB_LISTEN = 1 << 10,     /* in group-stop (PTRACE_LISTEN) */
	TCB_WATCH = 1 << 11,      /* the current syscall is only watched (watch_set) */
	TCB_DELAYED = 1 << 12,    /* held stopped by -e inject=:delay_* */
	TCB_EXECED = 1 << 13,     /* has exec'ed once (-b execve skips that) */
};

struct tcb {
	pid_t tid;
	pid_t pid;                /* thread group id */
	unsigned flags;
	struct tcb *next;         /* hash chain */
	struct event ev;          /* the syscall in progress */
	uint64_t held_ns;         /* TCB_HELD since (monotonic ns) */
	struct cpu_task cpu;      /* its CPU placement (core/cpus.h) */
	uint64_t stime_entry;     /* -c: process system time at the entry stop */
	uint64_t sched_held_ns;   /* collect_sched: our run-queue waits while this
				     task stood stopped */
	struct arena arena;       /* its decoded values */
	/* strace's options (core/quals.h) */
	long last_nr;             /* last syscall entered (-n on other lines) */
	struct inject_task *inj;  /* -e inject= counters, made on first use */
	int resume_sig;           /* signal to resume with (inject signal=) */
	uint64_t hold_until;      /* TCB_DELAYED: monotonic ns to resume at */
	uint8_t pers;             /* personality of its last syscall (PERS_*) */
};

#define NBUCKETS 4096

/* One wait status taken from the kernel, waiting for its turn (see
 * collect_round()). */
struct wstat {
	pid_t tid;
	int status;
	uint64_t stime;           /* -c: the process's system time (wait4) */
};

/* How long a command renacer started has, after renacer's own SIGINT,
 * SIGTERM or SIGHUP was passed on to it, to end before it is killed. */
#define INTERRUPT_GRACE_MS 2000

struct tracer {
	bool start;               /* a command is started (argv), besides any
				     -p attachments */
	const struct tracer_opts *o;
	struct sink_list *sinks;
	struct tcb *buckets[NBUCKETS];
	size_t ntcb;
	pid_t leader;             /* the first tracee */
	bool seccomp;             /* a seccomp filter selects the syscalls */
	bool have_info;           /* PTRACE_GET_SYSCALL_INFO works */
	unsigned ptrace_opts;
	uint64_t t0;              /* trace start (monotonic ns) */
	struct trace_end *end;
	bool leader_done;
	uint64_t stop_stime;      /* -c: system time of the stopped process (wait4) */
	struct arena scratch;     /* names of unknown syscalls etc. */
	int exec_pipe;            /* CLOEXEC pipe: errno of a failed execv */
	bool exec_failed;         /* the command could not be executed */
	int interrupt_sig;        /* SIGINT/SIGTERM/SIGHUP that ended the trace */
	unsigned interrupts_seen; /* interrupt signals acted on so far */
	bool all_status;          /* no -e status= filter */
	bool delays;              /* -e inject= may hold tasks (TCB_DELAYED) */
	struct lamport *lamport;  /* happens-before clocks (core/lamport.h) */
	struct cpus *cpus;        /* CPU placement (core/cpus.h), or NULL */
	struct wstat *wq;         /* the current round of wait statuses */
	size_t wq_head, wq_len, wq_alloc;
	uint64_t kill_at;         /* interrupted: kill started tasks then (ns) */
	uint64_t next_due;        /* the next TCB_DELAYED task's time, 0 none */
	bool detaching;           /* attaching failed: let go of everything */
	/* what renacer was started with; the command it starts gets these */
	struct sigaction old_int, old_term, old_hup;
	sigset_t old_mask;
	size_t nheld;             /* tasks with TCB_HELD */
	uint64_t held_checked;    /* last check_held() (ns) */
	int sched_fd;             /* collect_sched: our schedstat, else -1 */
	pid_t sched_tid;          /* the task whose stop is being handled */
	uint64_t sched_wait;      /* our run-queue wait at the last reading */
};

/* Set by the signal handlers, read by the loop. */
static volatile sig_atomic_t interrupt_sig;     /* last SIGINT/TERM/HUP */
static volatile sig_atomic_t interrupt_count;   /* how many arrived */

/*
 * Statuses taken while attaching (see attach_reap): a thread that execs
 * holds the process's cred_guard_mutex until renacer has reaped the threads
 * the exec killed, and PTRACE_SEIZE of a thread of that process waits for
 * the mutex (restarting after any signal), so a tracer that only waits
 * after attaching never wakes.  A timer's handler reaps meanwhile; the
 * statuses are handled first by the next round.
 */
#define EARLY_MAX 8192
static struct { pid_t tid; int status; uint64_t stime; } early_q[EARLY_MAX];
static volatile sig_atomic_t early_n;

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- tracee table ---------------------------------------------------- */

static struct tcb *tcb_find(struct tracer *tr, pid_t tid)
{
	struct tcb *t = tr->buckets[(unsigned)tid % NBUCKETS];
	while (t && t->tid != tid)
		t = t->next;
	return t;
}

static struct tcb *tcb_new(struct tracer *tr, pid_t tid, pid_t pid, unsigned flags)
{
	struct tcb *t = xcalloc(1, sizeof(*t));
	unsigned b = (unsigned)tid % NBUCKETS;

	t->tid = tid;
	t->pid = pid;
	t->flags = flags;
	t->next = tr->buckets[b];
	tr->buckets[b] = t;
	tr->ntcb++;
	cpus_task_new(tr->cpus, &t->cpu, tid, NULL);
	return t;
}

static void tcb_drop(struct tracer *tr, struct tcb *t)
{
	struct tcb **pp = &tr->buckets[(unsigned)t->tid % NBUCKETS];

	if (t->flags & TCB_HELD)
		tr->nheld--;
	cpus_task_release(tr->cpus, &t->cpu, false);
	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (*pp)
		*pp = t->next;
	arena_release(&t->arena);
	inject_task_free(t->inj);
	free(t);
	tr->ntcb--;
}

/* Moves t to a new tid (a non-leader thread that called execve). */
static void tcb_rekey(struct tracer *tr, struct tcb *t, pid_t tid)
{
	struct tcb **pp = &tr->buckets[(unsigned)t->tid % NBUCKETS];
	unsigned b = (unsigned)tid % NBUCKETS;

	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (*pp)
		*pp = t->next;
	t->tid = tid;
	t->next = tr->buckets[b];
	tr->buckets[b] = t;
}

/* ---- emitting ------------------------------------------------------------ */

static void emit(struct tracer *tr, struct event *ev)
{
	/* Lamport clock with fork, wait and pipe edges (core/lamport.c) */
	lamport_stamp(tr->lamport, ev);
	if (tr->o->enrich && ev->type == EV_SYSCALL)
		tr->o->enrich(tr->o->enrich_data, ev);
	sink_list_event(tr->sinks, ev);
}

static void emit_simple(struct tracer *tr, struct event *ev, uint64_t ts)
{
	ev->ts_ns = ev->end_ns = ts - tr->t0;
	ev->nr = -1;
	emit(tr, ev);
}

/* Whether -e status= shows ev; why_unfinished is the STATUS_* bit of an
 * unfinished call (STATUS_UNFINISHED, or STATUS_DETACHED). */
static bool status_wanted(struct tracer *tr, const struct event *ev, unsigned why_unfinished)
{
	unsigned m = tr->o->status_mask ? tr->o->status_mask : STATUS_ALL;
	if (m == STATUS_ALL)
		return true;
	if (ev->state == SC_UNFINISHED)
		return m & why_unfinished;
	return ev->err ? (m & STATUS_FAILED) : (m & STATUS_SUCCESSFUL);
}

/* Reports the syscall t is inside as unfinished: why is STATUS_UNFINISHED
 * (the tracee died in it) or STATUS_DETACHED. */
static void finish_unfinished(struct tracer *tr, struct tcb *t, uint64_t ts, unsigned why)
{
	if (!(t->flags & TCB_INSYSCALL))
		return;
	if (t->flags & TCB_REPORT) {
		t->ev.type = EV_SYSCALL;
		t->ev.state = SC_UNFINISHED;
		t->ev.rv_fmt = RV_NONE;
		t->ev.end_ns = ts - tr->t0;
		t->ev.detached = why == STATUS_DETACHED;
		if (status_wanted(tr, &t->ev, why))
			emit(tr, &t->ev);
	}
	t->flags &= ~(TCB_INSYSCALL | TCB_REPORT | TCB_DEC_EXIT | TCB_WATCH);
}

/* ---- resuming ------------------------------------------------------------ */

static void resume(struct tracer *tr, struct tcb *t, int sig)
{
	long req = PTRACE_SYSCALL;

	if (tr->seccomp && !(t->flags & TCB_INSYSCALL))
		req = PTRACE_CONT;
	/* co-location: the CPU it runs on next (core/cpus.h) */
	cpus_resume(tr->cpus, &t->cpu);
	if (ptrace(req, t->tid, NULL, (void *)(uintptr_t)sig) < 0 && errno != ESRCH)
		warning("cannot resume process %d: %s", t->tid, strerror(errno));
}

/* Resumes t after a syscall stop, with the signal -e inject= asked for, or
 * leaves it stopped until its -e inject=:delay_* time (TCB_DELAYED; the
 * wait loop resumes it, see resume_delayed). */
static void resume_after_syscall(struct tracer *tr, struct tcb *t)
{
	if (t->hold_until) {
		t->flags |= TCB_DELAYED;
		return;
	}
	resume(tr, t, t->resume_sig);
	t->resume_sig = 0;
}

/* Resumes the TCB_DELAYED tasks whose time has come; returns the earliest
 * time a remaining one is due, or 0 when none is held. */
static uint64_t resume_delayed(struct tracer *tr)
{
	uint64_t now = now_ns(), next = 0;

	for (unsigned b = 0; b < NBUCKETS; b++) {
		for (struct tcb *t = tr->buckets[b]; t; t = t->next) {
			if (!(t->flags & TCB_DELAYED))
				continue;
			if (t->hold_until <= now) {
				t->flags &= ~TCB_DELAYED;
				t->hold_until = 0;
				resume(tr, t, t->resume_sig);
				t->resume_sig = 0;
			} else if (!next || t->hold_until < next) {
				next = t->hold_until;
			}
		}
	}
	return next;
}

/* ---- syscalls ------------------------------------------------------------ */

static const char *unknown_name(struct tracer *tr, long nr)
{
	char buf[40];
	int n = snprintf(buf, sizeof(buf), "syscall_%#lx", (unsigned long)nr);
	return arena_strndup(&tr->scratch, buf, (size_t)n);
}

static bool traced_nr(struct tracer *tr, long nr)
{
	return trace_set_has(tr->o->trace_set, nr);
}

/* A call of tracer_opts.watch_set: only enrich sees it (tracer.h). */
static bool watched_nr(struct tracer *tr, long nr)
{
	const uint8_t *w = tr->o->watch_set;
	return w && tr->o->enrich && nr >= 0 && (unsigned long)nr < sysent_count &&
	       (w[nr >> 3] & (1u << (nr & 7)));
}

static void watch_entry(struct tracer *tr, struct tcb *t, long nr, const uint64_t *args,
			uint64_t ts)
{
	struct event *ev = &t->ev;

	memset(ev, 0, sizeof(*ev));
	ev->type = EV_SYSCALL_ENTRY;
	ev->pid = t->pid;
	ev->tid = t->tid;
	ev->nr = nr;
	ev->name = sysent_get(nr) ? sysent_get(nr)->name : NULL;
	ev->ts_ns = ts - tr->t0;
	memcpy(ev->raw, args, sizeof(ev->raw));
	t->flags |= TCB_WATCH;
	tr->o->enrich(tr->o->enrich_data, ev);
}

static void watch_exit(struct tracer *tr, struct tcb *t, int64_t rval, bool is_error,
		       uint64_t ts)
{
	struct event *ev = &t->ev;

	ev->type = EV_SYSCALL;
	ev->state = SC_COMPLETE;
	ev->end_ns = ts - tr->t0;
	ev->retval = rval;
	ev->err = is_error ? (int)-rval : 0;
	tr->o->enrich(tr->o->enrich_data, ev);
}

static void syscall_entry(struct tracer *tr, struct tcb *t, long nr,
			  const uint64_t *args, uint64_t ip, uint64_t ts)
{
	struct event *ev = &t->ev;
	const struct sysent *se = sysent_get(nr);
	static const struct sysent unknown_se = { NULL, 6, 0, NULL, NULL };
	const struct trace_quals *q = tr->o->quals;
	struct decode_opts dtmp;
	struct dctx ctx;
	struct sysent compat_se;
	const struct compat_sysent *cse;
	int r, pers;

	bool launch_exec = false;

	t->last_nr = nr;
	t->flags |= TCB_INSYSCALL;
	t->flags &= ~(TCB_REPORT | TCB_DEC_EXIT | TCB_WATCH);
	if (t->flags & TCB_HIDE) {
		if (!(sysent_sem(se) & SEM_EXEC))
			return;
		t->flags &= ~TCB_HIDE;
		launch_exec = true;
	}
	/* a call of another personality (int 0x80): strace's "[ Process
	 * PID=N runs in 32 bit mode. ]" at each change, @32/@x32 filtering
	 * and the name of the call (sys/compat.h) */
	cse = quals_compat_call(nr, &pers);
	if (pers != t->pers) {
		struct event pev;
		memset(&pev, 0, sizeof(pev));
		pev.type = EV_PERSONALITY;
		pev.pid = t->pid;
		pev.tid = t->tid;
		pev.personality = (uint8_t)pers;
		pev.last_nr = nr;
		t->pers = (uint8_t)pers;
		emit_simple(tr, &pev, ts);
	}
	if (!quals_compat_traced(q, nr))
		return;
	if (!traced_nr(tr, nr)) {
		if (watched_nr(tr, nr) && !launch_exec)
			watch_entry(tr, t, nr, args, ts);
		return;
	}
	/* -P: only calls that touch one of the paths */
	if (!quals_entry_wanted(q, t->pid, t->tid, nr, args))
		return;
	t->flags |= TCB_REPORT;

	arena_reset(&t->arena);
	memset(ev, 0, sizeof(*ev));
	ev->type = EV_SYSCALL_ENTRY;
	ev->pid = t->pid;
	ev->tid = t->tid;
	ev->nr = nr;
	ev->ts_ns = ts - tr->t0;
	t->stime_entry = tr->stop_stime;
	memcpy(ev->raw, args, sizeof(ev->raw));
	if (q && q->want_ip)
		ev->ip = ip;
	/* -e inject=: before decoding, so that poke_enter= data shows */
	if (q && q->inject) {
		struct inject_act act;
		if (!t->inj)
			t->inj = inject_task_new(q->inject);
		inject_enter(q->inject, t->inj, t->tid, nr, args, &act);
		t->resume_sig = act.signo;
		if (act.delay_ns)
			t->hold_until = now_ns() + act.delay_ns;
	}
	if (se && se->name) {
		ev->name = se->name;
	} else if (cse) {
		/* arguments of another personality print undecoded */
		compat_se = unknown_se;
		compat_se.name = cse->name;
		compat_se.nargs = cse->nargs;
		se = &compat_se;
		ev->name = cse->name;
	} else {
		ev->name = unknown_name(tr, nr);
		se = &unknown_se;
	}
	sysent_kernel_args(se, ev->raw, ev->karg);

	/* decode only for sinks that read arguments (-c alone does not) */
	if (tr->sinks->needs_args) {
		ctx.pid = t->pid;
		ctx.tid = t->tid;
		ctx.arena = &t->arena;
		ctx.opts = quals_dopts(q, &tr->o->dopts, nr, &dtmp);
		ctx.se = se;
		ctx.ev = ev;
		r = se->decode ? se->decode(&ctx, ev, 0) : decode_default(&ctx, ev, 0);
		if (r == RVAL_EXIT)
			t->flags |= TCB_DEC_EXIT;
	}
	/* -s/-k: the stack is unwound at the entry stop, where it is the
	 * caller's in every case (execve replaces the image; exit_group never
	 * returns); the record keeps it until the exit.  The launched
	 * command's first execve is renacer's own child calling it: no stack */
	if (tr->o->enrich && !launch_exec) {
		uint64_t t1 = now_ns();
		tr->o->enrich(tr->o->enrich_data, ev);
		/* the call starts when the tracee goes on, not while we unwind */
		ev->ts_ns += now_ns() - t1;
	}
	/* Lamport: a pipe write is noted at its entry, before a reader can see
	 * its data (core/lamport.c) */
	lamport_stamp(tr->lamport, ev);
	/* with -e status= the outcome decides whether the call shows at all,
	 * so entries are not announced (output waits for the exit, as strace) */
	if (tr->o->entry_only) {
		/* counted by name at the entry: the whole record now, and no
		 * exit for it (tracer.h; SC_ENTRY_ONLY in event.h) */
		ev->type = EV_SYSCALL;
		ev->state = SC_ENTRY_ONLY;
		ev->end_ns = ev->ts_ns;
		ev->rv_fmt = RV_NONE;
		emit(tr, ev);
		t->flags &= ~(TCB_REPORT | TCB_DEC_EXIT);
		return;
	}
	if (tr->sinks->wants_entry && tr->all_status)
		sink_list_event(tr->sinks, ev);
}

static void syscall_exit(struct tracer *tr, struct tcb *t, int64_t rval,
			 bool is_error, uint64_t ts)
{
	struct event *ev = &t->ev;
	const struct trace_quals *q = tr->o->quals;
	struct decode_opts dtmp;

	if (!(t->flags & TCB_INSYSCALL))
		return;                    /* exit of a call begun before attach */
	if (!(t->flags & TCB_REPORT)) {
		if (t->flags & TCB_WATCH)
			watch_exit(tr, t, rval, is_error, ts);
		t->flags &= ~(TCB_INSYSCALL | TCB_WATCH);
		return;
	}
	ev->type = EV_SYSCALL;
	ev->state = SC_COMPLETE;
	ev->end_ns = ts - tr->t0;
	if (tr->o->cpu_time && tr->stop_stime > t->stime_entry)
		ev->cpu_ns = tr->stop_stime - t->stime_entry;
	/* -e inject=: the injected result is what the program and the
	 * trace see */
	if (q && q->inject && t->inj) {
		struct inject_act act;
		ev->tamper = inject_exit(q->inject, t->inj, t->tid, ev->nr, ev->raw,
					 &rval, &is_error, &act);
		if (act.delay_ns)
			t->hold_until = now_ns() + act.delay_ns;
	}
	ev->retval = rval;
	ev->err = is_error ? (int)-rval : 0;
	if (t->flags & TCB_DEC_EXIT) {
		const struct sysent *se = sysent_get(ev->nr);
		struct dctx ctx = { t->pid, t->tid, &t->arena,
				    quals_dopts(q, &tr->o->dopts, ev->nr, &dtmp), se, ev };
		if (se && se->decode)
			se->decode(&ctx, ev, 1);
	}
	if (q && (q->read_fds || q->write_fds)) {
		struct dctx ctx = { t->pid, t->tid, &t->arena, &tr->o->dopts, sysent_get(ev->nr) };
		quals_dumpio(q, &ctx, ev);
	}
	t->flags &= ~(TCB_INSYSCALL | TCB_REPORT | TCB_DEC_EXIT);
	if (status_wanted(tr, ev, STATUS_UNFINISHED))
		emit(tr, ev);
}

/* Reads the syscall state; returns the stop kind (entry, exit) or 0. */
static int get_sc(struct tracer *tr, struct tcb *t, long *nr, uint64_t *args,
		  int64_t *rval, bool *is_error, uint64_t *ip)
{
	if (tr->have_info) {
		struct __ptrace_syscall_info info;
		long n = ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(info), &info);
		if (n <= 0 && (errno == EIO || errno == EINVAL)) {
			tr->have_info = false;      /* kernel < 5.3: use registers */
			return get_sc(tr, t, nr, args, rval, is_error, ip);
		}
		if (n <= 0)
			return 0;
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY || info.op == PTRACE_SYSCALL_INFO_SECCOMP) {
			if (info.arch != AUDIT_ARCH_NATIVE)
				*nr = -1 - (long)info.entry.nr;  /* compat: shown as unknown */
			else
				*nr = (long)info.entry.nr;
			memcpy(args, info.entry.args, 6 * sizeof(uint64_t));
			*ip = info.instruction_pointer;
			return PTRACE_SYSCALL_INFO_ENTRY;
		}
		if (info.op == PTRACE_SYSCALL_INFO_EXIT) {
			*rval = info.exit.rval;
			*is_error = info.exit.is_error;
			return PTRACE_SYSCALL_INFO_EXIT;
		}
		return 0;
	} else {
		struct arch_sc sc;
		if (arch_get_sc(t->tid, &sc) < 0)
			return 0;
		if (!(t->flags & TCB_INSYSCALL)) {
			*nr = sc.compat ? -1 - sc.nr : sc.nr;
			memcpy(args, sc.args, sizeof(sc.args));
			*ip = sc.ip;
			return PTRACE_SYSCALL_INFO_ENTRY;
		}
		*rval = sc.rval;
		*is_error = sc.rval < 0 && sc.rval >= -4095;
		return PTRACE_SYSCALL_INFO_EXIT;
	}
}

static void on_syscall_stop(struct tracer *tr, struct tcb *t, uint64_t ts, bool seccomp_stop)
{
	long nr = -1;
	uint64_t args[6] = { 0 };
	int64_t rval = 0;
	bool is_error = false;
	uint64_t ip = 0;
	int kind = get_sc(tr, t, &nr, args, &rval, &is_error, &ip);

	if (seccomp_stop && kind == PTRACE_SYSCALL_INFO_EXIT)
		kind = 0;
	if (kind == PTRACE_SYSCALL_INFO_ENTRY) {
		if ((t->flags & TCB_INSYSCALL) && !seccomp_stop && !tr->have_info) {
			kind = PTRACE_SYSCALL_INFO_EXIT;  /* cannot happen with regs path */
		} else {
			bool cpus_exit = cpus_syscall_entry(tr->cpus, &t->cpu, nr, args);
			syscall_entry(tr, t, nr, args, ip, ts);
			/* under the filter, a call whose exit nobody needs (only
			 * seen for placement, or counted at its entry) is
			 * resumed with PTRACE_CONT: no exit stop */
			if (tr->seccomp && !cpus_exit && !(t->flags & (TCB_REPORT | TCB_WATCH)))
				t->flags &= ~TCB_INSYSCALL;
		}
	}
	if (kind == PTRACE_SYSCALL_INFO_EXIT) {
		cpus_syscall_exit(tr->cpus, &t->cpu, rval);
		if (t->flags & TCB_IGNORE_EXIT)
			t->flags &= ~(TCB_IGNORE_EXIT | TCB_INSYSCALL);
		else
			syscall_exit(tr, t, rval, is_error, ts);
	}
	t->flags &= ~TCB_IGNORE_EXIT;
	resume_after_syscall(tr, t);
}

/* ---- process events --------------------------------------------------- */

static void read_rss(struct event *ev, pid_t pid)
{
	char path[64];
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (strbuf_read_file(&sb, path) == 0 && (p = strstr(sb.buf, "VmHWM:")))
		ev->max_rss_kb = strtoull(p + 6, NULL, 10);
	strbuf_release(&sb);
}

/* t got PTRACE_EVENT_FORK/VFORK/CLONE: a new tracee exists. */
static void on_new_child(struct tracer *tr, struct tcb *t, int event, uint64_t ts)
{
	unsigned long msg = 0;
	pid_t child;
	bool thread = false;
	struct tcb *c;
	struct event ev;

	if (ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &msg) < 0)
		return;
	child = (pid_t)msg;
	if (event == PTRACE_EVENT_CLONE) {
		uint64_t flags = t->ev.raw[0];
		if (t->ev.nr == 435 /* clone3 */) {
			if (tmem_read(t->tid, t->ev.raw[0], &flags, sizeof(flags)) != sizeof(flags))
				flags = 0;
		} else if (!(t->flags & TCB_REPORT)) {
			/* not decoded: read the flags register again */
			struct arch_sc sc;
			if (arch_get_sc(t->tid, &sc) == 0)
				flags = sc.args[0];
		}
		thread = flags & CLONE_THREAD;
	}
	c = tcb_find(tr, child);
	if (!c)
		c = tcb_new(tr, child, thread ? t->pid : child, TCB_STARTUP);
	/* its mask is its creator's (core/cpus.c) */
	cpus_task_new(tr->cpus, &c->cpu, child, &t->cpu);
	c->pid = thread ? t->pid : child;
	c->flags &= ~TCB_ORPHAN;
	c->flags |= (t->flags & TCB_ATTACHED);

	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_START;
	ev.pid = c->pid;
	ev.tid = child;
	ev.ppid = t->tid;
	ev.is_thread = thread;
	emit_simple(tr, &ev, ts);

	if (c->flags & TCB_HELD) {
		c->flags &= ~(TCB_HELD | TCB_STARTUP);
		tr->nheld--;
		resume(tr, c, 0);
	}
}

static void check_exec_failure(struct tracer *tr, char *const argv[]);
static void detach_now(struct tracer *tr, struct tcb *t, int sig, uint64_t ts);

static void on_exec(struct tracer *tr, struct tcb *t, uint64_t ts)
{
	unsigned long old = 0;
	struct event ev;
	char path[64], exe[PATH_MAX];
	ssize_t n;

	pid_t old_tid = 0;

	if (ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &old) == 0 && (pid_t)old != t->tid) {
		/* a non-leader thread exec'ed: it takes over the leader's tid */
		struct tcb *o = tcb_find(tr, (pid_t)old);
		if (o && o != t) {
			pid_t newtid = t->tid;
			/* the leader's own state is gone (a call it was in ends
			 * unfinished, as strace shows it); keep the exec'ing
			 * thread's */
			finish_unfinished(tr, t, ts, STATUS_UNFINISHED);
			old_tid = (pid_t)old;
			tcb_drop(tr, t);
			tcb_rekey(tr, o, newtid);
			o->cpu.tid = newtid;
			o->pid = newtid;
			o->ev.pid = o->ev.tid = newtid;
			t = o;
		}
	}
	/* the launched command got this far: learn whether its seccomp
	 * filter is in place (the pipe closed at exec, so this never blocks) */
	if (t->pid == tr->leader && tr->exec_pipe >= 0)
		check_exec_failure(tr, NULL);
	t->flags &= ~TCB_HIDE;
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_EXEC;
	ev.pid = t->pid;
	ev.tid = t->tid;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)t->tid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	ev.exec_path = exe;
	ev.exec_old_tid = old_tid;
	emit_simple(tr, &ev, ts);
	/* -b execve: let go of a task at its exec, except the command's own
	 * first one (strace's TCB_SKIP_DETACH_ON_FIRST_EXEC) */
	if (tr->o->quals && tr->o->quals->detach_on_execve) {
		bool first = t->tid == tr->leader && !(t->flags & (TCB_EXECED | TCB_ATTACHED));
		t->flags |= TCB_EXECED;
		if (!first) {
			detach_now(tr, t, 0, ts);
			return;
		}
	}
	resume(tr, t, 0);
}

/* The tracee is gone (waitpid reported exit or death). */
static void on_gone(struct tracer *tr, struct tcb *t, int status, uint64_t ts)
{
	struct event ev;

	finish_unfinished(tr, t, ts, STATUS_UNFINISHED);
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_PROC_EXIT;
	ev.pid = t->pid;
	ev.tid = t->tid;
	ev.last_nr = t->last_nr;
	ev.is_thread = t->tid != t->pid;
	if (WIFEXITED(status)) {
		ev.exit_code = WEXITSTATUS(status);
	} else {
		ev.term_signal = WTERMSIG(status);
		ev.core_dumped = WCOREDUMP(status);
	}
	ev.max_rss_kb = t->ev.max_rss_kb;  /* stashed at PTRACE_EVENT_EXIT */
	ev.rq_wait_ns = t->ev.rq_wait_ns;
	ev.rq_run_ns = t->ev.rq_run_ns;
	ev.tracer_wait_ns = t->sched_held_ns;
	emit_simple(tr, &ev, ts);
	if (t->tid == tr->leader) {
		tr->end->exit_code = ev.exit_code;
		tr->end->term_signal = ev.term_signal;
		tr->leader_done = true;
	}
	tcb_drop(tr, t);
}

static void on_signal_stop(struct tracer *tr, struct tcb *t, int sig, uint64_t ts)
{
	siginfo_t si;
	struct event ev;
	struct dctx ctx = { t->pid, t->tid, &tr->scratch, &tr->o->dopts, NULL };
	struct val *v;

	if (ptrace(PTRACE_GETSIGINFO, t->tid, NULL, &si) < 0) {
		/* not a signal-delivery-stop: resume without a signal */
		resume(tr, t, 0);
		return;
	}
	if (!(t->flags & TCB_HIDE) && quals_signal_shown(tr->o->quals, sig)) {
		memset(&ev, 0, sizeof(ev));
		ev.type = EV_SIGNAL;
		ev.pid = t->pid;
		ev.tid = t->tid;
		ev.signo = sig;
		ev.last_nr = t->last_nr;
		if (tr->o->quals && tr->o->quals->want_ip)
			ev.ip = arch_get_ip(t->tid);
		arena_reset(&tr->scratch);
		v = arena_calloc(&tr->scratch, sizeof(*v));
		decode_siginfo_val(&ctx, v, &si);
		ev.siginfo = v;
		emit_simple(tr, &ev, ts);
	}
	if (t->flags & TCB_DETACHING) {
		ptrace(PTRACE_DETACH, t->tid, NULL, (void *)(uintptr_t)sig);
		return;
	}
	resume(tr, t, sig);
}

/* ---- start-up ------------------------------------------------------------ */

static scmp_filter_ctx build_filter(const uint8_t *set)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return NULL;
	/* calls of another architecture (int 0x80, x32) are not in the
	 * filter: they stop (the engine filters them, @32/@x32) instead of
	 * killing the tracee, libseccomp's default */
	seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRACE(0));
	for (unsigned nr = 0; nr < sysent_count; nr++) {
		if (!(set[nr >> 3] & (1u << (nr & 7))))
			continue;
		/* a number libseccomp does not know is left out of the filter
		 * (never traced); nothing else can make the rule fail */
		(void)seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), (int)nr, 0);
	}
	return ctx;
}

/*
 * Compiles the filter in the tracer (libseccomp writes the BPF program to a
 * memfd), so that the child only makes the seccomp() call: no libseccomp
 * code, allocation or copy-on-write faults between fork and exec.
 */
static int compile_filter(const uint8_t *set, struct sock_fprog *prog)
{
	scmp_filter_ctx ctx = build_filter(set);
	struct stat st;
	int fd, ret = -1;

	prog->filter = NULL;
	if (!ctx)
		return -1;
	fd = memfd_create("renacer-filter", MFD_CLOEXEC);
	if (fd >= 0 && seccomp_export_bpf(ctx, fd) == 0 && fstat(fd, &st) == 0 &&
	    st.st_size > 0 && st.st_size % sizeof(struct sock_filter) == 0 &&
	    st.st_size / sizeof(struct sock_filter) <= BPF_MAXINSNS) {
		prog->len = (unsigned short)(st.st_size / sizeof(struct sock_filter));
		prog->filter = xmalloc((size_t)st.st_size);
		if (pread(fd, prog->filter, (size_t)st.st_size, 0) == st.st_size) {
			ret = 0;
		} else {
			free(prog->filter);
			prog->filter = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return ret;
}

/*
 * In the child: installs prog.  The filter is renacer's, not the program's,
 * so it asks for no speculative-store-bypass mitigation (which slows every
 * instruction of the tracee), and it sets no_new_privs only when the kernel
 * requires it (without CAP_SYS_ADMIN), so set-user-ID programs keep working
 * under a privileged renacer.
 */
static int load_filter(const struct sock_fprog *prog)
{
	unsigned flags = SECCOMP_FILTER_FLAG_SPEC_ALLOW;

	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, prog) == 0)
		return 0;
	if (errno == EINVAL) {          /* kernel < 4.17: no SPEC_ALLOW */
		flags = 0;
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, prog) == 0)
			return 0;
	}
	if (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, prog);
}

static int start_child(struct tracer *tr, char *const argv[])
{
	char *path = run_setup_find_program(tr->o->setup, argv[0]);
	struct sock_fprog filter = { 0, NULL };
	int status, pfd[2];
	pid_t pid, r;

	if (!path) {
		tr->end->exit_code = 127;
		return error("cannot run '%s': %s", argv[0], strerror(errno));
	}
	if (tr->seccomp) {
		/* the filter stops the watched calls too (tracer_opts.watch_set) */
		size_t nb = (sysent_count + 7) / 8;
		uint8_t *set;
		/* entry_only without a trace set: every call, one stop each */
		if (tr->o->trace_set) {
			set = xmemdup(tr->o->trace_set, nb);
		} else {
			set = xmalloc(nb);
			memset(set, 0xff, nb);
		}
		for (size_t i = 0; tr->o->watch_set && tr->o->enrich && i < nb; i++)
			set[i] |= tr->o->watch_set[i];
		/* and the few calls CPU placement looks at */
		cpus_add_watched(tr->cpus, set, nb);
		if (compile_filter(set, &filter) < 0)
			tr->seccomp = false;
		free(set);
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		free(path);
		return error("cannot create pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		free(path);
		return error("cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int e;
		close(pfd[0]);
		/* the command starts with the signal dispositions and mask
		 * renacer was given (an ignored SIGINT stays ignored, as under
		 * a shell's "cmd &"), not with renacer's own */
		sigaction(SIGINT, &tr->old_int, NULL);
		sigaction(SIGTERM, &tr->old_term, NULL);
		sigaction(SIGHUP, &tr->old_hup, NULL);
		sigprocmask(SIG_SETMASK, &tr->old_mask, NULL);
		cpus_child_reset(tr->cpus);
		raise(SIGSTOP);
		/* its streams and directory (hidden: before its execve), before
		 * the filter so that they make no stops */
		if ((e = run_setup_apply(tr->o->setup)) != 0) {
			if (write(pfd[1], &e, sizeof(e)) < 0)
				_exit(1);
			_exit(127);
		}
		if (filter.filter && load_filter(&filter) < 0) {
			/* the tracer saw the filter fail: report and go on unfiltered */
			e = -1;
			if (write(pfd[1], &e, sizeof(e)) < 0)
				_exit(1);
		}
		/* -u: after the filter (loaded as root, no no_new_privs) */
		if (tr->o->quals && tr->o->quals->user &&
		    (e = startup_become_user(tr->o->quals->user, path)) != 0) {
			if (write(pfd[1], &e, sizeof(e)) < 0)
				_exit(1);
			_exit(127);
		}
		/* the set-up's or -E's environment */
		execve(path, argv, run_setup_envp(tr->o->setup, environ));
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(1);
		_exit(127);
	}
	close(pfd[1]);
	free(filter.filter);
	free(path);
	/* a SIGINT/SIGTERM/SIGHUP now interrupts the wait (no SA_RESTART):
	 * wait on, the loop then sees the interrupt and ends the command */
	while ((r = waitpid(pid, &status, WSTOPPED)) < 0 && errno == EINTR)
		;
	if (r != pid || !WIFSTOPPED(status)) {
		close(pfd[0]);
		kill(pid, SIGKILL);
		return error("cannot start '%s': child did not stop", argv[0]);
	}
	if (ptrace(PTRACE_SEIZE, pid, NULL, (void *)(uintptr_t)tr->ptrace_opts) < 0) {
		int e = errno;
		close(pfd[0]);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return error("cannot trace '%s': ptrace: %s", argv[0], strerror(e));
	}
	tr->leader = pid;
	tcb_new(tr, pid, pid, TCB_HIDE);
	kill(pid, SIGCONT);
	tr->exec_pipe = pfd[0];
	return 0;
}

/*
 * -D: the command is the process that ran renacer; it waits for the tracer
 * (a grandchild) to seize it, then execs (core/startup.c).  Its calls are
 * hidden until its execve, as a started command's.
 */
static int adopt_command(struct tracer *tr, pid_t pid)
{
	if (ptrace(PTRACE_SEIZE, pid, NULL,
		   (void *)(uintptr_t)(tr->ptrace_opts & ~PTRACE_O_EXITKILL)) < 0) {
		int e = errno;
		startup_daemon_release();
		return error("cannot attach to process %d: %s", (int)pid, strerror(e));
	}
	ptrace(PTRACE_INTERRUPT, pid, NULL, NULL);
	tr->leader = pid;
	tcb_new(tr, pid, pid, TCB_HIDE | TCB_STARTUP);
	startup_daemon_release();
	return 0;
}

/*
 * Seizes one thread tid of process pid and interrupts it (its first stop is
 * then a PTRACE_EVENT_STOP).  Returns 0, or the errno of PTRACE_SEIZE.
 */
static int seize_thread(struct tracer *tr, pid_t pid, pid_t *tidp)
{
	pid_t tid = *tidp;

	if (ptrace(PTRACE_SEIZE, tid, NULL,
		   (void *)(uintptr_t)(tr->ptrace_opts & ~PTRACE_O_EXITKILL)) < 0)
		return errno;
	ptrace(PTRACE_INTERRUPT, tid, NULL, NULL);
	if (tid != pid) {
		char path[64];
		struct tcb *o;

		/* seized after its exec (waiting for the mutex, see early_q):
		 * the thread is the process's new image and answers to pid;
		 * the old leader's task is gone without a status.  (A traced
		 * thread that exits stays a zombie until renacer reaps it,
		 * so its directory goes only once its status is taken.) */
		bool reaped = false;

		snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, (int)tid);
		for (sig_atomic_t i = 0; i < early_n; i++)
			reaped |= early_q[i].tid == tid;
		if (!reaped && access(path, F_OK) < 0 && errno == ENOENT &&
		    kill(pid, 0) == 0) {
			if ((o = tcb_find(tr, pid)))
				tcb_drop(tr, o);
			*tidp = tid = pid;
		}
	}
	tcb_new(tr, tid, pid, TCB_ATTACHED | TCB_STARTUP | TCB_IGNORE_EXIT);
	return 0;
}

/*
 * The EV_PROC_START of each thread attached, once all are: each says how
 * many ("Process N attached with M threads").
 */
static void emit_attached(struct tracer *tr, pid_t pid, const pid_t *tids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct event ev;

		memset(&ev, 0, sizeof(ev));
		ev.type = EV_PROC_START;
		ev.pid = pid;
		ev.tid = tids[i];
		ev.is_thread = tids[i] != pid;
		ev.attached = true;
		ev.attach_threads = (unsigned)n;
		emit_simple(tr, &ev, now_ns());
	}
}

/*
 * Attaches to pid: with -f to every thread in /proc/PID/task, else to pid
 * alone.  Threads come and go while this runs, so the directory is read
 * again until a pass finds no new thread (as strace does); a thread that
 * is gone by the time it is seized (ESRCH), or that renacer already traces
 * because an attached thread created it (EPERM), is skipped.  The process
 * exiting or exec'ing meanwhile is not an error as long as one thread was
 * attached.  Returns 0, or -1 after error() when no thread could be.
 */
static void attach_reap(int sig)
{
	int saved = errno;

	(void)sig;
	while (early_n < EARLY_MAX) {
		struct rusage ru;
		int status;
		pid_t p = wait4(-1, &status, __WALL | WNOHANG, &ru);

		if (p <= 0)
			break;
		early_q[early_n].tid = p;
		early_q[early_n].status = status;
		early_q[early_n].stime = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
					 (uint64_t)ru.ru_stime.tv_usec * 1000u;
		early_n++;
	}
	errno = saved;
}

/* Arms (on) or disarms the attach_reap timer, every 20 ms; old keeps the
 * SIGALRM action to put back. */
static void attach_reaper(bool on, struct sigaction *old)
{
	struct itimerval it = { { 0, 20000 }, { 0, 20000 } };

	if (on) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = attach_reap;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, old);
		setitimer(ITIMER_REAL, &it, NULL);
	} else {
		/* an alarm already due is taken by the handler on the way out
		 * of setitimer, before the old action is back */
		memset(&it, 0, sizeof(it));
		setitimer(ITIMER_REAL, &it, NULL);
		sigaction(SIGALRM, old, NULL);
	}
}

static int attach_threads(struct tracer *tr, pid_t pid);

/* Whether renacer traces tid now (TracerPid in /proc/TID/status); true
 * when that cannot be read (the task is gone: nothing to seize). */
static bool traced_by_me(pid_t tid)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	p = strstr(buf, "\nTracerPid:");
	return !p || atoi(p + 11) == (int)getpid();
}

static int attach_one(struct tracer *tr, pid_t pid)
{
	struct sigaction old;
	int ret;

	if (!tr->o->follow)
		return attach_threads(tr, pid);
	attach_reaper(true, &old);
	ret = attach_threads(tr, pid);
	attach_reaper(false, &old);
	return ret;
}

static int attach_threads(struct tracer *tr, pid_t pid)
{
	char path[64];
	int err = 0;
	pid_t *tids = NULL;
	size_t attached = 0, alloc = 0;

	if (!tr->o->follow) {
		err = seize_thread(tr, pid, &pid);
		if (err)
			return error("cannot attach to process %d: %s", (int)pid, strerror(err));
		emit_attached(tr, pid, &pid, 1);
		goto done;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	for (int pass = 0; pass < 1000; pass++) {
		DIR *d = opendir(path);
		struct dirent *de;
		int found = 0;

		if (!d) {
			if (!err)
				err = errno == ENOENT ? ESRCH : errno;
			break;
		}
		while ((de = readdir(d))) {
			pid_t tid = (pid_t)atoi(de->d_name);
			int e;

			struct tcb *known;

			if (tid <= 0)
				continue;
			/* the leader seen again after a thread's exec may be
			 * the new image, which nobody traces yet: the old
			 * leader's entry is stale then */
			if ((known = tcb_find(tr, tid))) {
				if (tid != pid || traced_by_me(tid))
					continue;
				tcb_drop(tr, known);
			}
			e = seize_thread(tr, pid, &tid);
			if (e == 0) {
				if (attached == alloc) {
					alloc = alloc ? alloc * 2 : 16;
					tids = xrealloc(tids, alloc * sizeof(*tids));
				}
				tids[attached++] = tid;
				found++;
			} else if (!err || err == ESRCH) {
				err = e;
			}
		}
		closedir(d);
		if (!found)
			break;
	}
	if (!attached)
		return error("cannot attach to process %d: %s", (int)pid,
			     strerror(err ? err : ESRCH));
	emit_attached(tr, pid, tids, attached);
	free(tids);
done:
	if (!tr->leader)
		tr->leader = pid;
	return 0;
}

/* Interrupted: tasks held by -e inject=:delay_* go on at once. */
static void release_delays(struct tracer *tr)
{
	if (!tr->delays)
		return;
	for (unsigned b = 0; b < NBUCKETS; b++)
		for (struct tcb *t = tr->buckets[b]; t; t = t->next)
			if (t->flags & TCB_DELAYED)
				t->hold_until = 1;
}

static void on_interrupt_signal(int sig)
{
	interrupt_sig = sig;
	interrupt_count++;
}

/* Detaches t at its next stop, or at once when it is held stopped. */
static void detach_soon(struct tracer *tr, struct tcb *t)
{
	if (t->flags & TCB_HELD) {
		detach_now(tr, t, 0, now_ns());
	} else if (!(t->flags & TCB_DETACHING)) {
		t->flags |= TCB_DETACHING;
		ptrace(PTRACE_INTERRUPT, t->tid, NULL, NULL);
	}
}

/* Attaching failed part way: lets go of what was attached. */
static void detach_attached(struct tracer *tr)
{
	tr->detaching = true;
	for (unsigned b = 0; b < NBUCKETS; b++) {
		struct tcb *t = tr->buckets[b], *next;
		for (; t; t = next) {
			next = t->next;
			detach_soon(tr, t);
		}
	}
}

/*
 * SIGINT/SIGTERM/SIGHUP (sig), or the end of the grace period (sig 0).
 * Attached tasks (-p, and everything they created) are only ever detached:
 * each is interrupted and detached at its next stop, or at once when it is
 * already held stopped.  A command renacer started gets what a shell's
 * process group would get: sig is passed on to each of its processes,
 * which are traced to their end; what is left when the grace period ends,
 * or at a second interrupt, is killed.
 */
static void stop_tracing(struct tracer *tr, int sig)
{
	bool kill_all = sig == 0 || tr->interrupt_sig != 0;
	bool any_started = false;

	if (sig && !tr->interrupt_sig)
		tr->interrupt_sig = sig;
	for (unsigned b = 0; b < NBUCKETS; b++) {
		struct tcb *t = tr->buckets[b], *next;

		for (; t; t = next) {
			next = t->next;
			if ((t->flags & TCB_ATTACHED) || !tr->start)
				detach_soon(tr, t);
			else if (kill_all || (t->flags & TCB_HIDE)) {
				kill(t->tid, SIGKILL);
			} else {
				any_started = true;
				if (t->tid == t->pid)
					kill(t->pid, sig);
			}
		}
	}
	if (any_started && !kill_all)
		tr->kill_at = now_ns() + INTERRUPT_GRACE_MS * 1000000ull;
}

static void detach_now(struct tracer *tr, struct tcb *t, int sig, uint64_t ts)
{
	struct event ev;

	finish_unfinished(tr, t, ts, STATUS_DETACHED);
	/* it leaves with its own CPU mask */
	cpus_task_release(tr->cpus, &t->cpu, true);
	ptrace(PTRACE_DETACH, t->tid, NULL, (void *)(uintptr_t)sig);
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_DETACH;
	ev.pid = t->pid;
	ev.tid = t->tid;
	emit_simple(tr, &ev, ts);
	if (t->tid == tr->leader)
		tr->end->detached = 1;
	tcb_drop(tr, t);
}

static void handle_stop(struct tracer *tr, struct tcb *t, int status, uint64_t ts)
{
	int sig = WSTOPSIG(status);
	int event = (unsigned)status >> 16;

	if (t->flags & TCB_DETACHING) {
		int inject = 0;
		siginfo_t si;
		if (event == 0 && sig != (SIGTRAP | 0x80) &&
		    ptrace(PTRACE_GETSIGINFO, t->tid, NULL, &si) == 0)
			inject = sig;
		detach_now(tr, t, inject, ts);
		return;
	}
	if (sig == (SIGTRAP | 0x80)) {
		on_syscall_stop(tr, t, ts, false);
		return;
	}
	switch (event) {
	case PTRACE_EVENT_SECCOMP:
		on_syscall_stop(tr, t, ts, true);
		return;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		on_new_child(tr, t, event, ts);
		resume(tr, t, 0);
		return;
	case PTRACE_EVENT_EXEC:
		on_exec(tr, t, ts);
		return;
	case PTRACE_EVENT_EXIT:
		if (tr->o->collect_rss && t->tid == t->pid)
			read_rss(&t->ev, t->pid);
		if (tr->o->collect_sched)
			proc_schedstat(t->tid, &t->ev.rq_run_ns, &t->ev.rq_wait_ns);
		resume(tr, t, 0);
		return;
	case PTRACE_EVENT_STOP:
		if (t->flags & TCB_STARTUP) {
			t->flags &= ~TCB_STARTUP;
			if (t->flags & TCB_ORPHAN) {
				t->flags |= TCB_HELD;   /* resumed at its creator's event */
				t->held_ns = ts;
				tr->nheld++;
				return;
			}
			resume(tr, t, 0);
			return;
		}
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			/* group-stop: shown as strace does, then stay stopped but
			 * keep reporting */
			if (!(t->flags & TCB_HIDE) && quals_signal_shown(tr->o->quals, sig)) {
				struct event ev;
				memset(&ev, 0, sizeof(ev));
				ev.type = EV_SIGNAL;
				ev.pid = t->pid;
				ev.tid = t->tid;
				ev.signo = sig;
				ev.last_nr = t->last_nr;
				if (tr->o->quals && tr->o->quals->want_ip)
					ev.ip = arch_get_ip(t->tid);
				ev.group_stop = true;
				emit_simple(tr, &ev, ts);
			}
			if (ptrace(PTRACE_LISTEN, t->tid, NULL, NULL) < 0 && errno != ESRCH)
				resume(tr, t, 0);
			return;
		}
		resume(tr, t, 0);
		return;
	default:
		break;
	}
	if (event)  {
		resume(tr, t, 0);
		return;
	}
	on_signal_stop(tr, t, sig, ts);
}

/* The exec-failure pipe: after the leader exits before exec, says why. */
static void check_exec_failure(struct tracer *tr, char *const argv[])
{
	int e[2] = { 0, 0 };
	ssize_t n;

	if (tr->exec_pipe < 0)
		return;
	n = read(tr->exec_pipe, e, sizeof(e));
	close(tr->exec_pipe);
	tr->exec_pipe = -1;
	if (n >= (ssize_t)sizeof(int) && e[0] == -1) {
		warning("cannot install the seccomp filter: stopping at every syscall");
		tr->seccomp = false;
		if (n >= (ssize_t)(2 * sizeof(int)))
			e[0] = e[1];
		else
			return;
	}
	if (n >= (ssize_t)sizeof(int) && e[0] > 0 && argv) {
		error("cannot run '%s': %s", argv[0], strerror(e[0]));
		tr->end->exit_code = 127;
		tr->end->term_signal = 0;
		tr->exec_failed = true;
	}
}

/*
 * wait4(-1, __WALL) that gives up after ns: returns 0 then (or on EINTR).
 * SIGCHLD, which every stop and exit of a tracee sends, is blocked for the
 * whole trace, so one that arrives between the wait4 and sigtimedwait stays
 * pending and ends the wait at once.
 */
static pid_t wait_timed(int *status, struct rusage *ru, uint64_t ns)
{
	sigset_t chld;
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	uint64_t end = now_ns() + ns;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		pid_t pid = wait4(-1, status, __WALL | WNOHANG, ru);
		uint64_t now;

		if (pid != 0)
			return pid;
		if (sigtimedwait(&chld, NULL, &ts) < 0 && errno != EAGAIN)
			return 0;      /* EINTR: an interrupt signal */
		now = now_ns();
		if (now >= end)
			return 0;
		ts.tv_sec = (time_t)((end - now) / 1000000000u);
		ts.tv_nsec = (long)((end - now) % 1000000000u);
	}
}

/*
 * Fairness.  wait4(-1) reports the first waitable tracee of the kernel's
 * list, which is always scanned in the same order, so a tracer that
 * resumes each tracee as soon as it is reported lets a few busy threads
 * take every turn while a thread late in the list waits (issue 8: with 50
 * threads making calls, a main thread's 1 s sleep returned after 29 s).
 * So, as strace does, one blocking wait4 is followed by WNOHANG calls that
 * take every status that is ready now: that is a round.  The round is
 * handled in the order it was collected before the kernel is asked again,
 * so every tracee that stopped gets exactly one turn per round, however
 * many threads there are and however fast they stop again.  A tracee can
 * appear twice in a round only when it died after a stop (SIGKILL); its
 * statuses are handled in order.
 * Returns 0 (the round may be empty after EINTR), or -1 with errno set
 * (ECHILD: nothing left to wait for).
 */
static int collect_round(struct tracer *tr)
{
	int flags = __WALL;
	/* something is due at a time (the end of the grace period, a check
	 * of held tasks, a delayed task's resumption): block 100 ms at most,
	 * and not past the delayed task's time */
	bool timed = tr->kill_at || tr->nheld || tr->next_due;
	uint64_t limit = 100000000u, now;

	if (tr->next_due)
		limit = tr->next_due <= (now = now_ns()) ? 0
			: tr->next_due - now < limit ? tr->next_due - now : limit;

	tr->wq_head = tr->wq_len = 0;
	/* statuses reaped while attaching come first, and the round does not
	 * block then */
	for (sig_atomic_t i = 0; i < early_n; i++) {
		struct tcb *t;

		if (tr->cpus && (t = tcb_find(tr, early_q[i].tid)))
			cpus_stopped(tr->cpus, &t->cpu);
		ALLOC_GROW(tr->wq, tr->wq_len + 1, tr->wq_alloc);
		tr->wq[tr->wq_len].tid = early_q[i].tid;
		tr->wq[tr->wq_len].status = early_q[i].status;
		tr->wq[tr->wq_len].stime = tr->o->cpu_time ? early_q[i].stime : 0;
		tr->wq_len++;
		flags |= WNOHANG;
	}
	early_n = 0;
	for (;;) {
		struct rusage ru;
		int status;
		pid_t pid;
		struct wstat *w;
		struct tcb *t;

		if (timed && !(flags & WNOHANG))
			pid = wait_timed(&status, tr->o->cpu_time ? &ru : NULL, limit);
		else
			pid = wait4(-1, &status, flags, tr->o->cpu_time ? &ru : NULL);
		if (pid <= 0) {
			if (pid == 0 || (flags & WNOHANG) || errno == EINTR)
				return 0;
			return -1;
		}
		if (tr->cpus && (t = tcb_find(tr, pid)))
			cpus_stopped(tr->cpus, &t->cpu);    /* it runs no more */
		ALLOC_GROW(tr->wq, tr->wq_len + 1, tr->wq_alloc);
		w = &tr->wq[tr->wq_len++];
		w->tid = pid;
		w->status = status;
		/* strace -c's measure: the process's system time at each stop */
		w->stime = tr->o->cpu_time ? (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
					     (uint64_t)ru.ru_stime.tv_usec * 1000u : 0;
		flags |= WNOHANG;
	}
}

/*
 * A new process is held stopped until its creator's fork event (so that its
 * start comes before its calls); the creator may never report the event
 * when it is killed at that moment.  Held processes whose parent renacer no
 * longer traces are let go after 100 ms, started as children of whatever
 * parent they have now.  (A thread's creator cannot die alone: a killed
 * group takes the new thread with it, which then reports its exit.)
 */
static void check_held(struct tracer *tr)
{
	uint64_t now = now_ns();

	if (now - tr->held_checked < 100000000u)
		return;
	tr->held_checked = now;
	for (unsigned b = 0; b < NBUCKETS && tr->nheld; b++) {
		struct tcb *t = tr->buckets[b], *next;

		for (; t; t = next) {
			char path[64];
			struct strbuf sb = STRBUF_INIT;
			const char *p;
			pid_t ppid = 0, tgid = 0;
			struct event ev;

			next = t->next;
			if (!(t->flags & TCB_HELD) || now - t->held_ns < 100000000u)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/status", (int)t->tid);
			if (strbuf_read_file(&sb, path) == 0) {
				if ((p = strstr(sb.buf, "\nTgid:")))
					tgid = (pid_t)atoi(p + 6);
				if ((p = strstr(sb.buf, "\nPPid:")))
					ppid = (pid_t)atoi(p + 6);
			}
			strbuf_release(&sb);
			if (tgid != t->tid || tcb_find(tr, ppid))
				continue;
			memset(&ev, 0, sizeof(ev));
			ev.type = EV_PROC_START;
			ev.pid = ev.tid = t->tid;
			ev.ppid = ppid;
			emit_simple(tr, &ev, now);
			t->flags &= ~(TCB_HELD | TCB_STARTUP | TCB_ORPHAN);
			tr->nheld--;
			if (t->flags & TCB_DETACHING)
				detach_now(tr, t, 0, now);
			else
				resume(tr, t, 0);
		}
	}
}

/* Handles one status of a round: a stop, an exit or a death. */
/*
 * collect_sched: renacer's run-queue wait since the last reading held a
 * stopped task: the one being handled, else (a wait for stops) the one
 * whose stop is handled next.  next 0: no task is handled now.
 */
static void sched_account(struct tracer *tr, pid_t next)
{
	uint64_t run, wait;
	struct tcb *t;
	pid_t who;

	if (tr->sched_fd < 0)
		return;
	proc_schedstat_fd(tr->sched_fd, &run, &wait);
	who = tr->sched_tid ? tr->sched_tid : next;
	if (who && wait > tr->sched_wait && (t = tcb_find(tr, who)))
		t->sched_held_ns += wait - tr->sched_wait;
	tr->sched_wait = wait;
	tr->sched_tid = next;
}

static void handle_status(struct tracer *tr, const struct wstat *w, char *const argv[])
{
	struct tcb *t;
	int status = w->status;
	uint64_t ts = now_ns();

	sched_account(tr, w->tid);
	t = tcb_find(tr, w->tid);

	tr->stop_stime = w->stime;
	if (!t) {
		if (!WIFSTOPPED(status))
			return;          /* not a tracee of ours, or one already gone */
		if (!tr->o->follow) {
			/* without -f the only way to get a task nobody asked
			 * for is a clone(CLONE_PTRACE) of a tracee: the kernel
			 * makes the child ours and stops it.  No event of its
			 * creator will come, so it is let go at this first stop
			 * (strace's "unknown pid"), else it stays stopped and
			 * its parent waits for it forever */
			ptrace(PTRACE_DETACH, w->tid, NULL, NULL);
			return;
		}
		/* a new child whose creator's event has not arrived yet; one
		 * created by an attached process is attached too, and once
		 * renacer lets go of them (the creator may be gone already,
		 * detached at that very event) it is detached at once */
		unsigned f = TCB_STARTUP | TCB_ORPHAN;
		if (!tr->start)
			f |= TCB_ATTACHED | (tr->interrupt_sig || tr->detaching ? TCB_DETACHING : 0);
		t = tcb_new(tr, w->tid, w->tid, f);
	}
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		if (t->tid == tr->leader && (t->flags & TCB_HIDE))
			check_exec_failure(tr, argv);
		on_gone(tr, t, status, ts);
		return;
	}
	if (WIFSTOPPED(status))
		handle_stop(tr, t, status, ts);
}

int tracer_run(const struct tracer_opts *o, char *const argv[],
	       struct sink_list *sinks, struct trace_end *end)
{
	struct tracer *tr = xcalloc(1, sizeof(*tr));
	/* -p with a command (as strace): both; -p alone: attach only */
	bool start = !o->attach || (argv && argv[0]);
	struct trace_info ti = { RENACER_VERSION, start ? argv : NULL, 0, o->follow };
	struct sigaction sa;
	sigset_t chld;
	struct timespec rt;
	int ret = 0;

	memset(end, 0, sizeof(*end));
	ti.env = start ? o->env : NULL;
	tr->o = o;
	tr->start = start;
	tr->sinks = sinks;
	tr->end = end;
	tr->exec_pipe = -1;
	/* PTRACE_GET_SYSCALL_INFO is tried at the first stop and dropped for
	 * the registers when the kernel refuses it (no probe child per run) */
	tr->have_info = true;
	/* test knobs: take the fallback paths even where the kernel has more */
	if (getenv("RENACER_NO_SYSCALL_INFO"))
		tr->have_info = false;
	if (getenv("RENACER_NO_VM_READV"))
		tmem_force_peek(true);
	/* the filter is inherited by every thread and child, and one that
	 * nobody traces gets ENOSYS for the selected calls: so, as strace,
	 * only with -f (which traces them all) */
	tr->seccomp = !o->attach && (o->trace_set || o->entry_only) && !o->no_seccomp &&
		      o->follow;
	tr->ptrace_opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
	if (o->follow)
		tr->ptrace_opts |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE;
	if (tr->seccomp)
		tr->ptrace_opts |= PTRACE_O_TRACESECCOMP;
	if (o->collect_rss || o->collect_sched)
		tr->ptrace_opts |= PTRACE_O_TRACEEXIT;
	tr->sched_fd = o->collect_sched ? proc_schedstat_open() : -1;
	if (tr->sched_fd >= 0) {
		uint64_t run;
		proc_schedstat_fd(tr->sched_fd, &run, &tr->sched_wait);
	}
	tr->lamport = lamport_new();
	{
		struct cpu_opts co = o->cpu;
		const char *pin = getenv("RENACER_PIN");   /* benchmarks */
		if (pin && !strcmp(pin, "tracer") && co.mode == PIN_AUTO)
			co.mode = PIN_TRACER;
		if (pin && !strcmp(pin, "always") && co.mode == PIN_AUTO)
			co.mode = PIN_ALWAYS;        /* tests */
		/* -p and -D tasks are never pinned: not killed with renacer
		 * (no EXITKILL), they could keep a pin after a SIGKILL */
		tr->cpus = cpus_new(&co, o->attach != NULL ||
				    (o->quals && o->quals->daemonize), o->follow);
	}
	tr->delays = o->quals && inject_set_has_delays(o->quals->inject);
	tr->all_status = (o->status_mask ? o->status_mask : STATUS_ALL) == STATUS_ALL;

	/* (reset before the handlers go in: a signal that comes right after
	 * must not be forgotten) */
	interrupt_count = 0;
	interrupt_sig = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt_signal;   /* no SA_RESTART: waitpid returns EINTR */
	sigaction(SIGINT, &sa, &tr->old_int);
	sigaction(SIGTERM, &sa, &tr->old_term);
	sigaction(SIGHUP, &sa, &tr->old_hup);
	/* SIGCHLD stays pending for wait_timed() (sigtimedwait) */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &tr->old_mask);

	clock_gettime(CLOCK_REALTIME, &rt);
	ti.start_realtime_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
	tr->t0 = now_ns();
	if (sink_list_begin(sinks, &ti) < 0)
		ret = -1;

	for (size_t i = 0; o->attach && i < o->nattach; i++)
		if (attach_one(tr, o->attach[i]) < 0) {
			end->exit_code = 1;
			ret = -1;
			detach_attached(tr);
			break;
		}
	if (start && ret == 0) {
		struct event ev;
		const struct trace_quals *q = o->quals;
		if ((q && q->daemon_tracee ? adopt_command(tr, q->daemon_tracee)
					   : start_child(tr, argv)) < 0) {
			if (!end->exit_code)
				end->exit_code = 1;
			ret = -1;
		} else {
			memset(&ev, 0, sizeof(ev));
			ev.type = EV_PROC_START;
			ev.pid = ev.tid = tr->leader;
			ev.ppid = getpid();
			emit_simple(tr, &ev, now_ns());
			/* -I: once the command has its own dispositions */
			if (q)
				startup_signals(q->interruptible);
		}
	}
	cpus_begin(tr->cpus);   /* --cpu: renacer's own CPUs from now */

	while (tr->ntcb > 0) {
		if (interrupt_count != (sig_atomic_t)tr->interrupts_seen) {
			tr->interrupts_seen = (unsigned)interrupt_count;
			stop_tracing(tr, interrupt_sig);
			release_delays(tr);
		}
		if (tr->kill_at && now_ns() >= tr->kill_at) {
			tr->kill_at = 0;       /* the grace period is over */
			stop_tracing(tr, 0);
		}
		if (tr->nheld)
			check_held(tr);
		if (tr->wq_head == tr->wq_len) {
			sched_account(tr, 0);
			/* -e inject=:delay_*: resume the tasks whose time
			 * has come; the round waits no longer than the next */
			if (tr->delays)
				tr->next_due = resume_delayed(tr);
			if (collect_round(tr) < 0) {
				if (errno != ECHILD)
					error("wait4: %s", strerror(errno));
				break;
			}
			continue;
		}
		handle_status(tr, &tr->wq[tr->wq_head++], argv);
		end->stops++;
	}
	if (tr->exec_pipe >= 0)
		close(tr->exec_pipe);
	/* -b execve let go of the command: like strace, wait for it to end */
	if (end->detached && start && tr->leader > 0)
		while (waitpid(tr->leader, NULL, 0) < 0 && errno == EINTR)
			;

	end->wall_ns = now_ns() - tr->t0;
	if (tr->exec_failed)
		ret = -1;
	/* a command that never ran leaves no output files: the sinks are
	 * released without end(), which removes their temporary files */
	if (ret != -1 && sink_list_end(sinks, end) < 0)
		ret = -2;
	sigaction(SIGINT, &tr->old_int, NULL);
	sigaction(SIGTERM, &tr->old_term, NULL);
	sigaction(SIGHUP, &tr->old_hup, NULL);
	sigprocmask(SIG_SETMASK, &tr->old_mask, NULL);
	if (tr->interrupt_sig) {
		end->interrupted = 1;
		end->interrupt_signal = tr->interrupt_sig;
	}
	free(tr->wq);
	arena_release(&tr->scratch);
	lamport_free(tr->lamport);
	cpus_free(tr->cpus);
	if (tr->sched_fd >= 0)
		close(tr->sched_fd);
	free(tr);
	return ret;
}
