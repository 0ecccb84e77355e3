/*
 * -e inject=SET:... and -e fault=SET:... (strace 6.1's syscall tampering):
 * make a traced syscall fail with an errno or return a value without
 * running (its number is replaced by -1, or by a pure syscall with
 * :syscall=), deliver a signal at its entry, hold the task before or after
 * it (delay_enter=, delay_exit=), or overwrite memory its arguments point
 * to (poke_enter=, poke_exit=), on the invocations :when= selects, counted
 * per syscall and per task.  The trace marks such calls as strace does:
 * " (INJECTED)", " (INJECTED: args)", " (DELAYED)" (event.tamper).
 */
#ifndef RENACER_INJECT_H
#define RENACER_INJECT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct inject_set;    /* the rules of every -e inject=/fault= given */
struct inject_task;   /* the counters of one task */

struct inject_set *inject_set_new(void);
void inject_set_free(struct inject_set *s);

/*
 * Adds one -e inject=SPEC (fault false) or -e fault=SPEC (fault true, where
 * the default action is error=ENOSYS and only error= and when= are
 * allowed).  A later rule replaces earlier ones for the syscalls it names.
 * Returns 0, or -1 after error() in strace's words:
 * "invalid inject argument 'openat:error=FOO'",
 * "invalid system call 'opnat'".
 */
int inject_set_add(struct inject_set *s, const char *spec, bool fault);

/*
 * True when a rule sends a signal (signal=): the signal goes with the
 * resume from a syscall-entry stop, which a seccomp stop is not, so the
 * engine must stop at every syscall.
 */
bool inject_set_has_signals(const struct inject_set *s);

/* True when a rule holds a task with delay_enter= or delay_exit=. */
bool inject_set_has_delays(const struct inject_set *s);

/* What the engine does after a tampered stop. */
struct inject_act {
	int signo;            /* resume with this signal (signal=), or 0 */
	uint64_t delay_ns;    /* keep the task stopped this long first, or 0 */
};

/* Per-task state, made at the task's first traced syscall (its counters
 * start afresh, as strace's); free with inject_task_free (NULL is fine). */
struct inject_task *inject_task_new(const struct inject_set *s);
void inject_task_free(struct inject_task *t);

/*
 * At the entry stop of a traced, reported syscall nr of task tid, before
 * it is decoded: counts the invocation and, when :when= selects it,
 * replaces the syscall number (error=, retval=), writes poke_enter= data
 * and asks for a signal or a delay in *act.  args are the raw arguments.
 */
void inject_enter(const struct inject_set *s, struct inject_task *t, pid_t tid,
		  long nr, const uint64_t *args, struct inject_act *act);

/*
 * At the exit stop of the same call: writes the injected result into the
 * task's registers and into *rval / *is_error (what the program sees, and
 * what the trace shows), writes poke_exit= data, asks for delay_exit= in
 * *act and returns the TAMPER_* bits of event.h for the event.
 */
uint8_t inject_exit(const struct inject_set *s, struct inject_task *t, pid_t tid,
		    long nr, const uint64_t *args, int64_t *rval, bool *is_error,
		    struct inject_act *act);

#endif
