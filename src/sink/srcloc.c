/* Source locations and strace -k stacks as text (see srcloc.h). */
#include "sink/srcloc.h"

#include <string.h>

#include "util/banned.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

void srcloc_render(struct strbuf *sb, const struct frame *f)
{
	if (!f) {
		strbuf_addch(sb, '?');
		return;
	}
	if (f->file && f->line) {
		strbuf_addstr(sb, f->file);
		strbuf_addch(sb, ':');
		strbuf_add_u64(sb, f->line);
		if (f->function) {
			strbuf_addstr(sb, " in ");
			strbuf_addstr(sb, f->function);
		}
	} else if (f->function) {
		strbuf_addstr(sb, "in ");
		strbuf_addstr(sb, f->function);
	} else if (f->module) {
		strbuf_addstr(sb, base_name(f->module));
		strbuf_addch(sb, '+');
		strbuf_add_hex(sb, f->offset);
	} else {
		strbuf_addch(sb, '?');
	}
}

void stack_render_strace(struct strbuf *sb, const struct frame *frames, size_t n,
			 const char *error, bool with_source)
{
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = &frames[i];

		/* one line per physical frame, with the innermost inlined line */
		if (i && (frames[i - 1].flags & FRAME_INLINED))
			continue;
		if (!f->module || (!with_source && (f->flags & FRAME_TAILCALL)))
			continue;
		strbuf_addstr(sb, " > ");
		strbuf_addstr(sb, f->module);
		strbuf_addch(sb, '(');
		if (f->symbol) {
			strbuf_addstr(sb, f->symbol);
			strbuf_addch(sb, '+');
			strbuf_add_hex(sb, f->symoff);
		}
		strbuf_addstr(sb, ") [");
		strbuf_add_hex(sb, f->offset);
		strbuf_addch(sb, ']');
		if (with_source && f->file && f->line) {
			strbuf_addch(sb, ' ');
			strbuf_addstr(sb, f->file);
			strbuf_addch(sb, ':');
			strbuf_add_u64(sb, f->line);
		}
		if (with_source && (f->flags & FRAME_TAILCALL))
			strbuf_addstr(sb, " (tail call)");
		strbuf_addch(sb, '\n');
	}
	if (error) {
		strbuf_addstr(sb, " > ");
		strbuf_addstr(sb, error);
		strbuf_addch(sb, '\n');
	}
}

void frame_name(struct strbuf *sb, const struct frame *f)
{
	if (f->function) {
		strbuf_addstr(sb, f->function);
	} else if (f->symbol) {
		strbuf_addstr(sb, f->symbol);
	} else if (f->module) {
		strbuf_addstr(sb, base_name(f->module));
		strbuf_addch(sb, '+');
		strbuf_add_hex(sb, f->offset);
	} else {
		strbuf_add_hex(sb, f->pc);
	}
}
