/*
 * Unit tests for the syscall table (build/gen/sysent.c) and src/sys/sysent.c:
 * complete against <asm/unistd_64.h> read at run time, known rows, lookups,
 * names of unknown numbers, and every class against what strace traces.
 * `test_sysent --dump-class %file` prints our members of a class (used by
 * tests/t/classes_vs_strace.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit/strace_oracle.h"
#include "sys/sysent.h"

#include "util/banned.h"

static const char *const unistd_paths[] = {
	"/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
	"/usr/include/asm/unistd_64.h",
};

static void test_complete_vs_header(void **state)
{
	FILE *f = NULL;
	char line[512], name[128];
	long nr, max = -1;
	unsigned n = 0, rows = 0;

	for (size_t i = 0; !f && i < sizeof(unistd_paths) / sizeof(unistd_paths[0]); i++)
		f = fopen(unistd_paths[i], "r");
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "#define __NR_%127s %ld", name, &nr) != 2)
			continue;
		const struct sysent *se = sysent_get(nr);
		if (!se)
			fail_msg("__NR_%s (%ld) has no row", name, nr);
		if (strcmp(se->name, name))
			fail_msg("__NR_%s (%ld): row says %s", name, nr, se->name);
		assert_int_equal(sysent_lookup(name), nr);
		if (nr > max)
			max = nr;
		n++;
	}
	fclose(f);
	assert_true(n > 300);
	assert_int_equal(sysent_count, (unsigned)max + 1);
	for (unsigned i = 0; i < sysent_count; i++)
		rows += sysent_table[i].name != NULL;
	assert_int_equal(rows, n);
}

static void check_row(const char *name, unsigned nargs, const char *const *argnames,
		      uint32_t flags)
{
	long nr = sysent_lookup(name);
	const struct sysent *se = sysent_get(nr);

	assert_non_null(se);
	assert_string_equal(se->name, name);
	assert_int_equal(se->nargs, nargs);
	for (unsigned i = 0; i < nargs; i++)
		assert_string_equal(se->argnames[i], argnames[i]);
	assert_int_equal(se->flags, flags);
}

static void test_known_rows(void **state)
{
	static const char *const openat[] = { "dfd", "filename", "flags", "mode" };
	static const char *const read_[] = { "fd", "buf", "count" };
	static const char *const mmap_[] = { "addr", "length", "prot", "flags", "fd", "offset" };
	static const char *const exit_group[] = { "error_code" };
	static const char *const stat_[] = { "filename", "statbuf" };

	check_row("openat", 4, openat, TRACE_FILE | TRACE_DESC);
	check_row("read", 3, read_, TRACE_DESC);
	check_row("mmap", 6, mmap_, TRACE_DESC | TRACE_MEMORY);
	check_row("exit_group", 1, exit_group, TRACE_PROCESS);
	check_row("getpid", 0, NULL, TRACE_PURE);
	check_row("stat", 2, stat_, TRACE_FILE | TRACE_STAT | TRACE_STAT_LIKE);
	assert_int_equal(sysent_lookup("read"), SYS_read);
	assert_int_equal(sysent_lookup("openat"), SYS_openat);
	assert_int_equal(sysent_lookup("execve"), SYS_execve);
	for (unsigned i = 0; i < sysent_count; i++) {
		const struct sysent *se = &sysent_table[i];
		if (!se->name)
			continue;
		assert_true(se->nargs <= 6);
		for (unsigned a = 0; a < se->nargs; a++)
			assert_non_null(se->argnames[a]);
	}
}

static void test_lookup(void **state)
{
	for (unsigned i = 0; i < sysent_count; i++)
		if (sysent_table[i].name)
			assert_int_equal(sysent_lookup(sysent_table[i].name), i);
	assert_int_equal(sysent_lookup("opnat"), -1);
	assert_int_equal(sysent_lookup(""), -1);
	assert_int_equal(sysent_lookup("OPENAT"), -1);
	assert_int_equal(sysent_lookup("stat64"), -1);
	assert_int_equal(sysent_lookup(NULL), -1);
	assert_null(sysent_get(-1));
	assert_null(sysent_get(sysent_count));
	assert_null(sysent_get(100000));
}

static void test_unknown_names(void **state)
{
	char buf[32];
	long hole = -1;

	assert_string_equal(sysent_name(SYS_read, buf), "read");
	if (0x1d3 >= sysent_count)
		assert_string_equal(sysent_name(0x1d3, buf), "syscall_0x1d3");
	snprintf(buf, sizeof(buf), "x");
	assert_string_equal(sysent_name(100000, buf), "syscall_0x186a0");
	for (unsigned i = 0; i < sysent_count && hole < 0; i++)
		if (!sysent_table[i].name)
			hole = i;
	if (hole >= 0) {
		char want[32];
		snprintf(want, sizeof(want), "syscall_%#lx", hole);
		assert_null(sysent_get(hole));
		assert_string_equal(sysent_name(hole, buf), want);
	}
	assert_string_equal(sysent_name(-1, buf), "syscall_0xffffffffffffffff");
}

static void test_class_names(void **state)
{
	static const struct { const char *name; uint32_t bit; } ok[] = {
		{ "%file", TRACE_FILE }, { "%desc", TRACE_DESC }, { "%network", TRACE_NETWORK },
		{ "%net", TRACE_NETWORK }, { "%process", TRACE_PROCESS },
		{ "%memory", TRACE_MEMORY }, { "%signal", TRACE_SIGNAL }, { "%ipc", TRACE_IPC },
		{ "%creds", TRACE_CREDS }, { "%clock", TRACE_CLOCK }, { "%stat", TRACE_STAT },
		{ "%lstat", TRACE_LSTAT }, { "%fstat", TRACE_FSTAT },
		{ "%%stat", TRACE_STAT_LIKE }, { "%statfs", TRACE_STATFS },
		{ "%fstatfs", TRACE_FSTATFS }, { "%%statfs", TRACE_STATFS_LIKE },
		{ "%pure", TRACE_PURE }, { "file", TRACE_FILE }, { "desc", TRACE_DESC },
		{ "network", TRACE_NETWORK }, { "process", TRACE_PROCESS },
		{ "memory", TRACE_MEMORY }, { "signal", TRACE_SIGNAL }, { "ipc", TRACE_IPC },
	};
	static const char *const bad[] = {
		"%foo", "net", "creds", "clock", "pure", "stat", "%NETWORK", "all", "%", "", NULL,
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		assert_int_equal(sysent_class_by_name(ok[i].name), ok[i].bit);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sysent_class_by_name(bad[i]), 0);
}

static const char *const class_names[] = {
	"%file", "%desc", "%network", "%process", "%memory", "%signal", "%ipc",
	"%creds", "%clock", "%stat", "%lstat", "%fstat", "%%stat", "%statfs",
	"%fstatfs", "%%statfs", "%pure",
};

/* Exactly the syscalls strace traces for each class. */
static void test_classes_vs_strace(void **state)
{
	char *out = oracle_tmpfile("classes");
	int failures = 0;

	for (size_t c = 0; c < sizeof(class_names) / sizeof(class_names[0]); c++) {
		char expr[64], line[4096];
		uint32_t bit = sysent_class_by_name(class_names[c]);
		uint8_t *seen = calloc(sysent_count, 1);
		FILE *f;

		snprintf(expr, sizeof(expr), "trace=%s", class_names[c]);
		int rc = oracle_run(expr, "all", out, NULL);
		if (rc == 127) {
			free(seen);
			free(out);
			skip();
		}
		assert_int_equal(rc, 0);
		f = fopen(out, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			size_t len = strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789_");
			if (!len || line[len] != '(' || !strncmp(line, "syscall_0x", 10))
				continue;
			line[len] = '\0';
			long nr = sysent_lookup(line);
			if (nr < 0) {
				print_error("%s: strace traces %s, which we do not know\n",
					    class_names[c], line);
				failures++;
				continue;
			}
			if (seen[nr]++)
				continue;
			if (!(sysent_table[nr].flags & bit)) {
				print_error("%s: strace traces %s, not in our class\n",
					    class_names[c], line);
				failures++;
			}
		}
		fclose(f);
		for (unsigned i = 0; i < sysent_count; i++) {
			if (sysent_table[i].name && (sysent_table[i].flags & bit) && !seen[i] &&
			    !oracle_unsafe(sysent_table[i].name)) {
				print_error("%s: %s is in our class, strace does not trace it\n",
					    class_names[c], sysent_table[i].name);
				failures++;
			}
		}
		free(seen);
	}
	unlink(out);
	free(out);
	assert_int_equal(failures, 0);
}

/* The argument types come from the kernel's C types. */
static void test_arg_types(void **state)
{
	static const struct { const char *name; uint8_t t[6]; unsigned n; } want[] = {
		{ "fcntl", { ARG_U32, ARG_U32, ARG_U64 }, 3 },        /* unsigned int fd, cmd */
		{ "umask", { ARG_S32 }, 1 },                          /* int mask */
		{ "open", { ARG_PTR, ARG_S32, ARG_U16 }, 3 },         /* umode_t mode */
		{ "pipe2", { ARG_PTR, ARG_S32 }, 2 },
		{ "kill", { ARG_S32, ARG_S32 }, 2 },                  /* pid_t, int */
		{ "lseek", { ARG_U32, ARG_S64, ARG_U32 }, 3 },        /* off_t */
		{ "setuid", { ARG_U32 }, 1 },                         /* uid_t */
		{ "mmap", { ARG_PTR, ARG_U64, ARG_U64, ARG_U64, ARG_U64, ARG_U64 }, 6 },
		{ "fanotify_mark", { ARG_S32, ARG_U32, ARG_U64, ARG_S32, ARG_PTR }, 5 },
		{ "ptrace", { ARG_S64, ARG_S64, ARG_U64, ARG_U64 }, 4 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct sysent *se = sysent_get(sysent_lookup(want[i].name));

		assert_non_null(se);
		assert_int_equal(se->nargs, want[i].n);
		for (unsigned j = 0; j < want[i].n; j++)
			if (se->argtype[j] != want[i].t[j])
				fail_msg("%s argument %u: type %u, want %u", want[i].name, j,
					 se->argtype[j], want[i].t[j]);
	}
	assert_int_equal(arg_type_bits(ARG_U16), 16);
	assert_int_equal(arg_type_bits(ARG_S32), 32);
	assert_int_equal(arg_type_bits(ARG_PTR), 64);
	assert_true(arg_type_signed(ARG_S32));
	assert_false(arg_type_signed(ARG_U32));
}

/* sysent_kernel_args cuts each register to its type's width. */
static void test_kernel_args(void **state)
{
	const struct sysent *se = sysent_get(sysent_lookup("open"));
	uint64_t raw[6] = { 0x7ffd12345678, 0xffffffff00000042, 0xdeadbeefcafe01a4, 7, 8, 9 };
	uint64_t karg[6];

	sysent_kernel_args(se, raw, karg);
	assert_true(karg[0] == raw[0]);             /* a pointer: whole */
	assert_true(karg[1] == 0x42);               /* int: the low 32 bits */
	assert_true(karg[2] == 0x01a4);             /* umode_t: the low 16 */
	se = sysent_get(sysent_lookup("kill"));
	raw[0] = 0xbadc0ffeffffffff;                /* pid_t -1 under junk */
	sysent_kernel_args(se, raw, karg);
	assert_true(karg[0] == 0xffffffff);         /* zero-extended ... */
	assert_int_equal((int)karg[0], -1);         /* ... and an int of -1 */
	sysent_kernel_args(NULL, raw, karg);        /* unknown: the registers */
	assert_memory_equal(karg, raw, sizeof(raw));
}

/* What the analysis reads from the semantics table beyond the lead's
 * properties: memory operations, lookups, progress, vfork, device control. */
static void test_semantics_analysis(void **state)
{
	static const struct { const char *name; uint8_t memop; } mem[] = {
		{ "mmap", MEMOP_MAP }, { "munmap", MEMOP_UNMAP }, { "mremap", MEMOP_REMAP },
		{ "mprotect", MEMOP_PROTECT }, { "pkey_mprotect", MEMOP_PROTECT },
		{ "brk", MEMOP_BRK }, { "madvise", MEMOP_NONE }, { "read", MEMOP_NONE },
	};
	for (size_t i = 0; i < sizeof(mem) / sizeof(mem[0]); i++) {
		const struct sysent *se = sysent_get(sysent_lookup(mem[i].name));
		assert_non_null(se);
		assert_int_equal(se->memop, mem[i].memop);
		assert_int_equal((se->sem & SEM_MAP) != 0, mem[i].memop != MEMOP_NONE);
	}
	assert_true(sysent_get(sysent_lookup("statx"))->sem & SEM_LOOKUP);
	assert_true(sysent_get(sysent_lookup("access"))->sem & SEM_LOOKUP);
	assert_false(sysent_get(sysent_lookup("openat"))->sem & SEM_LOOKUP);
	assert_true(sysent_get(sysent_lookup("getdents64"))->sem & SEM_PROGRESS);
	assert_true(sysent_get(sysent_lookup("vfork"))->sem & SEM_VFORK);
	assert_false(sysent_get(sysent_lookup("fork"))->sem & SEM_VFORK);
	assert_true(sysent_get(sysent_lookup("ioctl"))->sem & SEM_DEVCTL);
	/* a lookup names its path: the first path argument, relative to a
	 * directory descriptor when it has one */
	const struct sysent *se = sysent_get(sysent_lookup("newfstatat"));
	assert_int_equal(se->argrole[0], ROLE_DIRFD);
	assert_int_equal(se->argrole[1], ROLE_PATH);
}

int main(int argc, char **argv)
{
	int rc = oracle_child(argc, argv);
	if (rc >= 0)
		return rc;
	if (argc == 3 && !strcmp(argv[1], "--dump-class")) {
		uint32_t bit = sysent_class_by_name(argv[2]);
		if (!bit)
			return 2;
		for (unsigned i = 0; i < sysent_count; i++)
			if (sysent_table[i].name && (sysent_table[i].flags & bit))
				printf("%s\n", sysent_table[i].name);
		return 0;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete_vs_header),
		cmocka_unit_test(test_known_rows),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_class_names),
		cmocka_unit_test(test_classes_vs_strace),
		cmocka_unit_test(test_arg_types),
		cmocka_unit_test(test_kernel_args),
		cmocka_unit_test(test_semantics_analysis),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
