/*
 * Which stack frames are not "the program's own" (--source-skip and the
 * [source] table of renacer.toml): a list of POSIX extended regular
 * expressions, each tried on a frame's module path, its function name and
 * its source file; a frame is skipped when any of them matches any of the
 * three.  The list starts with the built-in defaults (the C library, the
 * dynamic loader, the vDSO, libgcc and the C++ runtime, the Rust standard
 * library, C start-up code and code inlined from /usr/include).
 */
#ifndef RENACER_DWARF_SKIP_H
#define RENACER_DWARF_SKIP_H

#include <stdbool.h>
#include <stddef.h>

struct srcskip;

/* The built-in patterns, NULL terminated, each with a comment for --help
 * and the docs: srcskip_defaults[i] is described by srcskip_default_docs[i]. */
extern const char *const srcskip_defaults[];
extern const char *const srcskip_default_docs[];

/* A list holding the defaults (compiled once; never fails). */
struct srcskip *srcskip_new(void);

/*
 * Adds a pattern; "" empties the list (the defaults included), so that
 * `--source-skip '' --source-skip X` skips only X.  Returns 0, or -1 after
 * error() naming the pattern when it does not compile.
 */
int srcskip_add(struct srcskip *s, const char *regex);

/* True when the frame is not the program's own; NULL strings never match. */
bool srcskip_match(const struct srcskip *s, const char *module, const char *function,
		   const char *file);

/* How srcskip_module() found a module's path. */
enum srcskip_by {
	SRCSKIP_NONE,            /* no pattern matches it */
	SRCSKIP_BUILTIN,         /* only built-in patterns do */
	SRCSKIP_ADDED,           /* a pattern added with srcskip_add() does */
};

/* Which patterns match a module's path (NULL matches none). */
enum srcskip_by srcskip_module(const struct srcskip *s, const char *path);

/*
 * Whether path is a file in the system's library directories: under /lib,
 * /usr/lib and their 32-, 64- and x32-bit variants (/lib64, /usr/lib32,
 * ...), where Debian's packages put shared libraries; /usr/local, /opt and
 * home or build directories are not.  A name that is not an absolute path
 * ("[vdso]") counts as the system's.
 */
bool srcskip_system_path(const char *path);

/* Number of patterns in the list. */
size_t srcskip_count(const struct srcskip *s);

void srcskip_free(struct srcskip *s);

#endif
