// SPDX-License-Identifier: GPL-2.0
/*
 * The eBPF back end's kernel side: counts calls, errors and time per
 * syscall for the traced tasks only, from the raw_syscalls tracepoints,
 * and follows children from birth.  Built with clang -target bpf and
 * embedded in renacer as a libbpf skeleton (engine.c loads it).
 *
 * Every syscall of every task on the machine runs sys_enter and sys_exit,
 * so both return at once for a task without storage (one lookup, no
 * hashing); a traced call costs two loads and a few adds at entry and a
 * per-CPU update at exit.  No string is read, nothing is sent per call.
 *
 * The programs are raw tracepoints (raw_tp), not BTF ones (tp_btf): libbpf
 * then needs the kernel's BTF only for the CO-RE field offsets, which the
 * loader takes from a minimal BTF made at build time when the running
 * kernel is the build machine's (parsing the whole vmlinux BTF costs
 * ~10 ms of CPU per run).  The price: the tracepoint arguments are plain
 * numbers, so a new task cannot be given storage by its creator; it is
 * noted in `pending` and takes its storage itself at its first return to
 * user space (the child's side of fork), before its first instruction.
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
const volatile bool want_events = false;/* send process events */
const volatile bool use_set = false;    /* count only the calls of trace_set */
const volatile __u32 status_mask = 0;   /* RB_ST_* to count; 0 means all */
const volatile __u8 trace_set[RB_SLOTS / 8] = {};  /* bit per slot */

/* Read by the loader (mmap'ed .bss). */
__u64 live = 0;         /* traced tasks alive */
__u64 lost_tasks = 0;   /* children that could not be given storage */
__u64 lost_events = 0;  /* process events the ring buffer had no room for */
__u64 lost_nr = 0;      /* calls with a number outside the slots */
__u64 npending = 0;     /* entries in pending */

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct rb_task);
} tasks SEC(".maps");

/* New tasks of traced ones, by thread id, until they take their storage. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u32);   /* rb_task.flags to start with */
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RB_SLOTS);
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

static __always_inline bool wanted(__u32 bit)
{
	return !status_mask || (status_mask & bit);
}

/*
 * The storage of the current task; for a task without one, while some new
 * task is pending (rare and brief), whether it is that task: then its
 * storage is made now, with no call in progress.  NULL for untraced tasks.
 */
static __always_inline struct rb_task *current_task(struct task_struct *task)
{
	struct rb_task *t = bpf_task_storage_get(&tasks, task, 0, 0);
	__u32 tid, *flags;

	if (t || !npending)
		return t;
	tid = (__u32)bpf_get_current_pid_tgid();
	flags = bpf_map_lookup_elem(&pending, &tid);
	if (!flags)
		return NULL;
	t = bpf_task_storage_get(&tasks, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (t) {
		t->slot = RB_NO_CALL;
		t->flags = *flags;
	} else {
		__sync_fetch_and_add(&lost_tasks, 1);
		__sync_fetch_and_sub(&live, 1);
	}
	if (bpf_map_delete_elem(&pending, &tid) == 0)
		__sync_fetch_and_sub(&npending, 1);
	return t;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(rb_sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rb_task *t = current_task(task);
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
	if (want_wall)
		t->enter_ns = bpf_ktime_get_ns();
	if (want_cpu)
		t->enter_stime = task->stime;
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
	int code = task->signal->group_exit_code;

	return (code & 0x7f) && !(code & ~0xff) && (code & 0x7f) != 9;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(rb_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	/* (a new task's first exit, the child's side of fork, has no call) */
	struct rb_task *t = current_task(task);
	struct rb_stat *s;
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
	s = bpf_map_lookup_elem(&stats, &slot);
	if (!s)
		return 0;
	s->calls++;
	if (failed)
		s->errors++;
	if (want_cpu) {
		__u64 d = task->stime - t->enter_stime;
		s->cpu_ns += d;
		minmax(&s->cpu_min_ns, &s->cpu_max_ns, d, s->calls == 1);
	}
	if (want_wall) {
		__u64 d = bpf_ktime_get_ns() - t->enter_ns;
		s->wall_ns += d;
		minmax(&s->wall_min_ns, &s->wall_max_ns, d, s->calls == 1);
	}
	return 0;
}

static __always_inline void send(__u32 type, struct task_struct *task, __u32 ppid,
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
	e->pid = BPF_CORE_READ(task, tgid);
	e->tid = BPF_CORE_READ(task, pid);
	e->ppid = ppid;
	e->is_thread = is_thread;
	e->exit_code = code;
	e->ts_ns = bpf_ktime_get_ns();
	e->path[0] = 0;
	if (path)
		bpf_probe_read_kernel_str(e->path, sizeof(e->path), path);
	bpf_ringbuf_submit(e, 0);
}

/* A new task (process or thread) is born, before it first runs: it is
 * noted as pending (the arguments are the creator and the new task). */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(rb_fork, struct task_struct *parent, struct task_struct *child)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct rb_task *p;
	__u32 tid, flags = 0;

	if (!follow)
		return 0;
	p = bpf_task_storage_get(&tasks, cur, 0, 0);
	if (!p)
		return 0;
	tid = BPF_CORE_READ(child, pid);
	if (bpf_map_update_elem(&pending, &tid, &flags, BPF_ANY) < 0) {
		__sync_fetch_and_add(&lost_tasks, 1);
		return 0;
	}
	__sync_fetch_and_add(&npending, 1);
	__sync_fetch_and_add(&live, 1);
	send(RB_EV_FORK, child, cur->pid, BPF_CORE_READ(child, tgid) == cur->tgid, 0, NULL);
	return 0;
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(rb_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (!bpf_task_storage_get(&tasks, task, 0, 0))
		return 0;
	send(RB_EV_EXEC, task, (__u32)old_pid, 0, 0, BPF_CORE_READ(bprm, interp));
	return 0;
}

/* A task ends: the call it was inside (exit_group, or one cut short by
 * SIGKILL) is unfinished, as a ptrace tracer sees it. */
SEC("raw_tp/sched_process_exit")
int BPF_PROG(rb_exit)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rb_task *t = current_task(task);
	struct rb_stat *s;
	__u32 slot;

	if (!t)
		return 0;
	slot = t->slot;
	t->slot = RB_NO_CALL;
	if (slot < RB_SLOTS && wanted(RB_ST_UNFINISHED) &&
	    (s = bpf_map_lookup_elem(&stats, &slot))) {
		s->unfinished++;
		if (want_wall)
			s->unfinished_wall_ns += bpf_ktime_get_ns() - t->enter_ns;
	}
	send(RB_EV_EXIT, task, 0, 0, (__u32)task->exit_code, NULL);
	bpf_task_storage_delete(&tasks, task);
	__sync_fetch_and_sub(&live, 1);
	return 0;
}
