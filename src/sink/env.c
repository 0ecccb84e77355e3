/* The run environment of a trace (see env.h). */
#include "sink/env.h"
#include "sink/sinkout.h"
#include "util/xmalloc.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/banned.h"

extern char **environ;

const char *const trace_env_default_vars[] = {
	"PATH", "LANG", "LANGUAGE", "LC_*", "TZ", "TERM", "COLUMNS", "LINES",
	"GLIBC_TUNABLES", "MALLOC_*", "POSIXLY_CORRECT", NULL,
};

static const char *const kind_names[SK_NKINDS] = {
	"unknown", "null", "file", "pipe", "socket", "tty", "device", "closed", "other",
};

const char *stdio_kind_name(int kind)
{
	return kind >= 0 && kind < SK_NKINDS ? kind_names[kind] : "unknown";
}

int stdio_kind_parse(const char *s)
{
	for (int i = 0; i < SK_NKINDS; i++)
		if (!strcmp(kind_names[i], s))
			return i;
	return -1;
}

const char *stdio_kind_phrase(int kind)
{
	static const char *const p[SK_NKINDS] = {
		"not recorded", "/dev/null", "a regular file", "a pipe", "a socket", "a terminal",
		"a device", "closed", "another kind of file",
	};
	return kind >= 0 && kind < SK_NKINDS ? p[kind] : p[0];
}

int stdio_kind_of_fd(int fd)
{
	struct stat st, sn;

	if (fstat(fd, &st) < 0)
		return SK_CLOSED;
	if (S_ISREG(st.st_mode))
		return SK_FILE;
	if (S_ISFIFO(st.st_mode))
		return SK_PIPE;
	if (S_ISSOCK(st.st_mode))
		return SK_SOCKET;
	if (S_ISCHR(st.st_mode)) {
		if (isatty(fd))
			return SK_TTY;
		if (!stat("/dev/null", &sn) && sn.st_rdev == st.st_rdev)
			return SK_NULL;
		return SK_DEVICE;
	}
	if (S_ISBLK(st.st_mode))
		return SK_DEVICE;
	return SK_OTHER;
}

static int var_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t nx = strcspn(x, "="), ny = strcspn(y, "=");
	int c = strncmp(x, y, nx < ny ? nx : ny);
	return c ? c : (nx > ny) - (nx < ny);
}

static ssize_t find_var(const struct trace_env *e, const char *name, size_t len)
{
	for (size_t i = 0; i < e->nvars; i++)
		if (!strncmp(e->vars[i], name, len) &&
		    (e->vars[i][len] == '=' || e->vars[i][len] == '\0'))
			return (ssize_t)i;
	return -1;
}

void trace_env_set_var(struct trace_env *e, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	ssize_t i = find_var(e, name, strlen(name));

	strbuf_addstr(&sb, name);
	if (value) {
		strbuf_addch(&sb, '=');
		strbuf_addstr(&sb, value);
	}
	if (i >= 0) {
		free(e->vars[i]);
		e->vars[i] = strbuf_detach(&sb, NULL);
		return;
	}
	e->vars = xreallocarray(e->vars, e->nvars + 2, sizeof(*e->vars));
	e->vars[e->nvars++] = strbuf_detach(&sb, NULL);
	e->vars[e->nvars] = NULL;
	QSORT(e->vars, e->nvars, var_cmp);
}

const char *trace_env_var(const struct trace_env *e, const char *name, bool *set)
{
	ssize_t i = find_var(e, name, strlen(name));

	*set = false;
	if (i < 0)
		return NULL;
	if (!strchr(e->vars[i], '='))
		return "";
	*set = true;
	return strchr(e->vars[i], '=') + 1;
}

/* The value of name in envp, or NULL. */
static const char *env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (char *const *v = envp; v && *v; v++)
		if (!strncmp(*v, name, len) && (*v)[len] == '=')
			return *v + len + 1;
	return NULL;
}

void trace_env_capture_run(struct trace_env *e, const char *const *patterns,
			   char *const *envp, const char *cwd, const int *fds)
{
	char *here = NULL;

	memset(e, 0, sizeof(*e));
	if (!patterns)
		patterns = trace_env_default_vars;
	if (!envp)
		envp = environ;
	for (int fd = 0; fd < 3; fd++)
		e->stdio[fd] = !fds || fds[fd] == -1 ? stdio_kind_of_fd(fd)
			     : fds[fd] < 0 ? SK_CLOSED : stdio_kind_of_fd(fds[fd]);
	if (!cwd)
		cwd = here = getcwd(NULL, 0);
	e->cwd = cwd ? xstrdup(cwd) : NULL;
	free(here);
	for (char *const *v = envp; v && *v; v++) {
		size_t n = strcspn(*v, "=");
		struct strbuf name = STRBUF_INIT;
		strbuf_add(&name, *v, n);
		for (const char *const *p = patterns; *p; p++)
			if (!fnmatch(*p, name.buf, 0)) {
				trace_env_set_var(e, name.buf, (*v)[n] ? *v + n + 1 : "");
				break;
			}
		strbuf_release(&name);
	}
	/* named variables that are unset are recorded as unset */
	for (const char *const *p = patterns; *p; p++)
		if (!strpbrk(*p, "*?[") && !env_get(envp, *p))
			trace_env_set_var(e, *p, NULL);
}

void trace_env_capture(struct trace_env *e, const char *const *patterns)
{
	trace_env_capture_run(e, patterns, NULL, NULL, NULL);
}

void trace_env_release(struct trace_env *e)
{
	for (size_t i = 0; i < e->nvars; i++)
		free(e->vars[i]);
	free(e->vars);
	free(e->cwd);
	memset(e, 0, sizeof(*e));
}

void trace_env_copy(struct trace_env *dst, const struct trace_env *src)
{
	memset(dst, 0, sizeof(*dst));
	memcpy(dst->stdio, src->stdio, sizeof(dst->stdio));
	dst->cwd = src->cwd ? xstrdup(src->cwd) : NULL;
	dst->vars = xcalloc(src->nvars + 1, sizeof(*dst->vars));
	for (size_t i = 0; i < src->nvars; i++)
		dst->vars[i] = xstrdup(src->vars[i]);
	dst->nvars = src->nvars;
}

void trace_env_json(struct strbuf *sb, const struct trace_env *e)
{
	static const char *const names[3] = { "stdin", "stdout", "stderr" };

	strbuf_addstr(sb, "{\"cwd\": ");
	strbuf_add_json_cstr(sb, e->cwd);
	strbuf_addstr(sb, ", \"stdio\": {");
	for (int i = 0; i < 3; i++)
		strbuf_addf(sb, "%s\"%s\": \"%s\"", i ? ", " : "", names[i],
			    stdio_kind_name(e->stdio[i]));
	strbuf_addstr(sb, "}, \"variables\": {");
	for (size_t i = 0; i < e->nvars; i++) {
		const char *v = e->vars[i], *eq = strchr(v, '=');
		size_t n = eq ? (size_t)(eq - v) : strlen(v);
		if (i)
			strbuf_addstr(sb, ", ");
		strbuf_add_json_str(sb, v, n);
		strbuf_addstr(sb, ": ");
		strbuf_add_json_cstr(sb, eq ? eq + 1 : NULL);
	}
	strbuf_addstr(sb, "}}");
}
