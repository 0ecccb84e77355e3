// SPDX-License-Identifier: GPL-2.0
/*
 * The eBPF back end's kernel side: counts calls, errors and time per
 * syscall for the traced tasks only, from the raw_syscalls tracepoints,
 * and follows children from birth.  Built with clang -target bpf and
 * embedded in renacer as a libbpf skeleton (engine.c loads it).
 *
 * Every syscall of every task on the machine runs sys_enter and sys_exit,
 * so both return at once for an untraced task: one array entry indexed by
 * the thread id, whose owner is compared (no hashing, no helper beyond
 * finding the current task).  A traced call costs two loads and a few
 * stores at entry and a per-CPU update at exit.  No string is read, nothing
 * is sent per call.  (Task-local storage, the obvious place for per-task
 * state, costs ~25 ns more per call for its two lookups: measured.)
 *
 * The programs are raw tracepoints (raw_tp), not BTF ones (tp_btf): libbpf
 * then needs the kernel's BTF only for the CO-RE field offsets, which the
 * loader takes from a minimal BTF made at build time when the running
 * kernel is the build machine's (parsing the whole vmlinux BTF costs
 * ~10 ms of CPU per run).  The tracepoint arguments are then plain numbers:
 * fields of the other task (a new child) are read with BPF_CORE_READ.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "bpf/abi.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before the program is loaded (constants to the verifier). */
const volatile bool follow = false;     /* -f: children and threads are traced */
const volatile bool want_cpu = false;   /* measure system time (task->stime) */
const volatile bool want_wall = false;  /* measure wall-clock time */
const volatile bool want_minmax = false;/* keep each syscall's shortest and longest */
const volatile bool want_events = false;/* send process events */
const volatile bool use_set = false;    /* count only the calls of trace_set */
const volatile __u32 status_mask = 0;   /* RB_ST_* to count; 0 means all */
const volatile __u8 trace_set[RB_SLOTS / 8] = {};  /* bit per slot */
const volatile __u32 tasks_mask = RB_TASKS - 1;    /* entries of tasks - 1 */

/* Read by the loader (mmap'ed .bss). */
__u64 live = 0;         /* traced tasks alive */
__u64 lost_tasks = 0;   /* children that could not be followed (no room) */
__u64 lost_events = 0;  /* process events the ring buffer had no room for */
__u64 lost_nr = 0;      /* calls with a number outside the slots */
__u64 noverflow = 0;    /* entries in overflow */

/* (mmap'able: the loader's watchdog reads it, see engine.c) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, RB_TASKS);
	__type(key, __u32);
	__type(value, struct rb_task);
} tasks SEC(".maps");

/* Traced tasks whose entry in tasks belongs to another live one (allocated
 * when used: preallocating would cost every start-up; so would many
 * buckets). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct rb_task);
} overflow SEC(".maps");

/*
 * The counters: a row of RB_SLOTS per CPU (CPU-major, so CPUs never share a
 * cache line), indexed by cpu * RB_SLOTS + slot; the loader sizes it for
 * the machine's CPUs and reads it through mmap.  A plain array rather than
 * a per-CPU one: the same layout, created in a fraction of the time.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, RB_SLOTS);   /* times the CPUs, set by the loader */
	__type(key, __u32);
	__type(value, struct rb_stat);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

#define X86_TS_COMPAT 0x0002    /* thread_info.status: an ia32 syscall */
#define NR_EXECVE 59
#define NR_EXECVEAT 322
#define SIGKILL_BIT (1UL << (9 - 1))

/* This CPU's counters for slot. */
static __always_inline struct rb_stat *stat_of(__u32 slot)
{
	__u32 k = bpf_get_smp_processor_id() * RB_SLOTS + slot;

	return bpf_map_lookup_elem(&stats, &k);
}

/*
 * The CPU time task has run, as of now (bpf_ktime_get_ns()): the
 * scheduler's total, brought up to date with the part of the current
 * slice it has not yet added.  The two clocks differ by an offset, but on
 * one CPU a difference of two readings is the time the task ran in
 * between: its time off the CPU (a sleep, a wait for the disk) counts for
 * nothing.  (task->stime, what rusage gives, moves by whole ticks: a call
 * shorter than a tick mostly shows 0 there.)
 */
static __always_inline __u64 cpu_now(struct task_struct *task, __u64 now)
{
	return task->se.sum_exec_runtime + (now - task->se.exec_start);
}

/*
 * The CPU time of a call that began at enter_cpu (cpu_now() on CPU
 * enter_on, when the scheduler's total was enter_sum) and lasted wall ns.
 * A call that ends on another CPU cannot subtract clocks of two CPUs: the
 * scheduler's total alone is taken then (off by the parts of a slice
 * before and after the call).  Never more than the wall time.
 */
static __always_inline __u64 call_cpu(struct task_struct *task, const struct rb_task *t,
				      __u64 now, __u64 wall)
{
	__u64 d;

	if (t->enter_on == bpf_get_smp_processor_id())
		d = cpu_now(task, now) - t->enter_stime;
	else
		d = task->se.sum_exec_runtime - t->enter_sum;
	return (__s64)d < 0 ? 0 : d > wall ? wall : d;
}

static __always_inline bool wanted(__u32 bit)
{
	return !status_mask || (status_mask & bit);
}

/* The state of traced task tid, or NULL when tid is not traced. */
static __always_inline struct rb_task *task_find(__u32 tid)
{
	__u32 k = tid & tasks_mask;
	struct rb_task *t = bpf_map_lookup_elem(&tasks, &k);

	if (t && t->tid == tid)
		return t;
	if (!noverflow)
		return NULL;
	return bpf_map_lookup_elem(&overflow, &tid);
}

/* Starts tracing tid (not yet running) with flags; false when no room. */
static __always_inline bool task_add(__u32 tid, __u32 flags)
{
	__u32 k = tid & tasks_mask;
	struct rb_task *t = bpf_map_lookup_elem(&tasks, &k);
	struct rb_task n = { tid, flags, RB_NO_CALL };

	if (t && __sync_val_compare_and_swap(&t->tid, 0, tid) == 0) {
		t->flags = flags;
		t->slot = RB_NO_CALL;
		return true;
	}
	if (bpf_map_update_elem(&overflow, &tid, &n, BPF_NOEXIST) < 0)
		return false;
	__sync_fetch_and_add(&noverflow, 1);
	return true;
}

/* Stops tracing tid; t is its state (from task_find). */
static __always_inline void task_del(__u32 tid, struct rb_task *t)
{
	__u32 k = tid & tasks_mask;
	struct rb_task *a = bpf_map_lookup_elem(&tasks, &k);

	if (a == t) {
		t->slot = RB_NO_CALL;
		__sync_lock_test_and_set(&t->tid, 0);
	} else if (bpf_map_delete_elem(&overflow, &tid) == 0) {
		__sync_fetch_and_sub(&noverflow, 1);
	}
}

SEC("raw_tp/sys_enter")
int BPF_PROG(rb_sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rb_task *t = task_find((__u32)task->pid);
	__u32 slot;

	if (!t)
		return 0;
	if (t->flags & RBT_HIDE) {
		/* the trace starts at the command's execve, as with ptrace */
		if (id != NR_EXECVE && id != NR_EXECVEAT)
			return 0;
		t->flags &= ~RBT_HIDE;
	}
	t->slot = RB_NO_CALL;
	if ((unsigned long)id >= RB_NR) {
		__sync_fetch_and_add(&lost_nr, 1);
		return 0;
	}
	slot = (__u32)id;
	if (task->thread_info.status & X86_TS_COMPAT)
		slot += RB_COMPAT;
	if (use_set && !(trace_set[(slot / 8) & (RB_SLOTS / 8 - 1)] & (1u << (slot & 7))))
		return 0;
	t->slot = slot;
	if (want_wall || want_cpu) {
		__u64 now = bpf_ktime_get_ns();
		t->enter_ns = now;
		if (want_cpu) {
			t->enter_stime = cpu_now(task, now);
			t->enter_sum = task->se.sum_exec_runtime;
			t->enter_on = bpf_get_smp_processor_id();
		}
	}
	return 0;
}

static __always_inline void minmax(__u64 *min, __u64 *max, __u64 v, bool first)
{
	if (first || v < *min)
		*min = v;
	if (v > *max)
		*max = v;
}

/*
 * A task with SIGKILL pending dies before a ptrace tracer could see this
 * exit: its call stays in progress and counts as unfinished.  One
 * exception: another fatal signal (SIGTERM with no handler) that the kernel
 * turned into a group SIGKILL, which it does only for untraced tasks; a
 * ptrace tracer sees such a call return (ERESTARTSYS...) and the signal
 * after it, so it is counted here too.  group_exit_code then holds that
 * signal; after SIGKILL, exit_group or a sibling's execve it does not.
 */
static __always_inline bool converted_fatal(struct task_struct *task)
{
	/* (a probe read, not a direct load: checking task->signal->... as a
	 * typed pointer costs the verifier ~2 ms at every start; this path
	 * runs only for dying tasks) */
	int code = BPF_CORE_READ(task, signal, group_exit_code);

	return (code & 0x7f) && !(code & ~0xff) && (code & 0x7f) != 9;
}

/* Counts at the exit; a new task's first one (the child's side of fork or
 * clone) has no call in progress and counts nothing. */
SEC("raw_tp/sys_exit")
int BPF_PROG(rb_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rb_task *t = task_find((__u32)task->pid);
	struct rb_stat *s;
	__u64 now = 0;
	__u32 slot;
	bool failed;

	if (!t || t->slot >= RB_SLOTS)
		return 0;
	if ((task->pending.signal.sig[0] & SIGKILL_BIT) && !converted_fatal(task))
		return 0;
	slot = t->slot;
	t->slot = RB_NO_CALL;
	failed = (unsigned long)ret >= (unsigned long)-4095;
	if (!wanted(failed ? RB_ST_FAILED : RB_ST_SUCCESSFUL))
		return 0;
	s = stat_of(slot);
	if (!s)
		return 0;
	s->calls++;
	if (failed)
		s->errors++;
	if (want_wall || want_cpu)
		now = bpf_ktime_get_ns();
	if (want_cpu) {
		__u64 d = call_cpu(task, t, now, now - t->enter_ns);
		s->cpu_ns += d;
		if (want_minmax)
			minmax(&s->cpu_min_ns, &s->cpu_max_ns, d, s->calls == 1);
	}
	if (want_wall) {
		__u64 d = now - t->enter_ns;
		s->wall_ns += d;
		if (want_minmax)
			minmax(&s->wall_min_ns, &s->wall_max_ns, d, s->calls == 1);
	}
	return 0;
}

static __always_inline void send(__u32 type, __u32 pid, __u32 tid, __u32 ppid,
				 __u32 is_thread, __u32 code, const char *path)
{
	struct rb_event *e;

	if (!want_events)
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&lost_events, 1);
		return;
	}
	e->type = type;
	e->pid = pid;
	e->tid = tid;
	e->ppid = ppid;
	e->is_thread = is_thread;
	e->exit_code = code;
	e->ts_ns = bpf_ktime_get_ns();
	e->path[0] = 0;
	if (path)
		bpf_probe_read_kernel_str(e->path, sizeof(e->path), path);
	bpf_ringbuf_submit(e, 0);
}

/* A new task (process or thread) is born, before it first runs; run by its
 * creator (the arguments are the creator and the new task). */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(rb_fork, struct task_struct *parent, struct task_struct *child)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	__u32 tid, tgid;

	if (!follow || !task_find((__u32)cur->pid))
		return 0;
	tid = BPF_CORE_READ(child, pid);
	tgid = BPF_CORE_READ(child, tgid);
	if (!task_add(tid, 0)) {
		__sync_fetch_and_add(&lost_tasks, 1);
		return 0;
	}
	__sync_fetch_and_add(&live, 1);
	send(RB_EV_FORK, tgid, tid, cur->pid, tgid == cur->tgid, 0, NULL);
	return 0;
}

/* A successful execve.  A thread other than the leader that calls it takes
 * the leader's tid (old_pid was its own): its state moves with it. */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(rb_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 tid = task->pid;
	struct rb_task *t = task_find(tid), *o, n;

	if (!t && (__u32)old_pid != tid && (o = task_find((__u32)old_pid))) {
		n = *o;
		task_del((__u32)old_pid, o);
		if (task_add(tid, n.flags) && (t = task_find(tid))) {
			t->slot = n.slot;
			t->enter_ns = n.enter_ns;
			t->enter_stime = n.enter_stime;
			t->enter_sum = n.enter_sum;
			t->enter_on = n.enter_on;
		}
	}
	if (!t)
		return 0;
	send(RB_EV_EXEC, task->tgid, tid, (__u32)old_pid, 0, 0, BPF_CORE_READ(bprm, interp));
	return 0;
}

/* A task ends: the call it was inside (exit_group, or one cut short by
 * SIGKILL) is unfinished, as a ptrace tracer sees it. */
SEC("raw_tp/sched_process_exit")
int BPF_PROG(rb_exit)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 tid = task->pid;
	struct rb_task *t = task_find(tid);
	struct rb_stat *s;
	__u32 slot;

	if (!t)
		return 0;
	slot = t->slot;
	if (slot < RB_SLOTS && wanted(RB_ST_UNFINISHED) &&
	    (s = stat_of(slot))) {
		s->unfinished++;
		if (want_wall)
			s->unfinished_wall_ns += bpf_ktime_get_ns() - t->enter_ns;
	}
	send(RB_EV_EXIT, task->tgid, tid, 0, 0, (__u32)task->exit_code, NULL);
	task_del(tid, t);
	__sync_fetch_and_sub(&live, 1);
	return 0;
}
