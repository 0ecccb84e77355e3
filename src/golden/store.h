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
 */
#ifndef RENACER_GOLDEN_STORE_H
#define RENACER_GOLDEN_STORE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "golden/timing.h"
#include "util/strbuf.h"

#define GOLDEN_ID_SIZE 17        /* 16 hex digits and a NUL */

/*
 * Reads the trace text of src (plain or zstd-compressed) into sb; with t,
 * adds the "timing" member before the document's closing brace.  0, or -1
 * after error().
 */
int golden_trace_text(const char *src, const struct gtiming *t, struct strbuf *sb);

/*
 * Writes the golden of name in dir from the renacer-json-v1 document src
 * (with timing t added, when not NULL): DIR/NAME.json, or NAME.json.zst
 * compressed at level when zst, and DIR/NAME_summary.txt, as one unit (see
 * above).  When *stop is set (by a signal) before the commit, nothing is
 * renamed.  Returns 0 (*written: the malloc'ed path of the trace), 1 when
 * stopped (nothing changed, nothing printed), -2 after error() when src is
 * not a readable trace, or -1 after error() when writing failed (the old
 * pair is left as it was, or the new pair is complete but for the summary,
 * which golden_pair_recover() finishes).
 */
int golden_pair_write(const char *dir, const char *name, const char *src,
		      const struct gtiming *t, bool zst, int level,
		      const volatile sig_atomic_t *stop, char **written);

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

/*
 * Checks that the golden at gpath (DIR/NAME.json[.zst]) and
 * DIR/NAME_summary.txt are one pair: both have the same id.  A golden
 * without an id (written before ids, or by hand) is not checked.  Returns
 * 0, or -1 after error() ("golden ... and its summary ... do not match").
 */
int golden_pair_check(const char *gpath);

/*
 * The id of the golden trace at path into id (GOLDEN_ID_SIZE bytes), read
 * from the start of the file: 1, 0 when it has none, -1 when unreadable.
 */
int golden_id_of(const char *path, char *id);

#endif
