/*
 * Rendering the value model (src/event.h) as strace prints it: one value,
 * a return value, or a whole syscall line in its complete, unfinished and
 * resumed forms.  Used by the text sink for lines and by the JSON/CSV sinks
 * for the text of single arguments.
 */
#ifndef RENACER_RENDER_H
#define RENACER_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "util/squote.h"
#include "util/strbuf.h"

/* Strings are quoted by util/squote.h (render_quoted() and its kin, enum
 * render_xstyle), which the decoders use too. */

/* How named constants print (strace's -X). */
enum render_xlat {
	XS_ABBREV = 0,       /* the name: O_CLOEXEC (default) */
	XS_RAW,              /* the number: 0x80000 */
	XS_VERBOSE,          /* both: 0x80000 / * O_CLOEXEC * / */
};

/* Options of the rendering; a NULL pointer means RENDER_OPTS_INIT. */
struct render_opts {
	unsigned acolumn;   /* column of "= result" (strace's -a; 0 is a valid
			       column: one space before "=") */
	uint8_t xstyle;     /* enum render_xstyle */
	uint8_t xlat;       /* enum render_xlat */
};
#define RENDER_OPTS_INIT { 40, RX_NONE, XS_ABBREV }

/*
 * Every function here appends to sb (never resets it), never fails, and
 * reads the event/value only during the call.  Values print exactly as
 * strace 6.1 prints them:
 *   V_INT/V_UINT     decimal            V_OCT   0644, 07 as "007", 0 as "000"
 *   V_HEX            0x1f, 0 as "0"     V_PTR   0x7ffd..., 0 as "NULL"
 *   V_STR            "..." escaped (see render_quoted), then "..." when
 *                    VF_TRUNC or VF_STR_UNTERM; with VF_HEXSTR every byte
 *                    as \xNN ("\x96\x05")
 *   V_FLAGS          A|B|0x100; 0 as x.dflt, else the table's 0-valued
 *                    name, else "0"; no name matched: 0x100 / * unknown * /
 *                    (the table's `unknown` as a comment, when it has one)
 *   V_ENUM           NAME, or 0x25 / * SOL_??? * / (the comment only when the
 *                    table has an `unknown` text)
 *   V_FD             3, with a path 3</etc/passwd> ('<' and '>' in the path
 *                    escaped; a " (deleted)" suffix goes after: 5</x>(deleted));
 *                    -100 prints "AT_FDCWD"
 *   V_STRUCT         {a=1, b=2, ...}; items with no name or VF_EQ_ONLY print
 *                    their value only; VF_MORE adds ", ..." (or "..." alone)
 *   V_ARRAY          [1, 2, ...] likewise
 *   V_SIGSET         [INT TERM] (names without "SIG", 32 is RTMIN, 33.. are
 *                    RT_1..); with VF_SIGSET_NOT, ~[...] of the signals 1..64
 *                    that are NOT in mask
 *   V_COMMENT        / * text * /       V_TEXT  text as is
 *   V_OP             items joined by c.op ("S_IFREG|0644"); with VF_XALT
 *                    the one of its three items for the -X style
 *   V_NONE           "?"
 * The value's own name is never printed by val_render (struct fields print
 * theirs as name=value), so it renders one argument standalone.
 */
void val_render(struct strbuf *sb, const struct val *v, const struct render_opts *ro);

/*
 * The result text after "= ": "3", "3</etc/passwd>" (RV_FD with
 * ev->ret_path), "0x7f12..." (RV_HEX), "022" or "000" (RV_OCT), "?" (RV_NONE or
 * SC_UNFINISHED), "-1 ENOENT (No such file or directory)" (ev->err != 0),
 * "? ERESTARTSYS (To be restarted if SA_RESTART is set)" (the ERESTART*
 * codes), followed by " (NAME VALUE)" when ev->ret_aux is set on success
 * (" (VALUE)" when ret_aux has no name).
 */
void event_render_result(struct strbuf *sb, const struct event *ev,
			 const struct render_opts *ro);

/*
 * Index of the first argument that was not decoded at the entry stop: the
 * first slot that is V_NONE or carries VF_EXIT (ev->nargs when none).
 * Decoders mark output arguments with VF_EXIT so that this split is the same
 * at entry and at exit.
 */
unsigned event_entry_split(const struct event *ev);

/*
 * A whole syscall, without the newline: "openat(AT_FDCWD, "/x", O_RDONLY) = 3".
 * The "= " is aligned at column ro->acolumn, counted from sb->buf[line_start]
 * (so a prefix such as "[pid 12] 10:01:02 " already in sb counts); there is
 * at least one space before it.  For SC_UNFINISHED events (the tracee died
 * or was detached inside the call) only the entry part is shown, then
 * " <unfinished ...>" when output arguments were still to come, then ") = ?".
 */
void event_render_call(struct strbuf *sb, const struct event *ev,
		       const struct render_opts *ro, size_t line_start);

/*
 * The entry half of a call that another line interrupts:
 * "read(3, " + " <unfinished ...>" (strace's double space is kept), or
 * "close(3 <unfinished ...>" when all arguments were decoded at entry.
 * ev may be the EV_SYSCALL_ENTRY event or the finished one.
 */
void event_render_unfinished(struct strbuf *sb, const struct event *ev,
			     const struct render_opts *ro);
/* The same without " <unfinished ...>": "read(3, " (for sinks that print
 * the entry eagerly and finish the line later with event_render_rest). */
void event_render_entry(struct strbuf *sb, const struct event *ev,
			const struct render_opts *ro);

/*
 * The exit half after an interruption: "<... read resumed>"..., 832) = 832"
 * (the arguments from event_entry_split on, then the aligned result); for
 * SC_UNFINISHED events "<... read resumed> <unfinished ...>) = ?".
 */
void event_render_resumed(struct strbuf *sb, const struct event *ev,
			  const struct render_opts *ro, size_t line_start);

/*
 * What follows event_render_entry's text when the call finished with no
 * interruption: the remaining arguments, ")", padding and the result, so
 * that entry + rest == event_render_call.
 */
void event_render_rest(struct strbuf *sb, const struct event *ev,
		       const struct render_opts *ro, size_t line_start);

#endif
