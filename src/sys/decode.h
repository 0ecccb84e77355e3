/*
 * Helpers for syscall decoders (src/sys/<family>.c).  A decoder turns raw
 * registers and tracee memory into typed values in ev->args; it never
 * prints.  Every read of tracee memory can fail: the helpers then store the
 * raw address (V_PTR), never stale bytes.
 */
#ifndef RENACER_DECODE_H
#define RENACER_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "event.h"
#include "sys/sysent.h"
#include "util/arena.h"

/* -e decode-fds= details (-y is DECODE_FD_PATH, -yy all of them). */
enum {
	DECODE_FD_PATH = 1 << 0,    /* the path: 3</etc/passwd> */
	DECODE_FD_SOCKET = 1 << 1,  /* socket endpoints: 3<TCP:[1.2.3.4:5->...]> */
	DECODE_FD_DEV = 1 << 2,     /* device numbers: 0</dev/null<char 1:3>> */
	DECODE_FD_PIDFD = 1 << 3,   /* a pidfd's process: 3<pid:1234> */
	DECODE_FD_ALL = 15,
};

/* -Y / --decode-pids= details (strace's pidns and comm). */
enum {
	DECODE_PID_NS = 1 << 0,     /* --pidns-translation: "5 / * 1234 in strace's PID NS * /" */
	DECODE_PID_COMM = 1 << 1,   /* -Y: "1234<cat>" */
};

/* Options that change what decoders fetch. */
struct decode_opts {
	unsigned string_limit;   /* -s / --string-limit: bytes of strings (32) */
	bool decode_fds;         /* -y: resolve fd paths (any DECODE_FD_* bit) */
	bool verbose;            /* -v: do not abbreviate structures */
	/* Added for strace's -yy, -e decode-fds= and -e verbose= (sopts): */
	unsigned fd_details;     /* DECODE_FD_* to show (0: the path, as -y) */
	bool no_deref;           /* -e verbose= leaves this call out: pointers
				    to structures print as addresses (tread()
				    reads nothing), as strace's !verbose() */
	unsigned decode_pids;    /* DECODE_PID_* (-Y, --pidns-translation) */
	bool kvm_vcpu;           /* -e kvm=vcpu: KVM_RUN's exit reason */
};

/* Context passed to every decoder. */
struct dctx {
	pid_t pid, tid;                 /* the tracee being decoded */
	struct arena *arena;            /* all values live here until the event ends */
	const struct decode_opts *opts;
	const struct sysent *se;        /* row of this syscall (never NULL) */
	struct event *ev;               /* the event being decoded, or NULL (a
					   decoder's helpers that describe the
					   call as a whole set ev->endpoint) */
};

/*
 * Sets ev->args[i] name from the prototype, clears its flags, raises
 * ev->nargs to at least i + 1 and returns the slot.  The arg_* helpers below
 * all go through it.  arg_fd/val_set_fd store a negative number as V_INT
 * (no descriptor); arg_dirfd stores AT_FDCWD as V_FD -100 (printed
 * "AT_FDCWD", with -y the working directory).  Called at the exit stop
 * (ev->type == EV_SYSCALL) the arg_* helpers mark the slot VF_EXIT; a
 * decoder that fills a slot at exit through arg_slot() and val_set_*()
 * must add VF_EXIT itself (see event_entry_split in sink/render.h).
 */
struct val *arg_slot(struct dctx *c, struct event *ev, unsigned i);

/*
 * Declares at entry that the call shows n arguments although some are only
 * decoded at exit, so that an interrupted entry prints "read(3, " (with the
 * separator) as strace does.  Decoders returning RVAL_EXIT with output
 * arguments call it.
 */
static inline void arg_count(struct event *ev, unsigned n)
{
	if (ev->nargs < n)
		ev->nargs = (uint8_t)n;
}

/*
 * Argument values.  A decoder reads ev->karg[i], the argument as the kernel
 * saw it (the register cut to the width of its C type in the syscall
 * table, zero-extended), never ev->raw: (int)ev->karg[i] for an int,
 * ev->karg[i] for flags, unsigned values, sizes and pointers.  karg_s is
 * the signed value at the argument's width: an int's 32 bits sign-extended,
 * a long's 64 bits.  Where strace itself prints all 64 bits of a register
 * the decoder reads ev->raw[i] and says so in a comment ("raw:").
 */
static inline int64_t karg_s(const struct dctx *c, const struct event *ev, unsigned i)
{
	unsigned bits = arg_type_bits(c->se->argtype[i]);

	return bits == 64 ? (int64_t)ev->karg[i]
			  : (int64_t)(ev->karg[i] << (64 - bits)) >> (64 - bits);
}

/*
 * Caps that keep an event's memory bounded by the options, whatever the
 * tracee claims (issue 18): an array shows at most DECODE_MAX_ELEMS
 * elements, then "..." (strace prints all of them with -v, and -s of them
 * without), and arrays stop with "..." once the event's values take
 * DECODE_MAX_EVENT_BYTES (nested arrays: sendmmsg's iovecs, netlink
 * attributes, argv's strings).  Each string is cut at the string limit
 * (-s) as strace does.  docs/renacer.1 lists them with strace's
 * differences.
 */
#define DECODE_MAX_ELEMS 4096u
#define DECODE_MAX_EVENT_BYTES (8u << 20)

/* Whether the event's values already take DECODE_MAX_EVENT_BYTES: an
 * array being decoded should end with "..." (VF_MORE). */
bool decode_over_budget(const struct dctx *c);

/* Elements an array of n shows: all of them with -v, else at most the
 * string limit (strace's abbrev()), never more than DECODE_MAX_ELEMS. */
unsigned decode_elem_limit(const struct dctx *c, uint64_t n);

/*
 * Reads an array of n 64-bit words at addr into buf, a page at a time
 * (one read of the tracee per page, not per word); returns how many
 * leading words could be read (0 when none, or when opts->no_deref).
 */
size_t tread_words(struct dctx *c, uint64_t addr, uint64_t *buf, size_t n);

/* Simple scalar arguments (i: argument index), all from ev->karg.  */
void arg_int(struct dctx *c, struct event *ev, unsigned i);   /* int (32-bit signed) */
void arg_long(struct dctx *c, struct event *ev, unsigned i);  /* signed at the C width */
void arg_uint(struct dctx *c, struct event *ev, unsigned i);  /* unsigned decimal */
void arg_hex(struct dctx *c, struct event *ev, unsigned i);
/* All 64 bits of the register (ev->raw), for the arguments strace prints
 * whole although the kernel reads fewer (readlink's bufsiz), and for calls
 * strace prints with printargs (arg_raw_hex). */
void arg_raw_uint(struct dctx *c, struct event *ev, unsigned i);
void arg_raw_hex(struct dctx *c, struct event *ev, unsigned i);
void arg_oct(struct dctx *c, struct event *ev, unsigned i);
void arg_ptr(struct dctx *c, struct event *ev, unsigned i);
void arg_fd(struct dctx *c, struct event *ev, unsigned i);    /* AT_FDCWD aware for dirfd */
void arg_dirfd(struct dctx *c, struct event *ev, unsigned i); /* AT_FDCWD or fd */
void arg_flags(struct dctx *c, struct event *ev, unsigned i, const struct xlat *xl,
	       const char *zero_name);
void arg_enum(struct dctx *c, struct event *ev, unsigned i, const struct xlat *xl);

/* A NUL-terminated path/string argument (up to PATH_MAX, shown up to the limit). */
void arg_path(struct dctx *c, struct event *ev, unsigned i);
/* A NUL-terminated string shown up to the string limit. */
void arg_cstr(struct dctx *c, struct event *ev, unsigned i);
/* A byte buffer of len bytes (shown up to the string limit). */
void arg_buf(struct dctx *c, struct event *ev, unsigned i, uint64_t len);

/* Decodes a structure at the address in argument i into a value. */
typedef void (*val_decode_fn)(struct dctx *c, struct val *v, const char *name, uint64_t addr);
/*
 * An output argument filled at the exit stop: decode(addr) when the call
 * succeeded, the address itself when it failed (the kernel wrote nothing);
 * the slot is marked VF_EXIT.
 */
void arg_out(struct dctx *c, struct event *ev, unsigned i, val_decode_fn decode);

/* Value builders for structures (all memory from c->arena). */
struct val *val_new_array(struct dctx *c, unsigned n);  /* n zeroed items */
void val_set_int(struct val *v, const char *name, int64_t x);
void val_set_uint(struct val *v, const char *name, uint64_t x);
void val_set_hex(struct val *v, const char *name, uint64_t x);
void val_set_oct(struct val *v, const char *name, uint64_t x);
void val_set_ptr(struct val *v, const char *name, uint64_t x);
void val_set_flags(struct val *v, const char *name, uint64_t x,
		   const struct xlat *xl, const char *zero_name);
void val_set_enum(struct val *v, const char *name, uint64_t x, const struct xlat *xl);
void val_set_fd(struct dctx *c, struct val *v, const char *name, int64_t fd);
void val_set_str(struct dctx *c, struct val *v, const char *name,
		 const char *p, size_t len, bool truncated);
void val_set_struct(struct val *v, const char *name, struct val *items,
		    unsigned n, bool more);
void val_set_array(struct val *v, const char *name, struct val *items,
		   unsigned n, bool more);
/* An array already read whole (strace's print_local_array): n items, cut
 * to the string limit with "..." unless -v. */
void val_set_local_array(struct dctx *c, struct val *v, const char *name,
			 struct val *items, unsigned n);
/* mask: bit n-1 is signal n; sets VF_SIGSET_NOT when more than 32 are on. */
void val_set_sigset(struct val *v, const char *name, uint64_t mask);
void val_set_comment(struct dctx *c, struct val *v, const char *text);
/* V_OP: items joined by op: "|" for S_IFREG|0644, " " for a pointer followed
 * by a V_COMMENT (getdents64's buffer).  Items are not copied. */
void val_set_op(struct val *v, const char *name, struct val *items,
		unsigned n, const char *op);
/*
 * A number shown as a text computed by the decoder, as strace's
 * print_xlat_ex of a built string: text (abbreviated), the number in hex
 * (-X raw; decimal with VF_DECIMAL set afterwards), or both (-X verbose:
 * "0x5 / * PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_SYNC * /").  text is copied.
 */
void val_set_named_num(struct dctx *c, struct val *v, const char *name, uint64_t x,
		       const char *text);
/*
 * v = the n items joined by "|", each shown in its own -X style (strace
 * prints "0x1200000|17" under -X raw for clone's flags and exit signal,
 * where a V_OP "|" would show one number).  items are copied.
 */
void val_set_or(struct dctx *c, struct val *v, const char *name, const struct val *items,
		unsigned n);
/*
 * v = one value with three forms by -X style (VF_XALT): abbrev under -X
 * abbrev (the default), raw under -X raw, verbose under -X verbose.  The
 * three are copied.
 */
void val_set_xforms(struct dctx *c, struct val *v, const char *name, const struct val *abbrev,
		    const struct val *raw, const struct val *verbose);
/* v = text under -X abbrev, the number num under -X raw, and "num / * text
 * * /" under -X verbose (strace's way with RLIM64_INFINITY, makedev(),
 * FAN_NOFD, IOPRIO_PRIO_VALUE()); text is copied, num copied. */
void val_set_num_text(struct dctx *c, struct val *v, const char *name, const struct val *num,
		      const char *text);
/* v (unnamed) = "raw / * comment * /", strace's -X verbose form of a value
 * and what it means; both copied, their names dropped. */
void val_set_verbose_form(struct dctx *c, struct val *v, const struct val *raw,
			  const struct val *comment);
/* As val_set_num_text with an expression value (shown in the current -X
 * style inside the comment) in place of text. */
void val_set_num_expr(struct dctx *c, struct val *v, const char *name, const struct val *num,
		      const struct val *expr);
/* A hardware address of n bytes as strace's print_mac_addr: 00:11:22
 * (-X raw: "\x00\x11\x22"; -X verbose: both); n > 32: the hex string. */
void val_set_mac(struct dctx *c, struct val *v, const char *name, const uint8_t *a, size_t n);
/* V_TEXT: literal text printed as is (text copied into c->arena). */
void val_set_text(struct dctx *c, struct val *v, const char *name, const char *text);
/*
 * Reads a string at addr into v (V_STR, VF_TRUNC when longer than limit), or
 * stores the address (V_PTR) when unreadable; NULL address: V_PTR 0.
 * val_read_buf shows min(len, string limit) bytes (VF_TRUNC when len is
 * larger) and stores the address unless all of them can be read.
 */
void val_read_cstr(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		   unsigned limit);
void val_read_buf(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		  uint64_t len);
/*
 * strace's printstr_ex(addr, len, QUOTE_0_TERMINATED): a NUL-terminated
 * string in a buffer of len bytes (a task name of 16): at most
 * min(len, string limit + 1) bytes are read, up to the NUL; "..." when no
 * NUL ends what is shown; the address when those bytes cannot be read.
 */
void val_read_cstr_n(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		     uint64_t len);
/* Reads a path (up to PATH_MAX - 1 bytes, not cut at the string limit, as
 * strace); VF_STR_UNTERM when no NUL was found.  NULL address: V_PTR 0. */
void val_read_path(struct dctx *c, struct val *v, const char *name, uint64_t addr);

/*
 * Reads a fixed-size structure from the tracee; returns true when all size
 * bytes were read.  On false, the decoder should store the address (arg_ptr).
 * Always false when opts->no_deref (-e verbose= leaves the call out).
 */
bool tread(struct dctx *c, uint64_t addr, void *buf, size_t size);

/* Resolves /proc/PID/fd/FD to a path in c->arena, or NULL.  NULL as well
 * when -y is off (opts->decode_fds); AT_FDCWD gives the working directory. */
const char *fd_path(struct dctx *c, int64_t fd);

/*
 * strace's date for a time stamp, "2026-11-21T06:34:09.129397824+0000"
 * (local time, the fraction only when nsec != 0), in c->arena; NULL for the
 * time 0 or an invalid nsec (strace then prints no comment).
 */
const char *time_text(struct dctx *c, int64_t sec, uint64_t nsec);

/* v = x followed by the comment: "1795242849 / * 2026-... * /" (V_OP of x and a
 * V_COMMENT), or just x when comment is NULL. */
void val_set_commented(struct dctx *c, struct val *v, const char *name,
		       const struct val *x, const char *comment);

/*
 * -yy / -e decode-fds=: what shows inside <...> for fd: *path (escaped as
 * a path, NULL when not shown) and *detail (as is: socket endpoints,
 * "<char 1:3>" after a device path, "pid:N" for a pidfd), both in
 * c->arena; see src/sys/fdinfo.c.
 */
void fd_describe(struct dctx *c, int64_t fd, const char **path, const char **detail);

/* At exit: the return value is a new fd (RV_FD); with -y sets ev->ret_path. */
void ret_set_fd(struct dctx *c, struct event *ev);

/* Shared structure decoders (src/sys/): each fills v from tracee memory at addr. */
void decode_sigset(struct dctx *c, struct val *v, const char *name, uint64_t addr, uint64_t size);
void decode_sockaddr(struct dctx *c, struct val *v, const char *name, uint64_t addr, uint64_t len);
/* The same of a sockaddr of len bytes already read (strace's print_sockaddr
 * of a structure field: struct ifreq's ifr_addr). */
void decode_sockaddr_buf(struct dctx *c, struct val *v, const char *name, const void *buf,
			 size_t len);
void decode_timespec(struct dctx *c, struct val *v, const char *name, uint64_t addr);
void decode_siginfo_val(struct dctx *c, struct val *v, const void *siginfo);
/* A siginfo_t in tracee memory, or its address (src/sys/signal.c). */
void decode_siginfo_at(struct dctx *c, struct val *v, const char *name, uint64_t addr);
/* A struct sigevent as strace prints it ({sigev_signo=SIGUSR1,
 * sigev_notify=SIGEV_SIGNAL}); NULL or unreadable: the address;
 * src/sys/time.c (timer_create, mq_notify). */
void decode_sigevent(struct dctx *c, struct val *v, const char *name, uint64_t addr);

/*
 * An iovec array at addr of cnt elements (src/sys/io.c): [{iov_base="...",
 * iov_len=N}, ...], as decode_array (strace's print_array).
 * data_size: bytes the kernel transferred (each iov_base shows at most what
 * is left of it), or -1 for the whole of each iov_len; addr_only: show the
 * iov_base pointers only (the call failed).
 */
void decode_iovec(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		  uint64_t cnt, int64_t data_size, bool addr_only);

/* Sets v (named "iov_base") from the shown bytes of one iov_base at base;
 * arg is decode_iovec_with's. */
typedef void (*iov_base_fn)(struct dctx *c, struct val *v, uint64_t base,
			    uint64_t shown, void *arg);
/* decode_iovec with each iov_base shown by fn (decode_netlink_iovec). */
void decode_iovec_with(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		       uint64_t cnt, int64_t data_size, iov_base_fn fn, void *arg);

/* open(2) flags as strace prints them: the access mode, then the other
 * flags ("O_RDONLY|O_CLOEXEC", "O_ACCMODE|0x800000"); src/sys/file.c. */
void val_set_open_flags(struct dctx *c, struct val *v, const char *name, uint64_t flags);

/* The same flags as text in every -X style ("O_RDONLY|O_LARGEFILE", strace's
 * sprint_open_modes of F_GETFL's result), or NULL when a bit has no name. */
const char *open_flags_text(struct dctx *c, uint64_t flags);

/* A file mode as strace prints it: S_IFREG|0644, S_IFDIR|S_ISVTX|0777, or
 * plain octal (0644) without a file type; src/sys/stat.c. */
void val_set_mode(struct dctx *c, struct val *v, const char *name, uint32_t mode);

/*
 * An array of nmemb elements of elem_size bytes at addr, as strace's
 * print_array: NULL for 0, [] when nmemb is 0, the address when the array
 * wraps around or its first element cannot be read, "..." after the string
 * limit of elements (unless -v), and "... / * 0xADDR * /" where a later
 * element cannot be read.  fn fills one item from the element's bytes
 * (elem_size <= 64); arg is passed through.
 */
typedef void (*array_elem_fn)(struct dctx *c, struct val *item, const void *elem, void *arg);
void decode_array(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		  uint64_t nmemb, size_t elem_size, array_elem_fn fn, void *arg);

/*
 * The bytes start..total-1 of a structure at addr that a newer kernel may
 * know (openat2's how, mount_attr), as strace's print_nonzero_bytes: false
 * (nothing to show) when they are all zero or start >= total; "???" when
 * they cannot be read; else "/ * bytes 24..31 * / \"\x01...\"" (total is
 * cut to a page, the bytes shown to the string limit).  v is the extra
 * item to append to the structure.
 */
bool val_nonzero_bytes(struct dctx *c, struct val *v, uint64_t addr, uint64_t start,
		       uint64_t total);

/*
 * A struct perf_event_attr at addr as strace's print_perf_event_attr
 * (abbreviated without -v), or the address when its size is below 64 or it
 * cannot be read; src/sys/perf.c (perf_event_open, the
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES ioctl).
 */
void decode_perf_attr(struct dctx *c, struct val *v, const char *name, uint64_t addr);

/* The default decoder: every argument in hex, as strace prints unknown calls. */
int decode_default(struct dctx *c, struct event *ev, int exiting);

#endif
