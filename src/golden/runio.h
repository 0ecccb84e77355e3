/*
 * The standard streams of a command run under trace by the golden workflow,
 * of the kinds a golden recorded (sink/env.h): /dev/null, a regular file,
 * a pipe, a socket, a terminal (a pseudo-terminal) or closed.  What the
 * command writes to fds 1 and 2 ends up in one output file; pipes,
 * sockets and terminals are drained into it by a thread.
 */
#ifndef RENACER_GOLDEN_RUNIO_H
#define RENACER_GOLDEN_RUNIO_H

#include <pthread.h>
#include <stdbool.h>

#include "util/strbuf.h"

struct runio {
	int fds[3];                  /* what the command gets as 0-2; -1: closed */
	int kinds[3];                /* their enum stdio_kind */
	int drain_fd[3];             /* our end to read from, or -1 */
	pthread_t drain[3];
	bool draining[3];
	int out;                     /* the output file */
	pthread_mutex_t lock;        /* drains write to out one at a time */
};

/*
 * Opens streams of the kinds want[0..2] (NULL: /dev/null, the output file,
 * the output file) with what the command writes going to outfile
 * (truncated).  A kind that cannot be made is replaced by the default and
 * said in notes (one line each).  Returns 0, or -1 after error() when
 * outfile cannot be opened.
 */
int runio_open(struct runio *io, const int *want, const char *outfile, struct strbuf *notes);

/* Starts the drains; call once the command's fds are in place. */
void runio_start(struct runio *io);

/*
 * After the run: closes what the command got, waits (a little) for the
 * drains to reach the end of what was written, and closes the rest.
 */
void runio_close(struct runio *io);

#endif
