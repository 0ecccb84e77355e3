/*
 * Process ids as strace's printpid shows them: with --pidns-translation
 * (-Y pidns, --decode-pids=pidns) an id seen in a tracee's pid namespace
 * gets " / * N in strace's PID NS * /", with -Y (--decode-pids=comm) a
 * process id gets its command, "1234<cat>" (src/sys/pidns.c).
 */
#ifndef RENACER_PIDNS_H
#define RENACER_PIDNS_H

#include <stdbool.h>
#include <sys/types.h>

#include "sys/decode.h"

/* What an id names: a thread, a thread group, a process group, a session;
 * PT_NONE: not translated. */
enum pid_type { PT_NONE = 0, PT_TID, PT_TGID, PT_PGID, PT_SID };

/*
 * The id in renacer's pid namespace of id, seen by thread tid (an id of
 * renacer's namespace) in its own namespace; id itself when both
 * namespaces are the same, 0 when it cannot be found (no such process, or
 * the kernel lacks NS_GET_PARENT).
 */
int pidns_translate(pid_t tid, int id, enum pid_type type);

/*
 * The command of process pid (an id of renacer's namespace) as -Y shows
 * it, in c->arena, or NULL when it cannot be read.
 */
const char *pidns_comm(struct dctx *c, int pid);

/* v = pid as strace's printpid: the number, then "<comm>" with -Y for
 * PT_TID/PT_TGID, then the translation comment with --pidns-translation. */
void val_set_pid(struct dctx *c, struct val *v, const char *name, int pid,
		 enum pid_type type);

/* Argument i is an id of type (val_set_pid). */
void arg_pid(struct dctx *c, struct event *ev, unsigned i, enum pid_type type);

/* strace's printpid_tgid_pgid: a positive id is a process, below -1 a
 * process group (kill, wait4's pid). */
void val_set_pid_tgid_pgid(struct dctx *c, struct val *v, const char *name, int pid);

/* At exit: the result is an id of type (getpid, fork, clone, ...): its
 * -Y command and translation follow the number. */
void ret_set_pid(struct dctx *c, struct event *ev, enum pid_type type);

#endif
