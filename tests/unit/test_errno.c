/*
 * Unit tests for the generated errno and signal tables (build/gen/errnoent.c):
 * against the kernel headers and strerror() read at run time, and against
 * what strace prints for every errno 1..600 and every signal 1..64.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit/strace_oracle.h"
#include "event.h"

#include "util/banned.h"

/* Checks errno_name/message against one kernel header's numeric defines. */
static int check_header(const char *path, int *seen, unsigned nseen)
{
	FILE *f = fopen(path, "r");
	char line[512], name[64];
	int v, n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "#define %63s %d", name, &v) != 2 || name[0] != 'E')
			continue;
		if (v <= 0 || (unsigned)v >= nseen || seen[v]++)
			continue;   /* aliases defined by value lose, as in strace */
		const char *ours = errno_name(v);
		if (!ours || strcmp(ours, name))
			fail_msg("errno %d: header says %s, we say %s", v, name, ours ? ours : "NULL");
		const char *msg = errno_message(v);
		if (!msg || strcmp(msg, strerror(v)))
			fail_msg("errno %d (%s): strerror says '%s', we say '%s'", v, name,
				 strerror(v), msg ? msg : "NULL");
		n++;
	}
	fclose(f);
	return n;
}

static void test_errno_vs_headers(void **state)
{
	static int seen[4096];
	int a = check_header("/usr/include/asm-generic/errno-base.h", seen, 4096);
	int b = check_header("/usr/include/asm-generic/errno.h", seen, 4096);
	if (a < 0 || b < 0)
		skip();
	assert_true(a >= 30);
	assert_true(b >= 90);
	/* names strace prints for values with two names */
	assert_string_equal(errno_name(EAGAIN), "EAGAIN");
	assert_string_equal(errno_name(EDEADLK), "EDEADLK");
	assert_string_equal(errno_name(EOPNOTSUPP), "EOPNOTSUPP");
}

static void test_errno_edges(void **state)
{
	assert_null(errno_name(0));
	assert_null(errno_message(0));
	assert_null(errno_name(-2));
	assert_null(errno_name(4095));
	assert_null(errno_message(100000));
	assert_string_equal(errno_name(512), "ERESTARTSYS");
	assert_string_equal(errno_message(512), "To be restarted if SA_RESTART is set");
	assert_string_equal(errno_name(516), "ERESTART_RESTARTBLOCK");
	assert_string_equal(errno_message(516), "Interrupted by signal");
	assert_null(errno_name(519));   /* strace 6.1 has no ENOPARAM */
}

static char *slurp_lines(const char *path, size_t *n, char ***lines)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	size_t cap = 0;

	*n = 0;
	*lines = NULL;
	if (!f)
		return NULL;
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			*lines = realloc(*lines, cap * sizeof(**lines));
		}
		(*lines)[(*n)++] = strdup(buf);
	}
	fclose(f);
	return (char *)path;
}

static void free_lines(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

static void test_errno_vs_strace(void **state)
{
	char *out = oracle_tmpfile("errno"), **lines;
	size_t n, e = 0;
	int rc = oracle_run("trace=getppid", "errno", out, NULL);

	if (rc == 127) {
		free(out);
		skip();
	}
	assert_int_equal(rc, 0);
	slurp_lines(out, &n, &lines);
	unlink(out);
	free(out);
	for (size_t i = 0; i < n; i++) {
		const char *eq = strstr(lines[i], ") ");
		if (strncmp(lines[i], "getppid(", 8) || !eq || !(eq = strstr(eq, "= ")))
			continue;
		eq += 2;
		e++;
		char want[256];
		const char *name = errno_name((int)e);
		if (name)
			snprintf(want, sizeof(want), "%s (%s)", name, errno_message((int)e));
		else
			snprintf(want, sizeof(want), "(errno %zu)", e);
		/* strace writes "?" rather than "-1" for the restart codes */
		const char *got = !strncmp(eq, "-1 ", 3) || !strncmp(eq, "? ", 2) ? strchr(eq, ' ') + 1 : eq;
		if (strcmp(got, want))
			fail_msg("errno %zu: strace prints '%s', we have '%s'", e, got, want);
	}
	assert_int_equal(e, ORACLE_MAX_ERRNO);
	free_lines(lines, n);
}

static void test_signal_vs_strace(void **state)
{
	char *out = oracle_tmpfile("signals"), **lines;
	size_t n;
	int s = 0;
	int rc = oracle_run("trace=kill", "signals", out, NULL);

	if (rc == 127) {
		free(out);
		skip();
	}
	assert_int_equal(rc, 0);
	slurp_lines(out, &n, &lines);
	unlink(out);
	free(out);
	for (size_t i = 0; i < n; i++) {
		char name[64];
		if (sscanf(lines[i], "kill(2147483647, %63[^)])", name) != 1)
			continue;
		s++;
		const char *ours = signal_name(s);
		if (!ours || strcmp(ours, name))
			fail_msg("signal %d: strace prints %s, we have %s", s, name, ours ? ours : "NULL");
	}
	assert_int_equal(s, 64);
	free_lines(lines, n);
}

static void test_signal_names(void **state)
{
	assert_null(signal_name(0));
	assert_null(signal_name(65));
	assert_null(signal_name(-1));
	assert_string_equal(signal_name(SIGABRT), "SIGABRT");
	assert_string_equal(signal_name(SIGIO), "SIGIO");
	assert_string_equal(signal_name(SIGSYS), "SIGSYS");
	assert_string_equal(signal_name(SIGCHLD), "SIGCHLD");
	assert_string_equal(signal_name(32), "SIGRTMIN");
	assert_string_equal(signal_name(33), "SIGRT_1");
	assert_string_equal(signal_name(64), "SIGRT_32");
	for (int s = 1; s <= 64; s++) {
		char lower[32];
		const char *name = signal_name(s);
		assert_non_null(name);
		assert_int_equal(signal_by_name(name), s);
		assert_int_equal(signal_by_name(name + 3), s);
		size_t i;
		for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
			lower[i] = (char)tolower((unsigned char)name[i]);
		lower[i] = '\0';
		assert_int_equal(signal_by_name(lower), s);
	}
	assert_int_equal(signal_by_name("9"), 9);
	assert_int_equal(signal_by_name("64"), 64);
	assert_int_equal(signal_by_name("65"), -1);
	assert_int_equal(signal_by_name("0"), -1);
	assert_int_equal(signal_by_name("9x"), -1);
	assert_int_equal(signal_by_name("SIGFOO"), -1);
	assert_int_equal(signal_by_name("SIG"), -1);
	assert_int_equal(signal_by_name(""), -1);
	assert_int_equal(signal_by_name(NULL), -1);
}

int main(int argc, char **argv)
{
	int rc = oracle_child(argc, argv);
	if (rc >= 0)
		return rc;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errno_vs_headers),
		cmocka_unit_test(test_errno_edges),
		cmocka_unit_test(test_errno_vs_strace),
		cmocka_unit_test(test_signal_vs_strace),
		cmocka_unit_test(test_signal_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
