/*
 * A golden and its summary as one unit: DIR/NAME.json (or NAME.json.zst)
 * and DIR/NAME_summary.txt are written together or not at all, and carry
 * the same random id ("golden_id" as the first member of the trace, a last
 * line "golden_id: ID" in the summary) so that a pair that does not match
 * is refused instead of being read as one.
 *
 * Writing (golden_pair_write): both files go to temporaries first
 * (util/atomicfile.h); then, with SIGINT, SIGTERM and SIGHUP held, the
 * summary is renamed to DIR/.NAME_summary.txt.pending, the trace renamed
 * into place and the trace of the other compression removed (the commit:
 * from here on the new golden is the golden), and the pending summary
 * renamed over NAME_summary.txt.  A renacer killed (SIGKILL) before the commit leaves
 * the old pair untouched (and temporaries that the next run removes); one
 * killed after it leaves the new trace and its pending summary, which
 * golden_pair_recover() -- called by every command before it reads or
 * writes a golden -- renames into place.
 *
 * Locking: goldens change under flock(2) on DIR/.renacer.lock (an empty
 * file made when first needed and never removed).  The commit above and
 * recovery hold it exclusive; golden_pair_begin() returns with it held
 * shared, so that a reader that loads a golden and checks its summary
 * under it never sees a pair half committed, and recovery never takes
 * another process's commit in flight for a dead one's.  A commit also
 * checks that the golden is still the one its command began with
 * (golden_pair_begin's base): when another renacer stored the golden
 * meanwhile, the later one says so and stores nothing.  A process must not
 * hold the shared lock while it calls a function that takes it exclusive.
 */
#ifndef RENACER_GOLDEN_STORE_H
#define RENACER_GOLDEN_STORE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "golden/timing.h"
#include "util/strbuf.h"

#define GOLDEN_ID_SIZE 17        /* 16 hex digits and a NUL */

/*
 * Copies the trace src (plain or zstd-compressed) as a golden document: with
 * id, a "golden_id" member first; with t, the "timing" member (and the
 * machine) before the document's closing brace; compressed with zstd at
 * level when zst.  The bytes go to fp, or are appended to sb when fp is
 * NULL; outname names the output in messages.  It streams: memory does not
 * grow with the trace.  0; -2 after error() when src cannot be read or is
 * not a JSON document; -1 after error() when writing failed.
 */
int golden_trace_copy(const char *src, const struct gtiming *t, const char *id, bool zst,
		      int level, FILE *fp, struct strbuf *sb, const char *outname);

/*
 * Writes the golden of name in dir from the renacer-json-v2 document src
 * (with timing t added, when not NULL) and its -c table summary (the text
 * the run's summary sink made, without the id line; NULL: made from src,
 * which is then read again): DIR/NAME.json, or NAME.json.zst
 * compressed at level when zst, and DIR/NAME_summary.txt, as one unit (see
 * above).  When *stop is set (by a signal) before the commit, nothing is
 * renamed.  Returns 0 (*written: the malloc'ed path of the trace), 1 when
 * stopped (nothing changed, nothing printed), -2 after error() when src is
 * not a readable trace, or -1 after error() when writing failed (the old
 * pair is left as it was, or the new pair is complete but for the summary,
 * which golden_pair_recover() finishes), or -3 after error() when the
 * golden is no longer base (golden_pair_begin()'s; NULL: not checked)
 * because another renacer stored one meanwhile (nothing changed).
 */
int golden_pair_write(const char *dir, const char *name, const char *src,
		      const char *summary, const struct gtiming *t, bool zst, int level,
		      const volatile sig_atomic_t *stop, const char *base, char **written);

/*
 * Finishes or undoes what a killed golden_pair_write() left for name in
 * dir, which is only ever something when DIR/.NAME_summary.txt.pending is
 * there: when the golden with its id was committed, the pending summary
 * becomes the summary (and the trace of the other compression goes);
 * when it was not, the pending summary (and an uncommitted NAME.json.zst
 * beside the old NAME.json) is removed.  Returns 0, or -1 after error()
 * when a file could not be renamed or removed.
 */
int golden_pair_recover(const char *dir, const char *name);

/* A hold on a golden directory's lock (DIR/.renacer.lock). */
struct golden_lock {
	int fd;          /* the lock file, -1 when nothing is held */
};
#define GOLDEN_LOCK_INIT { -1 }

/* What a golden was when a command began (golden_pair_begin). */
#define GOLDEN_BASE_SIZE GOLDEN_ID_SIZE

/*
 * Begins work on the golden of name in dir: golden_pair_recover(), then the
 * directory's lock taken shared into *lk (when lk is not NULL; release it
 * with golden_unlock() as soon as the golden is read, and before anything
 * is stored), and the golden's identity into base (GOLDEN_BASE_SIZE bytes,
 * when not NULL): its id, "" when there is none, "-" when it has no id.
 * Pass base to golden_pair_write() to store only over that golden.  A
 * directory that does not exist, or whose lock file cannot be made or
 * opened (read-only), is read without a lock.  Returns 0, or -1 after
 * error() (recovery failed, or the lock was held by another renacer for
 * GOLDEN_LOCK_WAIT_S seconds: nothing is held then, and a reader may go on
 * without it).
 */
int golden_pair_begin(const char *dir, const char *name, char *base, struct golden_lock *lk);

/* Releases what golden_pair_begin() took into lk (nothing when none). */
void golden_unlock(struct golden_lock *lk);

/* Longest wait for a golden directory's lock before giving up (seconds). */
#define GOLDEN_LOCK_WAIT_S 300

/*
 * Checks that the golden at gpath (DIR/NAME.json[.zst]) and
 * DIR/NAME_summary.txt are one pair: both have the same id.  A golden
 * without an id (written before ids, or by hand) is not checked.  Call it
 * with golden_pair_begin()'s lock held, else a commit in progress can make
 * a good pair look torn.  Returns
 * 0, or -1 after error() ("golden ... and its summary ... do not match").
 */
int golden_pair_check(const char *gpath);

/*
 * The id of the golden trace at path into id (GOLDEN_ID_SIZE bytes), read
 * from the start of the file: 1, 0 when it has none, -1 when unreadable.
 */
int golden_id_of(const char *path, char *id);

#endif
