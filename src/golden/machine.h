/*
 * The machine a golden was made on: CPU model, cores, kernel, C library
 * and architecture, kept in the golden's "timing" object (its runtimes
 * were measured there) so that validate can say, in one line, that it
 * runs elsewhere, or refuse to (docs/golden.md).
 */
#ifndef RENACER_GOLDEN_MACHINE_H
#define RENACER_GOLDEN_MACHINE_H

#include <stdbool.h>

#include "util/strbuf.h"

struct gmachine {
	bool known;              /* recorded (goldens made before it was are not) */
	char cpu[128];           /* /proc/cpuinfo's "model name", or "" */
	unsigned cores;          /* online CPUs */
	char kernel[96];         /* uname's release */
	char arch[32];           /* uname's machine */
	char libc[48];           /* "glibc 2.36", or "" */
};

/* Fills m with this machine's (never fails; unknown parts are empty). */
void gmachine_current(struct gmachine *m);

/* Appends m as a JSON object: {"cpu": ..., "cores": N, "kernel": ..., "arch": ..., "libc": ...}. */
void gmachine_json(const struct gmachine *m, struct strbuf *sb);

/*
 * Fills m from a parsed "machine" object (a json_t *, may be NULL: then
 * m->known is false).  Members of the wrong type are left empty.
 */
void gmachine_from_json(struct gmachine *m, const void *json);

/*
 * Whether the golden's machine g and this one, cur, differ (never when g is
 * not known); appends to why what differs, golden first:
 * "CPU 'A' (4 cores) -> 'B' (2 cores), kernel 6.1.0 -> 6.18.4".
 */
bool gmachine_differs(const struct gmachine *g, const struct gmachine *cur, struct strbuf *why);

#endif
