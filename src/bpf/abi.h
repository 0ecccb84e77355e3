/*
 * What the eBPF program (renacer.bpf.c) and its loader (engine.c) share:
 * the per-task state, the per-syscall counters and the process events.
 * Plain __u32/__u64 fields only: both sides must agree byte for byte.
 */
#ifndef RENACER_BPF_ABI_H
#define RENACER_BPF_ABI_H

/*
 * Counters are indexed by slot: the syscall number of a native (x86_64)
 * call, or RB_COMPAT + the number of an ia32 (int 0x80) call.  A number
 * outside [0, RB_NR) is not counted (rb_lost_nr says how many).
 */
#define RB_NR 512
#define RB_COMPAT RB_NR
#define RB_SLOTS (2 * RB_NR)
#define RB_NO_CALL 0xffffffffu  /* rb_task.slot outside a counted call */

/* -e status= bits, as STATUS_* of core/tracer.h */
#define RB_ST_SUCCESSFUL 1u
#define RB_ST_FAILED 2u
#define RB_ST_UNFINISHED 4u

/* rb_task.flags */
#define RBT_HIDE 1u   /* the launched command before its execve: not counted */

/*
 * Per traced task: an array indexed by tid % RB_TASKS (tid 0 marks a free
 * entry); a task whose entry is taken by another live traced task goes to
 * a hash by tid instead (rare: their tids must differ by a multiple of
 * RB_TASKS).  Removed when the task exits, before its tid can be reused.
 * (The loader may make the array smaller, a power of two: tasks_mask.)
 */
#define RB_TASKS 32768
struct rb_task {
	__u32 tid;          /* owner (kernel tid), 0 when free */
	__u32 flags;        /* RBT_* */
	__u32 slot;         /* slot of the call in progress, or RB_NO_CALL */
	__u32 enter_on;     /* CPU of the entry (want_cpu) */
	__u64 enter_ns;     /* monotonic time at the entry (want_wall, want_cpu) */
	__u64 enter_stime;  /* CPU time run at the entry (want_cpu; cpu_now()) */
	__u64 enter_sum;    /* the scheduler's total of it then (want_cpu) */
};

/* Per slot and CPU: what every counted call updates first, in one cache
 * line (entries are 128 bytes, so they never straddle two). */
struct rb_stat {
	__u64 calls;        /* calls that returned (counted at their exit) */
	__u64 errors;       /* of those, returned -4095..-1 */
	__u64 cpu_ns;       /* system time in returned calls (want_cpu) */
	__u64 wall_ns;      /* wall time of returned calls (want_wall) */
	__u64 unfinished;   /* calls the task died inside (exit_group too) */
	__u64 unfinished_wall_ns;             /* entry to death (want_wall) */
	__u64 pad[2];
	/* shortest and longest call: only for -S min-time/max-time (want_minmax) */
	__u64 cpu_min_ns, cpu_max_ns, wall_min_ns, wall_max_ns;
	__u64 pad2[4];
};

/* Process events, sent through the ring buffer (rare: forks, execs, exits). */
enum { RB_EV_FORK = 1, RB_EV_EXEC, RB_EV_EXIT };

#define RB_PATH_MAX 256
struct rb_event {
	__u32 type;         /* RB_EV_* */
	__u32 pid;          /* thread group id */
	__u32 tid;
	__u32 ppid;         /* FORK: the creating thread; EXEC: the tid before exec */
	__u32 is_thread;    /* FORK: the new task shares its creator's group */
	__u32 exit_code;    /* EXIT: wait status (exit code << 8, or signal) */
	__u64 ts_ns;        /* monotonic */
	char path[RB_PATH_MAX]; /* EXEC: the program run (the interpreter of a script) */
};

#endif
