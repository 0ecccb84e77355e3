/*
 * Unit tests for src/golden/model.c and compare.c on synthetic event
 * streams: the normalized keys (descriptors, pids, paths, random names,
 * addresses), volatile calls, and the comparison's findings and confidence.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "golden/compare.h"
#include "golden/model.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include "golden_events.h"
#include "util/banned.h"

static struct golden_opts opts;

/* An EV_SYSCALL with V_TEXT arguments "name=value" (as the reader gives). */
static void sys(struct sink *s, pid_t tid, const char *name, int64_t ret, int err,
		int nargs, ...)
{
	va_list ap;

	va_start(ap, nargs);
	ge_vsys(s, tid, tid, name, ret, err, 3000, nargs, ap);
	va_end(ap);
}

/* The keys of process label, joined by '\n'. */
static char *keys_of(const struct gmodel *m, const char *label, bool all)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct gproc *p = &m->procs[i];
		if (strcmp(p->label, label))
			continue;
		for (uint32_t j = 0; j < p->ncalls; j++) {
			if (!all && (p->calls[j].flags & (GC_VOLATILE | GC_IGNORED)))
				continue;
			strbuf_addstr(&sb, intern_str(&m->keys, p->calls[j].key));
			strbuf_addch(&sb, '\n');
		}
	}
	return strbuf_detach(&sb, NULL);
}

static struct gmodel *finish(struct gmodel *m, const char *cwd)
{
	struct gcontext ctx = { (char *)cwd, (char *)"/home/u", NULL };
	ge_forget(gmodel_sink(m));
	gmodel_finalize(m, &ctx);
	return m;
}

/* A descriptor leaked by the caller (5 instead of 3) changes nothing: keys
 * name what a descriptor refers to, never its number. */
static void feed_files(struct sink *s, int base)
{
	char fd[16], fd2[16];
	snprintf(fd, sizeof(fd), "%d", base);
	snprintf(fd2, sizeof(fd2), "%d", base + 1);
	sys(s, 100, "openat", base, 0, 3, "dfd", "AT_FDCWD", "filename", "\"/home/u/p/in.txt\"",
	    "flags", "O_RDONLY");
	sys(s, 100, "read", 12, 0, 3, "fd", fd, "buf", "\"hello\"", "count", "4096");
	sys(s, 100, "openat", base + 1, 0, 4, "dfd", "AT_FDCWD", "filename", "\"out.txt\"",
	    "flags", "O_WRONLY|O_CREAT|O_TRUNC", "mode", "0644");
	sys(s, 100, "write", 5, 0, 3, "fd", fd2, "buf", "\"x\"", "count", "5");
	sys(s, 100, "close", 0, 0, 1, "fd", fd);
	sys(s, 100, "openat", base, 0, 3, "dfd", "AT_FDCWD", "filename", "\"/proc/100/stat\"",
	    "flags", "O_RDONLY");
	sys(s, 100, "mmap", 0x7f1234560000, 0, 6, "addr", "NULL", "length", "8192", "prot",
	    "PROT_READ", "flags", "MAP_PRIVATE", "fd", fd, "offset", "0");
	sys(s, 100, "access", 0, 2, 2, "filename", "\"/etc/ld.so.preload\"", "mode", "R_OK");
}

static void test_keys(void **state)
{
	struct gmodel *m = gmodel_new(&opts), *m2 = gmodel_new(&opts);
	char *k, *k2;
	(void)state;

	feed_files(gmodel_sink(m), 3);
	feed_files(gmodel_sink(m2), 5);
	finish(m, "/home/u/p");
	finish(m2, "/home/u/p");
	k = keys_of(m, "1", true);
	k2 = keys_of(m2, "1", true);
	assert_string_equal(k,
		"openat(AT_FDCWD, \"$CWD/in.txt\", O_RDONLY) = fd\n"
		"read(<\"$CWD/in.txt\">) = ok\n"
		"openat(AT_FDCWD, \"out.txt\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = fd\n"
		"write(<\"out.txt\">) = ok\n"
		"close(<\"$CWD/in.txt\">) = 0\n"
		"openat(AT_FDCWD, \"/proc/PID/stat\", O_RDONLY) = fd\n"
		"mmap(NULL, _, PROT_READ, MAP_PRIVATE, <\"/proc/PID/stat\">) = ok\n"
		"access(\"/etc/ld.so.preload\", R_OK) = -1 ENOENT\n");
	assert_string_equal(k, k2);
	assert_int_equal(m->res.n, 4);   /* in.txt, out.txt opened and created, /proc stat */
	free(k);
	free(k2);
	gmodel_free(m);
	gmodel_free(m2);
}

/* Children and threads: labels by creation order, pids in keys, waits. */
static void test_processes(void **state)
{
	struct gmodel *m = gmodel_new(&opts);
	struct sink *s = gmodel_sink(m);
	char *k;
	(void)state;

	ge_start(s, 100, 100, 1, false);
	sys(s, 100, "clone", 4242, 0, 2, "flags", "CLONE_CHILD_SETTID|SIGCHLD", "child_tidptr",
	    "child_tidptr=0x7ffd12345678");
	ge_start(s, 4242, 4242, 100, false);
	sys(s, 4242, "kill", 0, 0, 2, "pid", "100", "sig", "SIGUSR1");
	sys(s, 100, "clone", 777, 0, 2, "flags", "CLONE_VM|CLONE_THREAD|CLONE_SIGHAND",
	    "child_tidptr", "child_tidptr=0x7ffd12345678");
	ge_start(s, 777, 100, 100, true);
	sys(s, 777, "futex", 0, 0, 2, "uaddr", "0x7f0000001000", "op", "FUTEX_WAKE_PRIVATE");
	sys(s, 100, "wait4", 4242, 0, 4, "pid", "-1", "stat_addr", "0x7ffd0000", "options", "0",
	    "ru", "NULL");
	sys(s, 100, "getppid", 1, 0, 0);
	finish(m, "/");
	assert_int_equal(m->nprocs, 3);
	assert_string_equal(m->procs[0].label, "1");
	assert_string_equal(m->procs[1].label, "1.1");
	assert_false(m->procs[1].is_thread);
	/* processes and threads are numbered apart */
	assert_string_equal(m->procs[2].label, "1/t1");
	assert_true(m->procs[2].is_thread);
	assert_true(m->procs[0].threaded);
	assert_int_equal(m->ngroups, 2);
	assert_string_equal(m->groups[0].label, "1");
	assert_int_equal(m->groups[0].nthreads, 1);
	assert_string_equal(m->groups[1].label, "1.1");
	assert_int_equal(m->groups[1].nthreads, 0);
	assert_int_equal(m->procs[2].group, 0);
	k = keys_of(m, "1", true);
	assert_string_equal(k,
		"clone(CLONE_CHILD_SETTID|SIGCHLD) = pid:1.1\n"
		"clone(CLONE_VM|CLONE_THREAD|CLONE_SIGHAND) = pid:1/t1\n"
		"wait4(-1, _, _, NULL) = pid:child\n"
		"getppid() = pid:?\n");
	free(k);
	k = keys_of(m, "1.1", true);
	assert_string_equal(k, "kill(pid:1, SIGUSR1) = 0\n");
	free(k);
	k = keys_of(m, "1/t1", false);          /* futex is volatile */
	assert_string_equal(k, "");
	free(k);
	gmodel_free(m);
}

/* mkstemp names and temporary directories are masked; pipes make reads volatile. */
static void test_random_and_volatile(void **state)
{
	struct gmodel *m = gmodel_new(&opts);
	struct sink *s = gmodel_sink(m);
	char *k;
	(void)state;

	sys(s, 100, "openat", 3, 0, 4, "dfd", "AT_FDCWD", "filename", "\"/var/lib/x/dataQ7z9Ab\"",
	    "flags", "O_RDWR|O_CREAT|O_EXCL", "mode", "0600");
	sys(s, 100, "unlink", 0, 0, 1, "pathname", "\"/var/lib/x/dataQ7z9Ab\"");
	sys(s, 100, "mkdir", 0, 0, 2, "pathname", "\"/tmp/tmp.k2J8sLq0Zx\"", "mode", "0700");
	sys(s, 100, "pipe2", 0, 0, 2, "fildes", "[4, 5]", "flags", "O_CLOEXEC");
	sys(s, 100, "read", 10, 0, 3, "fd", "4", "buf", "\"x\"", "count", "10");
	sys(s, 100, "read", 10, 0, 3, "fd", "3", "buf", "\"x\"", "count", "10");
	sys(s, 100, "write", 0, 11, 3, "fd", "3", "buf", "\"x\"", "count", "10");   /* EAGAIN */
	sys(s, 100, "getrandom", 8, 0, 3, "buf", "\"\\x01\"", "buflen", "8", "flags", "GRND_NONBLOCK");
	sys(s, 100, "sched_yield", 0, 0, 0);   /* the property table is sorted */
	sys(s, 100, "wait4", 0, 10, 4, "pid", "-1", "stat_addr", "NULL", "options", "WNOHANG", "ru", "NULL");
	sys(s, 100, "execve", 0, 0, 3, "filename", "\"/bin/true\"", "argv", "[\"true\"]", "envp",
	    "0x7ffd0000 /* 23 vars */");
	finish(m, "/home/u/p");
	k = keys_of(m, "1", false);
	assert_string_equal(k,
		"openat(AT_FDCWD, \"/var/lib/x/XXXXXX\", O_RDWR|O_CREAT|O_EXCL, 0600) = fd\n"
		"unlink(\"/var/lib/x/XXXXXX\") = 0\n"
		"mkdir(\"/tmp/tmp.XXXXXX\", 0700) = 0\n"
		"pipe2([fd, fd], O_CLOEXEC) = 0\n"
		"read(<\"/var/lib/x/XXXXXX\">) = ok\n"
		"wait4(-1, NULL, WNOHANG, NULL) = -1 ECHILD\n"
		"execve(\"/bin/true\", [\"true\"]) = 0\n");
	free(k);
	gmodel_free(m);
}

/* One extra call: a count finding, a new call, and the confidence formula. */
static void test_compare(void **state)
{
	struct gmodel *g = gmodel_new(&opts), *c = gmodel_new(&opts);
	struct gresult r;
	bool count = false, fails = false;
	(void)state;

	for (int i = 0; i < 2; i++) {
		struct sink *s = gmodel_sink(i ? c : g);
		sys(s, 100, "openat", 3, 0, 3, "dfd", "AT_FDCWD", "filename", "\"a\"", "flags", "O_RDONLY");
		sys(s, 100, "close", 0, 0, 1, "fd", "3");
		if (i) {
			sys(s, 100, "openat", 3, 0, 3, "dfd", "AT_FDCWD", "filename", "\"a\"", "flags",
			    "O_RDONLY");
			sys(s, 100, "close", 0, 0, 1, "fd", "3");
			sys(s, 100, "stat", 0, 2, 2, "filename", "\"b\"", "statbuf", "0x1234567");
		} else {
			sys(s, 100, "stat", 0, 0, 2, "filename", "\"b\"", "statbuf", "0x1234567");
		}
	}
	finish(g, "/");
	finish(c, "/");
	golden_compare(g, c, &opts, NULL, &r);
	for (size_t i = 0; i < r.nf; i++) {
		if (r.f[i].kind == GF_COUNT && !strcmp(r.f[i].subject, "openat"))
			count = strstr(r.f[i].message, "openat: 1 -> 2 calls (+100.0%") != NULL;
		if (r.f[i].kind == GF_FAILURE && r.f[i].regression)
			fails = strstr(r.f[i].message, "stat(\"b\") now fails with ENOENT") != NULL;
	}
	assert_true(count);
	assert_true(fails);
	assert_true(r.regression);
	assert_false(r.pass);
	/* golden 3 calls, current 5, common 2: S_seq = 4/8 */
	assert_true(r.s_seq > 0.499 && r.s_seq < 0.501);
	/* counts: openat 1/2, close 1/2, stat 1/1 -> 1 - 2/8 */
	assert_true(r.s_cnt > 0.749 && r.s_cnt < 0.751);
	double want = 0.5 * r.s_seq + 0.25 * r.s_cnt + 0.25 * r.s_res;
	assert_true(r.confidence > want - 1e-9 && r.confidence < want + 1e-9);
	gresult_release(&r);
	/* a trace against itself: confidence 1, pass */
	golden_compare(g, g, &opts, NULL, &r);
	assert_true(r.pass);
	assert_true(r.confidence > 0.999999);
	assert_int_equal(r.nf, 0);
	gresult_release(&r);
	gmodel_free(g);
	gmodel_free(c);
}

/* User rules and ignore lists. */
static void test_rules(void **state)
{
	struct golden_opts o;
	struct gmodel *m;
	struct sink *s;
	char *k;
	(void)state;

	golden_opts_init(&o);
	assert_int_equal(golden_opts_add_rule(&o, "build-([0-9]+)", "build-N"), 0);
	o.ignore_syscalls = xcalloc(2, sizeof(char *));
	o.ignore_syscalls[0] = xstrdup("getpid");
	o.nignore_syscalls = 1;
	o.ignore_paths = xcalloc(2, sizeof(char *));
	o.ignore_paths[0] = xstrdup("/etc/*");
	o.nignore_paths = 1;
	m = gmodel_new(&o);
	s = gmodel_sink(m);
	sys(s, 100, "openat", 3, 0, 3, "dfd", "AT_FDCWD", "filename", "\"/etc/passwd\"", "flags",
	    "O_RDONLY");
	sys(s, 100, "read", 10, 0, 3, "fd", "3", "buf", "\"x\"", "count", "10");
	sys(s, 100, "close", 0, 0, 1, "fd", "3");
	sys(s, 100, "getpid", 100, 0, 0);
	sys(s, 100, "openat", 3, 0, 3, "dfd", "AT_FDCWD", "filename", "\"/srv/build-42/log\"",
	    "flags", "O_RDONLY");
	finish(m, "/");
	k = keys_of(m, "1", false);
	assert_string_equal(k, "openat(AT_FDCWD, \"/srv/build-N/log\", O_RDONLY) = fd\n");
	free(k);
	gmodel_free(m);
	assert_int_equal(golden_opts_add_rule(&o, "(", "x"), -1);
	golden_opts_release(&o);
}

static int setup(void **state)
{
	(void)state;
	golden_opts_init(&opts);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_processes),
		cmocka_unit_test(test_random_and_volatile),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_rules),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
