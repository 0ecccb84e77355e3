/* A command's run set-up, applied in the child (see setup.h). */
#include "core/setup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/pathsearch.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include "util/banned.h"

/* Index of the entry of env naming the len-byte variable var, or n. */
static size_t env_find(char **env, size_t n, const char *var, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(env[i], var, len) && (env[i][len] == '=' || env[i][len] == '\0'))
			return i;
	return n;
}

/*
 * The command's environment: env (renacer's) with each change applied in
 * order: "VAR=VAL" sets VAR, "VAR" removes it.  Returns a malloc'ed,
 * NULL-terminated array whose strings belong to env and changes (free only
 * the array), or env itself when there are no changes.
 */
static char **make_env(char **env, char *const *changes, size_t nchanges)
{
	size_t n = 0, i;
	char **out;

	if (!nchanges)
		return env;
	while (env && env[n])
		n++;
	out = xcalloc(n + nchanges + 1, sizeof(*out));
	if (n)
		memcpy(out, env, n * sizeof(*out));
	for (i = 0; i < nchanges; i++) {
		char *var = changes[i];
		const char *eq = strchr(var, '=');
		size_t len = eq ? (size_t)(eq - var) : strlen(var);
		size_t at = env_find(out, n, var, len);

		if (eq) {
			out[at] = var;        /* replace, or add at the end */
			if (at == n)
				n++;
		} else {
			/* remove every entry of VAR, keeping the order */
			size_t w = 0;
			for (size_t r = 0; r < n; r++)
				if (!(!strncmp(out[r], var, len) &&
				      (out[r][len] == '=' || out[r][len] == '\0')))
					out[w++] = out[r];
			n = w;
		}
	}
	out[n] = NULL;
	return out;
}

void run_setup_init(struct run_setup *s)
{
	static const struct run_setup blank = RUN_SETUP_INIT;
	*s = blank;
}

void run_setup_release(struct run_setup *s)
{
	for (size_t i = 0; i < s->nenv; i++)
		free(s->env[i]);
	free(s->env);
	free(s->cwd);
	for (int k = 0; k < 3; k++)
		if (s->owned[k] >= 0)
			close(s->owned[k]);
	free(s->envp);
	free(s->cwd_path);
	if (s->cwd_fd >= 0)
		close(s->cwd_fd);
	run_setup_init(s);
}

void run_setup_env(struct run_setup *s, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, name);
	if (value) {
		strbuf_addch(&sb, '=');
		strbuf_addstr(&sb, value);
	}
	ALLOC_GROW(s->env, s->nenv + 1, s->aenv);
	s->env[s->nenv++] = strbuf_detach(&sb, NULL);
}

void run_setup_env_change(struct run_setup *s, const char *change)
{
	ALLOC_GROW(s->env, s->nenv + 1, s->aenv);
	s->env[s->nenv++] = xstrdup(change);
}

char *run_setup_env_split(const char *change, const char **value)
{
	const char *eq = strchr(change, '=');

	*value = eq ? eq + 1 : NULL;
	return eq ? xstrndup(change, (size_t)(eq - change)) : xstrdup(change);
}

void run_setup_chdir(struct run_setup *s, const char *dir)
{
	free(s->cwd);
	s->cwd = dir ? xstrdup(dir) : NULL;
}

void run_setup_stdio_fd(struct run_setup *s, int k, int fd)
{
	if (s->owned[k] >= 0)
		close(s->owned[k]);
	s->owned[k] = -1;
	s->stdio[k] = fd;
}

int run_setup_stdio_path(struct run_setup *s, int k, const char *path)
{
	int fd = open(path, k ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_RDONLY | O_CLOEXEC,
		      0666);

	if (fd < 0)
		return error("cannot open '%s': %s", esc(path), strerror(errno));
	run_setup_stdio_fd(s, k, fd);
	s->owned[k] = fd;
	return 0;
}

int run_setup_prepare(struct run_setup *s, char **base)
{
	char **envp = make_env(base, s->env, s->nenv);

	/* a copy even without changes: s owns what it frees */
	if (envp == base) {
		size_t n = 0;
		while (base && base[n])
			n++;
		envp = xcalloc(n + 1, sizeof(*envp));
		if (n)
			memcpy(envp, base, n * sizeof(*envp));
	}
	free(s->envp);
	s->envp = envp;
	if (s->cwd && s->cwd_fd < 0) {
		/* opened here, so that a missing directory is said before
		 * anything starts and the child cannot fail on it */
		s->cwd_fd = open(s->cwd, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (s->cwd_fd < 0 || access(s->cwd, X_OK) < 0 ||
		    !(s->cwd_path = realpath(s->cwd, NULL)))
			return error("cannot change to directory '%s': %s", esc(s->cwd),
				     strerror(errno));
	}
	return 0;
}

const char *run_setup_getenv(const struct run_setup *s, const char *name)
{
	size_t len = strlen(name);

	for (char **v = s->envp; v && *v; v++)
		if (!strncmp(*v, name, len) && (*v)[len] == '=')
			return *v + len + 1;
	return NULL;
}

char *const *run_setup_envp(const struct run_setup *s, char *const *dflt)
{
	return s && s->envp ? s->envp : dflt;
}

char *run_setup_find_program(const struct run_setup *s, const char *prog)
{
	if (!s || s->own_path)
		return path_search(prog);
	return path_search_in(prog, run_setup_getenv(s, "PATH"), s->cwd_path);
}

int run_setup_apply(const struct run_setup *s)
{
	int tmp[3] = { -1, -1, -1 }, e = 0;

	if (!s)
		return 0;
	/* every source out of 0-2 first: a source may be one of them (the
	 * command's stdout as renacer's stdin); the copies are close-on-exec */
	for (int k = 0; k < 3 && !e; k++)
		if (s->stdio[k] >= 0 && (tmp[k] = fcntl(s->stdio[k], F_DUPFD_CLOEXEC, 3)) < 0)
			e = errno;
	for (int k = 0; k < 3 && !e; k++) {
		if (tmp[k] >= 0 && dup2(tmp[k], k) < 0)   /* dup2 clears close-on-exec */
			e = errno;
		else if (s->stdio[k] == RUN_STDIO_CLOSED)
			close(k);
	}
	for (int k = 0; k < 3; k++)
		if (tmp[k] >= 0)
			close(tmp[k]);
	if (!e && s->cwd_fd >= 0 && fchdir(s->cwd_fd) < 0)
		e = errno;
	return e;
}
