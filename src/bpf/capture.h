/*
 * The recorder's capture table (src/bpf/capture.c): which user memory the
 * kernel side copies with each call, per syscall number (bpf/abi.h's
 * struct rb_spec).
 */
#ifndef RENACER_BPF_CAPTURE_H
#define RENACER_BPF_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "bpf/abi.h"

/*
 * Fills specs (RB_NR rows, by x86_64 syscall number) from the table (with
 * verbose, -v: the strings of execve's environment too); rows of calls
 * this machine's table does not know are left out.  Returns how many were.
 */
int capture_fill(struct rb_spec specs[RB_NR], bool verbose);

/* Fills the RB_IOC_FLEX entries of ioctls whose argument ends in an array
 * its first word counts (struct kvm_cpuid2), and with follow the
 * RB_IOC_PTRS entries of pointer fields of ioctl arguments (RBO_IOCPTR;
 * else none). */
void capture_iocflex(struct rb_iocflex flex[RB_IOC_FLEX], struct rb_iocptr ptrs[RB_IOC_PTRS],
		     bool follow);

/*
 * Fills the bitmaps (RB_NR bits) of the calls with ops at their entry in
 * specs (capture_fill()'s), of the calls that may block (an entry record
 * is sent while other tasks run, so that their calls show in between, as
 * under ptrace), and of those that wait for a child they start (vfork,
 * clone, clone3: an entry record always).
 */
void capture_sets(const struct rb_spec specs[RB_NR], uint8_t entry_set[RB_NR / 8],
		  uint8_t block_set[RB_NR / 8], uint8_t fork_set[RB_NR / 8]);

/*
 * The descriptors of a call of nr (x86_64) whose paths the kernel records
 * for -y and -P (RBD_* of abi.h): its descriptor arguments at the exit,
 * those it closes, replaces or names (close, dup2's newfd, bind, connect)
 * at the entry, a descriptor it returns, the pair pipe() and socketpair()
 * fill.  0 for none.
 */
uint32_t capture_fdpath_mask(long nr);

/* Fills set (RB_NR masks) with capture_fdpath_mask() of each number and
 * adds the numbers with entry descriptors to entry_set. */
void capture_fdpaths(uint32_t set[RB_NR], uint8_t entry_set[RB_NR / 8]);

/* Fills kind (RB_NR entries) with how each call moves the data -e read=
 * and -e write= dump (RBK_*, 0 for none; sendmmsg and recvmmsg are not
 * sent whole: their dumps stop at the string limit). */
void capture_dumps(uint8_t kind[RB_NR]);

#endif
