/*
 * How a command is set up to run (posix_spawn's file actions and envp, git's
 * run-command): its environment, working directory and standard streams,
 * applied in the child between fork and exec.  renacer's own environment,
 * directory and descriptors are never changed for a run.
 *
 *   struct run_setup s = RUN_SETUP_INIT;
 *   run_setup_env(&s, "LANG", "C");      // changes, in order
 *   run_setup_chdir(&s, "sub");
 *   run_setup_stdio_fd(&s, 1, fd);
 *   run_setup_prepare(&s, environ);      // in the parent, once: may fail
 *   ... tracer_opts.setup = &s; tracer_run(...) ...
 *   run_setup_release(&s);
 */
#ifndef RENACER_CORE_SETUP_H
#define RENACER_CORE_SETUP_H

#include <stddef.h>

#define RUN_STDIO_INHERIT (-1)   /* the command gets renacer's own fd */
#define RUN_STDIO_CLOSED (-2)    /* the command starts with the fd closed */

struct run_setup {
	char **env;               /* changes in order: "VAR=VAL" sets, "VAR" unsets (owned) */
	size_t nenv, aenv;
	char *cwd;                /* directory to run in, relative to renacer's; NULL: renacer's */
	int stdio[3];             /* what the command gets as fds 0-2: a descriptor of
				     renacer's (not owned unless in owned[]), or RUN_STDIO_* */
	int owned[3];             /* descriptors run_setup_stdio_path() opened, or -1 */
	int own_path;             /* find the program in renacer's own PATH and
				     directory, as strace does for -E PATH=... */
	/* filled by run_setup_prepare() */
	char **envp;              /* the command's environment (NULL-terminated; its
				     strings belong to the base and to env) */
	char *cwd_path;           /* cwd as an absolute path without symlinks, or NULL */
	int cwd_fd;               /* cwd opened (O_PATH), fchdir()ed to in the child; or -1 */
};

#define RUN_SETUP_INIT { NULL, 0, 0, NULL, \
	{ RUN_STDIO_INHERIT, RUN_STDIO_INHERIT, RUN_STDIO_INHERIT }, { -1, -1, -1 }, 0, \
	NULL, NULL, -1 }

void run_setup_init(struct run_setup *s);
/* Frees what s holds and closes the descriptors it opened. */
void run_setup_release(struct run_setup *s);

/* Sets name to value in the command's environment (value NULL: unsets it). */
void run_setup_env(struct run_setup *s, const char *name, const char *value);
/* The same for one change in strace's -E form: "VAR=VAL" sets, "VAR" unsets. */
void run_setup_env_change(struct run_setup *s, const char *change);
/* Splits such a change: returns its name (malloc'ed) and points *value at
 * what follows the '=' (NULL: an unset). */
char *run_setup_env_split(const char *change, const char **value);
/* Runs the command in dir (relative to renacer's directory). */
void run_setup_chdir(struct run_setup *s, const char *dir);
/* The command's fd k (0-2) is fd, a descriptor of renacer's that stays
 * open until the command has started, or RUN_STDIO_INHERIT/_CLOSED. */
void run_setup_stdio_fd(struct run_setup *s, int k, int fd);
/*
 * The command's fd k is the file path (relative to renacer's directory),
 * opened now: for reading when k is 0, else written from its start
 * (created, truncated).  Returns 0, or -1 after error():
 * "cannot open 'PATH': REASON".
 */
int run_setup_stdio_path(struct run_setup *s, int k, const char *path);

/*
 * In the parent, before the run: builds envp from base (renacer's environ,
 * normally) with the changes applied, and opens the directory.  Returns 0,
 * or -1 after error(): "cannot change to directory 'DIR': REASON".
 */
int run_setup_prepare(struct run_setup *s, char **base);

/* The value of name in the prepared envp, or NULL when unset there. */
const char *run_setup_getenv(const struct run_setup *s, const char *name);

/* The environment to execve() with: s's envp, or dflt when s is NULL. */
char *const *run_setup_envp(const struct run_setup *s, char *const *dflt);

/*
 * The program execve() runs for prog: path_search_in() with the PATH of
 * the command's environment, relative to its directory (s NULL, or
 * s->own_path: renacer's own, path_search()).  Malloc'ed; NULL with errno set when not found.
 */
char *run_setup_find_program(const struct run_setup *s, const char *prog);

/*
 * In the child, after fork and before exec (s may be NULL: nothing to do):
 * puts the standard streams in place and changes directory.  Only
 * async-signal-safe calls (the parent may have threads).  Returns 0, or
 * the errno of what failed.
 */
int run_setup_apply(const struct run_setup *s);

#endif
