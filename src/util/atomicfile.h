/* Files renacer writes are complete or absent: temp name, then rename. */
#ifndef RENACER_ATOMICFILE_H
#define RENACER_ATOMICFILE_H

#include <stdio.h>

/*
 * atomicfile_open() creates "<path>.tmp.<pid>" beside path and returns a
 * stream on it (NULL and an error() on failure).  atomicfile_commit() flushes,
 * renames it over path (returns 0, or -1 with the temp file
 * removed); atomicfile_abort() removes it.  Exactly one of the two must be
 * called.  A process dying in between leaves only the temporary name.  A
 * path that exists and is not a regular file (/dev/null, a FIFO) is opened
 * and written in place instead: renaming over it would replace the device.
 */
struct atomicfile {
	FILE *fp;
	char *path;
	char *tmp;
};

int atomicfile_open(struct atomicfile *af, const char *path);
int atomicfile_commit(struct atomicfile *af);
void atomicfile_abort(struct atomicfile *af);

/* Writes len bytes to path atomically; 0 or -1 (error() printed). */
int write_file_atomic(const char *path, const void *data, size_t len);

#endif
