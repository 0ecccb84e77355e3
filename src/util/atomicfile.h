/* Files renacer writes are complete or absent: temp name, then rename. */
#ifndef RENACER_ATOMICFILE_H
#define RENACER_ATOMICFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * atomicfile_open() opens path for writing and returns a stream on it in
 * af->fp (-1 and an error() on failure, nothing created).  Where the file
 * goes:
 *
 *  - A symbolic link is followed, as open(2) would (also dangling ones: the
 *    file is created where the link points), and its target is written; the
 *    link stays a link.  As the kernel's fs.protected_symlinks, a link in a
 *    world-writable directory (/tmp; sticky or not, where the kernel only
 *    guards sticky ones) is followed only when it belongs to this user or to
 *    the directory's owner.
 *  - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor
 *    itself is written (as a shell's redirection would be), never a file
 *    renamed over the link or over the file behind it.
 *  - A regular file, or a name that does not exist: a temporary file is
 *    created beside the target (same directory, so the rename is atomic)
 *    with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600 and an unpredictable name
 *    ".renacer-tmp-NS-PID-START-RANDOM.BASENAME.tmp"; atomicfile_commit() gives
 *    it its final mode (that of the file it replaces, else 0666 less the
 *    umask) and renames it over the target.
 *  - A device, FIFO or socket is written in place (renaming over it would
 *    replace the device); a FIFO or socket in a world-writable directory
 *    only when it belongs to this user or to the directory's owner
 *    (fs.protected_fifos).
 *  - A directory is an error (EISDIR).
 *
 * A process killed in between leaves only its temporary file.  Temporaries
 * of this naming are removed by the next atomicfile_open() in the same
 * directory when they are stale: a regular file owned by this user whose
 * creator (pid and start time, in this pid namespace) is gone.
 *
 * atomicfile_commit() flushes, closes and renames into place (0, or -1
 * after error() with the temporary removed); atomicfile_abort() removes the
 * temporary (a stream written in place is just closed).  Exactly one of the
 * two must be called.  A commit of several files as one unit uses
 * atomicfile_close_tmp() on each, then atomicfile_rename() in order.
 */
struct atomicfile {
	FILE *fp;
	char *path;      /* as given, for messages */
	char *tmp;       /* temporary name in dirfd, NULL when written in place */
	char *base;      /* final name in dirfd */
	int dirfd;       /* the target's directory (O_PATH), -1 when in place */
	mode_t mode;     /* final mode of the file */
	bool closed;     /* fp already flushed and closed (atomicfile_close_tmp) */
};

int atomicfile_open(struct atomicfile *af, const char *path);
int atomicfile_commit(struct atomicfile *af);
void atomicfile_abort(struct atomicfile *af);

/* True when af writes a temporary to be renamed (not in place). */
static inline bool atomicfile_is_atomic(const struct atomicfile *af)
{
	return af->tmp != NULL;
}

/*
 * The two halves of atomicfile_commit(), for files committed together:
 * atomicfile_close_tmp() flushes and closes the stream and sets the final
 * mode (0, or -1 after error(); af stays open for atomicfile_abort()).
 * atomicfile_rename_as() renames the temporary to name in the target's
 * directory (NULL: the target itself) and releases af (0, or -1 after
 * error() with the temporary removed).  For a file written in place it
 * only releases af.
 */
int atomicfile_close_tmp(struct atomicfile *af);
int atomicfile_rename_as(struct atomicfile *af, const char *name);

/* Writes len bytes to path atomically; 0 or -1 (error() printed). */
int write_file_atomic(const char *path, const void *data, size_t len);

/*
 * Removes the stale temporaries of atomicfile in dir (see above); returns
 * how many were removed.  atomicfile_open() calls it once per directory.
 */
int atomicfile_clean_stale(const char *dir);

#endif
