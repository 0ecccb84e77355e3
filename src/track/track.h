/*
 * The process and descriptor tracker: the one place that follows tasks
 * (processes and threads, who made whom) and descriptors (what each number
 * refers to) through a trace.  It runs once per event, before the sinks
 * (sink_list_event), and hangs its answers on the event (ev->task,
 * ev->fd_obj, ev->ret_obj), so that every consumer (golden traces,
 * assertions, reports) sees the same tasks and the same objects, live or
 * replayed, and none keeps a table of its own.  What each syscall does
 * comes from the generated semantics table (sys/sysent.h).
 */
#ifndef RENACER_TRACK_H
#define RENACER_TRACK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "event.h"
#include "track/amap.h"

struct trace_info;

/* tobj.flags */
enum {
	TOBJ_INHERITED = 1 << 0,  /* open before the trace saw it (inherited,
				     or the trace began by attaching) */
	TOBJ_CLOEXEC = 1 << 1,    /* (of the descriptor that made it) */
};

/*
 * What a descriptor refers to: an open file description, shared by the
 * descriptors dup() and fork() make.  Kept while a descriptor refers to it
 * (an event's pointers are valid during the event only; keep id).
 */
struct tobj {
	uint32_t id;              /* 1, 2, ... in order of appearance */
	uint8_t kind;             /* enum fd_kind (sys/sysent.h) */
	uint8_t flags;            /* TOBJ_* */
	uint32_t pipe;            /* FDK_PIPE: id of the pipe both ends share
				     (the id of its first end), 0 unknown */
	const char *path;         /* files, directories, devices, terminals: the
				     path it was opened by, made absolute from
				     the directory descriptor or the working
				     directory when those are known; NULL unknown */
	const char *peer;         /* FDK_SOCKET: the endpoint it was connected,
				     bound, sent to or accepted from (event.h
				     endpoint form), NULL unknown */
	const char *made_by;      /* the syscall that made it ("openat",
				     "pipe2", ...), NULL when inherited */
	uint32_t opener;          /* the task (ttask.idx) that made it,
				     UINT32_MAX when inherited */
	uint32_t refs;            /* descriptors referring to it (internal) */
};

/* A task: a process's main thread or another thread. */
struct ttask {
	uint32_t idx;             /* 0, 1, ... in order of appearance */
	pid_t tid, pid;           /* as the event gave them */
	int32_t parent;           /* the task that created it (idx), -1 unknown
				     (the first task, or attached) */
	uint32_t ordinal;         /* 1-based: a process among the processes its
				     creator's process made, a thread among
				     the threads its creator made; 0 unlinked */
	bool is_thread;           /* a thread of its creator's process */
	bool dead;                /* exited, was killed or detached */
	uint32_t proc;            /* its process: the idx of the task leading
				     it (itself for a process) */
	const struct tmemstat *mem; /* its process's committed memory */
};

/* Resolves a descriptor the tracker never saw opened (live runs: from
 * /proc/PID/fd); fills o->kind and o->path/peer (strings owned by the
 * resolver for the call).  Returns false when it cannot tell. */
typedef bool (*track_resolve_fn)(void *data, pid_t pid, int fd, struct tobj *o);

struct tracker;

struct tracker *tracker_new(void);
void tracker_free(struct tracker *t);

/* Sets how inherited descriptors are resolved (none by default). */
void tracker_set_resolver(struct tracker *t, track_resolve_fn fn, void *data);

/* At the start of a trace: the working directory and the standard
 * streams of the first task, when the trace recorded them. */
void tracker_begin(struct tracker *t, const struct trace_info *ti);

/*
 * Before the sinks: sets ev->task, ev->fd_obj and ev->ret_obj, and updates
 * the tables with what the call did (opened, closed, duplicated, created a
 * task...).  Objects a call released stay valid until tracker_after().
 */
void tracker_event(struct tracker *t, struct event *ev);
/* After the sinks: frees what the event released. */
void tracker_after(struct tracker *t);

/* Task idx (NULL when idx is out of range), and how many there are. */
const struct ttask *tracker_task(const struct tracker *t, uint32_t idx);
uint32_t tracker_ntasks(const struct tracker *t);

/* The working directory of the task's process, or NULL when unknown. */
const char *tracker_cwd(const struct tracker *t, const struct ttask *task);

#endif
