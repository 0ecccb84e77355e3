/*
 * Unit tests for a command's run set-up (src/core/setup.c): the child's
 * environment is a copy of the base with the changes applied in order
 * (set, replace, unset), the program is found in the set-up's PATH and
 * relative to its directory, and a command started by the ptrace engine
 * or by an untraced run gets the directory, variables and standard
 * streams of the set-up while renacer's own stay as they were, during
 * the run too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/setup.h"
#include "core/tracer.h"
#include "measure/measure.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include "util/banned.h"

static char dir[4096];       /* a scratch directory, absolute */

static void test_env(void **state)
{
	char *base[] = { (char *)"A=1", (char *)"B=2", (char *)"PATH=/nowhere", NULL };
	struct run_setup s = RUN_SETUP_INIT;
	(void)state;

	run_setup_env(&s, "A", "9");       /* replaced in place */
	run_setup_env(&s, "B", NULL);      /* removed */
	run_setup_env(&s, "C", "3");       /* added at the end */
	run_setup_env(&s, "NONE", NULL);   /* unset when unset: nothing */
	run_setup_env(&s, "C", "4");       /* the last change wins */
	assert_int_equal(run_setup_prepare(&s, base), 0);
	assert_string_equal(s.envp[0], "A=9");
	assert_string_equal(s.envp[1], "PATH=/nowhere");
	assert_string_equal(s.envp[2], "C=4");
	assert_null(s.envp[3]);
	assert_string_equal(run_setup_getenv(&s, "A"), "9");
	assert_null(run_setup_getenv(&s, "B"));
	/* the base is a copy's source, never changed */
	assert_string_equal(base[1], "B=2");
	assert_ptr_not_equal(run_setup_envp(&s, base), base);
	run_setup_release(&s);
	/* without changes: the base, copied */
	assert_int_equal(run_setup_prepare(&s, base), 0);
	assert_string_equal(s.envp[1], "B=2");
	assert_null(s.envp[3]);
	run_setup_release(&s);
	assert_ptr_equal(run_setup_envp(NULL, base), base);
}

/* strace's -E forms: "VAR=VAL" sets (the value may hold '='), "VAR" unsets,
 * "VAR=" sets it empty. */
static void test_env_change(void **state)
{
	char *base[] = { (char *)"A=1", (char *)"B=2", NULL };
	struct run_setup s = RUN_SETUP_INIT;
	const char *value;
	char *name;
	(void)state;

	name = run_setup_env_split("X=a=b", &value);
	assert_string_equal(name, "X");
	assert_string_equal(value, "a=b");
	free(name);
	name = run_setup_env_split("Y", &value);
	assert_string_equal(name, "Y");
	assert_null(value);
	free(name);
	name = run_setup_env_split("Z=", &value);
	assert_string_equal(name, "Z");
	assert_string_equal(value, "");
	free(name);

	run_setup_env_change(&s, "A");
	run_setup_env_change(&s, "X=a=b");
	run_setup_env_change(&s, "B=");
	assert_int_equal(run_setup_prepare(&s, base), 0);
	assert_string_equal(s.envp[0], "B=");
	assert_string_equal(s.envp[1], "X=a=b");
	assert_null(s.envp[2]);
	run_setup_release(&s);
}

/* Writes an executable script at path. */
static void make_prog(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static void test_path_search(void **state)
{
	struct run_setup s = RUN_SETUP_INIT;
	struct strbuf p = STRBUF_INIT;
	char *base[] = { (char *)"PATH=/usr/bin:/bin", NULL };
	char *found;
	(void)state;

	strbuf_addf(&p, "%s/bin", dir);
	assert_int_equal(mkdir(p.buf, 0755), 0);
	strbuf_addstr(&p, "/setup-only-prog");
	make_prog(p.buf);

	/* renacer's own PATH does not have it */
	assert_null(run_setup_find_program(NULL, "setup-only-prog"));
	/* the set-up's PATH, a relative entry under the set-up's directory */
	run_setup_env(&s, "PATH", "/usr/bin:bin");
	run_setup_chdir(&s, dir);
	assert_int_equal(run_setup_prepare(&s, base), 0);
	found = run_setup_find_program(&s, "setup-only-prog");
	assert_non_null(found);
	assert_string_equal(found, "bin/setup-only-prog");   /* as execve gets it there */
	free(found);
	/* a path with a '/' is relative to the set-up's directory too */
	found = run_setup_find_program(&s, "./bin/setup-only-prog");
	assert_non_null(found);
	free(found);
	assert_null(run_setup_find_program(&s, "sh-not-here-either"));
	run_setup_release(&s);

	/* PATH unset in the set-up: the default list, not renacer's */
	run_setup_env(&s, "PATH", NULL);
	assert_int_equal(run_setup_prepare(&s, base), 0);
	found = run_setup_find_program(&s, "sh");
	assert_non_null(found);
	assert_true(!strcmp(found, "/usr/bin/sh") || !strcmp(found, "/bin/sh"));
	free(found);
	run_setup_release(&s);
	strbuf_release(&p);
}

static void test_bad_dir(void **state)
{
	struct run_setup s = RUN_SETUP_INIT;
	char *base[] = { NULL };
	(void)state;

	run_setup_chdir(&s, "/nonexistent/renacer-setup");
	assert_int_equal(run_setup_prepare(&s, base), -1);
	run_setup_release(&s);
	assert_int_equal(run_setup_stdio_path(&s, 0, "/nonexistent/in"), -1);
	run_setup_release(&s);
}

/* A sink that looks at renacer's own state at every event of the run. */
struct watch {
	struct sink base;
	const char *cwd;
	unsigned events, disturbed;
};

static void watch_event(struct sink *sk, const struct event *ev)
{
	struct watch *w = (struct watch *)sk;
	char *here = getcwd(NULL, 0);
	const char *x = getenv("SETUP_X");
	(void)ev;

	w->events++;
	if (!here || strcmp(here, w->cwd) || !x || strcmp(x, "mine"))
		w->disturbed++;
	free(here);
}

static void watch_free(struct sink *sk)
{
	(void)sk;
}

static const struct sink_ops watch_ops = {
	.name = "watch", .no_args = 1, .event = watch_event, .free = watch_free,
};

/* The set-up of the runs below: sub/ of dir, SETUP_X=child, stdin from
 * in.txt, stdout to out.txt (both in dir, given relative to it). */
static void runs_setup(struct run_setup *s)
{
	run_setup_env(s, "SETUP_X", "child");
	run_setup_env(s, "SETUP_GONE", NULL);
	run_setup_chdir(s, "sub");
	assert_int_equal(run_setup_stdio_path(s, 0, "in.txt"), 0);
	assert_int_equal(run_setup_stdio_path(s, 1, "out.txt"), 0);
	run_setup_stdio_fd(s, 2, RUN_STDIO_CLOSED);
}

/* What the command of the runs printed, checked; renacer's state too. */
static void check_run(const char *cwd0, ino_t out_ino)
{
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	char *here = getcwd(NULL, 0);
	struct stat st;

	assert_non_null(here);
	assert_string_equal(here, cwd0);
	free(here);
	assert_string_equal(getenv("SETUP_X"), "mine");
	assert_string_equal(getenv("SETUP_GONE"), "still");
	assert_int_equal(fstat(1, &st), 0);
	assert_true(st.st_ino == out_ino);
	strbuf_addf(&want, "%s/sub\nchild\n-\nfrom stdin\nclosed\n", cwd0);
	assert_int_equal(strbuf_read_file(&got, "out.txt"), 0);
	assert_string_equal(got.buf, want.buf);
	strbuf_release(&want);
	strbuf_release(&got);
}

static char *const run_argv[] = {
	(char *)"sh", (char *)"-c",
	(char *)"pwd; echo \"$SETUP_X\"; echo \"${SETUP_GONE:--}\"; cat; "
		"if [ -e /proc/$$/fd/2 ]; then echo open; else echo closed; fi",
	NULL,
};

static void test_runs(void **state)
{
	char *cwd0 = getcwd(NULL, 0);
	struct run_setup s = RUN_SETUP_INIT;
	struct measure m;
	struct msample ms;
	struct stat st;
	FILE *f;
	(void)state;

	assert_int_equal(chdir(dir), 0);
	free(cwd0);
	cwd0 = getcwd(NULL, 0);
	assert_int_equal(mkdir("sub", 0755), 0);
	f = fopen("in.txt", "w");
	assert_non_null(f);
	fputs("from stdin\n", f);
	fclose(f);
	setenv("SETUP_X", "mine", 1);
	setenv("SETUP_GONE", "still", 1);
	assert_int_equal(fstat(1, &st), 0);

	/* traced (the ptrace engine), watched during the run */
	{
		struct tracer_opts to;
		struct sink_list sl = SINK_LIST_INIT;
		struct watch w = { { &watch_ops }, cwd0, 0, 0 };
		struct trace_end end;

		runs_setup(&s);
		assert_int_equal(run_setup_prepare(&s, environ), 0);
		memset(&to, 0, sizeof(to));
		to.follow = true;
		to.setup = &s;
		sink_list_add(&sl, &w.base);
		assert_int_equal(tracer_run(&to, run_argv, &sl, &end), 0);
		assert_int_equal(end.exit_code, 0);
		assert_true(w.events > 10);
		assert_int_equal(w.disturbed, 0);
		sink_list_release(&sl);
		run_setup_release(&s);
		check_run(cwd0, st.st_ino);
	}
	/* untraced (the timing runs) */
	unlink("out.txt");
	runs_setup(&s);
	assert_int_equal(run_setup_prepare(&s, environ), 0);
	measure_init(&m, NULL);
	assert_int_equal(measure_run(&m, run_argv, &s, &ms), 0);
	measure_release(&m);
	assert_int_equal(ms.exit_code, 0);
	run_setup_release(&s);
	check_run(cwd0, st.st_ino);
	free(cwd0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_env_change),
		cmocka_unit_test(test_path_search),
		cmocka_unit_test(test_bad_dir),
		cmocka_unit_test(test_runs),
	};
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/setup.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	error_set_hook(NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
