/*
 * More value builders for the process, memory, signal, time, futex and
 * socket decoders: strace's expressions (htons(80), name=value arguments,
 * [N => M]) built from the value kinds of event.h, and small shared readers.
 */
#ifndef RENACER_DECODE_EXTRA_H
#define RENACER_DECODE_EXTRA_H

#include <stdbool.h>
#include <stdint.h>

#include "sys/decode.h"

/* Name of the entry of xl whose value is x, or NULL. */
const char *xlat_name(const struct xlat *xl, uint64_t x);

/* The names of the bits of x that xl knows, '|'-joined, then the rest in
 * hex ("IPC_CREAT|0x100"), in c->arena; NULL when no name matches (strace's
 * sprintflags in auxstr mode).  x == 0 gives the name of 0, if any. */
const char *xlat_flags_text(struct dctx *c, const struct xlat *xl, uint64_t x);

/* Whether flags x print at least one name of xl (strace's printflags_in
 * returns how many it printed; some decoders join on that). */
bool xlat_flags_named(const struct xlat *xl, uint64_t x);

/*
 * v = fname(arg, ...): a V_OP of the text "fname(", the n items joined by
 * ", " and ")".  items are not copied (allocate them with val_new_array).
 */
void val_set_call(struct dctx *c, struct val *v, const char *name, const char *fname,
		  struct val *items, unsigned n);
/* v = fname(x) with x an unsigned decimal (htons(80), htonl(0)). */
void val_set_call_u(struct dctx *c, struct val *v, const char *name, const char *fname,
		    uint64_t x);

/* v = "name=x" as one value: for arguments strace prints with their name
 * (clone's child_stack=, flags=). x is copied. */
void val_set_named(struct dctx *c, struct val *v, const char *name, const char *label,
		   const struct val *x);

/* v = [x]: an array of one element (an int behind a pointer). x is copied. */
void val_set_boxed(struct dctx *c, struct val *v, const char *name, const struct val *x);

/* v = a => b (strace's value-changed arrow); a and b are copied. */
void val_set_changed(struct dctx *c, struct val *v, const char *name,
		     const struct val *a, const struct val *b);

/* A signal number as strace's printsignal: its name, or the decimal number. */
void val_set_signal(struct dctx *c, struct val *v, const char *name, int sig);

/* A clock_t in ticks as strace's print_clock_t: "1 / * 0.01 s * /" (no
 * comment for 0). */
void val_set_clock_t(struct dctx *c, struct val *v, const char *name, uint64_t ticks);

/* Reads an int at addr into v as [N]; NULL or an unreadable address as the
 * address. */
void val_read_int_boxed(struct dctx *c, struct val *v, const char *name, uint64_t addr);

/*
 * Sigset of size bytes at addr as strace's print_sigset_addr_len_limit: the
 * address when size is outside [min_size, 8] or unreadable, NULL for 0.
 */
void decode_sigset_min(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		       uint64_t size, uint64_t min_size);

/* A struct timeval / struct timezone at addr ({tv_sec=.., tv_usec=..}). */
void decode_timeval(struct dctx *c, struct val *v, const char *name, uint64_t addr);

/*
 * restart_syscall: a decoder whose call can end with ERESTART_RESTARTBLOCK
 * (nanosleep, clock_nanosleep, futex, poll, ...) calls restart_note() at
 * exit; restart_syscall's decoder then shows "<... resuming interrupted
 * NAME ...>" for that thread, or "system call" when nothing was noted.
 */
void restart_note(const struct dctx *c, const struct event *ev);
const char *restart_take(pid_t tid);

/* A CPU set of size bytes at addr as strace's print_affinitylist: [0 1 3];
 * the address when size is 0 or above 8192 or the bytes cannot be read
 * (src/sys/misc.c). */
void decode_cpuset(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		   uint64_t size);

/* An I/O priority: IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4) (src/sys/misc.c). */
void val_set_ioprio(struct dctx *c, struct val *v, const char *name, uint32_t x);

/* Which classic BPF program: seccomp filters name their return actions,
 * socket filters their special load offsets. */
enum bpf_prog_kind { BPF_PROG_SECCOMP, BPF_PROG_SOCKET };

/*
 * A classic BPF program (struct sock_fprog at addr): {len=N, filter=0x...},
 * with -v the instructions, [BPF_STMT(BPF_RET|BPF_K, SECCOMP_RET_ALLOW),
 * ...]; the address when unreadable or NULL (src/sys/bpf_filter.c; seccomp,
 * prctl, SO_ATTACH_FILTER).  decode_bpf_insns: the len instructions at addr
 * alone (the address without -v).
 */
void decode_bpf_fprog(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      enum bpf_prog_kind kind);
void decode_bpf_insns(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      uint64_t len, enum bpf_prog_kind kind);

/* The code of a BPF instruction as strace's print_bpf_filter_code:
 * BPF_LD|BPF_W|BPF_ABS; ebpf: of an eBPF one (BPF_ALU64|BPF_K|BPF_MOV). */
void val_set_bpf_code(struct dctx *c, struct val *v, const char *name, uint16_t code,
		      bool ebpf);

/* Sets slot i of ev to v (name from the prototype) and marks it VF_EXIT when
 * decoded at the exit stop. */
struct val *arg_put(struct dctx *c, struct event *ev, unsigned i, const struct val *v);

#endif
