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
/* Recording (want_record: the rec_* programs; see abi.h) */
const volatile bool want_record = false;
const volatile __u32 strlim = 33;       /* bytes of a buffer: string limit + 1 */
const volatile __u32 strcap = 34;       /* bytes of a C string: string limit + 2 */
const volatile __u32 maxptrs = 33;      /* pointers of an argv array (<= 256) */
const volatile bool anon_zero = false;  /* no swap: a page of a private anonymous
					   mapping that is not there holds zeros */
const volatile struct rb_spec specs[RB_NR] = {};   /* capture ops per number */
const volatile struct rb_iocflex ioc_flex[RB_IOC_FLEX] = {}; /* RBZ_IOC's arrays */
const volatile struct rb_iocptr ioc_ptrs[RB_IOC_PTRS] = {};  /* RBO_IOCPTR's fields */
const volatile __u64 wake_bytes = 0;    /* wake the reader when this much is
					   waiting (0: at every record) */
const volatile __u64 call_room = 0;     /* a call record is dropped (counted
					   lost) when less than this would be
					   left in the ring buffer: room kept
					   for process events, whose loss would
					   leave a task without its end */
const volatile __u8 block_set[RB_NR / 8] = {};  /* calls that may block: an
						   entry record while other
						   tasks run */
const volatile bool want_fdpath = false;  /* descriptors' paths (-y, -P) */
const volatile bool want_dump = false;    /* -e read=, -e write= data */
const volatile __u8 dump_kind[RB_NR] = {}; /* RBK_* per number */
const volatile __u8 dump_rfds[RB_DUMP_FDS / 8] = {}; /* -e read= descriptors */
const volatile __u8 dump_wfds[RB_DUMP_FDS / 8] = {}; /* -e write= descriptors */
const volatile bool dump_rall = false;    /* ...or all of them */
const volatile bool dump_wall = false;
/* -s past what a record holds (EBPF_STRING_MAX): the buffers of the
 * calls dump_kind names, each up to this many bytes, sent as dumps are
 * (1, the default: none; a cap of 0 would mean all) */
const volatile __u32 data_cap = 1;
const volatile __u32 fdpath_set[RB_NR] = {}; /* RBD_* per number */
const volatile __u8 entry_set[RB_NR / 8] = {};  /* calls with entry ops */
const volatile __u8 fork_set[RB_NR / 8] = {};   /* calls that wait for a child
						   (vfork): an entry record
						   always */
/* Stacks (-k, -s, profiles: abi.h's RB_EV_STACK and RB_EV_MAP records) */
const volatile bool want_stack = false;
const volatile __u32 stack_bytes = 16384;       /* stack copied at most, <= RB_STACK_MAX */

/* Read by the loader (mmap'ed .bss). */
__u64 live = 0;         /* traced tasks alive */
__u64 lost_tasks = 0;   /* children that could not be followed (no room) */
__u64 lost_events = 0;  /* process events the ring buffer had no room for */
__u64 lost_nr = 0;      /* calls with a number outside the slots */
__u64 noverflow = 0;    /* entries in overflow */
__u64 lost_calls = 0;   /* call and signal records the ring buffer had no room for */
__u64 cut_calls = 0;    /* records whose memory did not all fit (RBC_CUT) */
__u64 lost_stacks = 0;  /* stack and mapping records the ring buffer had no room for */

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
	__uint(max_entries, 256 * 1024);  /* the loader sizes it when recording */
} events SEC(".maps");

/* Where a record is built, one per CPU (the loader sizes it): room for
 * RB_REC_MAX bytes and one more region past it, so that an offset masked
 * below RB_REC_MAX and a length masked below 2 * RB_REGION_MAX stay in
 * it, as the verifier checks. */
#define SCRATCH_SIZE (RB_REC_MAX + 2 * RB_REGION_MAX + 64)
struct scratch {
	__u8 b[SCRATCH_SIZE];
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);           /* the CPUs, set by the loader */
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

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
				 __u32 is_thread, __u32 code, const char *path, __u32 ptgid)
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
	e->ptgid = ptgid;
	e->pad = 0;
	e->ts_ns = bpf_ktime_get_ns();
	e->max_rss_kb = e->run_ns = e->wait_ns = 0;
	/* (a fork's child has its creator's, the current task's) */
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (type == RB_EV_EXIT) {
		struct task_struct *task = bpf_get_current_task_btf();

		/* (probe reads, not typed loads: checking typed loads
		 * through mm_struct cost the verifier 8-13 ms at every
		 * start; this runs once per exit) */
		struct mm_struct *mm = BPF_CORE_READ(task, mm);

		if (mm) {
			/* the program's own high-water mark, as VmHWM: the
			 * process's maxrss also keeps the RSS it had before
			 * its execve (for a command, renacer's own) */
			long hw = (long)BPF_CORE_READ(mm, hiwater_rss);
			long cur = BPF_CORE_READ(mm, rss_stat[0].count) +
				   BPF_CORE_READ(mm, rss_stat[1].count) +
				   BPF_CORE_READ(mm, rss_stat[3].count);

			e->max_rss_kb = (cur > hw ? cur : hw) * 4;
		} else {
			/* (pages: set from the mm just before this tracepoint) */
			e->max_rss_kb = BPF_CORE_READ(task, signal, maxrss) * 4;
		}
		e->run_ns = task->se.sum_exec_runtime;
		e->wait_ns = task->sched_info.run_delay;
	}
	e->path[0] = 0;
	if (path)
		bpf_probe_read_kernel_str(e->path, sizeof(e->path), path);
	bpf_ringbuf_submit(e, 0);
}


/* ---- recording (want_record) ------------------------------------------ */

/*
 * A record being built in this CPU's scratch buffer: scalars only, so that
 * the global functions below (verified once each, not at every call) can
 * take a pointer to it.
 */
struct cap {
	__u32 off;          /* bytes used in the buffer */
	__u32 nreg;         /* regions */
	__u32 flags;        /* RBC_* */
	__u32 phase;        /* RBR_ENTRY or RBR_EXIT */
	__u32 last;         /* offset of the last region's data */
	__u32 pad;
	__s64 ret;
	__u64 args[8];      /* (6 used: 8 so that an index masked with 7 is in it) */
	__u64 sp;
	__u64 left;         /* RBO_IOV with RBF_RET: data bytes not yet shown */
	__u32 nl;           /* the call's socket is a netlink one (sock_info):
			       its messages are decoded whole, not cut at the
			       string limit */
	__u32 nlunbound;    /* RBT_NLUNBOUND of the task (fd_info) */
};

/* This CPU's scratch buffer. */
static __always_inline __u8 *scratch_buf(void)
{
	__u32 k = bpf_get_smp_processor_id();
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &k);

	return sc ? sc->b : NULL;
}

/* The 8-byte value at offset off of the record (data copied by region()). */
static __always_inline __u64 rec_u64(__u32 off)
{
	__u8 *buf = scratch_buf();

	return buf ? *(__u64 *)(buf + (off & (RB_REC_MAX - 8))) : 0;
}

/* What bpf_find_vma's callback learns of the mapping of an address */
struct vma_info {
	__u64 addr;
	__u32 ro;           /* private and read-only */
	__u32 anon;         /* private, anonymous and readable */
	__u64 end;          /* the mapping's end */
	__u32 dev;
	__u64 ino, off;
	struct dentry *dentry;
	struct vfsmount *mnt;
};

static long vma_ro(struct task_struct *task, struct vm_area_struct *vma, void *ctx)
{
	struct vma_info *v = ctx;
	struct file *f = vma->vm_file;

	v->ro = !(vma->vm_flags & (0x2 /* VM_WRITE */ | 0x8 /* VM_SHARED */));
	/* (no vm_ops: not a special mapping such as the vDSO's) */
	v->anon = !f && !vma->vm_ops &&
		  (vma->vm_flags & (0x1 /* VM_READ */ | 0x8 /* VM_SHARED */)) == 0x1;
	v->end = vma->vm_end;
	if (f) {
		v->dev = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
		v->ino = BPF_CORE_READ(f, f_inode, i_ino);
		v->off = (vma->vm_pgoff << 12) + (v->addr - vma->vm_start);
		v->dentry = BPF_CORE_READ(f, f_path.dentry);
		v->mnt = BPF_CORE_READ(f, f_path.mnt);
	}
	return 0;
}

/* path_walk()'s state, one component per bpf_loop step */
struct walk_ctx {
	struct dentry *d;
	struct mount *m;
	__u32 off, pos;
	__u32 done;         /* the root reached */
};

static long walk_one(__u32 i, void *ctx)
{
	struct walk_ctx *w = ctx;
	/* (locals: BPF_CORE_READ of w->d would relocate walk_ctx itself) */
	struct dentry *d = w->d, *parent, *root;
	struct mount *m = w->m;
	__u8 *buf = scratch_buf();
	__u32 room;
	long n;

	if (!buf)
		return 1;
	parent = BPF_CORE_READ(d, d_parent);
	root = BPF_CORE_READ(m, mnt.mnt_root);
	if (d == parent && d != root && !w->pos) {
		/* a pseudo file's (alloc_file_pseudo: memfd_create's,
		 * memfd_secret's), its own parent on an internal mount: its
		 * name is the path (d_path's simple_dname: "/NAME (deleted)") */
		n = bpf_probe_read_kernel_str(buf + (w->off & (RB_REC_MAX - 1)), 256,
					      BPF_CORE_READ(d, d_name.name));
		if (n > 0) {
			w->pos = n;
			w->done = 1;
		}
		return 1;
	}
	if (d == root || d == parent) {
		struct mount *mp = BPF_CORE_READ(m, mnt_parent);

		if (mp == m) {
			w->done = 1;         /* the root of the root mount */
			return 1;
		}
		w->d = BPF_CORE_READ(m, mnt_mountpoint);
		w->m = mp;
		return 0;
	}
	/* a component in the room left (NAME_MAX + 1 at most); one that
	 * fills it may have been cut: the walk ends there, not done */
	room = RB_FILEREF_PATH - w->pos;
	if (room > 256)
		room = 256;
	if (room < 2)
		return 1;
	n = bpf_probe_read_kernel_str(buf + ((w->off + w->pos) & (RB_REC_MAX - 1)), room,
				      BPF_CORE_READ(d, d_name.name));
	if (n <= 0 || (n == room && room < 256))
		return 1;
	w->pos += n;
	w->d = parent;
	return 0;
}

/*
 * The path of dentry on mount vfsmount, written at off of the record (at
 * most RB_FILEREF_PATH bytes): its components, the last first, each ended
 * by a NUL, up through the mounts to the root.  Returns the bytes written,
 * or -1 when the path is longer than that (or deeper than 32 steps): a
 * path cut short would name another file.
 * (Numbers: a global function takes no kernel pointer; every read of
 * them is a probe read.)
 */
__noinline int path_walk(__u32 off, __u64 dentry, __u64 vfsmount)
{
	struct walk_ctx w = { (struct dentry *)dentry, NULL, off, 0, 0 };

	if (!dentry || !vfsmount)
		return 0;
	w.m = (struct mount *)((__u8 *)vfsmount - bpf_core_field_offset(struct mount, mnt));
	bpf_loop(32, walk_one, &w, 0);
	return w.done ? (int)w.pos : -1;
}

/*
 * At an address the kernel could not read: whether it is in a private
 * read-only mapping, whose bytes cannot have changed since; if so its
 * struct rb_fileref and path go at off of the record (room for
 * sizeof(struct rb_fileref) + RB_FILEREF_PATH bytes is the caller's to
 * check), and the bytes written are returned; else -1.
 */
/* An offset of the record the verifier knows to be in it (a mask that
 * the compiler cannot drop for knowing the offset small already). */
static __always_inline __u32 in_rec(__u32 x)
{
	asm volatile("" : "+r"(x));
	return x & (RB_REC_MAX - 1);
}

/* Bytes from addr to the end of its mapping when its page is not there
 * and the mapping is private, anonymous and readable (its pages not there
 * hold zeros), else 0; at most want.  (A read that failed further on, a
 * string running into an unmapped page, is not one.) */
static __always_inline __u64 anon_bytes(__u64 addr, __u32 want)
{
	struct vma_info v = { addr };
	__u8 b;

	if (!bpf_probe_read_user(&b, 1, (void *)addr))
		return 0;
	bpf_find_vma(bpf_get_current_task_btf(), addr, vma_ro, &v, 0);
	if (!v.anon || v.end <= addr)
		return 0;
	return v.end - addr < want ? v.end - addr : want;
}

static __always_inline int ro_fileref(__u8 *buf, __u32 off, __u64 addr, __u32 want)
{
	struct vma_info v = { addr };
	struct rb_fileref *fr;
	__u64 *stash;

	bpf_find_vma(bpf_get_current_task_btf(), addr, vma_ro, &v, 0);
	if (!v.ro)
		return -1;
	fr = (struct rb_fileref *)(buf + in_rec(off));
	fr->want = want;
	fr->dev = v.dev;
	fr->ino = v.ino;
	fr->off = v.off;
	fr->pathlen = 0;
	fr->pad = 0;
	/* the path is walked once the ops are done (fill_paths(): deep in
	 * the ops, a walk would pass the verifier's depth of calls) */
	stash = (__u64 *)(buf + in_rec(off + sizeof(*fr)));
	stash[0] = (__u64)v.dentry;
	stash[1] = (__u64)v.mnt;
	return sizeof(*fr) + RB_FILEREF_PATH;
}

/* fill_paths()'s walk over the regions of the record */
struct regions_ctx {
	__u32 off;          /* the next region's header */
	__u32 n;            /* regions */
};

static long fill_one(__u32 i, void *ctx)
{
	struct regions_ctx *p = ctx;
	__u8 *buf = scratch_buf();
	struct rb_region *r;
	__u32 data;

	if (!buf || i >= p->n || p->off > RB_REC_MAX - sizeof(*r) - 64)
		return 1;
	r = (struct rb_region *)(buf + (p->off & (RB_REC_MAX - 1)));
	data = r->status == RBR_FAULT || r->status == RBR_ZERO ? 0 : r->len;
	if (r->status == RBR_FAULT_RO && r->len == sizeof(struct rb_fileref) + RB_FILEREF_PATH) {
		__u32 fo = p->off + sizeof(*r);
		struct rb_fileref *fr = (struct rb_fileref *)(buf + (fo & (RB_REC_MAX - 1)));
		__u64 d = rec_u64(fo + sizeof(*fr)), m = rec_u64(fo + sizeof(*fr) + 8);

		int n = path_walk(fo + sizeof(*fr), d, m);

		fr->pathlen = n > 0 ? n : 0;
	}
	p->off += sizeof(*r) + ((data + 7) & ~7);
	return 0;
}

/* The paths of the record's RBR_FAULT_RO regions (see ro_fileref()). */
static __always_inline void fill_paths(struct cap *c)
{
	struct regions_ctx p = { sizeof(struct rb_call), c->nreg };

	bpf_loop(256, fill_one, &p, 0);
}

/*
 * Copies len bytes (RBR_BYTES) or a string of at most len bytes (RBR_STR)
 * at addr into a new region of c.  Returns the bytes copied (c->last is
 * where they are), or -1 when nothing could be read (a region with
 * RBR_FAULT or RBR_ZERO says so) or the record is full (RBC_CUT).
 */
__noinline int region(struct cap *c, __u64 addr, __u32 len, __u32 kind)
{
	__u8 *buf = scratch_buf();
	struct rb_region *r;
	__u32 off, hl = sizeof(struct rb_region);
	long n;

	if (!c || !buf)
		return -1;
	off = c->off;
	if (len > RB_REGION_MAX)
		len = RB_REGION_MAX;
	if (off + hl + len + 8 > RB_REC_MAX) {
		c->flags |= RBC_CUT;
		return -1;
	}
	r = (struct rb_region *)(buf + (off & (RB_REC_MAX - 1)));
	c->last = off + hl;
	if (kind == RBR_KSTR) {
		n = bpf_probe_read_kernel_str(buf + ((off + hl) & (RB_REC_MAX - 1)),
					      len & (2 * RB_REGION_MAX - 1), (void *)addr);
		r->status = n > 0 ? RBR_OK : RBR_FAULT;
		addr = 0;
	} else if (kind == RBR_STR) {
		/* one byte more: a string that fills it has no NUL in len */
		n = bpf_probe_read_user_str(buf + ((off + hl) & (RB_REC_MAX - 1)),
					    (len + 1) & (2 * RB_REGION_MAX - 1), (void *)addr);
		if (n > len) {
			r->status = RBR_LONG;
			n = len;
		} else {
			r->status = n > 0 ? RBR_OK : RBR_FAULT;
		}
	} else {
		/* (long: -1 and a __u32 would make an unsigned -1) */
		n = bpf_probe_read_user(buf + ((off + hl) & (RB_REC_MAX - 1)),
					len & (2 * RB_REGION_MAX - 1), (void *)addr) ? -1L : (long)len;
		/* page by page up to the first that cannot be read (an array
		 * that runs into unmapped memory shows what comes before) */
		if (n < 0) {
			__u32 done = 0;

			for (int k = 0; k < RB_REGION_MAX / 4096 + 1 && done < len; k++) {
				__u32 chunk = 4096 - ((addr + done) & 4095);

				if (chunk > len - done)
					chunk = len - done;
				if (bpf_probe_read_user(buf + ((off + hl + done) & (RB_REC_MAX - 1)),
							chunk & (2 * RB_REGION_MAX - 1),
							(void *)(addr + done)))
					break;
				done += chunk;
			}
			n = done ? (long)done : -1L;
		}
		r->status = n >= 0 ? RBR_OK : RBR_FAULT;
	}
	if (n < 0)
		n = 0;
	r->addr = addr;
	/* a page of a private anonymous mapping never touched (or given
	 * back): zeros, as a ptrace tracer reads them (the kernel would
	 * fault in its zero page); len of them, no data */
	if (r->status == RBR_FAULT && kind != RBR_KSTR && anon_zero) {
		__u64 z = anon_bytes(addr, len);

		if (z) {
			r->status = RBR_ZERO;
			r->len = kind == RBR_STR ? 1 : (__u32)z;
			r->phase = c->phase;
			r->kind = kind;
			r->pad = 0;
			c->off = off + hl;
			c->nreg++;
			return -1;
		}
	}
	/* an unread page of a private read-only mapping: the reader may
	 * read it itself (its bytes cannot have changed) */
	if (r->status == RBR_FAULT && kind != RBR_KSTR &&
	    off + hl + sizeof(struct rb_fileref) + RB_FILEREF_PATH + 8 <= RB_REC_MAX) {
		int fr = ro_fileref(buf, off + hl, addr, len);

		if (fr > 0) {
			r->status = RBR_FAULT_RO;
			n = fr;
			c->flags |= RBC_LATE;  /* the reader, woken at once, reads it */
		}
	}
	r->len = n;
	r->phase = c->phase;
	r->kind = kind;
	r->pad = 0;
	c->off = off + hl + ((n + 7) & ~7);
	c->nreg++;
	return r->status == RBR_FAULT || r->status == RBR_FAULT_RO ? -1 : n;
}


/* RBO_PTRS: the string of each pointer of the array recorded at base */
struct ptrs_ctx {
	struct cap *c;
	__u32 base;         /* offset of the array in the record */
	__u32 n;            /* its pointers */
};

static long ptr_str(__u32 i, void *ctx)
{
	struct ptrs_ctx *p = ctx;
	__u64 ptr;

	if (i >= p->n)
		return 1;
	ptr = rec_u64(p->base + 8 * i);
	if (!ptr)
		return 1;
	region(p->c, ptr, strcap, RBR_STR);
	return 0;
}

/* RBO_IOV: each iovec's buffer */
struct iov_ctx {
	struct cap *c;
	__u32 base;         /* offset of the iovec array in the record */
	__u32 n;
	__u32 ret;          /* bounded by c->left */
};

static long iov_one(__u32 i, void *ctx)
{
	struct iov_ctx *p = ctx;
	__u64 base, len;

	if (i >= p->n)
		return 1;
	base = rec_u64(p->base + 16 * i);
	len = rec_u64(p->base + 16 * i + 8);
	if (p->ret) {
		if (len > p->c->left)
			len = p->c->left;
		p->c->left -= len;
	}
	if (len > strlim && !p->c->nl)
		len = strlim;
	if (base && len)
		region(p->c, base, len, RBR_BYTES);
	return 0;
}

/*
 * A struct msghdr at addr (recorded), its name, iovecs and buffers (data:
 * bytes the call moved, -1 for each whole iov_len; at most the string
 * limit + 1 of each), and control data (at most ctl bytes).
 */
__noinline int msg(struct cap *c, __u64 addr, __s64 data, __u32 ctl)
{
	struct iov_ctx p = { c, 0, 0, data >= 0 };
	__u64 name, iov, iovlen, control, controllen;
	__u32 base, namelen;

	if (!c || region(c, addr, 56, RBR_BYTES) < 0)
		return 0;
	base = c->last;
	name = rec_u64(base);
	namelen = (__u32)rec_u64(base + 8);
	iov = rec_u64(base + 16);
	iovlen = rec_u64(base + 24);
	control = rec_u64(base + 32);
	controllen = rec_u64(base + 40);
	if (name && namelen)
		region(c, name, namelen > 128 ? 128 : namelen, RBR_BYTES);
	if (iov && iovlen) {
		if (iovlen > 64)
			iovlen = 64;
		if (region(c, iov, iovlen * 16, RBR_BYTES) >= 0) {
			p.base = c->last;
			p.n = iovlen;
			c->left = data > 0 ? (__u64)data : 0;
			bpf_loop(64, iov_one, &p, 0);
		}
	}
	if (control && controllen)
		region(c, control, controllen > ctl ? ctl : controllen, RBR_BYTES);
	return 0;
}

/* RBO_MMSG: each message of an mmsghdr array (recorded at base) */
struct mmsg_ctx {
	struct cap *c;
	__u64 addr;
	__u32 base, ret, ctl, n;
};

static long mmsg_one(__u32 i, void *ctx)
{
	struct mmsg_ctx *p = ctx;
	__s64 data = -1;

	if (i >= p->n)
		return 1;
	if (p->ret)
		data = (__u32)rec_u64(p->base + 64 * i + 56);
	msg(p->c, p->addr + 64 * (__u64)i, data, p->ctl);
	return 0;
}

/*
 * A region (RBR_FD) with what descriptor fd of the current task refers to:
 * its inode and mode, and a socket's family and protocol.  Nothing when it
 * is not open.  (A netlink message is decoded by its socket's protocol,
 * and a pipe orders the processes of a trace, both of which the reader
 * can no longer look up once the call is over.)
 */
__noinline int fd_info(struct cap *c, __u64 fd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct file **fds = BPF_CORE_READ(task, files, fdt, fd);
	unsigned int max = BPF_CORE_READ(task, files, fdt, max_fds);
	__u8 *buf = scratch_buf();
	struct rb_fdinfo *fi;
	struct rb_region *r;
	struct file *f = NULL;
	__u32 off;

	if (!c || !buf || fd >= max || fd > 1u << 20)
		return 0;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	off = c->off;
	if (!f || off + sizeof(*r) + sizeof(*fi) > RB_REC_MAX)
		return 0;
	r = (struct rb_region *)(buf + in_rec(off));
	r->addr = fd;
	r->len = sizeof(*fi);
	r->phase = c->phase;
	r->kind = RBR_FD;
	r->status = RBR_OK;
	r->pad = 0;
	fi = (struct rb_fdinfo *)(buf + in_rec(off + sizeof(*r)));
	fi->ino = BPF_CORE_READ(f, f_inode, i_ino);
	fi->mode = BPF_CORE_READ(f, f_inode, i_mode);
	fi->family = fi->protocol = 0;
	if ((fi->mode & 0170000) == 0140000) {         /* S_IFSOCK */
		struct socket *so = BPF_CORE_READ(f, private_data);
		struct sock *sk = BPF_CORE_READ(so, sk);

		if (sk) {
			fi->family = BPF_CORE_READ(sk, __sk_common.skc_family);
			fi->protocol = BPF_CORE_READ(sk, sk_protocol);
			c->nl = fi->family == 16;    /* AF_NETLINK */
			/* (not bound now, or at a send's entry: autobound
			 * inside the call) */
			if (c->nl && (c->nlunbound ||
				      !BPF_CORE_READ((struct netlink_sock *)sk, portid)))
				fi->protocol = RB_NL_UNBOUND;
		}
	}
	c->off = off + sizeof(*r) + sizeof(*fi);
	c->nreg++;
	return 0;
}

/* -yy of a unix socket: its peer's inode and the path it is bound to, as
 * unix_diag says (the reader cannot ask once the socket is gone). */
static __always_inline void unix_details(struct rb_fdpath *fp, struct unix_sock *u)
{
	struct sock *peer = BPF_CORE_READ(u, peer);
	struct unix_address *a = BPF_CORE_READ(u, addr);

	if (peer) {
		struct socket *ps = BPF_CORE_READ(peer, sk_socket);

		if (ps) {
			/* SOCK_INODE(): the inode that follows the socket */
			struct socket_alloc *sa = (void *)((__u8 *)ps -
				bpf_core_field_offset(struct socket_alloc, socket));

			fp->peer = (__u32)BPF_CORE_READ(sa, vfs_inode.i_ino);
		}
	}
	if (a) {
		int len = BPF_CORE_READ(a, len) - 2;    /* less sun_family */

		if (len > 0 && len <= 108 &&
		    !bpf_probe_read_kernel(fp->sun_path, len & 127, (__u8 *)a +
					   bpf_core_field_offset(struct unix_address, name) + 2))
			fp->plen = len;
	}
}

/* -yy of an inet socket: its endpoints, as inet_diag says (the reader
 * cannot ask once the socket is gone). */
static __always_inline void inet_details(struct rb_fdpath *fp, struct sock *sk, __u16 fam)
{
	fp->family = fam;
	fp->sport = BPF_CORE_READ(sk, __sk_common.skc_num);
	fp->dport = __builtin_bswap16(BPF_CORE_READ(sk, __sk_common.skc_dport));
	if (fam == 2) {
		__u32 s = BPF_CORE_READ(sk, __sk_common.skc_rcv_saddr);
		__u32 d = BPF_CORE_READ(sk, __sk_common.skc_daddr);

		__builtin_memcpy(fp->saddr, &s, 4);
		__builtin_memcpy(fp->daddr, &d, 4);
	} else {
		bpf_probe_read_kernel(fp->saddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
		bpf_probe_read_kernel(fp->daddr, 16, &sk->__sk_common.skc_v6_daddr);
	}
}

/*
 * A region (RBR_FDPATH) with what descriptor fd of the current task refers
 * to and its path (AT_FDCWD: the working directory), for -y and -P: what
 * readlink(/proc/PID/fd/N) says at the call, which the reader can no
 * longer ask once the call is over.  Nothing when fd is not open.
 */
__noinline int fd_path_region(struct cap *c, __u64 fd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u8 *buf = scratch_buf();
	struct dentry *d;
	struct vfsmount *mnt;
	struct inode *ino;
	struct rb_fdpath *fp;
	struct rb_region *r;
	struct file *f = NULL;
	__u32 off;
	int n;

	if (!c || !buf)
		return 0;
	if ((int)fd == -100) {
		d = BPF_CORE_READ(task, fs, pwd.dentry);
		mnt = BPF_CORE_READ(task, fs, pwd.mnt);
		ino = BPF_CORE_READ(d, d_inode);
	} else {
		struct file **fds = BPF_CORE_READ(task, files, fdt, fd);
		unsigned int max = BPF_CORE_READ(task, files, fdt, max_fds);

		if (fd >= max || fd > 1u << 20)
			return 0;
		bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
		if (!f)
			return 0;
		d = BPF_CORE_READ(f, f_path.dentry);
		mnt = BPF_CORE_READ(f, f_path.mnt);
		ino = BPF_CORE_READ(f, f_inode);
	}
	off = c->off;
	if (!d || off + sizeof(*r) + sizeof(*fp) + RB_FILEREF_PATH + 8 > RB_REC_MAX) {
		c->flags |= RBC_CUT;
		return 0;
	}
	r = (struct rb_region *)(buf + in_rec(off));
	r->addr = fd;
	r->len = sizeof(*fp) + RB_FILEREF_PATH;
	r->phase = c->phase;
	r->kind = RBR_FDPATH;
	r->status = RBR_OK;
	r->pad = 0;
	fp = (struct rb_fdpath *)(buf + in_rec(off + sizeof(*r)));
	fp->ino = BPF_CORE_READ(ino, i_ino);
	fp->mode = BPF_CORE_READ(ino, i_mode);
	fp->magic = (__u32)BPF_CORE_READ(ino, i_sb, s_magic);
	/* d_unlinked(): unhashed and not a root */
	fp->flags = !BPF_CORE_READ(d, d_hash.pprev) && BPF_CORE_READ(d, d_parent) != d
		    ? RBP_DELETED : 0;
	/* (a pseudo file, see walk_one(): " (deleted)" as simple_dname says) */
	if (BPF_CORE_READ(d, d_parent) == d && d != BPF_CORE_READ(mnt, mnt_root))
		fp->flags = RBP_DELETED;
	fp->name[0] = fp->proto[0] = 0;
	bpf_probe_read_kernel_str(fp->name, sizeof(fp->name), BPF_CORE_READ(d, d_name.name));
	if (fp->magic == 0x6e736673) {          /* NSFS_MAGIC: the namespace's kind
						   ("uts"), as ns_dname() says */
		struct ns_common *ns = BPF_CORE_READ(ino, i_private);

		bpf_probe_read_kernel_str(fp->name, sizeof(fp->name), BPF_CORE_READ(ns, ops, name));
	}
	fp->peer = fp->plen = 0;
	fp->family = fp->sport = fp->dport = fp->pad = 0;
	if ((fp->mode & 0170000) == 0140000 && f) {         /* S_IFSOCK */
		struct socket *so = BPF_CORE_READ(f, private_data);
		struct sock *sk = BPF_CORE_READ(so, sk);

		bpf_probe_read_kernel_str(fp->proto, sizeof(fp->proto),
					  BPF_CORE_READ(sk, __sk_common.skc_prot, name));
		__u16 fam = sk ? BPF_CORE_READ(sk, __sk_common.skc_family) : 0;

		if (fam == 1)                   /* AF_UNIX */
			unix_details(fp, (struct unix_sock *)sk);
		else if (fam == 2 || fam == 10) /* AF_INET, AF_INET6 */
			inet_details(fp, sk, fam);
		else if (fam == 16) {           /* AF_NETLINK: its protocol, port id */
			fp->family = fam;
			fp->sport = BPF_CORE_READ(sk, sk_protocol);
			fp->peer = BPF_CORE_READ((struct netlink_sock *)sk, portid);
		}
	} else if (f && (fp->magic == 0x50494446 ||        /* PID_FS_MAGIC */
			 (fp->magic == 0x09041934 &&         /* ANON_INODE_FS_MAGIC */
			  fp->name[1] == 'p' && fp->name[3] == 'd' && fp->name[5] == 'd'))) {
		/* a pidfd ("[pidfd]"): its process, while it has one, as
		 * /proc/PID/fdinfo's "Pid:" says (decode-fds=pidfd; pidfs
		 * keeps the struct pid in the inode, anon_inode in the file) */
		struct pid *pid = fp->magic == 0x50494446 ? BPF_CORE_READ(ino, i_private)
							   : BPF_CORE_READ(f, private_data);

		if (pid && BPF_CORE_READ(pid, tasks[0].first))
			fp->peer = BPF_CORE_READ(pid, numbers[0].nr);
	}
	fp->pathlen = 0;
	c->off = off + sizeof(*r) + sizeof(*fp) + RB_FILEREF_PATH;
	c->nreg++;
	n = path_walk(off + sizeof(*r) + sizeof(*fp), (__u64)d, (__u64)mnt);
	/* (fp again: path_walk's scratch_buf() is the verifier's other pointer) */
	fp = (struct rb_fdpath *)(buf + in_rec(off + sizeof(*r)));
	if (n < 0)
		fp->flags |= RBP_LONG;
	fp->pathlen = n > 0 ? n : 0;
	return 0;
}

/* RBD_SCM: the descriptors recvmsg installed from SCM_RIGHTS messages
 * (what they refer to is gone with the process, or closed, before the
 * reader gets there), found by scm_one() and recorded by fdp_one()'s
 * steps 9 on: the walk keeps its state here, not on the stack (the
 * verifier's bound on it is reached through fd_path_region()). */
struct scm_state {
	__u64 cmsg, end;    /* the control message at hand, the end of them */
	__u64 next, last;   /* its next descriptor and their end (next 0: none) */
	__u64 h[2];         /* cmsg_len; cmsg_level, cmsg_type */
	__u32 n;            /* descriptors in fds */
	int fds[RBD_SCM_MAX];
	__u64 ptr, cnt;     /* (RBO_IOCPTR's reads, off the stack too) */
	__u64 sub, nsub;    /* ...an array whose elements point further, and
			       their count */
	__u64 sub_elem, sub_ptr, sub_len;  /* ...its rb_iocptr's */
	__u64 eptr, elen;   /* ...an element's pointer and length */
};
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scm_state);
} scm SEC(".maps");

static __always_inline struct scm_state *scm_get(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&scm, &k);
}

/* One step: the next descriptor of an SCM_RIGHTS message, or the next
 * message.  0 to go on, 1 when done. */
static long scm_one(__u32 i, void *ctx)
{
	struct scm_state *s = scm_get();
	__u32 n;

	if (!s)
		return 1;
	n = s->n;
	if (s->next && s->next + 4 <= s->last) {
		if (n >= RBD_SCM_MAX)
			return 1;
		if (bpf_probe_read_user(&s->fds[n & (RBD_SCM_MAX - 1)], sizeof(int),
					(void *)s->next))
			return 1;
		s->n = n + 1;
		s->next += 4;
		return 0;
	}
	s->next = 0;
	if (!s->cmsg || s->cmsg + 16 > s->end ||
	    bpf_probe_read_user(s->h, sizeof(s->h), (void *)s->cmsg) || s->h[0] < 16 ||
	    s->h[0] > s->end - s->cmsg)
		return 1;
	if (s->h[1] == (1ull | 1ull << 32)) {   /* SOL_SOCKET, SCM_RIGHTS */
		s->next = s->cmsg + 16;
		s->last = s->cmsg + s->h[0];
	}
	s->cmsg += (s->h[0] + 7) & ~7ull;       /* CMSG_NXTHDR */
	return 0;
}

/* Finds them (scm.n, scm.fds) in the struct msghdr at argument 1.  (A
 * global function: its stack is not rec_capture()'s, which the deepest
 * chain of calls, down to walk_one(), goes through.) */
__noinline int scm_find(struct cap *c)
{
	struct scm_state *s = scm_get();

	if (!s || !c)
		return 0;
	s->n = 0;
	/* msg_control, msg_controllen (as the call left them) */
	if (bpf_probe_read_user(s->h, sizeof(s->h), (void *)(c->args[1] + 32)) || !s->h[0] ||
	    s->h[1] > 65536)
		return 0;
	s->cmsg = s->h[0];
	s->end = s->h[0] + s->h[1];
	s->next = 0;
	/* (each message is a step, and each descriptor) */
	bpf_loop(2 * RBD_SCM_MAX, scm_one, NULL, 0);
	return 0;
}

/* fd_paths()'s state */
struct fdp_ctx {
	struct cap *c;
	__u32 mask;
	__u32 phase;
};

static long fdp_one(__u32 i, void *ctx)
{
	struct fdp_ctx *p = ctx;
	struct cap *c = p->c;
	__u32 m = p->mask;

	if (i < 6) {
		if ((m & (p->phase == RBR_ENTRY ? RBD_ENTRY(i) : 1u << i)))
			fd_path_region(c, c->args[i & 7]);
	} else if (i == 6) {
		if ((m & RBD_RET) && p->phase == RBR_EXIT && c->ret >= 0)
			fd_path_region(c, (__u64)c->ret);
	} else if (i >= 9) {
		struct scm_state *s = scm_get();

		/* (RBD_SCM: only then are there steps past 8) */
		if (!s || i - 9 >= s->n)
			return 1;
		if (s->fds[(i - 9) & (RBD_SCM_MAX - 1)] >= 0)
			fd_path_region(c, (__u64)s->fds[(i - 9) & (RBD_SCM_MAX - 1)]);
	} else if ((m & RBD_PAIR) && p->phase == RBR_EXIT && c->ret == 0) {
		int fds[2] = { -1, -1 };

		bpf_probe_read_user(fds, sizeof(fds), (void *)c->args[RBD_PAIR_ARG(m)]);
		int fd = i == 7 ? fds[0] : fds[1];

		if (fd >= 0)
			fd_path_region(c, (__u64)fd);
	}
	return 0;
}

/* The descriptors of a call of slot that -y and -P name (fdpath_set), at
 * this phase. */
static __always_inline void fd_paths(struct cap *c, __u32 slot)
{
	struct fdp_ctx p = { c, 0, c->phase };

	if (slot >= RB_NR)
		return;
	p.mask = fdpath_set[slot];
	if ((p.mask & RBD_SCM) && c->phase == RBR_EXIT && c->ret >= 0) {
		scm_find(c);
		bpf_loop(9 + RBD_SCM_MAX, fdp_one, &p, 0);
	} else if (p.mask) {
		bpf_loop(9, fdp_one, &p, 0);
	}
}

/* The user int at addr, or 0. */
static __always_inline __u64 user_int(__u64 addr)
{
	int v = 0;

	bpf_probe_read_user(&v, sizeof(v), (void *)addr);
	return v < 0 ? 0 : (__u64)v;
}

/*
 * The byte count of an op (a struct rb_op passed as its 8 bytes).  A
 * function of its own: its result is one unknown number to the verifier,
 * so run_op() is checked once per kind, not once per kind and way of
 * counting.
 */
__noinline __u64 op_size(struct cap *c, __u64 bits)
{
	struct rb_op op;
	__u64 n = 0;

	if (!c)
		return 0;
	__builtin_memcpy(&op, &bits, sizeof(op));
	switch (op.sz) {
	case RBZ_CONST: n = op.size; break;
	case RBZ_ARG: n = c->args[op.sarg & 7]; break;
	case RBZ_ARGN: n = c->args[op.sarg & 7] * op.size; break;
	case RBZ_RET: n = c->ret > 0 ? (__u64)c->ret : 0; break;
	case RBZ_RETN: n = c->ret > 0 ? (__u64)c->ret * op.size : 0; break;
	case RBZ_PATH: n = RB_PATH_BYTES; break;
	case RBZ_DEREF4: n = user_int(c->args[op.sarg & 7]); break;
	case RBZ_PAGES: n = (c->args[op.sarg & 7] + 4095) >> 12; break;
	case RBZ_BITS: n = ((c->args[op.sarg & 7] + 63) >> 6) * 8; break;
	case RBZ_IOC:
		n = (c->args[op.sarg & 7] >> 16) & 0x3fff;
		if (n < op.size)
			n = op.size;
		/* (a structure that ends in the array its first word counts) */
		for (int k = 0; k < RB_IOC_FLEX; k++)
			if (ioc_flex[k].code && ioc_flex[k].code == (__u32)c->args[op.sarg & 7]) {
				n = ioc_flex[k].hdr +
				    user_int(c->args[op.arg & 7]) * ioc_flex[k].elem;
				break;
			}
		break;
	}
	/* size is the most of a count read from the call, when not 0 */
	if ((op.sz == RBZ_ARG || op.sz == RBZ_RET || op.sz == RBZ_DEREF4) && op.size &&
	    n > op.size)
		n = op.size;
	if ((op.flags & RBF_LIMIT) && n > strlim && !c->nl)
		n = strlim;
	if (op.flags & RBF_PLUS8)
		n = n + 8 < 16 ? 16 : n + 8;
	return n;
}

/* Runs one capture op (a struct rb_op, passed as its 8 bytes). */
__noinline int run_op(struct cap *c, __u64 bits)
{
	struct rb_op op;
	__u64 addr, n;

	if (!c)
		return 0;
	__builtin_memcpy(&op, &bits, sizeof(op));
	addr = c->args[op.arg & 7];
	n = op_size(c, bits);
	switch (op.kind) {
	case RBO_BYTES:
		if (addr && n)
			region(c, addr, n > RB_REGION_MAX ? RB_REGION_MAX : n, RBR_BYTES);
		break;
	case RBO_STR:
		if (addr)
			region(c, addr, op.sz == RBZ_PATH ? RB_PATH_BYTES : strcap, RBR_STR);
		break;
	case RBO_PTRS: {
		/* the array in one region (its first page when the rest is
		 * unmapped), then the strings up to its NULL */
		struct ptrs_ctx p = { c, 0, 0 };
		int got;

		if (!addr)
			break;
		got = region(c, addr, (op.size ? op.size : maxptrs) * 8, RBR_BYTES);
		if (got < 8 || !(op.flags & RBF_STRS))
			break;
		p.base = c->last;
		p.n = (__u32)got / 8;
		bpf_loop(RB_REGION_MAX / 8, ptr_str, &p, 0);
		break;
	}
	case RBO_IOV: {
		struct iov_ctx p = { c, 0, 0, op.flags & RBF_RET };
		__u64 cnt = c->args[op.sarg & 7];

		/* (64 at most: arrays are cut at the string limit, but not
		 * with -v) */
		if (!addr || !cnt)
			break;
		if (cnt > 64)
			cnt = 64;
		if (region(c, addr, cnt * 16, RBR_BYTES) < 0)
			break;
		p.base = c->last;
		p.n = cnt;
		c->left = c->ret > 0 ? (__u64)c->ret : 0;
		bpf_loop(64, iov_one, &p, 0);
		break;
	}
	case RBO_IOCPTR:
		if (!addr)
			break;
		/* (unrolled: a loop's callback would be one more frame on
		 * the way down to region()'s) */
		{
			struct scm_state *w = scm_get();

			if (w)
				w->nsub = 0;
		}
#pragma unroll
		for (int k = 0; k < RB_IOC_PTRS; k++) {
			struct scm_state *w;
			__u64 len;

			if (!ioc_ptrs[k].mask ||
			    ((__u32)c->args[op.sarg & 7] & ioc_ptrs[k].mask) != ioc_ptrs[k].code ||
			    !(w = scm_get()))
				continue;
			w->ptr = w->cnt = 0;
			if (bpf_probe_read_user(&w->ptr, sizeof(w->ptr),
						(void *)(addr + ioc_ptrs[k].ptr_off)) || !w->ptr)
				continue;
			if (ioc_ptrs[k].cnt_len) {
				if (bpf_probe_read_user(&w->cnt, sizeof(w->cnt),
							(void *)(addr + ioc_ptrs[k].cnt_off)))
					continue;
				if (ioc_ptrs[k].cnt_len < 8)
					w->cnt &= (1ull << (8 * ioc_ptrs[k].cnt_len)) - 1;
				len = w->cnt * ioc_ptrs[k].elem;
			} else {
				len = ioc_ptrs[k].fixed;
			}
			if (len)
				region(c, w->ptr, len > RB_REGION_MAX ? RB_REGION_MAX : (__u32)len,
				       RBR_BYTES);
			if (ioc_ptrs[k].sub && w->cnt) {
				w->sub = w->ptr;
				w->nsub = w->cnt < RB_IOC_SUB ? w->cnt : RB_IOC_SUB;
				w->sub_elem = ioc_ptrs[k].elem;
				w->sub_ptr = ioc_ptrs[k].sub_ptr;
				w->sub_len = ioc_ptrs[k].sub_len;
			}
		}
		{
			/* a level down: what the elements of one array point to */
			struct scm_state *w = scm_get();

			if (!w || !w->nsub)
				break;
#pragma unroll
			for (int e = 0; e < RB_IOC_SUB; e++) {
				__u64 at = w->sub + (__u64)e * w->sub_elem;

				if (e >= w->nsub)
					break;
				w->eptr = w->elen = 0;
				if (bpf_probe_read_user(&w->eptr, sizeof(w->eptr),
							(void *)(at + w->sub_ptr)) ||
				    bpf_probe_read_user(&w->elen, 4, (void *)(at + w->sub_len)) ||
				    !w->eptr || !w->elen)
					continue;
				region(c, w->eptr, w->elen > RB_REGION_MAX ? RB_REGION_MAX
									   : (__u32)w->elen,
				       RBR_BYTES);
			}
			w->nsub = 0;
		}
		break;
	case RBO_DEREF: {
		__u64 ptr = 0;

		if (addr && !bpf_probe_read_user(&ptr, sizeof(ptr), (void *)(addr + op.sarg)) &&
		    ptr && n)
			region(c, ptr, n > RB_REGION_MAX ? RB_REGION_MAX : n, RBR_BYTES);
		break;
	}
	case RBO_SP:
		if (c->sp && n)
			region(c, c->sp, n > RB_REGION_MAX ? RB_REGION_MAX : n, RBR_BYTES);
		break;
	case RBO_FD:
		if (!(op.flags & RBF_MULTI) || live > 1)
			fd_info(c, addr);
		break;
	case RBO_ANY:
		if (addr) {
			region(c, addr, RB_PATH_BYTES, RBR_STR);
			region(c, addr, n, RBR_BYTES);
		}
		break;
	case RBO_MSG:
		if (addr)
			msg(c, addr, op.flags & RBF_RET ? (c->ret > 0 ? c->ret : 0) : -1,
			    op.size);
		break;
	case RBO_MMSG: {
		struct mmsg_ctx p = { c, addr, 0, op.flags & RBF_RET, op.size, 0 };
		__u64 cnt = c->args[op.sarg & 7];

		if (op.flags & RBF_RET)
			cnt = c->ret > 0 ? (__u64)c->ret : 0;
		if (!addr || !cnt)
			break;
		if (cnt > 64)
			cnt = 64;
		p.n = cnt;
		if (region(c, addr, cnt * 64, RBR_BYTES) < 0)
			break;
		p.base = c->last;
		bpf_loop(64, mmsg_one, &p, 0);
		break;
	}
	}
	return 0;
}

/* One register of the saved set at r, or 0 when it cannot be read. */
#define REG(r, f) ({ __u64 v_ = 0; bpf_probe_read_kernel(&v_, sizeof(v_), &(r)->f); v_; })

/*
 * The arguments of a call of slot, its stack pointer and (ip) its
 * instruction pointer, from the registers saved at its entry, read one by
 * one: a copy of the whole struct pt_regs (168 bytes) on the stack put the
 * capture program's chain of calls over the verifier's 512 bytes on newer
 * kernels.  Returns false when the registers cannot be read.
 */
static __always_inline bool regs_args(struct cap *c, const struct pt_regs *r, __u32 slot,
				      __u64 *ip)
{
	if (bpf_probe_read_kernel(ip, sizeof(*ip), &r->ip) < 0)
		return false;
	if (slot >= RB_COMPAT) {
		c->args[0] = (__u32)REG(r, bx);
		c->args[1] = (__u32)REG(r, cx);
		c->args[2] = (__u32)REG(r, dx);
		c->args[3] = (__u32)REG(r, si);
		c->args[4] = (__u32)REG(r, di);
		c->args[5] = (__u32)REG(r, bp);
	} else {
		c->args[0] = REG(r, di);
		c->args[1] = REG(r, si);
		c->args[2] = REG(r, dx);
		c->args[3] = REG(r, r10);
		c->args[4] = REG(r, r8);
		c->args[5] = REG(r, r9);
	}
	c->sp = REG(r, sp);
	return true;
}

/* The ops of a call, run by run_ops() */
struct ops_ctx {
	struct cap *c;
	__u32 slot;
	__u32 when;         /* RBW_ENTRY (with RBW_BLOCK), or RBW_EXIT */
};

static long op_one(__u32 i, void *ctx)
{
	struct ops_ctx *p = ctx;
	const volatile struct rb_op *op;
	struct rb_op o;
	__u64 bits;

	if (p->slot >= RB_NR || i >= RB_OPS)
		return 1;
	op = &specs[p->slot].op[i];
	o.kind = op->kind;
	o.arg = op->arg;
	o.when = op->when;
	o.sz = op->sz;
	o.sarg = op->sarg;
	o.flags = op->flags;
	o.size = op->size;
	if (o.kind == RBO_END)
		return 1;
	if (!(o.when & p->when) || ((o.when & RBW_OK) && p->c->ret < 0) ||
	    ((o.when & RBW_ERR) && p->c->ret >= 0))
		return 0;
	__builtin_memcpy(&bits, &o, sizeof(bits));
	run_op(p->c, bits);
	return 0;
}

/* Runs the ops of slot for this phase (when: RBW_ENTRY with RBW_BLOCK, or
 * RBW_EXIT). */
static __always_inline void run_ops(struct cap *c, __u32 slot, __u32 when)
{
	struct ops_ctx p = { c, slot, when };

	bpf_loop(RB_OPS, op_one, &p, 0);
}

/*
 * The flags of a ring-buffer write when recording: waking the reader costs
 * an interrupt (in a VM an exit to the hypervisor) per record while it
 * keeps up, the largest cost of a call; so it is woken only when enough
 * comes to wait (size: the record's bytes), and reads on a timer
 * meanwhile (engine.c).
 */
static __always_inline __u64 wake_flags(__u64 size)
{
	__u64 avail;

	if (!wake_bytes)
		return 0;
	/* once, as the waiting data crosses the mark */
	avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
	return avail < wake_bytes && avail + size >= wake_bytes ? BPF_RB_FORCE_WAKEUP
								 : BPF_RB_NO_WAKEUP;
}

/* dump_data()'s walk: one chunk, or the next iovec, per step */
struct dump_ctx {
	__u64 base, len;    /* the rest of the buffer being sent */
	__u64 iov, cnt, i;  /* iovecs (cnt 0: one buffer), the next one */
	__u64 left;         /* bytes of the call not sent yet */
	__u64 cap;          /* bytes of each buffer at most (0: all) */
	__u32 pid, tid;
};

/* One step of the walk: 0 to go on, 1 when done.  (A global function:
 * checked once, not once per state of its caller's loop.) */
__noinline int dump_step(struct dump_ctx *d)
{
	struct rb_data *e;
	__u32 n, pg;

	if (!d)
		return 1;
	if (!d->len) {
		__u64 v[2] = { 0, 0 };

		/* the next iovec; strace stops at the first empty one */
		if (!d->cnt || d->i >= d->cnt || d->i >= 1024 || !d->left)
			return 1;
		if (bpf_probe_read_user(v, sizeof(v), (void *)(d->iov + 16 * d->i)) < 0)
			return 1;
		d->i++;
		d->base = v[0];
		d->len = v[1] < d->left ? v[1] : d->left;
		if (d->cap && d->len > d->cap)
			d->len = d->cap;
		return d->len ? 0 : 1;
	}
	n = d->len < RB_DATA_CHUNK ? (__u32)d->len : RB_DATA_CHUNK;
	pg = 4096 - (__u32)(d->base & 4095);
	/* a page not there of a private anonymous mapping: its zeros, as a
	 * ptrace tracer reads them (RBR_ZERO), in a record of its header
	 * only (anon_bytes() reads nothing from a page that is there) */
	if (anon_zero && anon_bytes(d->base, 1)) {
		e = bpf_ringbuf_reserve(&events, RB_DATA_HEAD, 0);
		if (!e) {
			__sync_fetch_and_add(&lost_calls, 1);
			return 1;
		}
		n = pg < n ? pg : n;
		e->type = RB_EV_DATA;
		e->size = RB_DATA_HEAD;
		e->pid = d->pid;
		e->tid = d->tid;
		e->addr = d->base;
		e->len = n;
		e->flags = RBDF_ZERO;
		bpf_ringbuf_submit(e, wake_flags(RB_DATA_HEAD));
		d->base += n;
		d->len -= n;
		d->left -= n;
		return 0;
	}
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&lost_calls, 1);
		return 1;
	}
	e->type = RB_EV_DATA;
	e->size = sizeof(*e);
	e->pid = d->pid;
	e->tid = d->tid;
	e->addr = d->base;
	e->flags = 0;
	if (n > RB_DATA_CHUNK)
		n = RB_DATA_CHUNK;
	if (bpf_probe_read_user(e->data, n, (void *)d->base) < 0) {
		/* the readable pages up to the first that is not there (the
		 * next step looks at that one) */
		__u32 sz = pg;

		/* (a mask the compiler cannot drop for knowing pg small) */
		asm volatile("" : "+r"(sz));
		sz &= RB_DATA_CHUNK - 1;
		if (pg < n && !bpf_probe_read_user(e->data, sz, (void *)d->base))
			n = pg;
		else
			n = 0;
	}
	e->len = n;
	bpf_ringbuf_submit(e, wake_flags(sizeof(*e)));
	if (!n)
		return 1;
	d->base += n;
	d->len -= n;
	d->left -= n;
	return 0;
}

static long dump_one(__u32 step, void *ctx)
{
	return dump_step(ctx) ? 1 : 0;
}

/* Whether fd is in a bitmap of the loader's (RB_DUMP_FDS bits). */
static __always_inline bool fd_in(const volatile __u8 *set, __u64 fd)
{
	return fd < RB_DUMP_FDS && (set[(fd / 8) & (RB_DUMP_FDS / 8 - 1)] & (1u << (fd & 7)));
}

/*
 * -e read=/-e write=: the data call c of slot moved through a selected
 * descriptor (its first argument), sent in RB_EV_DATA chunks before its
 * record.
 */
__noinline int dump_data(struct cap *c, __u32 slot)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct dump_ctx d = { 0 };
	__u64 fd;
	__u8 k;

	if (!c || slot >= RB_NR)
		return 0;
	k = dump_kind[slot];
	fd = c->args[0];
	if (!k || (fd >> 31))
		return 0;
	/* a descriptor -e read=/write= selects: all of it; else, with
	 * data_cap (-s past the records' limit), each buffer up to it */
	if (k & RBDK_WRITE) {
		if (!dump_wall && !fd_in(dump_wfds, fd))
			d.cap = data_cap;
		d.left = RB_DUMP_MAX;
	} else {
		if (c->ret <= 0)
			return 0;
		if (!dump_rall && !fd_in(dump_rfds, fd))
			d.cap = data_cap;
		d.left = c->ret < RB_DUMP_MAX ? (__u64)c->ret : RB_DUMP_MAX;
	}
	if (d.cap == 1)
		return 0;
	d.pid = task->tgid;
	d.tid = task->pid;
	if (k & RBDK_BUF) {
		d.base = c->args[1];
		d.len = (k & RBDK_WRITE) ? c->args[2] : d.left;
		if (d.len > d.left)
			d.len = d.left;
		if (d.cap && d.len > d.cap)
			d.len = d.cap;
	} else if (k & RBDK_IOV) {
		d.iov = c->args[1];
		d.cnt = c->args[2];
	} else {
		__u64 f[4] = { 0, 0, 0, 0 };

		/* struct msghdr: msg_iov at 16, msg_iovlen at 24 */
		if (bpf_probe_read_user(f, sizeof(f), (void *)c->args[1]) < 0)
			return 0;
		d.iov = f[2];
		d.cnt = f[3];
	}
	bpf_loop(RB_DUMP_MAX / 4096 + 1024, dump_one, &d, 0);  /* (a page a step at worst) */
	return 0;
}

static __always_inline bool rec_send(struct cap *c, __u8 *buf, __u32 type, struct task_struct *task,
				     const struct rb_task *t, __u32 slot, __u64 now, __u64 ip)
{
	struct rb_call *h = (struct rb_call *)buf;

	h->type = type;
	h->size = c->off;
	h->pid = task->tgid;
	h->tid = task->pid;
	h->slot = slot;
	h->flags = c->flags;
	h->nregions = c->nreg;
	for (int i = 0; i < 6; i++)
		h->args[i] = c->args[i];
	h->ret = c->ret;
	h->enter_ns = t->enter_ns;
	h->exit_ns = now;
	h->cpu_ns = 0;
	if (want_cpu && type == RB_EV_CALL && !(c->flags & RBC_UNFINISHED))
		h->cpu_ns = call_cpu(task, t, now, now - t->enter_ns);
	h->ip = ip;
	h->sp = c->sp;
	if (call_room && bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) + c->off + call_room >
			 bpf_ringbuf_query(&events, BPF_RB_RING_SIZE)) {
		__sync_fetch_and_add(&lost_calls, 1);
		return false;
	}
	if (bpf_ringbuf_output(&events, buf, c->off & (RB_REC_MAX - 1),
			       (c->flags & RBC_LATE) ? BPF_RB_FORCE_WAKEUP : wake_flags(c->off)) < 0) {
		__sync_fetch_and_add(&lost_calls, 1);
		return false;
	}
	if (c->flags & RBC_CUT)
		__sync_fetch_and_add(&cut_calls, 1);
	return true;
}

/* Whether slot (< RB_NR) is in a bitmap of the loader's. */
static __always_inline bool in_set(const volatile __u8 *set, __u32 slot)
{
	return set[(slot / 8) & (RB_NR / 8 - 1)] & (1u << (slot & 7));
}


/* An RB_EV_EXECARGS record (abi.h) of the current task, which exec'ed. */
static __always_inline void rec_execargs(struct task_struct *task, struct rb_task *t,
					 struct linux_binprm *bprm)
{
	__u64 start = BPF_CORE_READ(task, mm, arg_start), end = BPF_CORE_READ(task, mm, arg_end);
	__u8 *buf = scratch_buf();
	struct cap c;

	if (!buf)
		return;
	__builtin_memset(&c, 0, sizeof(c));
	c.off = sizeof(struct rb_call);
	c.phase = RBR_EXIT;
	region(&c, start, end > start ? end - start : 0, RBR_BYTES);
	region(&c, (__u64)BPF_CORE_READ(bprm, filename), RB_PATH_BYTES, RBR_KSTR);
	rec_send(&c, buf, RB_EV_EXECARGS, task, t, 0, bpf_ktime_get_ns(), 0);
}

/*
 * The capture program: the record of a call's entry or exit, with its
 * memory (the ops), reached by a tail call from rec_sys_enter or
 * rec_sys_exit, which leave in the header of this CPU's scratch buffer
 * the record's type, slot, result and flags; and an execve's
 * RB_EV_EXECARGS, from rb_exec.  One program, so that the verifier checks
 * the copying code once (it is most of the start-up: in rb_exec too, it
 * cost 2-8 ms more at every start).
 */
SEC("raw_tp")
int BPF_PROG(rec_capture, struct pt_regs *regs, long arg)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rb_task *t = task_find((__u32)task->pid);
	__u8 *buf = scratch_buf();
	struct rb_call *h;
	struct cap c;
	__u32 type, slot;
	__u64 ip;

	if (!t || !buf)
		return 0;
	h = (struct rb_call *)buf;
	type = h->type;
	slot = h->slot;
	if (type == RB_EV_EXECARGS) {
		/* from rb_exec, whose third argument is the linux_binprm */
		rec_execargs(task, t, (struct linux_binprm *)ctx[2]);
		return 0;
	}
	__builtin_memset(&c, 0, sizeof(c));
	c.off = sizeof(struct rb_call);
	c.phase = type == RB_EV_ENTRY ? RBR_ENTRY : RBR_EXIT;
	c.ret = h->ret;
	c.flags = h->flags;
	c.nlunbound = c.phase == RBR_EXIT && (t->flags & RBT_NLUNBOUND);
	if (!regs_args(&c, regs, slot, &ip))
		return 0;
	run_ops(&c, slot, type == RB_EV_ENTRY ? RBW_ENTRY | RBW_BLOCK : RBW_EXIT);
	if (want_fdpath)
		fd_paths(&c, slot);
	if (want_dump && type == RB_EV_CALL && !(c.flags & RBC_UNFINISHED))
		dump_data(&c, slot);
	if (c.flags & RBC_LATE)
		fill_paths(&c);
	rec_send(&c, buf, type, task, t, slot, type == RB_EV_ENTRY ? t->enter_ns : bpf_ktime_get_ns(),
		 ip);
	return 0;
}

/* ---- stacks (want_stack) ---------------------------------------------- */

/*
 * Sends the record of size bytes built at the start of this CPU's scratch
 * buffer (a stack or a mapping), or counts it lost.  room: bytes that must
 * stay free after it.  A stack keeps eight times a call's room: when the
 * reader falls behind (each stack is 16 KiB to unwind) stacks are dropped
 * first and the calls still recorded; a mapping, small and rare, whose
 * loss would misname every later frame, keeps none.
 */
static __always_inline void aux_send(__u8 *buf, __u32 size, __u64 room)
{
	if (room && bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) + size + room >
			 bpf_ringbuf_query(&events, BPF_RB_RING_SIZE)) {
		__sync_fetch_and_add(&lost_stacks, 1);
		return;
	}
	if (bpf_ringbuf_output(&events, buf, size & (RB_REC_MAX - 1), wake_flags(size)) < 0)
		__sync_fetch_and_add(&lost_stacks, 1);
}

/* stack_chunk()'s state: the slice is read a page at a time, so that one
 * unreadable page (the end of a thread's stack) keeps those before it */
struct stack_ctx {
	__u64 sp;
	__u32 pos;          /* bytes read */
	__u32 cut;          /* stopped at stack_bytes */
	__u32 red;          /* bytes below the stack pointer it starts at */
};

/* The red zone: on x86_64 a function may keep data (a leaf its return
 * address) in the 128 bytes below the stack pointer, which an unwinder
 * reads as it reads a live process's (arm64 has none) */
#ifdef __TARGET_ARCH_x86
#define RED_ZONE 128
#else
#define RED_ZONE 0
#endif

static long stack_chunk(__u32 i, void *ctx)
{
	struct stack_ctx *s = ctx;
	__u8 *buf = scratch_buf();
	__u64 addr = s->sp + s->pos;
	__u32 n = 4096 - (__u32)(addr & 4095);

	if (!buf)
		return 1;
	if (s->pos >= stack_bytes) {
		s->cut = 1;
		return 1;
	}
	if (n > stack_bytes - s->pos)
		n = stack_bytes - s->pos;
	if (n > 4096)
		return 1;
	if (bpf_probe_read_user(buf + in_rec(sizeof(struct rb_stack) + s->pos), n,
				(void *)addr) < 0) {
		/* a page below the stack pointer not there: from it then */
		if (s->pos == 0 && s->red) {
			s->sp += s->red;
			s->red = 0;
			return 0;
		}
		return 1;
	}
	s->pos += n;
	return 0;
}

_Static_assert(sizeof(struct pt_regs) <= RB_UREGS * 8, "pt_regs larger than rb_stack.regs");

/* The RB_EV_STACK record of the call the current task enters (abi.h). */
static __always_inline void rec_stack(struct task_struct *task, const struct rb_task *t,
				      struct pt_regs *regs, __u32 slot, bool launch)
{
	__u8 *buf = scratch_buf();
	struct stack_ctx s = { 0 };
	struct rb_stack *k;
	__u32 size;

	if (!buf)
		return;
	k = (struct rb_stack *)buf;
	if (bpf_probe_read_kernel(k->regs, sizeof(struct pt_regs), regs) < 0)
		return;
	k->type = RB_EV_STACK;
	k->pid = task->tgid;
	k->tid = task->pid;
	k->enter_ns = t->enter_ns;
	k->regs_len = sizeof(struct pt_regs);
	k->compat = slot >= RB_COMPAT;
	s.sp = REG(regs, sp);
	if (!launch && slot < RB_COMPAT && s.sp > RED_ZONE) {
		s.sp -= RED_ZONE;
		s.red = RED_ZONE;
	}
	if (!launch)
		bpf_loop(RB_STACK_MAX / 4096 + 3, stack_chunk, &s, 0);
	k->sp = s.sp;
	k->len = s.pos;
	k->flags = (s.cut ? RBK_CUT : 0) | (launch ? RBK_LAUNCH : 0);
	size = sizeof(*k) + ((s.pos + 7) & ~7u);
	k->size = size;
	aux_send(buf, size, call_room * 8);
}

/* An RB_EV_MAP record (abi.h) of the current task: of kind, start..end at
 * file offset pgoff of the file open at f (may be NULL). */
static __always_inline void rec_map(struct task_struct *task, __u32 kind, __u64 start, __u64 end,
				    __u64 pgoff, struct file *f)
{
	__u8 *buf = scratch_buf();
	struct rb_map *m;
	__u32 n = 0;

	if (!buf)
		return;
	m = (struct rb_map *)buf;
	m->type = RB_EV_MAP;
	m->pid = task->tgid;
	m->tid = task->pid;
	m->kind = kind;
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->dev = 0;
	m->ino = 0;
	m->pad = 0;
	if (f) {
		m->dev = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
		m->ino = BPF_CORE_READ(f, f_inode, i_ino);
		n = path_walk(sizeof(*m), (__u64)BPF_CORE_READ(f, f_path.dentry),
			      (__u64)BPF_CORE_READ(f, f_path.mnt));
		if (n > RB_FILEREF_PATH || n < 0)
			n = n < 0 ? 0 : RB_FILEREF_PATH;
	}
	/* (m again: path_walk's scratch_buf() is the verifier's other pointer) */
	m = (struct rb_map *)buf;
	m->pathlen = n;
	m->size = sizeof(*m) + ((n + 7) & ~7u);
	aux_send(buf, m->size, 0);
}

/* What bpf_find_vma's callback learns of an executable mapping */
struct xvma {
	__u64 start, end, pgoff;
	struct file *file;
};

static long vma_exec(struct task_struct *task, struct vm_area_struct *vma, void *ctx)
{
	struct xvma *x = ctx;

	if (!(vma->vm_flags & 0x4 /* VM_EXEC */))
		return 0;
	x->start = vma->vm_start;
	x->end = vma->vm_end;
	x->pgoff = vma->vm_pgoff << 12;
	x->file = vma->vm_file;
	return 0;
}

/* The executable file mapping at addr of the current task, as RBM_EXEC;
 * skip: the file of one sent already (nothing then).  Returns its file. */
static __always_inline struct file *rec_vma(struct task_struct *task, __u64 addr,
					   struct file *skip)
{
	struct xvma x = { 0 };

	if (bpf_find_vma(task, addr, vma_exec, &x, 0) < 0 || !x.file || x.file == skip)
		return x.file;
	rec_map(task, RBM_EXEC, x.start, x.end, x.pgoff, x.file);
	return x.file;
}

#define NR_MMAP 9
#define NR_MUNMAP 11
#define PROT_EXEC_ 4
#define MAP_ANON_ 0x20

/* At the exit of a native call of a traced task: what mmap and munmap
 * changed of the executable mappings (rb_map). */
static __always_inline void watch_maps(struct task_struct *task, struct pt_regs *regs, long ret)
{
	long nr = (long)REG(regs, orig_ax);
	__u64 a0, a1;

	if ((nr != NR_MMAP && nr != NR_MUNMAP) || (unsigned long)ret >= (unsigned long)-4095 ||
	    (task->thread_info.status & X86_TS_COMPAT))
		return;
	a1 = REG(regs, si);
	if (nr == NR_MUNMAP) {
		a0 = REG(regs, di);
		rec_map(task, RBM_UNMAP, a0, a0 + ((a1 + 4095) & ~4095ull), 0, NULL);
	} else if ((REG(regs, dx) & PROT_EXEC_) &&
		   !(REG(regs, r10) & MAP_ANON_)) {
		/* the file from the descriptor, not the mapping: reading the
		 * mappings takes a lock another thread may hold */
		__u64 fd = REG(regs, r8);
		struct file **fds = BPF_CORE_READ(task, files, fdt, fd);
		unsigned int max = BPF_CORE_READ(task, files, fdt, max_fds);
		struct file *f = NULL;

		if (fd < max && fd <= 1u << 20)
			bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
		if (f)
			rec_map(task, RBM_EXEC, (__u64)ret, (__u64)ret + ((a1 + 4095) & ~4095ull),
				REG(regs, r9), f);
	}
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} capture SEC(".maps");

/* Hands the record to the capture program; false when it could not run. */
static __always_inline bool to_capture(void *ctx, __u32 type, __u32 slot, __s64 ret, __u32 flags)
{
	__u8 *buf = scratch_buf();
	struct rb_call *h;

	if (!buf)
		return false;
	h = (struct rb_call *)buf;
	h->type = type;
	h->slot = slot;
	h->ret = ret;
	h->flags = flags;
	bpf_tail_call(ctx, &capture, 0);
	return false;
}

#define NR_SENDTO 44
#define NR_SENDMSG 46
#define NR_SENDMMSG 307

/* Whether descriptor fd of task is a netlink socket with no port id yet
 * (a send binds it inside the call: a ptrace tracer, decoding the
 * messages at the entry, does not know its protocol then). */
static __always_inline bool nl_unbound(struct task_struct *task, __u64 fd)
{
	struct file **fds = BPF_CORE_READ(task, files, fdt, fd);
	unsigned int max = BPF_CORE_READ(task, files, fdt, max_fds);
	struct file *f = NULL;
	struct socket *so;
	struct sock *sk;

	if (fd >= max || fd > 1u << 20)
		return false;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	if (!f || (BPF_CORE_READ(f, f_inode, i_mode) & 0170000) != 0140000)
		return false;
	so = BPF_CORE_READ(f, private_data);
	sk = BPF_CORE_READ(so, sk);
	return sk && BPF_CORE_READ(sk, __sk_common.skc_family) == 16 &&
	       !BPF_CORE_READ((struct netlink_sock *)sk, portid);
}

SEC("raw_tp/sys_enter")
int BPF_PROG(rec_sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rb_task *t = task_find((__u32)task->pid);
	bool hidden = false;
	__u32 slot;
	__u64 now;

	if (!t)
		return 0;
	if (t->flags & RBT_HIDE) {
		if (id != NR_EXECVE && id != NR_EXECVEAT)
			return 0;
		t->flags &= ~RBT_HIDE;
		hidden = true;      /* (renacer's own code: no stack, RBK_LAUNCH) */
	}
	t->slot = RB_NO_CALL;
	t->flags &= ~(RBT_ENTRY | RBT_ATTACHED | RBT_NLUNBOUND);
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
	now = bpf_ktime_get_ns();
	t->enter_ns = now;
	if (want_cpu) {
		t->enter_stime = cpu_now(task, now);
		t->enter_sum = task->se.sum_exec_runtime;
		t->enter_on = bpf_get_smp_processor_id();
	}
	if ((id == NR_SENDTO || id == NR_SENDMSG || id == NR_SENDMMSG) && slot < RB_NR &&
	    nl_unbound(task, REG(regs, di)))
		t->flags |= RBT_NLUNBOUND;
	if (want_stack)
		rec_stack(task, t, regs, slot, hidden);
	/* an entry record: memory the call changes, or a call that may
	 * block while other tasks run (shown as <unfinished ...> when one
	 * of them comes first), or one that waits for its child */
	if (slot < RB_NR && (in_set(entry_set, slot) || in_set(fork_set, slot) ||
			     (in_set(block_set, slot) && live > 1))) {
		t->flags |= RBT_ENTRY;
		to_capture(ctx, RB_EV_ENTRY, slot, 0, 0);
		t->flags &= ~RBT_ENTRY;    /* (the tail call failed) */
	}
	return 0;
}

/*
 * -p: the exit of the call a task was inside when it joined the table (the
 * loader marked it RBT_ATTACHED): its number from the saved registers,
 * timed from now, recorded as a call whose entry record was lost (a
 * ptrace tracer sees it too, from its restart or its exit stop).
 */
static __always_inline void attached_call(struct task_struct *task, struct rb_task *t,
					  struct pt_regs *regs)
{
	long nr = (long)REG(regs, orig_ax);
	__u32 slot;
	__u64 now;

	t->flags &= ~RBT_ATTACHED;
	if (t->slot < RB_SLOTS || nr < 0 || nr >= RB_NR)
		return;
	slot = (__u32)nr;
	if (task->thread_info.status & X86_TS_COMPAT)
		slot += RB_COMPAT;
	if (use_set && !(trace_set[(slot / 8) & (RB_SLOTS / 8 - 1)] & (1u << (slot & 7))))
		return;
	now = bpf_ktime_get_ns();
	t->slot = slot;
	t->enter_ns = now;
	if (want_cpu) {
		t->enter_stime = cpu_now(task, now);
		t->enter_sum = task->se.sum_exec_runtime;
		t->enter_on = bpf_get_smp_processor_id();
	}
}

SEC("raw_tp/sys_exit")
int BPF_PROG(rec_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rb_task *t = task_find((__u32)task->pid);
	__u32 slot;

	if (want_stack && t && !(t->flags & RBT_HIDE))
		watch_maps(task, regs, ret);
	if (t && (t->flags & RBT_ATTACHED))
		attached_call(task, t, regs);
	if (!t || t->slot >= RB_SLOTS)
		return 0;
	/* the task dies before a ptrace tracer would see this exit: the
	 * call is unfinished, sent by rec_exit */
	if ((task->pending.signal.sig[0] & SIGKILL_BIT) && !converted_fatal(task))
		return 0;
	slot = t->slot;
	t->slot = RB_NO_CALL;
	to_capture(ctx, RB_EV_CALL, slot, ret, (t->flags & RBT_ENTRY) ? RBC_ENTRY : 0);
	return 0;
}

/* A signal record for task (its tid, tgid); info NULL: none given. */
static __always_inline void rec_signal(__u32 pid, __u32 tid, int sig, const void *info,
				       __u32 flags)
{
	struct rb_signal *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&lost_calls, 1);
		return;
	}
	e->type = RB_EV_SIGNAL;
	e->size = sizeof(*e);
	e->pid = pid;
	e->tid = tid;
	e->signo = sig;
	e->flags = flags;
	e->ts_ns = bpf_ktime_get_ns();
	__builtin_memset(e->info, 0, sizeof(e->info));
	if ((unsigned long)info > 1)
		bpf_probe_read_kernel(e->info, sizeof(e->info), info);
	else
		*(int *)e->info = sig;
	bpf_ringbuf_submit(e, wake_flags(sizeof(*e)));
}

/*
 * A fatal signal with no handler (SIGTERM, SIGINT, SIGUSR1, ...) is turned
 * into a SIGKILL of the whole group when it is sent, for an untraced
 * process only: a ptrace tracer sees the signal itself delivered.  Its
 * siginfo is kept here by thread group until that SIGKILL is delivered.
 */
struct fatal_sig {
	__u32 sig;
	__u8 info[48];
};
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct fatal_sig);
} fatal SEC(".maps");

/* Whether sig kills by default without a core dump (what the kernel
 * turns into a group SIGKILL at once). */
static __always_inline bool kills_quietly(int sig)
{
	const __u32 m = (1u << 1) | (1u << 2) | (1u << 10) | (1u << 12) | (1u << 13) |
			(1u << 14) | (1u << 15) | (1u << 16) | (1u << 26) | (1u << 27) |
			(1u << 29) | (1u << 30);

	return sig >= 32 || (sig > 0 && (m & (1u << sig)));
}

/* A signal is delivered to the current task (its handler runs next, or
 * its default action): what a ptrace tracer sees at the signal stop.
 * SIGKILL never stops a tracee, but one that stands for a fatal signal
 * (see fatal) shows as that signal. */
SEC("raw_tp/signal_deliver")
int BPF_PROG(rec_signal_deliver, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rb_task *t = task_find((__u32)task->pid);
	__u32 tgid = task->tgid;
	struct fatal_sig *f;

	if (!t || (t->flags & RBT_HIDE))
		return 0;
	if (sig != 9) {
		/* SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU with no handler stop */
		__u32 flags = 0;

		if (sig == 19 || ((sig == 20 || sig == 21 || sig == 22) &&
				  !BPF_CORE_READ(ka, sa.sa_handler)))
			flags = RBS_STOP;
		rec_signal(tgid, task->pid, sig, info, flags);
		return 0;
	}
	if (!info && (f = bpf_map_lookup_elem(&fatal, &tgid))) {
		struct fatal_sig v = *f;

		bpf_map_delete_elem(&fatal, &tgid);
		rec_signal(tgid, task->pid, v.sig, v.info, 0);
	}
	return 0;
}

/* A signal sent to a traced task.  One the kernel drops at once as
 * ignored (SIGCHLD with no handler) is never delivered, but a ptrace
 * tracer's tracee gets it queued and stops for it, so it shows under
 * ptrace: it is recorded now.  A fatal one is kept (see fatal). */
SEC("raw_tp/signal_generate")
int BPF_PROG(rec_signal_generate, int sig, struct kernel_siginfo *info, struct task_struct *task,
	     int group, int result)
{
	__u32 tid, tgid;
	struct rb_task *t;

	if ((result != 0 && result != 1) || sig == 9)
		return 0;
	tid = BPF_CORE_READ(task, pid);
	t = task_find(tid);
	if (!t || (t->flags & RBT_HIDE))
		return 0;
	tgid = BPF_CORE_READ(task, tgid);
	if (result == 1) {       /* TRACE_SIGNAL_IGNORED */
		rec_signal(tgid, tid, sig, info, RBS_IGNORED);
	} else if (kills_quietly(sig) &&
		   !(BPF_CORE_READ(task, blocked.sig[0]) & (1ul << (sig - 1)))) {
		struct sighand_struct *sh = BPF_CORE_READ(task, sighand);
		struct fatal_sig v = { (__u32)sig };
		void *h = (void *)1;

		bpf_core_read(&h, sizeof(h), &sh->action[(sig - 1) & 63].sa.sa_handler);
		if (h)           /* not SIG_DFL */
			return 0;
		if ((unsigned long)info > 1)
			bpf_probe_read_kernel(v.info, sizeof(v.info), info);
		else
			*(int *)v.info = sig;
		bpf_map_update_elem(&fatal, &tgid, &v, BPF_ANY);
	}
	return 0;
}

/* rec_exit's part: the call task died inside, as an unfinished record. */
static __always_inline void rec_unfinished(struct task_struct *task, struct rb_task *t)
{
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	struct cap c;
	__u8 *buf;
	__u64 ip;

	if (t->slot >= RB_SLOTS || !(buf = scratch_buf()))
		return;
	__builtin_memset(&c, 0, sizeof(c));
	c.off = sizeof(struct rb_call);
	c.flags = RBC_UNFINISHED | ((t->flags & RBT_ENTRY) ? RBC_ENTRY : 0);
	if (!regs_args(&c, regs, t->slot, &ip))
		return;
	rec_send(&c, buf, RB_EV_CALL, task, t, t->slot, bpf_ktime_get_ns(), ip);
	t->slot = RB_NO_CALL;
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
	send(RB_EV_FORK, tgid, tid, cur->pid, tgid == cur->tgid, 0, NULL, cur->tgid);
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
	send(RB_EV_EXEC, task->tgid, tid, (__u32)old_pid, 0, 0, BPF_CORE_READ(bprm, interp), 0);
	if (want_record && !want_stack) {
		/* rec_execargs() in the capture program, by a tail call (no
		 * return): verified there, not a second time here */
		to_capture(ctx, RB_EV_EXECARGS, 0, 0, 0);
		return 0;
	}
	/* (with stacks, in order before the mappings below) */
	if (want_record)
		rec_execargs(task, t, bprm);
	if (want_stack) {
		/* the mappings the kernel made: the program's code, and its
		 * interpreter's, where the new image starts; the vDSO */
		struct file *f = rec_vma(task, BPF_CORE_READ(task, mm, start_code), NULL);
		__u64 vdso = (__u64)BPF_CORE_READ(task, mm, context.vdso);

		rec_vma(task, REG((struct pt_regs *)bpf_task_pt_regs(task), ip), f);
		if (vdso)
			rec_map(task, RBM_VDSO, vdso,
				vdso + BPF_CORE_READ(task, mm, context.vdso_image, size), 0, NULL);
	}
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
	if (want_record)
		rec_unfinished(task, t);
	slot = t->slot;
	if (!want_record && slot < RB_SLOTS && wanted(RB_ST_UNFINISHED) &&
	    (s = stat_of(slot))) {
		s->unfinished++;
		if (want_wall)
			s->unfinished_wall_ns += bpf_ktime_get_ns() - t->enter_ns;
	}
	send(RB_EV_EXIT, task->tgid, tid, 0, 0, (__u32)task->exit_code, NULL, 0);
	task_del(tid, t);
	__sync_fetch_and_sub(&live, 1);
	return 0;
}
