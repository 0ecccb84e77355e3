/*
 * How the command is started, after strace 6.1's startup_child():
 * -E VAR=VAL / -E VAR (its environment), -u USERNAME (its user, groups and
 * set-user-ID handling), -D/-DD/-DDD (the tracer as a grandchild of the
 * command instead of its parent) and -I (which signals stop the tracer).
 */
#ifndef RENACER_STARTUP_H
#define RENACER_STARTUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/quals.h"

/*
 * -u USERNAME: fills u from the password database.  Returns 0, or -1 after
 * error(): "you must be root to use the -u/--user option",
 * "cannot find user 'name'".
 */
int startup_lookup_user(const char *name, struct run_as *u);

/*
 * In the child, after the seccomp filter and before exec: takes u's
 * groups, group and user as strace does (initgroups, setregid, setreuid),
 * keeping the effective user and group that a set-user-ID or set-group-ID
 * path would give.  Returns 0 or an errno.
 */
int startup_become_user(const struct run_as *u, const char *path);

/*
 * -D/-DD/-DDD: splits renacer so that the calling process becomes the
 * command.  In the process that returns (a grandchild, in a new process
 * group with level 2, a new session with 3) *tracee is the pid of the
 * original process, which waits until startup_daemon_release() and then
 * executes path with argv and envp (as u when u is non-NULL); it never
 * returns.  The caller (the tracer) attaches to *tracee, then calls
 * startup_daemon_release().  Returns 0, or -1 after error().
 */
int startup_daemonize(int level, const char *path, char *const argv[],
		      char *const envp[], const struct run_as *u, pid_t *tracee);
void startup_daemon_release(void);

/*
 * -I: applied by the engine once the command has been started (so that the
 * command does not inherit ignored signals).  1 sets SIGHUP, SIGINT,
 * SIGQUIT, SIGPIPE and SIGTERM to their default actions (the tracer dies
 * at once), 2 keeps the engine's handlers, 3 ignores those signals, 4 also
 * SIGTSTP.  0 does nothing.
 */
void startup_signals(int interruptible);

#endif
