/*
 * Text of source locations and stacks (event.source, event.frames) shared
 * by the sinks: the text output's " [src/main.c:42 in main]" and strace's
 * -k lines, the CSV column and the profile sinks' frame names.
 */
#ifndef RENACER_SRCLOC_H
#define RENACER_SRCLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "event.h"
#include "util/strbuf.h"

/*
 * Appends what is known of f: "src/main.c:42 in main", "src/main.c:42"
 * (no function name), "in main" (no line information: a binary without
 * debug information), or "prog+0x1a2b" (module base name and offset: not
 * even a symbol); "?" when f is NULL or knows nothing.
 */
void srcloc_render(struct strbuf *sb, const struct frame *f);

/*
 * Appends the stack as strace -k prints it, one line per physical frame
 * (inlined frames fold into theirs), each ending in '\n':
 *   " > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x14) [0x10e8e4]"
 *   " > /tmp/prog() [0x1151]"              (no symbol)
 * with " src/main.c:42" added when with_source and the line is known
 * (strace 6.7's -kk), then " > MESSAGE" when unwinding stopped on an
 * error.  Frames outside any module are left out, as strace does.  A frame
 * rebuilt from a tail call (FRAME_TAILCALL), which strace does not know,
 * ends in " (tail call)" with with_source and is left out without it.
 */
void stack_render_strace(struct strbuf *sb, const struct frame *frames, size_t n,
			 const char *error, bool with_source);

/*
 * The name of a frame in a flame graph or profile: its function, else its
 * symbol, else "module+0xoffset", else "0xpc".
 */
void frame_name(struct strbuf *sb, const struct frame *f);

#endif
