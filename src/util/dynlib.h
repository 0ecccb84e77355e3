/*
 * Optional shared libraries loaded when a feature first needs them (libcurl
 * for OTLP export over the network, libdw for stacks and source lines,
 * libbpf for the eBPF back end), so that a plain trace does not pay for
 * mapping, relocating and initializing them and their dependencies.
 */
#ifndef RENACER_DYNLIB_H
#define RENACER_DYNLIB_H

#include <stddef.h>

/*
 * One function to fill: its name and where its pointer lives in the
 * caller's table.  The table's members are declared with the real
 * prototypes, `__typeof__(&curl_easy_init) curl_easy_init;`, so that a call
 * with a wrong signature fails to compile.  DYNLIB_SYM(struct t, f) makes
 * the row of member f.
 */
struct dynlib_sym {
	const char *name;
	size_t off;
};
#define DYNLIB_SYM(type, f) { #f, offsetof(type, f) }

/*
 * A library and its table.  Define one statically, with soname the exact
 * name the program was built against ("libcurl.so.4"), and leave the rest
 * zero.
 */
struct dynlib {
	const char *soname;
	const struct dynlib_sym *syms;
	size_t nsyms;
	void *table;             /* where the pointers go */
	/* filled by dynlib_load() */
	int state;               /* 0 not tried, 1 loaded, -1 failed */
	char *err;               /* why it failed */
};

/*
 * Opens l->soname (the dynamic loader's search: LD_LIBRARY_PATH, the cache,
 * the default directories) and fills every pointer of l->table; the
 * library stays loaded until exit.  Only the first call loads; later ones
 * return its result.  Thread-safe.
 *
 * Returns 0, or -1 with *why (when why is not NULL) set to a one-line
 * reason owned by l, "cannot load 'libcurl.so.4': libcurl.so.4: cannot
 * open shared object file: No such file or directory"; then no pointer is
 * set.  Prints nothing.
 */
int dynlib_load(struct dynlib *l, const char **why);

#endif
