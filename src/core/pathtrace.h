/*
 * -P PATH / --trace-path: only the syscalls that name one of the paths,
 * directly or through a descriptor open on it, are traced (strace 6.1's
 * pathtrace.c: the same arguments of the same calls are looked at, at the
 * syscall entry).
 */
#ifndef RENACER_PATHTRACE_H
#define RENACER_PATHTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct pathset;

/* An empty set. */
struct pathset *pathset_new(void);
void pathset_free(struct pathset *ps);

/*
 * Adds path, and its canonical form (realpath()) when that differs; a path
 * that does not exist is kept as given (strace accepts it).  When the
 * canonical form differs, *resolved is set to it (malloc'ed; the caller
 * prints strace's "Requested path ... resolved into ..." unless quiet) and
 * left NULL otherwise.
 */
void pathset_add(struct pathset *ps, const char *path, char **resolved);

/*
 * Whether syscall nr of task tid (process pid) with these raw arguments
 * touches a path of ps: path arguments are read from the tracee, descriptor
 * arguments resolved through /proc/PID/fd.  Calls outside %file, %desc and
 * %network never match.
 */
bool pathset_match(const struct pathset *ps, pid_t pid, pid_t tid, long nr,
		   const uint64_t *args);

#endif
