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
#include <stdio.h>

#include "event.h"
#include "sink/sink.h"
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
 * Folded stacks, one line per leaf: "main;load;read_config;[openat] 1200",
 * the weight in microseconds of syscall time (at least 1 for a stack with
 * calls) or, with count, the number of calls.  Lines are sorted.
 */
void profile_folded(const struct profile *p, struct strbuf *sb, bool count);

/*
 * A self-contained interactive SVG flame graph (no external resource):
 * hovering a frame shows its name, weight and share; clicking zooms into
 * it; "Reset zoom" goes back.  title heads it.
 */
void profile_svg(const struct profile *p, struct strbuf *sb, bool count, const char *title);

void profile_free(struct profile *p);

/* Options of the profile sink (the --function-time family of options). */
struct profile_sink_opts {
	bool table;              /* --function-time: the report on stderr at the end */
	const char *folded;      /* --flamegraph FILE, or NULL */
	FILE *folded_stream;     /* with folded "-": where to write it */
	bool count;              /* --flamegraph-weight count */
	const char *svg;         /* --flamegraph-svg FILE, or NULL */
	const char *speedscope;  /* --speedscope FILE, or NULL */
	const char *title;       /* the traced command, for the SVG and speedscope */
};

/*
 * The sink that builds a profile from a run and writes what o asks for at
 * end() (files complete or absent).  Returns NULL after error() when an
 * output file cannot be created.  o's strings must outlive the sink.
 */
struct sink *profile_sink_new(const struct profile_sink_opts *o);

/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one "evented" profile per thread, each syscall opening its stack's frames
 * at its entry and closing them at its exit, in microseconds since the
 * trace began.  Implemented in speedscope.c; the profile sink drives it.
 */
struct speedscope;
struct speedscope *speedscope_new(void);
void speedscope_add(struct speedscope *s, const struct event *ev, const struct pnode *leaf);
void speedscope_proc(struct speedscope *s, const struct event *ev);
/* Writes the document; 0, or -1 after error() on a write error. */
int speedscope_write(struct speedscope *s, const struct profile *p, FILE *out, const char *title);
void speedscope_free(struct speedscope *s);

#endif
