/* path_search(): the PATH lookup of execvp(), done by the tracer before fork. */
#include "util/pathsearch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

char *path_search(const char *prog)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;
	int saved = ENOENT;

	if (strchr(prog, '/')) {
		if (access(prog, X_OK) == 0)
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
		if (stat(sb.buf, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(sb.buf, X_OK) == 0)
				return strbuf_detach(&sb, NULL);
			saved = EACCES;
		}
		path = colon ? colon + 1 : path + len;
	}
	strbuf_release(&sb);
	errno = saved;
	return NULL;
}
