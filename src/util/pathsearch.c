/* path_search(): the PATH lookup of execvp(), done by the engines before fork. */
#include "util/pathsearch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* Whether cand (relative to dir when it is relative) satisfies access(mode). */
static int access_in(const char *dir, const char *cand, int mode, struct stat *st)
{
	struct strbuf full = STRBUF_INIT;
	int r;

	if (dir && cand[0] != '/') {
		strbuf_addf(&full, "%s/%s", dir, cand);
		cand = full.buf;
	}
	r = st ? stat(cand, st) : access(cand, mode);
	strbuf_release(&full);
	return r;
}

char *path_search_in(const char *prog, const char *path, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	int saved = ENOENT;

	if (strchr(prog, '/')) {
		if (access_in(dir, prog, X_OK, NULL) == 0)
			return xstrdup(prog);
		return NULL;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		struct stat st;

		strbuf_reset(&sb);
		if (len)
			strbuf_add(&sb, path, len);
		else
			strbuf_addch(&sb, '.');
		strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, prog);
		if (access_in(dir, sb.buf, 0, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access_in(dir, sb.buf, X_OK, NULL) == 0)
				return strbuf_detach(&sb, NULL);
			saved = EACCES;
		}
		path = colon ? colon + 1 : path + len;
	}
	strbuf_release(&sb);
	errno = saved;
	return NULL;
}

char *path_search(const char *prog)
{
	return path_search_in(prog, getenv("PATH"), NULL);
}
