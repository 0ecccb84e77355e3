/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one "evented" profile per thread, each syscall opening its stack's frames
 * at its entry and closing them at its exit, in microseconds since the
 * trace began.  The profile sink (sink/profsink.h) drives it.
 */
#ifndef RENACER_SPEEDSCOPE_H
#define RENACER_SPEEDSCOPE_H

#include <stdio.h>

#include "event.h"
#include "sink/profile.h"

struct speedscope;

/* An empty recorder; never fails. */
struct speedscope *speedscope_new(void);
/* Records syscall ev whose stack ends at leaf (profile_add's result). */
void speedscope_add(struct speedscope *s, const struct event *ev, const struct pnode *leaf);
/* Records the program an EV_EXEC event names (a process's name). */
void speedscope_proc(struct speedscope *s, const struct event *ev);
/* Writes the document; 0, or -1 after error() on a write error. */
int speedscope_write(struct speedscope *s, const struct profile *p, FILE *out, const char *title);
void speedscope_free(struct speedscope *s);

#endif
