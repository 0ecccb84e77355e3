/*
 * Traces that kept only strace's text (renacer-json-v1): each argument's
 * text is read back into a typed value once, here, so that no consumer
 * after the reader ever parses rendered text.  The value keeps its text
 * (val.text), which renderers print as it was saved.
 */
#ifndef RENACER_REPLAY_COMPAT_H
#define RENACER_REPLAY_COMPAT_H

#include <stddef.h>

#include "event.h"
#include "util/arena.h"

/*
 * Fills out from strace's text of one value (an argument, a structure
 * field): strings (unescaped bytes, VF_TRUNC for "..."), numbers (decimal
 * V_INT, hex V_HEX, octal V_OCT), NULL (V_PTR 0), descriptors with a path
 * ("3</etc/x>": V_FD), structures and arrays (their items, VF_MORE),
 * signal sets, and symbolic values (names joined by '|', calls such as
 * htons(80)): V_FLAGS with VF_NOVAL and their text in x.sym.  What it
 * cannot read is V_TEXT.  Memory from a; out->text is set to the text.
 */
void compat_val(struct arena *a, struct val *out, const char *name, const char *text,
		size_t len);

/* The event's endpoint (event.h) from its typed socket address arguments
 * (a struct with sa_family, or a msghdr's msg_name), in a; NULL when none. */
const char *compat_endpoint(struct arena *a, const struct event *ev);

#endif
