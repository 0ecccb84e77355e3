/*
 * The ioctl decoders: one file per family (src/sys/ioctl_<family>.c), called
 * by SYS_FUNC(ioctl) (src/sys/desc_ioctl.c) through a dispatch on the
 * request's type byte, as strace does.  Each decodes the third argument of
 * the requests it knows into ev->args[2] and says when it is done.
 */
#ifndef RENACER_IOC_H
#define RENACER_IOC_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/ioctl.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"

/* What a family decoder did (strace's RVAL_DECODED / RVAL_IOCTL_DECODED / 0). */
enum {
	IOC_DEFAULT = 0,  /* not decoded: the argument shows in hex */
	IOC_DONE,         /* the argument is decoded (or shows nothing at all:
			     ioc_none) */
	IOC_EXIT,         /* at entry only: call again at the exit stop (what
			     the entry decoded, if anything, stays) */
};

/* One ioctl call as a family decoder sees it. */
struct ioc {
	struct dctx *c;
	struct event *ev;
	uint32_t code;      /* the request (32 bits, as the kernel reads it) */
	uint64_t arg;       /* the third argument, all of the register */
	bool exiting;       /* called at the exit stop */
	bool noarg;         /* ioc_none(): the call shows no third argument */
	/* at exit, ioc_reopen()'s record of an open structure's entry part */
	struct val *open_snap;
	unsigned open_n;
};

typedef int (*ioctl_fn)(struct ioc *io);

/*
 * Slot of the third argument, cleared; marked VF_EXIT at the exit stop.
 * Its fields must be set before the value itself (val_set_* clears flags).
 */
struct val *ioc_val(struct ioc *io);
/* At exit: " => after" right after the third argument (a slot of its own,
 * VF_CONT|VF_EXIT), strace's tprint_value_changed(); after is copied. */
void ioc_set_after(struct ioc *io, const struct val *after);
/* The request has no argument shown: "ioctl(3, TIOCSBRK)" (also when
 * the decoder still returns IOC_EXIT to set the result). */
int ioc_none(struct ioc *io);

/* Whether structures are abbreviated (no -v): strace's abbrev(tcp). */
static inline bool ioc_abbrev(const struct ioc *io)
{
	return !io->c->opts->verbose;
}

/* Whether the call failed (only meaningful at exit). */
static inline bool ioc_failed(const struct ioc *io)
{
	return io->exiting && io->ev->err;
}

/*
 * strace's umove_or_printaddr: reads size bytes at addr into buf; false,
 * with v set to the address (NULL for 0), when addr is 0, the call failed
 * (at exit), or the memory cannot be read.  _ignore_err reads even after a
 * failure (umove_or_printaddr_ignore_syserror).
 */
bool ioc_read(struct ioc *io, struct val *v, uint64_t addr, void *buf, size_t size);
bool ioc_read_ignore_err(struct ioc *io, struct val *v, uint64_t addr, void *buf,
			 size_t size);

/* Number formats of ioc_num. */
enum { NUM_D, NUM_U, NUM_X, NUM_O };
/*
 * strace's printnum_int / printnum_short / printnum_int64 ...: [value] of the
 * size-byte integer at addr (size 1, 2, 4 or 8), in the given format, or
 * the address.  Set on v.
 */
void ioc_num(struct ioc *io, struct val *v, uint64_t addr, size_t size, int fmt);
/* The same into the third argument; returns IOC_DONE. */
int ioc_arg_num(struct ioc *io, size_t size, int fmt);
/* The third argument as an address (printaddr); returns IOC_DONE. */
int ioc_arg_ptr(struct ioc *io);
/* The third argument as a number (PRINT_VAL_U/D/X of the register). */
int ioc_arg_val(struct ioc *io, int fmt);
/* A number into v in a format. */
void ioc_set_num(struct val *v, const char *name, uint64_t x, size_t size, int fmt);

/* x cut to size bytes, zero-extended (strace prints a signed field
 * with PRINT_FIELD_U as its unsigned value). */
static inline uint64_t ioc_zx(uint64_t x, size_t size)
{
	return size >= 8 ? x : x & ((UINT64_C(1) << (size * 8)) - 1);
}

/* x cut to size bytes, sign-extended (PRINT_FIELD_D of an unsigned field
 * prints it as the signed type of its size). */
static inline int64_t ioc_sx(uint64_t x, size_t size)
{
	unsigned sh = size >= 8 ? 0 : (unsigned)(64 - size * 8);

	return (int64_t)(x << sh) >> sh;
}

/* "name=value" field helpers for structure items (it[n++]). */
#define FLD_U(it, s, f) val_set_uint((it), #f, ioc_zx((uint64_t)(s).f, sizeof((s).f)))
#define FLD_D(it, s, f) val_set_int((it), #f, ioc_sx((uint64_t)(s).f, sizeof((s).f)))
#define FLD_X(it, s, f) val_set_hex((it), #f, ioc_zx((uint64_t)(s).f, sizeof((s).f)))
#define FLD_PTR(it, s, f) val_set_ptr((it), #f, (uint64_t)(s).f)

/*
 * strace's print_array with an element limit: decode_array's array of
 * nmemb elements, of which max at most show, then "..." (max UINT64_MAX:
 * no limit but decode_array's own).  Returns false, as strace's
 * print_array, when nothing or not all could be shown: NULL, no elements,
 * the array's address, or "... / * 0xADDR * /" after an unreadable element
 * (strace's decoders take it as "stop decoding").  At the exit of a
 * failed call the array shows as its address (strace's tfetch_mem).
 */
bool ioc_array(struct ioc *io, struct val *v, const char *name, uint64_t addr, uint64_t nmemb,
	       size_t elem_size, uint64_t max, array_elem_fn fn, void *arg);

/* strace's printflags(xl, x, NULL): as val_set_flags, but 0 prints
 * nothing at all when the table has no name for it. */
void ioc_set_flags_nz(struct dctx *c, struct val *v, const char *name, uint64_t x,
		      const struct xlat *xl);

/*
 * strace's "in => out" structures: at entry the structure of size bytes at
 * the argument is read (or the address shown) and in() fills the third
 * argument from it, returning whether the exit stop should add " => out";
 * at exit, unless the call failed, the structure is read again and out()
 * fills the part after " => " (the address when unreadable).  in and out
 * set v (its name NULL for out) from buf.  Returns the IOC_* result.
 */
typedef bool (*ioc_struct_fn)(struct ioc *io, struct val *v, const void *buf);
int ioc_changed(struct ioc *io, size_t size, ioc_struct_fn in, ioc_struct_fn out);

/* A local array of n integers (print_local_array: cut to the string limit
 * with "..." unless -v). */
void ioc_set_local_array(struct ioc *io, struct val *v, const char *name, const void *p,
			 unsigned n, size_t elem_size, int fmt);

/* Whether n bytes at p are all zero (strace's IS_ARRAY_ZERO). */
bool ioc_all_zero(const void *p, size_t n);

/* A device number as strace prints it: makedev(0x8, 0x1) (-X raw: 0x801,
 * -X verbose: 0x801 / * makedev(0x8, 0x1) * /). */
void ioc_set_dev(struct dctx *c, struct val *v, const char *name, uint64_t dev);

/*
 * strace's printstr_ex(addr, len, QUOTE_0_TERMINATED [| QUOTE_EXPECT_TRAILING_0]):
 * the string at addr up to its NUL, at most len bytes (len - 1 with
 * expect_nul, the last byte being the NUL's place) and the string limit,
 * "..." when it goes on; the address when it cannot be read.  Returns as
 * strace's umovestr: the length with its NUL when one was read, 0 when
 * none, -1 when unreadable.
 */
int ioc_read_cstr_n(struct ioc *io, struct val *v, const char *name, uint64_t addr,
		    uint64_t len, bool expect_nul);

/*
 * Structures shown open at entry and continued at exit ("{type=..., "
 * then "fmt=...}"): ioc_open_struct() sets the third argument to a
 * structure with room for cap items and none shown; ioc_next() is its next
 * item (v->c.n grows); at exit ioc_reopen() returns it, or NULL when the
 * entry showed something else (an address).  The exit may add items and
 * continue the last entry item (an op of it and what follows: "x=1 => 2");
 * SYS_FUNC(ioctl) then moves what the exit added to a fourth argument
 * (ioc_close_open: VF_OPEN/VF_TAIL), so that a line cut by another shows
 * "{type=... <unfinished ...>" and "<... ioctl resumed>, fmt=...}", as
 * strace's.  A structure marked VF_OPEN by other means is closed the
 * same way.
 */
struct val *ioc_open_struct(struct ioc *io, unsigned cap);
struct val *ioc_reopen(struct ioc *io);
void ioc_close_open(struct ioc *io);
static inline struct val *ioc_next(struct val *st)
{
	return &st->c.items[st->c.n++];
}

/* A character as strace's print_char with quotes: 'a', '\'', '\x01' (with
 * esc_ws '\n' and friends); buf holds 8 bytes; returns buf. */
char *ioc_char_text(char *buf, unsigned char ch, bool esc_ws);

/* Text "..." as an item of a structure (strace's tprint_more_data_follows
 * where it is not the last item). */
void ioc_more(struct dctx *c, struct val *v);

/*
 * A fixed-size array of integers inside a structure (PRINT_FIELD_X_ARRAY,
 * PRINT_FIELD_U_ARRAY): [1, 2, 3], every element.  elem_size 1, 2, 4 or 8;
 * is_signed for _D arrays.
 */
void ioc_set_int_array(struct dctx *c, struct val *v, const char *name, const void *p,
		       unsigned n, size_t elem_size, int fmt);
/* A char array field as strace's PRINT_FIELD_CSTRING: "text" up to the
 * first NUL, or the n bytes and "..." when there is none. */
void ioc_set_cstring(struct dctx *c, struct val *v, const char *name, const void *p,
		     size_t n);
/* The same (strace's PRINT_FIELD_CSTRING_SZ with its size). */
void ioc_set_cstring_sz(struct dctx *c, struct val *v, const char *name, const void *p,
			size_t n);
/* print_quoted_string(QUOTE_FORCE_HEX) of n bytes ("\x01\x02"), or as
 * PRINT_FIELD_HEX_ARRAY. */
void ioc_set_hexstr(struct dctx *c, struct val *v, const char *name, const void *p,
		    size_t n);

/*
 * A value whose text changes shape with -X (VF_XALT): abbrev, raw and
 * verbose are copied.  ioc_xalt_comment builds the common verbose form
 * "raw / * comment * /".
 */
void ioc_set_xalt(struct dctx *c, struct val *v, const char *name, const struct val *abbrev,
		  const struct val *raw, const struct val *verbose);
void ioc_val_comment(struct dctx *c, struct val *v, const char *name, const struct val *x,
		     const char *comment);

/* A one-entry xlat {x, text} in the arena: renders text, 0x.. with -X raw,
 * "0x.. / * text * /" with -X verbose. */
const struct xlat *ioc_xlat1(struct dctx *c, uint64_t x, const char *text);

/* snprintf into the arena. */
const char *ioc_printf(struct dctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Name of a request from the generated table (scripts/gen_ioctlent.pl):
 * every name with that number joined by " or ", as strace; NULL when none.
 * In c->arena.
 */
const char *ioctl_lookup_name(struct dctx *c, uint32_t code);

/* The _IOC(...) text of a request without a name; verbose: in the form
 * strace shows inside -X verbose's comment (no "_IOC_???" fallbacks). */
const char *ioctl_ioc_text(struct dctx *c, uint32_t code);

/*
 * Request names that carry parameters (EVIOCGBIT(EV_KEY, 8), HIDIOCGRAWNAME(8)):
 * sets v and returns true when the family knows code; more (may be NULL),
 * the generated table's names for the number, follows after " or ".
 */
bool ioctl_evdev_name(struct ioc *io, struct val *v, const char *more);

/* Family decoders: the request type bytes they serve are in desc_ioctl.c. */
int ioctl_block(struct ioc *io);
int ioctl_btrfs(struct ioc *io);
int ioctl_counter(struct ioc *io);
int ioctl_dm(struct ioc *io);
int ioctl_evdev(struct ioc *io);
int ioctl_fs_f(struct ioc *io);
int ioctl_fs_x(struct ioc *io);
int ioctl_fs_0x94(struct ioc *io);
int ioctl_gpio(struct ioc *io);
int ioctl_hdio(struct ioc *io);
int ioctl_inotify(struct ioc *io);
int ioctl_kd(struct ioc *io);
int ioctl_kvm(struct ioc *io);
int ioctl_lirc(struct ioc *io);
int ioctl_loop(struct ioc *io);
int ioctl_mtd(struct ioc *io);
int ioctl_nbd(struct ioc *io);
int ioctl_nsfs(struct ioc *io);
int ioctl_perf(struct ioc *io);
int ioctl_ptp(struct ioc *io);
int ioctl_random(struct ioc *io);
int ioctl_rtc(struct ioc *io);
int ioctl_scsi(struct ioc *io);
int ioctl_seccomp(struct ioc *io);
int ioctl_sock(struct ioc *io);
int ioctl_tee(struct ioc *io);
int ioctl_term(struct ioc *io);
int ioctl_ubi(struct ioc *io);
int ioctl_uffdio(struct ioc *io);
int ioctl_v4l2(struct ioc *io);
int ioctl_watchdog(struct ioc *io);

#endif
