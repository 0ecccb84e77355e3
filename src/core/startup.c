/*
 * Starting the command as strace does (see startup.h): -E, -u, -D, -I.
 */
#include "core/startup.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

int startup_lookup_user(const char *name, struct run_as *u)
{
	struct passwd *pw;

	if (getuid() != 0 || geteuid() != 0)
		return error("you must be root to use the -u/--user option");
	errno = 0;
	pw = getpwnam(name);
	if (!pw)
		return error("cannot find user '%s'", esc(name));
	u->name = name;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	return 0;
}

int startup_become_user(const struct run_as *u, const char *path)
{
	struct stat st;
	uid_t euid = u->uid;
	gid_t egid = u->gid;

	/* a set-user-ID/set-group-ID command runs with its owner's ids, as
	 * it would if the user started it; the tracer is privileged, so the
	 * kernel honours the bits at exec */
	if (path && stat(path, &st) == 0) {
		if (st.st_mode & S_ISUID)
			euid = st.st_uid;
		if (st.st_mode & S_ISGID)
			egid = st.st_gid;
	}
	if (initgroups(u->name, u->gid) < 0)
		return errno;
	if (setregid(u->gid, egid) < 0)
		return errno;
	if (setreuid(u->uid, euid) < 0)
		return errno;
	return 0;
}

/* The middle process of -D, killed by the tracer once it is attached. */
static pid_t daemon_middle;

/* Finds prog in PATH as execvp does (for the set-user-ID check of -u). */
static char *lookup(const char *prog)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;

	if (strchr(prog, '/'))
		return xstrdup(prog);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);

		strbuf_reset(&sb);
		strbuf_add(&sb, len ? path : ".", len ? len : 1);
		strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, prog);
		struct stat st;
		if (stat(sb.buf, &st) == 0 && S_ISREG(st.st_mode) && access(sb.buf, X_OK) == 0)
			return strbuf_detach(&sb, NULL);
		path = colon ? colon + 1 : path + len;
	}
	strbuf_release(&sb);
	return NULL;
}

int startup_daemonize(int level, const char *path, char *const argv[],
		      char *const envp[], const struct run_as *u, pid_t *tracee)
{
	pid_t original = getpid(), mid;
	char *found = path ? NULL : lookup(argv[0]);

	/* like strace, the program is found in PATH first and executed with
	 * one execve (no failed attempts in the trace) */
	if (!path && !found) {
		return error("cannot run '%s': %s", esc(argv[0]), strerror(ENOENT));
	}
	if (!path)
		path = found;
	/* a tracer below its tracee needs the tracee's consent under Yama */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	fflush(NULL);
	mid = fork();
	if (mid < 0)
		return error("cannot fork: %s", strerror(errno));
	if (mid > 0) {
		/* the original process: becomes the command once the tracer
		 * (our grandchild) has attached and killed the middle one */
		int e;

		while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
			;
		if (u && (e = startup_become_user(u, path)) != 0) {
			error("cannot run '%s' as user '%s': %s", esc(argv[0]), esc(u->name), strerror(e));
			_exit(1);
		}
		execve(path, argv, envp);
		error("cannot run '%s': %s", esc(argv[0]), strerror(errno));
		_exit(127);
	}
	free(found);
	/* the middle process: waits to be killed by the tracer */
	pid_t gc = fork();
	if (gc < 0) {
		error("cannot fork: %s", strerror(errno));
		_exit(1);
	}
	if (gc > 0) {
		for (;;)
			pause();
	}
	/* the grandchild: the tracer */
	daemon_middle = getppid();
	if (level == 2 && setpgid(0, 0) < 0)
		return error("cannot create a new process group: %s", strerror(errno));
	if (level >= 3 && setsid() < 0)
		return error("cannot create a new session: %s", strerror(errno));
	*tracee = original;
	return 0;
}

void startup_daemon_release(void)
{
	if (daemon_middle > 0)
		kill(daemon_middle, SIGKILL);
	daemon_middle = 0;
}

void startup_signals(int interruptible)
{
	static const int fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM };
	struct sigaction sa;

	if (interruptible != 1 && interruptible != 3 && interruptible != 4)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = interruptible == 1 ? SIG_DFL : SIG_IGN;
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	if (interruptible == 4)
		sigaction(SIGTSTP, &sa, NULL);
}
