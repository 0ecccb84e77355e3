/*
 * The CI formats of golden comparisons (see output.h): GitHub workflow
 * commands and GitLab's Code Quality report.  Markdown is in output.c.
 */
#include "golden/output.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Writes sb to fp and flushes; 0, or -1 with errno set. */
static int put(FILE *fp, const struct strbuf *sb)
{
	errno = 0;
	if ((sb->len && fwrite(sb->buf, 1, sb->len, fp) != sb->len) || fflush(fp) != 0 ||
	    ferror(fp)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* Appends path, relative to workspace when it is under it. */
static void rel_path(struct strbuf *sb, const char *path, const char *workspace)
{
	size_t wl = workspace ? strlen(workspace) : 0;

	while (wl > 1 && workspace[wl - 1] == '/')
		wl--;
	if (wl && !strncmp(path, workspace, wl) && path[wl] == '/')
		path += wl + 1;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	strbuf_addstr(sb, path);
}

bool gout_source_place(const char *where, const char *workspace, struct strbuf *file,
		       unsigned long *line)
{
	const char *end, *colon;
	char *f;

	*line = 0;
	if (!where || !*where || !strncmp(where, "in ", 3))
		return false;
	end = strstr(where, " in ");
	if (!end)
		end = where + strlen(where);
	colon = NULL;
	for (const char *p = end; p > where; p--)
		if (p[-1] == ':') {
			colon = p - 1;
			break;
		}
	if (colon && colon + 1 < end && strspn(colon + 1, "0123456789") == (size_t)(end - colon - 1)) {
		*line = strtoul(colon + 1, NULL, 10);
		end = colon;
	} else if (memchr(where, '+', (size_t)(end - where)) || !memchr(where, '.', (size_t)(end - where))) {
		/* "prog+0x1a2b", a bare symbol: no file */
		return false;
	}
	if (end == where)
		return false;
	f = xstrndup(where, (size_t)(end - where));
	rel_path(file, f, workspace);
	free(f);
	return true;
}


/* --- GitHub workflow commands --- */

/*
 * Text for a workflow command: CR and LF as %0D and %0A, '%' as %25 and,
 * in a property (prop), ':' and ',' as %3A and %2C (the workflow command
 * syntax); other control characters and bytes that are not UTF-8 as
 * esc() writes them (util/quote.h), so that nothing else reaches the log.
 */
static void gh_escape(struct strbuf *sb, const char *s, bool prop)
{
	struct strbuf e = STRBUF_INIT;

	if (!s)
		return;
	while (*s) {
		size_t run = strcspn(s, "\r\n");

		strbuf_reset(&e);
		strbuf_add_cescaped(&e, s, run, 0, CESC_KEEP_BACKSLASH);
		for (size_t i = 0; i < e.len; i++) {
			char ch = e.buf[i];
			if (ch == '%')
				strbuf_addstr(sb, "%25");
			else if (prop && ch == ':')
				strbuf_addstr(sb, "%3A");
			else if (prop && ch == ',')
				strbuf_addstr(sb, "%2C");
			else
				strbuf_addch(sb, ch);
		}
		s += run;
		if (*s == '\r')
			strbuf_addstr(sb, "%0D");
		else if (*s == '\n')
			strbuf_addstr(sb, "%0A");
		if (*s)
			s++;
	}
	strbuf_release(&e);
}

static void gh_text(struct strbuf *sb, const char *s)
{
	gh_escape(sb, s, false);
}

/* "::LEVEL file=F,line=L,title=T::" */
static void gh_command(struct strbuf *sb, const char *level, const char *file, unsigned long line,
		       const char *title)
{
	bool any = false;

	strbuf_addf(sb, "::%s", level);
	if (file && *file) {
		strbuf_addstr(sb, " file=");
		gh_escape(sb, file, true);
		any = true;
		if (line)
			strbuf_addf(sb, ",line=%lu", line);
	}
	if (title) {
		strbuf_addstr(sb, any ? ",title=" : " title=");
		gh_escape(sb, title, true);
	}
	strbuf_addstr(sb, "::");
}

int gout_github(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o,
		const struct gout_ci *ci)
{
	struct strbuf sb = STRBUF_INIT, title = STRBUF_INIT, file = STRBUF_INIT, gold = STRBUF_INIT;
	const char *ws = ci ? ci->workspace : NULL;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		const struct gout_case *c = &k[i];
		char *body = NULL;
		size_t len = 0;
		FILE *mf = open_memstream(&body, &len);

		/* the readable report, folded in the log */
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "::group::");
		strbuf_reset(&title);
		strbuf_addf(&title, "renacer %s: %s", c->name ? c->name : "?", golden_status_name(c->status));
		gh_text(&sb, title.buf);
		strbuf_addch(&sb, '\n');
		if (mf) {
			gout_text(mf, c, o, false);
			fclose(mf);
			/* a line of the body is never a command: each starts with
			 * a mark, a space or a diff sign (gout_text) */
			strbuf_add(&sb, body, len);
			free(body);
		}
		if (sb.len && sb.buf[sb.len - 1] != '\n')
			strbuf_addch(&sb, '\n');
		strbuf_addstr(&sb, "::endgroup::\n");
		strbuf_reset(&gold);
		if (c->golden_path)
			rel_path(&gold, c->golden_path, ws);
		if (c->error) {
			strbuf_reset(&title);
			strbuf_addf(&title, "renacer %s: %s", c->name ? c->name : "?",
				    golden_status_name(c->status));
			if (!c->nfiles) {
				gh_command(&sb, "error", gold.len ? gold.buf : NULL, 0, title.buf);
				gh_text(&sb, c->error);
				strbuf_addch(&sb, '\n');
			}
			for (size_t j = 0; j < c->nfiles; j++) {
				strbuf_reset(&file);
				rel_path(&file, c->files[j], ws);
				gh_command(&sb, "error", file.buf, 0, title.buf);
				gh_text(&sb, c->files[j]);
				strbuf_addstr(&sb, ": ");
				gh_text(&sb, c->files_why ? c->files_why[j] : c->error);
				strbuf_addch(&sb, '\n');
			}
		}
		/* regressions first: GitHub shows the first annotations of a step */
		for (int pass = 0; pass < 2 && c->r; pass++)
			for (size_t j = 0; j < c->r->nf; j++) {
				const struct gfinding *f = &c->r->f[j];
				const struct gsource *src = gout_main_source(f);
				unsigned long line = 0;
				bool placed;

				if (f->regression != (pass == 0))
					continue;
				strbuf_reset(&file);
				placed = src && gout_source_place(src->where, ws, &file, &line);
				strbuf_reset(&title);
				strbuf_addf(&title, "renacer %s: %s", c->name ? c->name : "?",
					    gfind_kind_name(f->kind));
				gh_command(&sb, f->regression ? "error" : "warning",
					   placed ? file.buf : gold.len ? gold.buf : NULL, placed ? line : 0,
					   title.buf);
				if (f->proc) {
					strbuf_addch(&sb, '[');
					gh_text(&sb, f->proc);
					strbuf_addstr(&sb, "] ");
				}
				gh_text(&sb, f->message);
				if (f->detail && *f->detail) {
					strbuf_addstr(&sb, "%0A");
					gh_text(&sb, f->detail);
				}
				/* a detail ends in a newline: not twice */
				while (sb.len >= 3 && !strcmp(sb.buf + sb.len - 3, "%0A"))
					strbuf_setlen(&sb, sb.len - 3);
				strbuf_addch(&sb, '\n');
			}
		ret = put(fp, &sb);
	}
	strbuf_release(&sb);
	strbuf_release(&title);
	strbuf_release(&file);
	strbuf_release(&gold);
	return ret;
}

/* --- GitLab Code Quality --- */

/* 32 hex digits from key (two FNV-1a 64 hashes): stable from run to run. */
static void fingerprint(char out[33], const struct strbuf *key)
{
	uint64_t a = 14695981039346656037ULL, b = 1099511628211ULL ^ 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < key->len; i++) {
		a = (a ^ (unsigned char)key->buf[i]) * 1099511628211ULL;
		b = (b ^ (unsigned char)key->buf[key->len - 1 - i]) * 1099511628211ULL;
	}
	snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, a, b);
}

/* A JSON string of s (escaped when it is not UTF-8). */
static json_t *jstr(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (!s)
		return json_string("");
	if ((j = json_string(s)))
		return j;
	strbuf_add_cescaped(&sb, s, strlen(s), 0, CESC_KEEP_BACKSLASH | CESC_KEEP_NEWLINE);
	j = json_string(sb.buf);
	strbuf_release(&sb);
	return j ? j : json_string("?");
}

/* Appends an issue; seen counts the keys so far, so that twins differ. */
static void cq_issue(json_t *arr, json_t *seen, const char *desc, const char *check,
		     const char *severity, const char *path, unsigned long line,
		     const struct strbuf *key)
{
	struct strbuf k = STRBUF_INIT;
	char fp[33];
	json_t *o = json_object(), *loc = json_object(), *n;
	json_int_t times;

	strbuf_add(&k, key->buf, key->len);
	strbuf_addch(&k, '\0');
	strbuf_addstr(&k, path ? path : "");
	strbuf_addf(&k, ":%lu", line);
	fingerprint(fp, &k);
	n = json_object_get(seen, fp);
	times = n ? json_integer_value(n) : 0;
	json_object_set_new(seen, fp, json_integer(times + 1));
	if (times) {
		strbuf_addf(&k, "#%" JSON_INTEGER_FORMAT, times);
		fingerprint(fp, &k);
	}
	json_object_set_new(o, "type", json_string("issue"));
	json_object_set_new(o, "description", jstr(desc));
	json_object_set_new(o, "check_name", json_string(check));
	json_object_set_new(o, "categories", json_pack("[s]", "Performance"));
	json_object_set_new(o, "fingerprint", json_string(fp));
	json_object_set_new(o, "severity", json_string(severity));
	json_object_set_new(loc, "path", jstr(path && *path ? path : "renacer.toml"));
	json_object_set_new(loc, "lines", json_pack("{s:I}", "begin", (json_int_t)(line ? line : 1)));
	json_object_set_new(o, "location", loc);
	json_array_append_new(arr, o);
	strbuf_release(&k);
}

int gout_codequality(FILE *fp, const struct gout_case *k, size_t n, const struct golden_opts *o,
		     const struct gout_ci *ci)
{
	json_t *arr = json_array(), *seen = json_object();
	struct strbuf key = STRBUF_INIT, desc = STRBUF_INIT, file = STRBUF_INIT, gold = STRBUF_INIT;
	struct strbuf check = STRBUF_INIT, sb = STRBUF_INIT;
	const char *ws = ci ? ci->workspace : NULL;
	char *text;
	int ret;

	(void)o;
	for (size_t i = 0; i < n; i++) {
		const struct gout_case *c = &k[i];

		strbuf_reset(&gold);
		if (c->golden_path)
			rel_path(&gold, c->golden_path, ws);
		if (c->error) {
			strbuf_reset(&check);
			strbuf_addf(&check, "renacer/%s", golden_status_name(c->status));
			for (char *p = check.buf; *p; p++)
				if (*p == ' ')
					*p = '-';
			for (size_t j = 0; j < (c->nfiles ? c->nfiles : 1); j++) {
				strbuf_reset(&file);
				if (c->nfiles)
					rel_path(&file, c->files[j], ws);
				else
					strbuf_add(&file, gold.buf, gold.len);
				strbuf_reset(&desc);
				strbuf_addf(&desc, "%s: ", c->name ? c->name : "?");
				if (c->nfiles)
					strbuf_addf(&desc, "%s: ", file.buf);
				strbuf_addstr(&desc, c->nfiles && c->files_why ? c->files_why[j] : c->error);
				strbuf_reset(&key);
				strbuf_addstr(&key, c->name ? c->name : "");
				strbuf_addch(&key, '\0');
				strbuf_addstr(&key, check.buf);
				cq_issue(arr, seen, desc.buf, check.buf, "critical", file.buf, 0, &key);
			}
		}
		for (size_t j = 0; c->r && j < c->r->nf; j++) {
			const struct gfinding *f = &c->r->f[j];
			const struct gsource *src = gout_main_source(f);
			unsigned long line = 0;
			bool placed;

			strbuf_reset(&file);
			placed = src && gout_source_place(src->where, ws, &file, &line);
			if (!placed)
				strbuf_add(&file, gold.buf, gold.len);
			strbuf_reset(&desc);
			strbuf_addf(&desc, "%s: ", c->name ? c->name : "?");
			if (f->proc)
				strbuf_addf(&desc, "[%s] ", f->proc);
			strbuf_addstr(&desc, f->message ? f->message : "");
			strbuf_reset(&check);
			strbuf_addf(&check, "renacer/%s", gfind_kind_name(f->kind));
			strbuf_reset(&key);
			strbuf_addstr(&key, c->name ? c->name : "");
			strbuf_addch(&key, '\0');
			strbuf_addstr(&key, check.buf);
			strbuf_addch(&key, '\0');
			strbuf_addstr(&key, f->proc ? f->proc : "");
			strbuf_addch(&key, '\0');
			strbuf_addstr(&key, f->subject ? f->subject : "");
			cq_issue(arr, seen, desc.buf, check.buf, f->regression ? "major" : "info", file.buf,
				 line, &key);
		}
	}
	text = json_dumps(arr, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	json_decref(arr);
	json_decref(seen);
	if (!text) {
		errno = ENOMEM;
		ret = -1;
	} else {
		strbuf_addstr(&sb, text);
		strbuf_addch(&sb, '\n');
		free(text);
		ret = put(fp, &sb);
	}
	strbuf_release(&key);
	strbuf_release(&desc);
	strbuf_release(&file);
	strbuf_release(&gold);
	strbuf_release(&check);
	strbuf_release(&sb);
	return ret;
}
