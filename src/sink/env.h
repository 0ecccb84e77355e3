/*
 * The run environment of a trace (struct trace_env in sink.h): what kind of
 * file each standard stream was, the working directory, and the values of
 * an allowlist of environment variables (locale, PATH, ...).  Recorded in
 * renacer-json-v2 and jsonl traces under "environment"; docs/golden.md says
 * how validate reproduces it.
 */
#ifndef RENACER_SINK_ENV_H
#define RENACER_SINK_ENV_H

#include <stdbool.h>

#include "sink/sink.h"
#include "util/strbuf.h"

/* The variables recorded by default: patterns, '*' at the end matches a prefix. */
extern const char *const trace_env_default_vars[];

/* "null", "file", "pipe", "socket", "tty", "device", "closed", "other", "unknown". */
const char *stdio_kind_name(int kind);
/* The kind named s, or -1. */
int stdio_kind_parse(const char *s);
/* What fd is in this process (SK_CLOSED when it is not open). */
int stdio_kind_of_fd(int fd);
/* A phrase for messages: "a terminal", "a regular file", "/dev/null", ... */
const char *stdio_kind_phrase(int kind);

/*
 * Fills e from this process: the kinds of fds 0-2, the working directory and
 * the variables of environ that match one of the patterns (NULL-terminated;
 * NULL: trace_env_default_vars); patterns naming a variable that is unset
 * record it as unset.  Release with trace_env_release().
 */
void trace_env_capture(struct trace_env *e, const char *const *patterns);
/*
 * trace_env_capture() for a command set up apart from renacer
 * (core/setup.h): the kinds of fds[0..2] (-1: this process's fd 0-2,
 * as the command inherits it; below -1: closed; fds NULL: 0-2),
 * directory cwd (NULL: this process's) and the variables of envp (NULL:
 * environ).
 */
void trace_env_capture_run(struct trace_env *e, const char *const *patterns,
			   char *const *envp, const char *cwd, const int *fds);
void trace_env_release(struct trace_env *e);
/* Deep copy (dst is overwritten). */
void trace_env_copy(struct trace_env *dst, const struct trace_env *src);

/* Adds variable "NAME=value" (value NULL: unset), keeping vars sorted. */
void trace_env_set_var(struct trace_env *e, const char *name, const char *value);
/*
 * The recorded value of name: NULL when name is not recorded; else its value
 * with *set true, or "" with *set false when it was recorded as unset.
 */
const char *trace_env_var(const struct trace_env *e, const char *name, bool *set);

/* Appends the "environment" JSON object (no key) to sb. */
void trace_env_json(struct strbuf *sb, const struct trace_env *e);

#endif
