/*
 * Unit tests for src/util/atomicfile.c: where a write lands (regular
 * files, symbolic links, /dev/stdout-like links, FIFOs, directories), the
 * temporary's name and mode, and which stale temporaries are removed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/atomicfile.h"
#include "util/error.h"
#include "util/strbuf.h"

#include "util/banned.h"

static char dir[256];
static char msg[1024];

static void hook(const char *kind, const char *m)
{
	(void)kind;
	snprintf(msg, sizeof(msg), "%s", m);
}

static const char *in_dir(const char *name)
{
	static char p[4][PATH_MAX];
	static int n;
	char *r = p[n++ % 4];

	if ((size_t)snprintf(r, PATH_MAX, "%.255s/%.255s", dir, name) >= PATH_MAX)
		fail_msg("path too long");
	return r;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/atomicfile.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
	error_set_hook(hook);
	return 0;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	error_set_hook(NULL);
	return 0;
}

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path) < 0)
		return NULL;
	return strbuf_detach(&sb, NULL);
}

/* Number of entries of dir whose name starts with prefix. */
static int count_prefix(const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static void test_regular_and_mode(void **state)
{
	struct atomicfile af;
	struct stat st;
	mode_t old = umask(027);
	char *s;

	(void)state;
	assert_int_equal(atomicfile_open(&af, in_dir("new.txt")), 0);
	fputs("hello\n", af.fp);
	/* the temporary is private, hidden, and the only trace so far */
	assert_int_equal(count_prefix(".renacer-tmp-"), 1);
	assert_int_equal(access(in_dir("new.txt"), F_OK), -1);
	assert_int_equal(fstat(fileno(af.fp), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(atomicfile_commit(&af), 0);
	assert_int_equal(stat(in_dir("new.txt"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);     /* 0666 less the umask */
	assert_string_equal(s = slurp(in_dir("new.txt")), "hello\n");
	free(s);
	assert_int_equal(count_prefix(".renacer-tmp-"), 0);

	/* replacing keeps the old file's mode */
	assert_int_equal(chmod(in_dir("new.txt"), 0604), 0);
	assert_int_equal(write_file_atomic(in_dir("new.txt"), "x", 1), 0);
	assert_int_equal(stat(in_dir("new.txt"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0604);
	umask(old);

	/* abort leaves the old file and no temporary */
	assert_int_equal(atomicfile_open(&af, in_dir("new.txt")), 0);
	fputs("partial", af.fp);
	atomicfile_abort(&af);
	assert_string_equal(s = slurp(in_dir("new.txt")), "x");
	free(s);
	assert_int_equal(count_prefix(".renacer-tmp-"), 0);
}

static void test_symlinks(void **state)
{
	struct stat st;
	char *s;

	(void)state;
	/* a link is followed, the link stays, its target is replaced */
	assert_int_equal(symlink("target.txt", in_dir("link.txt")), 0);
	assert_int_equal(write_file_atomic(in_dir("link.txt"), "one", 3), 0);
	assert_int_equal(lstat(in_dir("link.txt"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(s = slurp(in_dir("target.txt")), "one");
	free(s);
	/* a chain of links, relative and absolute, into a subdirectory */
	assert_int_equal(mkdir(in_dir("sub"), 0755), 0);
	assert_int_equal(symlink(in_dir("sub/end.txt"), in_dir("sub/abs")), 0);
	assert_int_equal(symlink("sub/abs", in_dir("chain")), 0);
	assert_int_equal(write_file_atomic(in_dir("chain"), "two", 3), 0);
	assert_string_equal(s = slurp(in_dir("sub/end.txt")), "two");
	free(s);
	assert_int_equal(lstat(in_dir("sub/abs"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* a loop is an error and creates nothing */
	assert_int_equal(symlink("loop2", in_dir("loop1")), 0);
	assert_int_equal(symlink("loop1", in_dir("loop2")), 0);
	assert_int_equal(write_file_atomic(in_dir("loop1"), "x", 1), -1);
	assert_non_null(strstr(msg, "symbolic links"));
	assert_int_equal(count_prefix(".renacer-tmp-"), 0);
}

static void test_fd_links(void **state)
{
	struct atomicfile af;
	char path[64];
	struct stat st;
	char *s;
	int fd;

	(void)state;
	/* /proc/self/fd/N writes the descriptor, at its offset */
	fd = open(in_dir("viafd.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "head:", 5), 5);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	assert_int_equal(atomicfile_open(&af, path), 0);
	assert_false(atomicfile_is_atomic(&af));
	fputs("body", af.fp);
	assert_int_equal(atomicfile_commit(&af), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	assert_int_equal(write_file_atomic(path, ":tail", 5), 0);
	close(fd);
	assert_string_equal(s = slurp(in_dir("viafd.txt")), "head:body:tail");
	free(s);
	/* a link in the directory that leads to /dev/stdout: still the fd */
	assert_int_equal(symlink("/dev/stdout", in_dir("out")), 0);
	assert_int_equal(atomicfile_open(&af, in_dir("out")), 0);
	assert_false(atomicfile_is_atomic(&af));
	atomicfile_abort(&af);
	assert_int_equal(lstat("/dev/stdout", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* a closed descriptor is an error */
	assert_int_equal(write_file_atomic("/dev/fd/987", "x", 1), -1);
	assert_non_null(strstr(msg, "Bad file descriptor"));
}

static void test_special(void **state)
{
	struct stat st;
	char *s;
	pid_t pid;
	int status;

	(void)state;
	/* a directory is an error */
	assert_int_equal(write_file_atomic(dir, "x", 1), -1);
	assert_non_null(strstr(msg, "Is a directory"));
	assert_int_equal(write_file_atomic(in_dir("."), "x", 1), -1);
	/* /dev/null stays a device */
	assert_int_equal(write_file_atomic("/dev/null", "x", 1), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	/* a FIFO is written in place */
	assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
	pid = fork();
	if (pid == 0) {
		int fd = open(in_dir("fifo"), O_RDONLY);
		char buf[16] = { 0 };
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		_exit(n == 5 && !strcmp(buf, "fifo!") ? 0 : 1);
	}
	assert_int_equal(write_file_atomic(in_dir("fifo"), "fifo!", 5), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	assert_int_equal(lstat(in_dir("fifo"), &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	/* a missing directory is an error */
	assert_int_equal(write_file_atomic(in_dir("nodir/x"), "x", 1), -1);
	assert_non_null(strstr(msg, "No such file"));
	(void)s;
}

/* Makes an empty file name in dir, owned by uid. */
static void plant(const char *name, uid_t uid)
{
	int fd = open(in_dir(name), O_WRONLY | O_CREAT | O_EXCL, 0600);

	assert_true(fd >= 0);
	close(fd);
	if (uid != getuid())
		assert_int_equal(chown(in_dir(name), uid, (gid_t)-1), 0);
}

static void test_stale(void **state)
{
	char self_name[256], gone_name[256], live_name[256], reused_name[256];
	char nons_name[256], other_name[256], bad_name[256];
	unsigned long long ns = 0, start = 0, pstart = 0;
	struct passwd *nobody = getpwnam("nobody");
	struct stat st;
	pid_t gone;
	FILE *f;
	char buf[1024];

	(void)state;
	assert_int_equal(stat("/proc/self/ns/pid", &st), 0);
	ns = (unsigned long long)st.st_ino;
	/* starttime of ourselves and of our parent, field 22 */
	for (int who = 0; who < 2; who++) {
		char p[64];
		snprintf(p, sizeof(p), "/proc/%d/stat", who ? (int)getppid() : (int)getpid());
		f = fopen(p, "r");
		assert_non_null(f);
		assert_non_null(fgets(buf, sizeof(buf), f));
		fclose(f);
		char *q = strrchr(buf, ')');
		for (int field = 2; field < 22; q++)
			if (*q == ' ')
				field++;
		*(who ? &pstart : &start) = strtoull(q, NULL, 10);
	}
	gone = fork();
	if (gone == 0)
		_exit(0);
	waitpid(gone, NULL, 0);

	snprintf(self_name, sizeof(self_name), ".renacer-tmp-%llu-%d-%llu-aaaaaaaaaaaa.x", ns,
		 (int)getpid(), start);
	snprintf(gone_name, sizeof(gone_name), ".renacer-tmp-%llu-%d-%llu-bbbbbbbbbbbb.x", ns,
		 (int)gone, start);
	snprintf(live_name, sizeof(live_name), ".renacer-tmp-%llu-%d-%llu-cccccccccccc", ns,
		 (int)getppid(), pstart);
	snprintf(reused_name, sizeof(reused_name), ".renacer-tmp-%llu-%d-%llu-dddddddddddd.y",
		 ns, (int)getppid(), pstart + 1);
	snprintf(nons_name, sizeof(nons_name), ".renacer-tmp-%llu-%d-%llu-eeeeeeeeeeee.x",
		 ns + 1, (int)gone, start);
	snprintf(other_name, sizeof(other_name), ".renacer-tmp-%llu-%d-%llu-ffffffffffff.x", ns,
		 (int)gone, start + 7);
	snprintf(bad_name, sizeof(bad_name), ".renacer-tmp-%llu-%d-%llu-short.x", ns, (int)gone,
		 start);
	plant(self_name, getuid());
	plant(gone_name, getuid());
	plant(live_name, getuid());
	plant(reused_name, getuid());
	plant(nons_name, getuid());
	plant(bad_name, getuid());
	plant("gone.json.tmp.1", getuid());   /* not our naming */
	if (getuid() == 0 && nobody)
		plant(other_name, nobody->pw_uid);
	/* a symbolic link with a stale name is never touched */
	char lname[256];
	snprintf(lname, sizeof(lname), ".renacer-tmp-%llu-%d-%llu-gggggggggggg.x", ns, (int)gone,
		 start);
	assert_int_equal(symlink("/etc/passwd", in_dir(lname)), 0);

	assert_int_equal(atomicfile_clean_stale(dir), 2);
	assert_int_equal(access(in_dir(gone_name), F_OK), -1);      /* creator gone */
	assert_int_equal(access(in_dir(reused_name), F_OK), -1);    /* pid reused */
	assert_int_equal(access(in_dir(self_name), F_OK), 0);       /* ourselves */
	assert_int_equal(access(in_dir(live_name), F_OK), 0);       /* creator alive */
	assert_int_equal(access(in_dir(nons_name), F_OK), 0);       /* other pid namespace */
	assert_int_equal(access(in_dir(bad_name), F_OK), 0);        /* not our naming */
	assert_int_equal(access(in_dir("gone.json.tmp.1"), F_OK), 0);
	assert_int_equal(lstat(in_dir(lname), &st), 0);
	if (getuid() == 0 && nobody)
		assert_int_equal(access(in_dir(other_name), F_OK), 0); /* another user's */

	/* atomicfile_open() cleans the directory it writes into, once per
	 * process (a child: this one may have seen a directory with the same
	 * inode in an earlier test) */
	plant(gone_name, getuid());
	pid_t child = fork();
	if (child == 0)
		_exit(write_file_atomic(in_dir("file"), "x", 1) == 0 ? 0 : 1);
	int status;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(status, 0);
	assert_int_equal(access(in_dir(gone_name), F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_regular_and_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fd_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_special, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
