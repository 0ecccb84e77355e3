/*
 * Unit tests for the decoder helpers (src/sys/decode.c) and the shared
 * decoders of file.c/io.c/stat.c, with this process as its own "tracee":
 * tmem reads our own memory, so strings, limits and unreadable pages are
 * checked without ptrace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sink/render.h"
#include "sys/decode.h"
#include "util/arena.h"
#include "util/strbuf.h"

#include "util/banned.h"

static const char *const names[] = { "a0", "a1", "a2", "a3", "a4", "a5" };
static const struct sysent se = { "fake", 6, 0, names, NULL };
static struct arena arena = ARENA_INIT;
static struct decode_opts opts = { 4, false, false };
static struct dctx ctx;
static struct event ev;
static struct strbuf sb = STRBUF_INIT;
static char *page;          /* a readable page followed by an unmapped one */

static int setup(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);

	ctx.pid = ctx.tid = getpid();
	ctx.arena = &arena;
	ctx.opts = &opts;
	ctx.se = &se;
	page = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -1;
	munmap(page + pg, pg);
	memset(page, 'x', pg);
	return 0;
}

static int teardown(void **state)
{
	arena_release(&arena);
	strbuf_release(&sb);
	return 0;
}

static void reset(void)
{
	arena_reset(&arena);
	memset(&ev, 0, sizeof(ev));
	ev.type = EV_SYSCALL_ENTRY;
	opts.string_limit = 4;
	opts.decode_fds = false;
}

static const char *txt(const struct val *v)
{
	strbuf_reset(&sb);
	val_render(&sb, v, NULL);
	return sb.buf;
}

static uint64_t addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static void test_cstr(void **state)
{
	static const char hello[] = "hello", hell[] = "hell";

	reset();
	ev.karg[0] = addr(hello);
	ev.karg[1] = addr(hell);
	ev.karg[2] = 0;
	ev.karg[3] = 1;
	arg_cstr(&ctx, &ev, 0);
	arg_cstr(&ctx, &ev, 1);
	arg_cstr(&ctx, &ev, 2);
	arg_cstr(&ctx, &ev, 3);
	assert_int_equal(ev.nargs, 4);
	assert_string_equal(ev.args[0].name, "a0");
	assert_int_equal(ev.args[0].kind, V_STR);
	assert_string_equal(txt(&ev.args[0]), "\"hell\"...");
	assert_string_equal(txt(&ev.args[1]), "\"hell\"");
	assert_string_equal(txt(&ev.args[2]), "NULL");
	assert_int_equal(ev.args[3].kind, V_PTR);
	assert_string_equal(txt(&ev.args[3]), "0x1");
	/* runs into the unmapped page before its NUL: the address */
	ev.karg[0] = addr(page + sysconf(_SC_PAGESIZE) - 2);
	arg_cstr(&ctx, &ev, 0);
	assert_int_equal(ev.args[0].kind, V_PTR);
	assert_int_equal(ev.args[0].u, ev.karg[0]);
	/* ... unless the limit comes first */
	opts.string_limit = 1;
	arg_cstr(&ctx, &ev, 0);
	assert_string_equal(txt(&ev.args[0]), "\"x\"...");
}

static void test_path(void **state)
{
	char longp[300];

	reset();
	memset(longp, 'p', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	ev.karg[1] = addr(longp);
	arg_path(&ctx, &ev, 1);
	/* paths are not cut at the string limit */
	assert_int_equal(ev.args[1].kind, V_STR);
	assert_int_equal(ev.args[1].s.len, sizeof(longp) - 1);
	assert_false(ev.args[1].flags & (VF_TRUNC | VF_STR_UNTERM));
	assert_int_equal(ev.nargs, 2);
	assert_null(ev.args[0].name);
}

static void test_buf(void **state)
{
	static const char data[] = "0123456789";
	long pg = sysconf(_SC_PAGESIZE);

	reset();
	ev.karg[1] = addr(data);
	arg_buf(&ctx, &ev, 1, 10);
	assert_string_equal(txt(&ev.args[1]), "\"0123\"...");
	arg_buf(&ctx, &ev, 1, 4);
	assert_string_equal(txt(&ev.args[1]), "\"0123\"");
	arg_buf(&ctx, &ev, 1, 0);
	assert_string_equal(txt(&ev.args[1]), "\"\"");
	/* not all shown bytes readable: the address */
	ev.karg[1] = addr(page + pg - 2);
	arg_buf(&ctx, &ev, 1, 3);
	assert_int_equal(ev.args[1].kind, V_PTR);
	arg_buf(&ctx, &ev, 1, 2);
	assert_string_equal(txt(&ev.args[1]), "\"xx\"");
}

static void test_tread(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t x = 0x1122334455667788ull, y = 0;

	reset();
	assert_true(tread(&ctx, addr(&x), &y, sizeof(y)));
	assert_int_equal(x, y);
	assert_false(tread(&ctx, 0, &y, sizeof(y)));
	assert_false(tread(&ctx, addr(page + pg - 4), &y, sizeof(y)));
}

static void test_fds(void **state)
{
	char cwd[PATH_MAX];
	int fd = open("/dev/null", O_RDONLY);

	reset();
	assert_true(fd >= 0);
	ev.karg[0] = (uint64_t)fd;
	ev.karg[1] = (uint64_t)-100;
	ev.karg[2] = (uint64_t)-1;
	arg_fd(&ctx, &ev, 0);
	arg_dirfd(&ctx, &ev, 1);
	arg_fd(&ctx, &ev, 2);
	assert_int_equal(ev.args[0].kind, V_FD);
	assert_null(ev.args[0].fd.path);         /* no -y */
	assert_string_equal(txt(&ev.args[1]), "AT_FDCWD");
	assert_int_equal(ev.args[2].kind, V_INT);
	assert_string_equal(txt(&ev.args[2]), "-1");

	opts.decode_fds = true;
	arg_fd(&ctx, &ev, 0);
	arg_dirfd(&ctx, &ev, 1);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%d</dev/null>", fd);
	char *want = strbuf_detach(&sb, NULL);
	assert_string_equal(txt(&ev.args[0]), want);
	free(want);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_string_equal(ev.args[1].fd.path, cwd);
	assert_null(fd_path(&ctx, 12345));
	close(fd);
}

static void test_exit_marks(void **state)
{
	reset();
	ev.karg[0] = 3;
	arg_int(&ctx, &ev, 0);
	assert_false(ev.args[0].flags & VF_EXIT);
	ev.type = EV_SYSCALL;
	ev.karg[1] = 0;
	arg_ptr(&ctx, &ev, 1);
	assert_true(ev.args[1].flags & VF_EXIT);
	assert_int_equal(event_entry_split(&ev), 1);
	arg_count(&ev, 3);
	assert_int_equal(ev.nargs, 3);
	arg_count(&ev, 2);
	assert_int_equal(ev.nargs, 3);
}

static void test_default(void **state)
{
	reset();
	/* the whole registers, as strace's printargs: not karg */
	ev.raw[0] = 0;
	ev.raw[1] = 0x1f;
	ev.raw[5] = ~0ull;
	ev.karg[5] = 0xffffffff;
	assert_int_equal(decode_default(&ctx, &ev, 0), RVAL_DONE);
	assert_int_equal(ev.nargs, 6);
	assert_string_equal(txt(&ev.args[0]), "0");
	assert_string_equal(txt(&ev.args[1]), "0x1f");
	assert_string_equal(txt(&ev.args[5]), "0xffffffffffffffff");
	assert_string_equal(ev.args[5].name, "a5");
}

static void test_sigset_builder(void **state)
{
	struct val v;

	val_set_sigset(&v, "set", (1ull << 1) | (1ull << 14));
	assert_false(v.flags & VF_SIGSET_NOT);
	assert_string_equal(txt(&v), "[INT TERM]");
	val_set_sigset(&v, "set", ~((1ull << 31) | (1ull << 32)));
	assert_true(v.flags & VF_SIGSET_NOT);
	assert_string_equal(txt(&v), "~[RTMIN RT_1]");
}

static void test_iovec(void **state)
{
	struct iovec iov[3] = {
		{ (void *)"abc", 3 }, { (void *)"defgh", 5 }, { (void *)"ij", 2 },
	};
	struct val v;

	reset();
	opts.string_limit = 32;
	decode_iovec(&ctx, &v, "iov", addr(iov), 3, -1, false);
	assert_string_equal(txt(&v), "[{iov_base=\"abc\", iov_len=3}, {iov_base=\"defgh\", iov_len=5}, "
			    "{iov_base=\"ij\", iov_len=2}]");
	/* a read of 4 bytes: the data is split over the elements */
	decode_iovec(&ctx, &v, "iov", addr(iov), 3, 4, false);
	assert_string_equal(txt(&v), "[{iov_base=\"abc\", iov_len=3}, {iov_base=\"d\", iov_len=5}, "
			    "{iov_base=\"\", iov_len=2}]");
	/* at most string-limit elements */
	opts.string_limit = 2;
	decode_iovec(&ctx, &v, "iov", addr(iov), 3, -1, false);
	assert_string_equal(txt(&v), "[{iov_base=\"ab\"..., iov_len=3}, {iov_base=\"de\"..., iov_len=5}, ...]");
	decode_iovec(&ctx, &v, "iov", addr(iov), 1, 0, true);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "[{iov_base=%p, iov_len=3}]", iov[0].iov_base);
	char *want = strbuf_detach(&sb, NULL);
	assert_string_equal(txt(&v), want);
	free(want);
	decode_iovec(&ctx, &v, "iov", 1, 1, -1, false);
	assert_string_equal(txt(&v), "0x1");
	decode_iovec(&ctx, &v, "iov", 0, 1, -1, false);
	assert_string_equal(txt(&v), "NULL");
}

static void test_mode(void **state)
{
	struct val v;

	reset();
	val_set_mode(&ctx, &v, "m", S_IFREG | 0644);
	assert_string_equal(txt(&v), "S_IFREG|0644");
	val_set_mode(&ctx, &v, "m", S_IFDIR | S_ISVTX | 0777);
	assert_string_equal(txt(&v), "S_IFDIR|S_ISVTX|0777");
	val_set_mode(&ctx, &v, "m", S_IFCHR);
	assert_string_equal(txt(&v), "S_IFCHR|000");
	val_set_mode(&ctx, &v, "m", 0644);
	assert_string_equal(txt(&v), "0644");
	val_set_mode(&ctx, &v, "m", S_ISUID | 0755);
	assert_string_equal(txt(&v), "S_ISUID|0755");
	val_set_mode(&ctx, &v, "m", 0170644);    /* no such file type */
	assert_string_equal(txt(&v), "0170644");
}

static void test_open_flags(void **state)
{
	struct val v;

	reset();
	val_set_open_flags(&ctx, &v, "flags", O_RDONLY);
	assert_string_equal(txt(&v), "O_RDONLY");
	val_set_open_flags(&ctx, &v, "flags", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
	assert_string_equal(txt(&v), "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC");
	val_set_open_flags(&ctx, &v, "flags", O_RDONLY | 0x800000);
	assert_string_equal(txt(&v), "O_RDONLY|0x800000");
	val_set_open_flags(&ctx, &v, "flags", 3 | 0100000);
	assert_string_equal(txt(&v), "O_ACCMODE|O_LARGEFILE");
	val_set_open_flags(&ctx, &v, "flags", O_RDWR | O_TMPFILE);
	assert_string_equal(txt(&v), "O_RDWR|O_TMPFILE");
	val_set_open_flags(&ctx, &v, "flags", O_RDONLY | O_DIRECTORY);
	assert_string_equal(txt(&v), "O_RDONLY|O_DIRECTORY");
	val_set_open_flags(&ctx, &v, "flags", O_WRONLY | O_SYNC);
	assert_string_equal(txt(&v), "O_WRONLY|O_SYNC");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cstr),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_tread),
		cmocka_unit_test(test_fds),
		cmocka_unit_test(test_exit_marks),
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_sigset_builder),
		cmocka_unit_test(test_iovec),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_open_flags),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
