/*
 * The event record: the one structure every tracer stop is turned into and
 * every consumer (text, JSON, CSV, summary, golden compare, assertions, OTLP,
 * flamegraphs) reads.  Decoders fill it; sinks render it; nobody else prints.
 */
#ifndef RENACER_EVENT_H
#define RENACER_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One named constant of a flag set or an enumeration (see src/sys/xlat). */
struct xlat_data {
	uint64_t val;
	const char *str;
};

/*
 * A table of constants.  For a flag set, the renderer prints the names of the
 * bits that are set joined by '|' and any leftover bits in hex; for an enum it
 * prints the name of the value, or the number and "/ * prefix??? * /" (strace's
 * style) when unknown.
 */
struct xlat {
	const struct xlat_data *data;
	uint32_t size;
	uint8_t type;           /* XT_FLAGS, XT_ENUM */
	const char *unknown;    /* e.g. "AF_???" for unknown enum values */
};
enum { XT_FLAGS = 0, XT_ENUM = 1 };

/* Kinds of decoded values. */
enum val_kind {
	V_NONE = 0,   /* no value (slot not yet decoded) */
	V_INT,        /* signed decimal: i */
	V_UINT,       /* unsigned decimal: u */
	V_OCT,        /* octal with leading 0 (modes, umask): u */
	V_HEX,        /* 0x... (0 as "0"): u */
	V_PTR,        /* NULL or 0x...: u */
	V_STR,        /* quoted, escaped byte string: s (VF_TRUNC adds "...") */
	V_FLAGS,      /* flags rendered with xlat: x */
	V_ENUM,       /* one constant rendered with xlat: x */
	V_FD,         /* file descriptor: fd (path shown with -y) */
	V_STRUCT,     /* {name=value, ...}: c (VF_MORE adds ", ...") */
	V_ARRAY,      /* [value, ...]: c (VF_MORE adds ", ...") */
	V_SIGSET,     /* [SIGINT SIGTERM] or ~[...]: sig */
	V_COMMENT,    /* a C comment: s, e.g. "23 vars" -> / * 23 vars * / */
	V_TEXT,       /* literal text read back from a saved trace: s */
	V_OP,         /* an expression: c with op; e.g. mode bits "S_IFREG|0644" */
};

/* Value flags. */
enum {
	VF_EXIT = 1 << 0,   /* decoded at syscall exit (output argument) */
	VF_TRUNC = 1 << 1,  /* V_STR was cut at the string limit */
	VF_MORE = 1 << 2,   /* V_STRUCT/V_ARRAY has elements not shown */
	VF_NULL_AS_NULL = 1 << 3, /* V_PTR 0 prints "NULL" (default for V_PTR) */
	VF_STR_UNTERM = 1 << 4,   /* V_STR is a path with no NUL within limit */
	VF_SIGSET_NOT = 1 << 5,   /* V_SIGSET printed as ~[...] of missing */
	VF_EQ_ONLY = 1 << 6,      /* field printed as value only (no "name=") */
	VF_HEXSTR = 1 << 7,       /* V_STR printed as \xNN bytes (getrandom) */
	/* An argument that continues the one before it: the text renderer puts
	 * no ", " between them (clone3's "{...} => {parent_tid=[N]}", whose
	 * " => {...}" part is decoded at exit and shown after "resumed>"). */
	VF_CONT = 1 << 8,
	/* An exit-time argument whose ", " is printed with it, after
	 * "resumed>", and not before "<unfinished ...>" (clone's
	 * "<... clone resumed>, parent_tid=[N], ...)"). */
	VF_LATE_SEP = 1 << 9,
	/* V_ENUM: the number prints in decimal where it shows (an unknown
	 * value, -X raw and -X verbose): signal numbers, as strace. */
	VF_DECIMAL = 1 << 10,
	/* V_OP of three forms of one value, shown by strace's -X style:
	 * c.items[0] with -X abbrev (the default), [1] with -X raw, [2] with
	 * -X verbose (ioctl decoders whose text changes shape with -X:
	 * "EVIOCGBIT(0x1f / * EV_??? * /, 8)" against "0x8008453f / *
	 * EVIOCGBIT(0x1f, 8) * /").  Sinks that read values, not text, take
	 * items[0]. */
	VF_XALT = 1 << 11,
	/* Read back from a trace that kept only text (renacer-json-v1): the
	 * number of a V_FLAGS/V_ENUM/V_SIGSET is unknown, its names are in
	 * x.sym (sig.mask is 0 and the names are in text). */
	VF_NOVAL = 1 << 12,
	/* ev->ret_aux as strace's auxstr: left out under -X raw
	 * ("= 0x1 (SECBIT_NOROOT)", "= 0"). */
	VF_AUXSTR = 1 << 13,
	/* V_ENUM/V_FLAGS shown as under -X verbose unless -X raw: strace's
	 * "0 / * PIDTYPE_PID * /" of prctl(PR_SCHED_CORE, ...). */
	VF_XVERBOSE = 1 << 14,
	/* ev->ret_aux printed right after the result, without " (...)": the
	 * -Y command and pid namespace translation of a returned id,
	 * "= 5<cat> / * 1234 in strace's PID NS * /". */
	VF_RET_SUFFIX = 1 << 15,
	/* A V_STRUCT shown in two parts, as strace shows the ioctl structures
	 * whose fields it prints partly at entry and partly at exit: the entry
	 * part (VF_OPEN) has no closing "}"; the exit part, the next argument
	 * (VF_TAIL, with VF_EXIT|VF_CONT), has no opening "{", puts ", "
	 * before each item but one marked VF_CONT, and closes the brace.  A
	 * line interrupted by another shows "{a=1 <unfinished ...>" then
	 * "<... ioctl resumed>, b=2}) = 0".  Sinks that read values, not
	 * text, see the two parts as two structures.  The 16 bits being taken,
	 * these two are flags of other kinds, meaningless on a structure. */
	VF_OPEN = VF_DECIMAL,        /* on a V_STRUCT (VF_DECIMAL is V_ENUM's) */
	VF_TAIL = VF_NULL_AS_NULL,   /* on a V_STRUCT (VF_NULL_AS_NULL is V_PTR's) */
};

struct val {
	uint8_t kind;            /* enum val_kind */
	uint16_t flags;          /* VF_* */
	const char *name;        /* argument or field name; NULL in arrays */
	/* A value read back from a saved trace keeps the text it was saved
	 * with: renderers print it as is (NULL for live values). */
	const char *text;
	uint32_t text_len;
	union {
		int64_t i;
		uint64_t u;
		struct {
			const char *p;   /* bytes (not NUL-terminated for V_STR) */
			uint32_t len;
		} s;
		struct {
			uint64_t v;
			const struct xlat *xl;
			const char *dflt;  /* name printed for 0 (flags), or NULL */
			const char *sym;   /* read back from a saved trace (xl
					      NULL): the names as they were
					      rendered ("O_RDONLY|O_CLOEXEC",
					      "AT_FDCWD"), NULL when none */
		} x;
		struct {
			int64_t fd;
			const char *path;  /* NULL unless resolved (-y) */
			const char *detail; /* -yy: shown as is inside <...>
					       after path (or instead of it
					       when path is NULL):
					       "TCP:[1.2.3.4:5->6.7.8.9:10]",
					       "<char 1:3>", "pid:123" */
		} fd;
		struct {
			struct val *items;
			uint32_t n;
			const char *op;    /* V_OP: joiner, e.g. "|" or " or " */
		} c;
		struct {
			uint64_t mask;     /* bit n-1 is signal n */
		} sig;
	};
};

/* Event types. */
enum event_type {
	EV_SYSCALL_ENTRY = 1, /* entry stop; args decoded at entry are set */
	EV_SYSCALL,           /* a whole syscall (exit stop, or read back) */
	EV_SIGNAL,            /* a signal delivered to (or stopping) a tracee */
	EV_PROC_START,        /* a new process or thread appeared */
	EV_PROC_EXIT,         /* a tracee exited or was killed */
	EV_EXEC,              /* the process image was replaced (after execve) */
	EV_DETACH,            /* an attached tracee was detached */
	EV_PERSONALITY,       /* a task's syscalls changed personality (a 64-bit
				 program making int 0x80 calls, a 32-bit one
				 exec'ed): strace's "[ Process PID=N runs in
				 32 bit mode. ]"; event.personality */
};

/* Syscall states at EV_SYSCALL. */
enum {
	SC_COMPLETE = 0,    /* exit stop seen; retval valid */
	SC_UNFINISHED,      /* the tracee died or detached inside the call */
	/* Seen at its entry only (tracer_opts.entry_only, for counting by
	 * name): retval, err, cpu_ns, ret_aux and every argument decoded at
	 * exit are unset, end_ns == ts_ns, rv_fmt is RV_NONE.  A sink that
	 * reads results must not be run with such records. */
	SC_ENTRY_ONLY,
};

/* How a return value prints. */
enum {
	RV_DEC = 0,  /* decimal (default) */
	RV_HEX,      /* 0x... (mmap, brk) */
	RV_OCT,      /* 0... (umask) */
	RV_FD,       /* fd; with -y also <path> */
	RV_NONE,     /* "?" (exit_group, execve success in another thread) */
};

/*
 * A stack frame, filled by src/dwarf (-s, -k, --function-time, flame
 * graphs) or read back from a saved trace.  A physical frame whose code
 * inlined other functions becomes several frames with the same pc: the
 * inlined callees first, each with FRAME_INLINED, then the function the
 * code physically belongs to.  Like the rest of an event, frames are the
 * caller's and valid during the call only (a sink copies what it keeps).
 */
struct frame {
	uint64_t pc;             /* the frame's address: a return address in every
				    frame but the innermost one */
	const char *function;    /* source-level function (demangled; the inlined
				    one for FRAME_INLINED), NULL when unknown */
	const char *file;        /* source file, NULL when unknown */
	uint32_t line;           /* 0 when unknown */
	const char *module;      /* ELF object as mapped (a path or "[vdso]"),
				    NULL when pc is in no mapped object */
	uint64_t offset;         /* the address looked up (pc, or pc - 1 for a
				    return address) relative to the module's
				    load base: strace -k's [0x...] */
	const char *symbol;      /* ELF symbol containing it (demangled), or NULL */
	uint64_t symoff;         /* looked-up address - symbol's address */
	uint8_t flags;           /* FRAME_* */
};
enum {
	FRAME_INLINED = 1 << 0,  /* inlined into the next frame (same pc) */
	FRAME_OWN = 1 << 1,      /* the program's own code: not matched by
				    --source-skip (libc, ld.so, Rust std...) */
	FRAME_FOREIGN_LINE = 1 << 2, /* own function, but file:line are of code
				    inlined into it from a skipped file with no
				    inline record (Rust std): -s shows the
				    function without a line */
	FRAME_TAILCALL = 1 << 3, /* rebuilt from DWARF call-site information:
				    a function that ended in a tail call and
				    so left no frame (pc: the address after
				    its jump, or the jump's own when DWARF
				    gives only that); gdb's "tail call frame" */
};

#define EVENT_MAX_ARGS 6

/*
 * A call's user stack as the eBPF recorder captured it at the call's entry
 * (bpf/abi.h), for the enrich hook to unwind instead of the live process:
 * the registers, a slice of the stack from sp upward, and the executable
 * file mappings the process had (as the kernel reported them while it
 * ran: it may have exec'ed or exited since).  NULL under ptrace.
 */
struct ev_module {
	uint64_t start, end;     /* an executable mapping */
	uint64_t pgoff;          /* its offset in the file */
	uint64_t dev, ino;       /* the file (the kernel's dev_t), to check
				    that the path still names it */
	const char *path;        /* "[vdso]" (dev 0): the kernel's vDSO */
};
struct ev_ustack {
	const void *regs;        /* the kernel's struct pt_regs: on x86_64 the
				    first words of struct user_regs_struct */
	uint32_t regs_len;       /* its bytes */
	bool compat;             /* an ia32 call */
	bool cut;                /* the slice ends at its size limit, not at
				    the end of the stack */
	uint64_t sp;             /* the address of stack[0] */
	const uint8_t *stack;
	uint32_t len;
	const struct ev_module *mods;   /* the process's, by start */
	size_t nmods;
	uint64_t mods_gen;       /* changes whenever mods do (per process) */
};

struct ttask;   /* src/track/track.h */
struct tobj;

/*
 * -e read=SET / -e write=SET (strace's dumpio): the bytes one call read or
 * wrote through a descriptor of the set, hex-dumped after the call's line.
 * A call can carry several (readv, sendmsg): one per buffer that moved data.
 */
/* What one call's dumps keep at most (src/core/quals.c): bytes, buffers. */
#define IODUMP_MAX_BYTES (16u << 20)
#define IODUMP_MAX_BUFS 4096u

struct iodump {
	const uint8_t *data;     /* the bytes (the task's arena) */
	uint64_t len;            /* bytes transferred in this buffer */
	uint64_t fetched;        /* of len, how many could be read (a dump
				    stops with "<Cannot fetch ...>" there) */
	uint64_t addr;           /* tracee address of the buffer */
	int32_t iov;             /* -1: the call's buffer; >= 0: its index in
				    an iovec (" * N bytes in buffer I") */
	int32_t vec;             /* >= 0: sendmmsg/recvmmsg message index;
				    " = NBUFS buffers in vector VEC" is shown
				    first (such an entry may have len 0) */
	uint64_t nbufs;          /* with vec: the message's iovec length */
	bool capped;             /* renacer's dump limit was reached after
				    fetched bytes of this entry: nothing more
				    of the call is dumped (core/quals.h) */
};

/* event.tamper bits: what -e inject= did to a syscall (src/core/inject.c). */
enum {
	TAMPER_INJECTED = 1 << 0, /* error= or retval= replaced the call */
	TAMPER_POKED = 1 << 1,    /* poke_enter=/poke_exit= wrote its memory */
	TAMPER_DELAYED = 1 << 2,  /* delay_enter=/delay_exit= held the task */
};

struct event {
	uint8_t type;            /* enum event_type */
	uint8_t state;           /* SC_* for EV_SYSCALL */
	uint8_t rv_fmt;          /* RV_* */
	uint8_t nargs;           /* decoded arguments shown (<= EVENT_MAX_ARGS) */
	pid_t pid;               /* thread group id */
	pid_t tid;               /* thread id */
	long nr;                 /* syscall number, -1 when not a syscall */
	const char *name;        /* syscall name ("syscall_0x1d3" if unknown) */
	uint64_t ts_ns;          /* entry time, ns since the trace began */
	uint64_t end_ns;         /* exit time, ns since the trace began */
	uint64_t cpu_ns;         /* system CPU time of the process between the
				    entry and exit stops (strace -c's default
				    measure); 0 unless tracer_opts.cpu_time */
	uint64_t raw[EVENT_MAX_ARGS]; /* raw argument registers */
	uint64_t karg[EVENT_MAX_ARGS]; /* the arguments as the kernel saw them:
					  raw cut to each C type's width and
					  zero-extended (sysent_kernel_args);
					  what decoders read */
	int64_t retval;          /* raw return value (-errno on failure) */
	int err;                 /* errno when the call failed, else 0 */
	struct val args[EVENT_MAX_ARGS];
	const struct val *ret_aux; /* shown after the result: "(flags O_RDWR)" */
	const char *ret_path;    /* RV_FD with -y: path of the returned fd */
	const char *ret_detail;  /* RV_FD with -yy: as fd.detail of struct val */
	uint64_t lamport;        /* Lamport clock, respects happens-before */
	/* The socket address the call names, canonical: "inet:1.2.3.4:80",
	 * "inet6:[::1]:443", "unix:/run/x.sock", "unix:@name", or the family
	 * ("AF_NETLINK"); set by the sockaddr decoder (connect, bind, sendto,
	 * sendmsg, accept...), NULL when none */
	const char *endpoint;

	/* Set by the process/descriptor tracker (src/track/track.h) before the
	 * sinks see the event, when a sink asked for it (sink_ops.needs_track);
	 * NULL otherwise.  Valid during the call, like the rest. */
	const struct ttask *task;         /* the task that made the event */
	/* per argument of role ROLE_FD or ROLE_DIRFD (sysent.argrole): what
	 * the descriptor referred to when the call began; NULL for AT_FDCWD, a
	 * negative number or a descriptor the tracker never saw */
	const struct tobj *fd_obj[EVENT_MAX_ARGS];
	/* descriptors the call made: its result, or the two of pipe() and
	 * socketpair(); NULL when none */
	const struct tobj *ret_obj[2];
	uint32_t nframes;        /* the stack, innermost first (see struct frame) */
	const struct frame *frames;
	/* -s: the frame of the program's own code that made the call (the
	 * innermost FRAME_OWN one; it may point into frames or, read back from
	 * a trace saved without -k, stand alone); NULL when unknown or off */
	const struct frame *source;
	bool stack_trace;        /* -k: sinks show the whole stack (text: strace
				    -k lines; JSON: "stack") */
	const char *stack_error; /* why unwinding stopped before the outermost
				    frame (strace -k's " > MESSAGE"), or NULL */
	/* EV_SYSCALL_ENTRY from the eBPF recorder: the stack captured with
	 * the call, for the enrich hook only (NULL otherwise, and once the
	 * hook has returned) */
	const struct ev_ustack *ustack;

	/* strace's output options (-i, -n, -e inject=, -e read=/write=) */
	uint64_t ip;             /* instruction pointer at the syscall entry or
				    signal stop; 0 unless tracer_opts.want_ip */
	long last_nr;            /* EV_SIGNAL, EV_PROC_EXIT: number of the last
				    syscall the task entered (traced or not),
				    0 when none, as strace -n prints it */
	uint8_t tamper;          /* EV_SYSCALL: TAMPER_* bits, 0 untouched */
	bool replayed;           /* read back from a saved trace: raw and karg
				    are unknown (0), the values are what the
				    trace kept */
	uint8_t personality;     /* EV_PERSONALITY: PERS_* of sys/compat.h */
	bool detached;           /* EV_SYSCALL, SC_UNFINISHED: renacer detached
				    from the task inside the call (-b execve,
				    -p then Ctrl-C); strace ends the line with
				    " <detached ...>" instead of ") = ?" */
	uint32_t ndumps;         /* EV_SYSCALL: data to hex-dump (may be 0) */
	const struct iodump *dumps;

	/* EV_SIGNAL */
	int signo;
	bool group_stop;         /* EV_SIGNAL: the tracee stopped (SIGSTOP etc.) */
	const struct val *siginfo;  /* {si_signo=..., ...} or NULL */

	/* EV_PROC_START / EV_PROC_EXIT / EV_EXEC */
	pid_t ppid;              /* parent (creator) pid; tid for threads */
	bool is_thread;          /* EV_PROC_START: a thread of ppid's group */
	bool attached;           /* EV_PROC_START: attached with -p */
	unsigned attach_threads; /* EV_PROC_START attached: the threads attached
				  * with this process (-p -f), 1 without -f */
	int exit_code;           /* EV_PROC_EXIT: exit status if exited */
	int term_signal;         /* EV_PROC_EXIT: killing signal, else 0 */
	bool core_dumped;
	uint64_t max_rss_kb;     /* EV_PROC_EXIT: peak RSS (VmHWM), 0 unknown */
	uint64_t rq_wait_ns;     /* EV_PROC_EXIT: time the task waited on a run
				    queue for a CPU (tracer_opts.collect_sched),
				    0 unknown */
	uint64_t rq_run_ns;      /* EV_PROC_EXIT: time it ran on a CPU (same) */
	uint64_t tracer_wait_ns; /* EV_PROC_EXIT: time it stood stopped while the
				    tracer waited for a CPU (same) */
	const char *exec_path;   /* EV_EXEC: new program path */
	pid_t exec_old_tid;      /* EV_EXEC: the tid a thread other than the
				  * leader had when it called execve (it now
				  * has the leader's, and the old leader is
				  * gone: strace's "+++ superseded by execve in
				  * pid N +++"); 0 when the leader exec'ed */
};

/*
 * Typed access to a syscall's arguments by position in the prototype
 * (register i), for the consumers after the engine.  A live event answers
 * from ev->karg where a decoder left the slot empty; a replayed one from
 * the values read back.  They never look at rendered text.
 */
/* The value of argument i (the slot named as the prototype's argument i),
 * or NULL when the call did not show it. */
const struct val *ev_arg(const struct event *ev, unsigned i);
/* Argument i as an integer (a descriptor, a pid, a size, flags): its decoded
 * value, or for a live event whose decoder left it out the register; false
 * when it has no known number. */
bool ev_arg_int(const struct event *ev, unsigned i, int64_t *out);
/* Argument i as a string read from the tracee (a path): its bytes and
 * length; false when it is not one (NULL, unreadable). */
bool ev_arg_str(const struct event *ev, unsigned i, const char **p, size_t *len);
/* The integer of a value: V_INT..V_PTR, V_FD, V_FLAGS, V_ENUM with a known
 * number; false otherwise. */
bool val_int(const struct val *v, int64_t *out);
/*
 * Whether flag value v has the bit named name: by its number when known,
 * else by its names (a value read back from a text-only trace).
 */
bool val_has_flag(const struct val *v, uint64_t bit, const char *name);
/*
 * The value itself of a value shown in a special form: a V_OP of -X forms
 * (VF_XALT) gives its first form, "name=value" (a V_OP "=" of a V_TEXT
 * name, as clone's arguments show) its value.
 */
const struct val *val_unwrap(const struct val *v);
/* Whether v is the constant n, called name (by its number when known, else
 * by its name: a value read back from a text-only trace). */
bool val_is(const struct val *v, int64_t n, const char *name);
/* The field called name of a V_STRUCT (one level), or NULL. */
const struct val *val_field(const struct val *v, const char *name);
/*
 * Whether a value given as text (V_TEXT from a decoder, or the names of a
 * value read back from a text-only trace) is a symbolic name or names
 * ("MS_MGC_VAL", "O_RDONLY|O_CLOEXEC", "S_IFREG|0644"), as opposed to an
 * expression, a number or a quoted string.
 */
bool text_is_symbolic(const char *p, size_t len);

/* errno helpers: name ("ENOENT") and strace's message; NULL if unknown. */
const char *errno_name(int err);
const char *errno_message(int err);

/* Signal name ("SIGCHLD", "SIGRT_3"); NULL for 0 or out of range. */
const char *signal_name(int sig);
/* Signal number from a name with or without "SIG"; -1 if unknown. */
int signal_by_name(const char *name);

/* ---- the start of a trace: what a sink's begin() learns ---------------- */

/* Kinds of a standard stream of the traced command (see sink/env.h). */
enum stdio_kind {
	SK_UNKNOWN = 0,             /* not recorded */
	SK_NULL,                    /* /dev/null */
	SK_FILE,                    /* a regular file */
	SK_PIPE,                    /* a pipe or FIFO */
	SK_SOCKET,
	SK_TTY,                     /* a terminal */
	SK_DEVICE,                  /* another character or block device */
	SK_CLOSED,                  /* not open */
	SK_OTHER,                   /* a directory, an anonymous inode, ... */
	SK_NKINDS,
};

/*
 * How the traced command was run, recorded in a trace so that a later run
 * can be made the same way (renacer validate) or its differences explained.
 */
struct trace_env {
	int stdio[3];               /* enum stdio_kind of fds 0, 1, 2 */
	char *cwd;                  /* working directory, or NULL */
	char **vars;                /* allowlisted variables: "NAME=value", or
				       "NAME" when unset; sorted by name */
	size_t nvars;
};

/* What a sink learns at the start of a trace. */
struct trace_info {
	const char *version;        /* renacer version */
	char *const *argv;          /* traced command, NULL when attached */
	uint64_t start_realtime_ns; /* wall-clock time the trace began */
	int follow;                 /* -f was given */
	const char *backend;        /* NULL for the ptrace engine (a record per
				       call); "ebpf": totals only, no syscall
				       or signal records (see sc_total) */
	const struct trace_env *env; /* how the command was run, or NULL
				       (attached, or not recorded) */
};

#endif
