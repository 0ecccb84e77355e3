/*
 * Where the syscall time goes, by the program's own code: every syscall's
 * stack (its frames of the program's own code, outermost first, then
 * "[syscall]") merged into a tree, with calls and time at each node.  From
 * it: the --function-time table (functions that made syscalls, hot paths,
 * caller -> callee edges), the JSON "function_profile" object, folded
 * stacks for flamegraph.pl, renacer's own SVG flame graph and speedscope's
 * JSON.  The stacks come from src/dwarf (event.frames).  docs/source.md
 * describes the outputs.
 */
#ifndef RENACER_PROFILE_H
#define RENACER_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include "event.h"
#include "util/strbuf.h"

struct profile;

/* A node of the stack tree: a frame under its caller. */
struct pnode {
	const char *name;        /* the frame's name, or "[syscall]" at leaves */
	const char *file;        /* the frame's source file, or NULL */
	struct pnode *parent;    /* NULL at the root (which has no name) */
	struct pnode *child, *next;  /* first child, next sibling */
	uint64_t calls;          /* syscalls under (and at) this node */
	uint64_t ns;             /* their wall-clock time */
	uint32_t id;             /* creation order, from 1; the root is 0 */
	uint32_t depth;          /* the root is 0 */
};

/* An empty profile; never fails. */
struct profile *profile_new(void);

/*
 * Adds a finished syscall (EV_SYSCALL; other events are ignored) and
 * returns its leaf node (NULL for other events).  The stack is the
 * event's FRAME_OWN frames, outermost first; a call with none is put under
 * "[MODULE]" (the innermost frame's module, e.g. the dynamic loader's
 * start-up) or "[unknown]" (no stack at all).
 */
const struct pnode *profile_add(struct profile *p, const struct event *ev);

/*
 * profile_add() under n prefix frames (outermost first; NULL when n is 0):
 * the stack becomes prefix, then the event's own frames, then the syscall.
 * A call with no own frame falls back to the frame -s named (event.source:
 * a trace saved with -s and without -k) and, with a prefix, to nothing
 * when the event has no stack at all ("[unknown]" without one).
 */
const struct pnode *profile_add_under(struct profile *p, const struct event *ev,
				      const char *const *prefix, size_t n);

/*
 * Adds a stack given by its frame names (outermost first, n >= 1; a ';'
 * or a newline in a name becomes ':') with calls and ns at its last frame,
 * as a folded line "a;b;c N" does.  Returns the last frame's node.  The
 * function table and edges are not fed (they need events).
 */
const struct pnode *profile_add_stack(struct profile *p, const char *const *names, size_t n,
				      uint64_t calls, uint64_t ns);

/* The root (its children are the outermost frames). */
const struct pnode *profile_root(const struct profile *p);
/* Number of nodes, the root included. */
uint32_t profile_nodes(const struct profile *p);

/*
 * The --function-time report: functions that made syscalls (calls, total
 * and average time, I/O calls, slow I/O calls over 1 ms), sorted by time;
 * the hot paths (the top stacks by time, with their share); the caller ->
 * callee edges.  Appended to sb as text.
 */
void profile_table(const struct profile *p, struct strbuf *sb);

/*
 * The same as the JSON object written as "function_profile"
 * (docs/trace-format.md); with type (JSON Lines) on one line, with a
 * "type" member first.
 */
void profile_json(const struct profile *p, struct strbuf *sb, const char *type);

/*
 * Folded stacks, one line per stack that calls end at (the leaves, for a
 * tree of events): "main;load;read_config;[openat] 1200", the weight in
 * microseconds of syscall time (at least 1 for a stack with calls) or,
 * with count, the number of calls.  Lines are sorted.
 */
void profile_folded(const struct profile *p, struct strbuf *sb, bool count);

void profile_free(struct profile *p);

#endif
