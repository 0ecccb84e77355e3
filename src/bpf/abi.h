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

/* -e status= bits, as STATUS_* of sys/filter.h */
#define RB_ST_SUCCESSFUL 1u
#define RB_ST_FAILED 2u
#define RB_ST_UNFINISHED 4u

/* rb_task.flags */
#define RBT_HIDE 1u   /* the launched command before its execve: not counted */
#define RBT_ENTRY 2u  /* recording: the call in progress sent an RB_EV_ENTRY record */
#define RBT_ATTACHED 4u /* recording, -p: joined inside a call whose entry was
			   not seen (its exit is recorded from the registers) */
#define RBT_NLUNBOUND 8u /* recording: the call in progress sends on a netlink
			    socket that had no port id at its entry */

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

/* Records sent through the ring buffer: process events (rare: forks,
 * execs, exits) always; calls and signals when recording (want_record). */
enum { RB_EV_FORK = 1, RB_EV_EXEC, RB_EV_EXIT, RB_EV_CALL, RB_EV_ENTRY, RB_EV_SIGNAL,
       RB_EV_EXECARGS, RB_EV_STACK, RB_EV_MAP, RB_EV_DATA };

/*
 * -e read=/-e write= (want_dump): the whole data a call of a selected
 * descriptor moved, in chunks sent just before its RB_EV_CALL record
 * (its buffers, or each buffer of its iovecs, up to RB_DUMP_MAX bytes in
 * all): len bytes at addr.  len 0: the chunk could not be read.
 */
#define RB_DATA_CHUNK 16384
#define RB_DUMP_MAX (16u << 20)
struct rb_data {
	__u32 type;         /* RB_EV_DATA */
	__u32 size;         /* sizeof(struct rb_data) */
	__u32 pid, tid;
	__u64 addr;
	__u32 len;
	__u32 flags;        /* RBDF_* */
	__u8 data[RB_DATA_CHUNK];
};
/* rb_data.flags: RBDF_ZERO: a page not there of a private anonymous
 * mapping, with no swap (as RBR_ZERO): len zero bytes (to the end of the
 * page at most); the record is its header only (RB_DATA_HEAD bytes) */
#define RBDF_ZERO 1u
#define RB_DATA_HEAD (sizeof(struct rb_data) - RB_DATA_CHUNK)
/* dump_kind[] (want_dump): which way a call moves data, and where */
enum {
	RBDK_WRITE = 1,     /* arg2 bytes (iovecs: each iov_len) */
	RBDK_READ = 2,      /* as many as the result */
	RBDK_BUF = 4,       /* a buffer at arg1 */
	RBDK_IOV = 8,       /* arg2 iovecs at arg1 */
	RBDK_MSG = 16,      /* a struct msghdr at arg1 (its iovecs) */
};
#define RB_DUMP_FDS 4096    /* descriptors dump_rfds/dump_wfds can select */

/* A signal delivered to a traced task (RB_EV_SIGNAL), or one the kernel
 * dropped as ignored (RBS_IGNORED), which a ptrace tracer sees delivered. */
enum {
	RBS_IGNORED = 1,    /* dropped by the kernel as ignored */
	RBS_STOP = 2,       /* a stop signal with its default action: the task
			       stops now (ptrace: "--- stopped by SIG ---") */
};
struct rb_signal {
	__u32 type;         /* RB_EV_SIGNAL */
	__u32 size;         /* sizeof(struct rb_signal) */
	__u32 pid, tid;
	__u32 signo;
	__u32 flags;        /* RBS_* */
	__u64 ts_ns;        /* monotonic */
	__u8 info[48];      /* the kernel's siginfo (struct kernel_siginfo) */
};

#define RB_PATH_MAX 256
struct rb_event {
	__u32 type;         /* RB_EV_FORK, RB_EV_EXEC, RB_EV_EXIT */
	__u32 pid;          /* thread group id */
	__u32 tid;
	__u32 ppid;         /* FORK: the creating thread; EXEC: the tid before exec */
	__u32 is_thread;    /* FORK: the new task shares its creator's group */
	__u32 exit_code;    /* EXIT: wait status (exit code << 8, or signal) */
	__u64 ts_ns;        /* monotonic */
	__u64 max_rss_kb;   /* EXIT: the process's peak RSS so far (signal->maxrss) */
	__u64 run_ns;       /* EXIT: time the task ran on a CPU */
	__u64 wait_ns;      /* EXIT: time it waited on a run queue for one */
	char path[RB_PATH_MAX]; /* EXEC: the program run (the interpreter of a script) */
	char comm[16];      /* FORK, EXEC: the new task's command (its creator's
			       after a fork, the program's after an exec) */
	__u32 ptgid;        /* FORK: the creating thread's group */
	__u32 pad;
};

/*
 * Stacks (want_stack: -k, -s, profiles), as perf record --call-graph dwarf
 * takes them: at the entry of each recorded call an RB_EV_STACK record
 * with the user registers as the kernel saved them (struct pt_regs, whose
 * first words are the architecture's struct user_regs_struct) and the user
 * stack from sp upward, as much of it as is readable up to stack_bytes;
 * it comes before the call's own records (matched by enter_ns).
 */
#define RB_UREGS 32         /* words of registers kept (x86_64 uses 21) */
#define RB_STACK_MAX 24576  /* stack_bytes at most */
enum {                      /* rb_stack.flags */
	RBK_CUT = 1,        /* the slice stopped at stack_bytes, not at the
			       end of the stack */
	RBK_LAUNCH = 2,     /* the execve that starts the command, in
			       renacer's code: no stack, none to show */
};
struct rb_stack {
	__u32 type;         /* RB_EV_STACK */
	__u32 size;         /* bytes of the record: the header, then len bytes */
	__u32 pid, tid;
	__u64 enter_ns;     /* the call's (rb_call.enter_ns) */
	__u64 sp;           /* the address of the first byte of the slice */
	__u32 len;          /* bytes of stack that follow */
	__u32 flags;        /* RBK_* */
	__u32 regs_len;     /* bytes of regs set (sizeof(struct pt_regs)) */
	__u32 compat;       /* an ia32 call */
	__u64 regs[RB_UREGS];
};

/*
 * What the unwinder needs of a process's address space, recorded as it
 * changes (want_stack), since the process may have exec'ed or be gone when
 * its records are read: the executable file mappings made by execve (the
 * program's, its interpreter's) and by mmap, and the ranges munmap
 * removes.  RBM_EXEC: start..end is the executable mapping, pgoff its file
 * offset; the file's path (components, the last first, as rb_fileref's)
 * follows.  RBM_UNMAP: start..end left the address space.  RBM_VDSO: the
 * vDSO's image is at start..end (the kernel's: renacer's own, for a 64-bit
 * process).
 */
enum { RBM_EXEC = 1, RBM_UNMAP, RBM_VDSO };
struct rb_map {
	__u32 type;         /* RB_EV_MAP */
	__u32 size;         /* bytes of the record, path included */
	__u32 pid, tid;
	__u32 kind;         /* RBM_* */
	__u32 dev;          /* the file's device (the kernel's dev_t) */
	__u64 ino;
	__u64 start, end, pgoff;
	__u32 pathlen;
	__u32 pad;
	/* then the path, at most RB_FILEREF_PATH bytes */
};

/*
 * Recording (want_record).  A call is one RB_EV_CALL record, sent at its
 * exit (or, RBC_UNFINISHED, at the exit of the task that died inside it):
 * its number and arguments, result, times, and the user memory its
 * capture ops (struct rb_op, below) name, as regions.  A call with ops at
 * its entry (memory the call changes or replaces: execve's, select's
 * sets) sends an RB_EV_ENTRY record with those first, and its RB_EV_CALL
 * has RBC_ENTRY.  Both are struct rb_call followed by nregions regions,
 * each a struct rb_region and its data, padded to 8 bytes.
 *
 * RB_EV_EXECARGS (same layout), after the RB_EV_EXEC of a successful
 * execve: the strings the kernel copied into the new image, for those of
 * the entry record that could not be read (a page the program never
 * touched: the kernel faults it in only inside the call): region 0 the
 * arguments (mm->arg_start..arg_end, NUL-separated), region 1 the file
 * name (RBR_KSTR, bprm->filename).
 */
enum {
	RBC_UNFINISHED = 1, /* the task died inside the call: no result */
	RBC_ENTRY = 2,      /* an RB_EV_ENTRY record of this call came first */
	RBC_CUT = 4,        /* regions left out: the record was full */
	RBC_LATE = 8,       /* a region for the reader to read (RBR_FAULT_RO) */
};
struct rb_call {
	__u32 type;         /* RB_EV_CALL or RB_EV_ENTRY */
	__u32 size;         /* bytes of the whole record (a multiple of 8) */
	__u32 pid, tid;
	__u32 slot;         /* the number, as rb_task.slot (RB_COMPAT + nr: ia32) */
	__u16 flags;        /* RBC_* */
	__u16 nregions;
	__u64 args[6];      /* as the registers held them */
	__s64 ret;
	__u64 enter_ns, exit_ns;  /* monotonic */
	__u64 cpu_ns;       /* time the task ran in the call (see cpu_now()) */
	__u64 ip, sp;       /* user instruction and stack pointers at the entry */
};

enum { RBR_ENTRY = 1, RBR_EXIT = 2 };           /* rb_region.phase */
/* rb_region.kind: KSTR a string of the kernel's; FD what a descriptor
 * (addr) refers to: a struct rb_fdinfo; FDPATH the same with its path
 * (-y, -P): a struct rb_fdpath */
enum { RBR_BYTES = 0, RBR_STR = 1, RBR_KSTR = 2, RBR_FD = 3, RBR_FDPATH = 4 };

struct rb_fdinfo {
	__u64 ino;          /* its inode number */
	__u32 mode;         /* its inode's mode (S_IFSOCK, S_IFIFO, ...) */
	__u16 family;       /* a socket's family, else 0 */
	__u16 protocol;     /* and protocol (RB_NL_UNBOUND: see below) */
};
/* rb_fdinfo.protocol of a netlink socket not bound (no port id) when a
 * ptrace tracer decodes the call's messages (a send's entry, a receive's
 * exit): /proc/PID/net/netlink, where it looks, lists it not then, so its
 * messages print undecoded */
#define RB_NL_UNBOUND 0xffffu
/*
 * What descriptor addr (AT_FDCWD: the working directory) referred to at
 * the call, for the user side to write as readlink(/proc/PID/fd/N) would
 * (want_fdpath): its inode, mode and file system, the name of its own
 * dentry (a pseudo file's: "[eventfd]") and the path of its dentry up
 * through the mounts, as struct rb_fileref's (the last component first).
 */
struct rb_fdpath {
	__u64 ino;
	__u32 mode;         /* the inode's mode */
	__u32 magic;        /* its file system's magic (PIPEFS_MAGIC, ...) */
	__u32 flags;        /* RBP_* */
	__u32 pathlen;      /* bytes of the path that follows */
	char name[64];      /* its own dentry's name */
	char proto[16];     /* a socket's protocol (sk_prot->name: "TCP") */
	__u32 peer;         /* a unix socket's peer's inode, 0 none (-yy); a
			       pidfd's process id (renacer's namespace: the
			       kernel's first), 0 when it has none (exited) */
	__u32 plen;         /* ...the bytes of the path it is bound to */
	char sun_path[112]; /* ...and the path (sun_path: 108 at most) */
	__u16 family;       /* an inet socket's family (AF_INET, AF_INET6), or
			       AF_NETLINK (sport its protocol, peer its port
			       id), else 0 */
	__u16 sport, dport; /* ...its local and peer ports (host order) */
	__u16 pad;
	__u8 saddr[16], daddr[16]; /* ...and addresses (4 bytes for AF_INET) */
	/* then RB_FILEREF_PATH bytes: the path */
};
/* RBP_DELETED: the dentry is unlinked (" (deleted)"); RBP_LONG: its path
 * does not fit in RB_FILEREF_PATH bytes (none recorded) */
enum { RBP_DELETED = 1, RBP_LONG = 2 };
/* rb_fdpath regions of a call, per number (want_fdpath): the arguments
 * captured at the exit (bits 0-5) and at the entry (8-13, what the call
 * closes or replaces), the result (RBD_RET) and an int[2] of descriptors
 * the call fills (RBD_PAIR, at the argument RBD_PAIR_ARG()) */
#define RBD_RET (1u << 6)
#define RBD_PAIR (1u << 7)
#define RBD_ENTRY(i) (1u << (8 + (i)))
#define RBD_ENTRIES (0x3fu << 8)  /* all the RBD_ENTRY() bits */
#define RBD_PAIR_ARG(m) (((m) >> 16) & 7)
/* ...and the descriptors the SCM_RIGHTS messages of the struct msghdr at
 * argument 1 carry in (recvmsg: installed by the call, at most RBD_SCM_MAX) */
#define RBD_SCM (1u << 20)
#define RBD_SCM_MAX 16

enum {
	RBR_OK = 0,         /* len bytes read (a string: its NUL included) */
	RBR_FAULT = 1,      /* nothing could be read there (len 0) */
	RBR_LONG = 2,       /* a string longer than captured: len bytes, no NUL */
	RBR_FAULT_RO = 3,   /* nothing could be read (a page the program never
			       touched), in a private read-only mapping, whose
			       bytes cannot change: the data is a struct
			       rb_fileref saying where they are, for the reader
			       to read them (from the process while it lives,
			       else from the file) */
	RBR_ZERO = 4,       /* nothing could be read: a page not there in a
			       private anonymous mapping, with no swap (never
			       touched, or given back): len zero bytes, no
			       data (a string: len 1, the NUL) */
};

/* Where the bytes of an RBR_FAULT_RO region are. */
struct rb_fileref {
	__u32 want;         /* bytes wanted (the region's length) */
	__u32 dev;          /* the mapped file's device (the kernel's dev_t),
			       0 for an anonymous mapping */
	__u64 ino;          /* its inode number */
	__u64 off;          /* the address's offset in it */
	__u32 pathlen;      /* bytes of the path that follows */
	__u32 pad;
	/* then RB_FILEREF_PATH bytes: its path, NUL-separated components
	 * from the file up to the root, the last one first */
};
#define RB_FILEREF_PATH 512
struct rb_region {
	__u64 addr;
	__u32 len;          /* bytes of data that follow (then padding to 8) */
	__u8 phase;         /* RBR_ENTRY, RBR_EXIT */
	__u8 kind;          /* RBR_BYTES, RBR_STR */
	__u8 status;        /* RBR_* */
	__u8 pad;
};

/* Bytes of data that follow a region header. */
static inline __u32 rb_region_data(const struct rb_region *r)
{
	return r->status == RBR_FAULT || r->status == RBR_ZERO ? 0 : r->len;
}

/*
 * Capture ops: what to copy of a call's user memory, up to RB_OPS per
 * syscall number (the loader fills the table from bpf/capture.c).
 */
#define RB_OPS 6
enum {
	RBO_END = 0,        /* no more ops */
	RBO_BYTES,          /* n bytes at the argument */
	RBO_STR,            /* a string at the argument, up to n bytes */
	RBO_PTRS,           /* a NULL-ended array of pointers at the argument,
			       up to size of them, and (RBF_STRS) the strings
			       they point to (up to the string limit) */
	RBO_IOV,            /* sarg iovecs at the argument, and up to n bytes
			       of each buffer (RBF_RET: n counts down from the
			       result, bytes transferred) */
	RBO_DEREF,          /* size bytes at the pointer found at the
			       argument + sarg (a structure's pointer field) */
	RBO_SP,             /* n bytes at the stack pointer (rt_sigreturn) */
	RBO_MSG,            /* a struct msghdr at the argument, and its name,
			       iovecs and their buffers (RBF_RET: as much as
			       the result), control data (up to size) */
	RBO_FD,             /* what the descriptor argument refers to (RBR_FD:
			       a socket's family and protocol, a pipe's
			       inode); RBF_MULTI: only while other tasks run */
	RBO_ANY,            /* a call the table does not know: a string (up
			       to a path's length) and size bytes, both at
			       the argument, whatever its decoder reads */
	RBO_MMSG,           /* sarg struct mmsghdr at the argument (at most
			       64), and each one's parts as
			       RBO_MSG (RBF_RET: as much as its msg_len) */
	RBO_IOCPTR,         /* ioctl: what the pointer fields of the argument
			       point to, by ioc_ptrs (sarg: the number's
			       argument) */
};
/*
 * rb_op.when: RBW_OK with RBW_EXIT: only when the call succeeded.
 * RBW_BLOCK: at the entry when an entry record is sent anyway: a call that
 * may block, while other tasks run (the entry half then shows first, as
 * "<unfinished ...>" under ptrace), reads its input memory there.
 */
enum { RBW_ENTRY = 1, RBW_EXIT = 2, RBW_OK = 4, RBW_BLOCK = 8, RBW_ERR = 16 };
/* (RBW_ERR with RBW_EXIT: only when the call failed) */
enum {
	RBZ_CONST = 0,      /* n = size */
	RBZ_ARG,            /* n = args[sarg] */
	RBZ_ARGN,           /* n = args[sarg] * size */
	RBZ_RET,            /* n = the result (nothing when negative) */
	RBZ_RETN,           /* n = the result * size */
	RBZ_PATH,           /* n = RB_PATH_BYTES */
	RBZ_DEREF4,         /* n = the int at args[sarg] (accept's *addrlen) */
	RBZ_PAGES,          /* n = pages in args[sarg] bytes (mincore) */
	RBZ_BITS,           /* n = bytes of args[sarg] bits in longs (nodemasks) */
	RBZ_IOC,            /* n = _IOC_SIZE(args[sarg]), size at least (many
			       decoders read a structure larger than the
			       number says, or numbers without a size) */
};
enum {
	RBF_LIMIT = 1,      /* at most the string limit + 1 bytes */
	RBF_STRS = 2,       /* RBO_PTRS: the strings too */
	RBF_RET = 4,        /* RBO_IOV, RBO_MSG: data bytes bounded by the result */
	RBF_PLUS8 = 8,      /* 8 bytes more after the limit, 16 at least (a
			       struct msgbuf: its mtype, then the text) */
	RBF_MULTI = 16,     /* only while more than one task is traced */
};
struct rb_op {
	__u8 kind;          /* RBO_* */
	__u8 arg;           /* the argument holding the address */
	__u8 when;          /* RBW_* */
	__u8 sz;            /* RBZ_* */
	__u8 sarg;          /* the argument of RBZ_ARG, RBZ_ARGN, RBZ_DEREF4,
			       RBO_IOV's count; RBO_DEREF's offset */
	__u8 flags;         /* RBF_* */
	__u16 size;         /* RBZ_CONST: bytes; RBZ_ARGN, RBZ_RETN: bytes of
			       an element; RBZ_ARG, RBZ_RET, RBZ_DEREF4: the
			       most (0: no bound but RB_REGION_MAX) */
};
struct rb_spec {
	struct rb_op op[RB_OPS];
};

/*
 * ioctl arguments (RBZ_IOC) whose structure ends in an array its first
 * word counts (struct kvm_cpuid2: nent, then nent entries), which
 * _IOC_SIZE leaves out: hdr + count * elem bytes of the argument instead
 * (the loader fills ioc_flex from bpf/capture.c).
 */
#define RB_IOC_FLEX 8
struct rb_iocflex {
	__u32 code;         /* the ioctl's number, 0: an unused entry */
	__u16 hdr;          /* bytes before the array */
	__u16 elem;         /* bytes of an element */
};

/*
 * RBO_IOCPTR: memory behind a pointer field of an ioctl's argument (BLKPG's
 * partition, SG_IO's command and data, a console font's bits), copied at
 * the entry and the exit of the numbers that match (number & mask ==
 * code): fixed bytes, or a count read at cnt_off (cnt_len bytes) times
 * elem.  (The loader fills ioc_ptrs from bpf/capture.c.)
 */
#define RB_IOC_PTRS 34
#define RB_IOC_SUB 8        /* elements followed a level down (sub) */
struct rb_iocptr {
	__u32 code, mask;   /* mask 0: an unused entry */
	__u8 ptr_off;       /* offset of the pointer in the argument */
	__u8 cnt_off;       /* offset of the count */
	__u8 cnt_len;       /* its bytes: 1, 2, 4, 8; 0: fixed bytes */
	__u8 sub;           /* 1: each element (of the first RB_IOC_SUB) holds
			       a pointer at sub_ptr to as many bytes as the
			       32 bits at sub_len say (iovecs; v4l2 controls) */
	__u16 elem;         /* bytes per count */
	__u16 fixed;        /* bytes when cnt_len is 0 */
	__u8 sub_ptr, sub_len;
	__u16 pad;
};

/* Bytes of a path (PATH_MAX and the byte a decoder reads past it) */
#define RB_PATH_BYTES 4098
/* A record is built in a per-CPU buffer of RB_REC_MAX bytes: whatever does
 * not fit is left out (RBC_CUT).  One region is at most RB_REGION_MAX. */
#define RB_REC_MAX 32768
#define RB_REGION_MAX 8192

#endif
