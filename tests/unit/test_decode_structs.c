/*
 * Unit tests for the memory, process, signal, time, futex and socket
 * decoders (src/sys/{mem,process,signal,time,futex,net}.c) and their shared
 * structure decoders, with this process as its own "tracee": the values live
 * in our memory, so successes, NULLs, bad sizes and unreadable pages are all
 * checked without ptrace.  Expected texts are strace 6.1's formats.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <linux/futex.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sink/render.h"
#include "sys/decode.h"
#include "util/arena.h"
#include "util/strbuf.h"

#include "util/banned.h"

int sys_decode_mmap(struct dctx *, struct event *, int);
int sys_decode_futex(struct dctx *, struct event *, int);
int sys_decode_clone(struct dctx *, struct event *, int);
int sys_decode_clone3(struct dctx *, struct event *, int);
int sys_decode_wait4(struct dctx *, struct event *, int);
int sys_decode_execve(struct dctx *, struct event *, int);
int sys_decode_prlimit64(struct dctx *, struct event *, int);

static const char *const names[] = { "a0", "a1", "a2", "a3", "a4", "a5" };
static const struct sysent se = { "fake", 6, 0, names, NULL };
static struct arena arena = ARENA_INIT;
static struct decode_opts opts = { 32, false, false };
static struct dctx ctx;
static struct event ev;
static struct strbuf sb = STRBUF_INIT;
static char *page;          /* a readable page followed by an unmapped one */
static long pg;

static int setup(void **state)
{
	pg = sysconf(_SC_PAGESIZE);
	ctx.pid = ctx.tid = getpid();
	ctx.arena = &arena;
	ctx.opts = &opts;
	ctx.se = &se;
	page = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -1;
	munmap(page + pg, pg);
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
	ev.name = "fake";
	opts.string_limit = 32;
	opts.verbose = false;
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

/* "0x..." of a pointer, as strace prints an address */
static const char *hex(const void *p)
{
	static char buf[4][32];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%#llx", (unsigned long long)addr(p));
	return buf[k];
}

/* The whole call as the text sink prints it (decoded at entry and exit). */
static const char *call(int (*fn)(struct dctx *, struct event *, int), int64_t rv)
{
	ev.type = EV_SYSCALL_ENTRY;
	if (fn(&ctx, &ev, 0) == RVAL_EXIT) {
		ev.type = EV_SYSCALL;
		ev.retval = rv;
		ev.err = rv < 0 ? (int)-rv : 0;
		fn(&ctx, &ev, 1);
	}
	ev.type = EV_SYSCALL;
	ev.retval = rv;
	ev.err = rv < 0 ? (int)-rv : 0;
	strbuf_reset(&sb);
	event_render_call(&sb, &ev, NULL, 0);
	return sb.buf;
}

/* ---- signals -------------------------------------------------------------- */

static void test_sigset(void **state)
{
	struct val v;
	uint64_t m;
	char want[64];

	reset();
	m = 0;
	decode_sigset(&ctx, &v, "set", addr(&m), 8);
	assert_string_equal(txt(&v), "[]");
	m = (1ULL << (SIGINT - 1)) | (1ULL << (SIGTERM - 1)) | (1ULL << 34);
	decode_sigset(&ctx, &v, "set", addr(&m), 8);
	assert_string_equal(txt(&v), "[INT TERM RT_3]");
	m = ~0ULL;
	decode_sigset(&ctx, &v, "set", addr(&m), 8);
	assert_string_equal(txt(&v), "~[]");
	m = ~((1ULL << (SIGKILL - 1)) | (1ULL << 31) | (1ULL << 32));
	decode_sigset(&ctx, &v, "set", addr(&m), 8);
	assert_string_equal(txt(&v), "~[KILL RTMIN RT_1]");
	/* 41 signals: below strace's 2/3, printed as a list */
	m = (1ULL << 41) - 1;
	decode_sigset(&ctx, &v, "set", addr(&m), 8);
	assert_true(txt(&v)[0] == '[');
	m = (1ULL << 42) - 1;
	decode_sigset(&ctx, &v, "set", addr(&m), 8);
	assert_true(txt(&v)[0] == '~');
	decode_sigset(&ctx, &v, "set", 0, 8);
	assert_string_equal(txt(&v), "NULL");
	decode_sigset(&ctx, &v, "set", addr(&m), 4);
	assert_string_equal(txt(&v), hex(&m));
	decode_sigset(&ctx, &v, "set", addr(page + pg - 4), 8);
	snprintf(want, sizeof(want), "%s", hex(page + pg - 4));
	assert_string_equal(txt(&v), want);
}

static void test_siginfo(void **state)
{
	siginfo_t si;
	struct val v;

	reset();
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGCHLD;
	si.si_code = CLD_EXITED;
	si.si_pid = 123;
	si.si_uid = 1000;
	si.si_status = 3;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=123, "
			    "si_uid=1000, si_status=3, si_utime=0, si_stime=0}");
	si.si_code = CLD_KILLED;
	si.si_status = SIGKILL;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGCHLD, si_code=CLD_KILLED, si_pid=123, "
			    "si_uid=1000, si_status=SIGKILL, si_utime=0, si_stime=0}");

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = SEGV_MAPERR;
	si.si_addr = (void *)0x10;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10}");
	si.si_addr = NULL;
	si.si_code = SEGV_ACCERR;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGSEGV, si_code=SEGV_ACCERR, si_addr=NULL}");

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_USER;
	si.si_pid = 7;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGUSR1, si_code=SI_USER, si_pid=7, si_uid=0}");
	si.si_code = SI_TKILL;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGUSR1, si_code=SI_TKILL, si_pid=7, si_uid=0}");
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = 42;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGUSR1, si_code=SI_QUEUE, si_pid=7, si_uid=0, "
			    "si_int=42, si_ptr=0x2a}");
	si.si_code = -77;
	si.si_value.sival_ptr = NULL;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGUSR1, si_code=0xffffffb3, si_pid=7, si_uid=0}");

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGALRM;
	si.si_code = SI_KERNEL;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGALRM, si_code=SI_KERNEL}");
	si.si_signo = 40;
	si.si_code = SI_KERNEL;
	si.si_errno = 2;
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{si_signo=SIGRT_8, si_code=SI_KERNEL, si_errno=ENOENT}");
	memset(&si, 0, sizeof(si));
	decode_siginfo_val(&ctx, &v, &si);
	assert_string_equal(txt(&v), "{}");
}

/* ---- sockets -------------------------------------------------------------- */

static void test_sockaddr(void **state)
{
	struct sockaddr_un un;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_nl nl;
	struct val v;
	char raw[16];

	reset();
	memset(&un, 0, sizeof(un));
	un.sun_family = AF_UNIX;
	memcpy(un.sun_path, "/tmp/x", 7);
	decode_sockaddr(&ctx, &v, "addr", addr(&un), sizeof(un));
	assert_string_equal(txt(&v), "{sa_family=AF_UNIX, sun_path=\"/tmp/x\"}");
	memset(&un, 0, sizeof(un));
	un.sun_family = AF_UNIX;
	memcpy(un.sun_path, "\0name", 5);
	decode_sockaddr(&ctx, &v, "addr", addr(&un), offsetof(struct sockaddr_un, sun_path) + 5);
	assert_string_equal(txt(&v), "{sa_family=AF_UNIX, sun_path=@\"name\"}");
	decode_sockaddr(&ctx, &v, "addr", addr(&un), 2);
	assert_string_equal(txt(&v), "{sa_family=AF_UNIX}");

	memset(&in, 0, sizeof(in));
	in.sin_family = AF_INET;
	in.sin_port = htons(80);
	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	decode_sockaddr(&ctx, &v, "addr", addr(&in), sizeof(in));
	assert_string_equal(txt(&v), "{sa_family=AF_INET, sin_port=htons(80), "
			    "sin_addr=inet_addr(\"127.0.0.1\")}");
	decode_sockaddr(&ctx, &v, "addr", addr(&in), 8);
	assert_string_equal(txt(&v), "{sa_family=AF_INET, sa_data=\"\\0P\\177\\0\\0\\1\"}");

	memset(&in6, 0, sizeof(in6));
	in6.sin6_family = AF_INET6;
	in6.sin6_port = htons(443);
	in6.sin6_addr = in6addr_loopback;
	decode_sockaddr(&ctx, &v, "addr", addr(&in6), sizeof(in6));
	assert_string_equal(txt(&v), "{sa_family=AF_INET6, sin6_port=htons(443), "
			    "sin6_flowinfo=htonl(0), inet_pton(AF_INET6, \"::1\", &sin6_addr), "
			    "sin6_scope_id=0}");
	decode_sockaddr(&ctx, &v, "addr", addr(&in6), 24);
	assert_string_equal(txt(&v), "{sa_family=AF_INET6, sin6_port=htons(443), "
			    "sin6_flowinfo=htonl(0), inet_pton(AF_INET6, \"::1\", &sin6_addr)}");

	memset(&nl, 0, sizeof(nl));
	nl.nl_family = AF_NETLINK;
	nl.nl_pid = 42;
	nl.nl_groups = 5;
	decode_sockaddr(&ctx, &v, "addr", addr(&nl), sizeof(nl));
	assert_string_equal(txt(&v), "{sa_family=AF_NETLINK, nl_pid=42, nl_groups=0x000005}");

	memset(raw, 0, sizeof(raw));
	raw[0] = (char)250;
	raw[2] = 'a';
	decode_sockaddr(&ctx, &v, "addr", addr(raw), 4);
	assert_string_equal(txt(&v), "{sa_family=0xfa /* AF_??? */, sa_data=\"a\\0\"}");
	decode_sockaddr(&ctx, &v, "addr", addr(raw), 1);
	assert_string_equal(txt(&v), hex(raw));
	decode_sockaddr(&ctx, &v, "addr", 0, 16);
	assert_string_equal(txt(&v), "NULL");
	decode_sockaddr(&ctx, &v, "addr", addr(page + pg - 8), 16);
	assert_string_equal(txt(&v), hex(page + pg - 8));
}

/* ---- time ----------------------------------------------------------------- */

static void test_timespec(void **state)
{
	struct timespec ts = { 1, 500 };
	struct val v;

	reset();
	decode_timespec(&ctx, &v, "ts", addr(&ts));
	assert_string_equal(txt(&v), "{tv_sec=1, tv_nsec=500}");
	ts.tv_sec = -1;
	ts.tv_nsec = -1;
	decode_timespec(&ctx, &v, "ts", addr(&ts));
	assert_string_equal(txt(&v), "{tv_sec=-1, tv_nsec=18446744073709551615}");
	decode_timespec(&ctx, &v, "ts", 0);
	assert_string_equal(txt(&v), "NULL");
	decode_timespec(&ctx, &v, "ts", addr(page + pg - 8));
	assert_string_equal(txt(&v), hex(page + pg - 8));
}

/* ---- whole calls ---------------------------------------------------------- */

static void test_mmap(void **state)
{
	reset();
	ev.karg[1] = 4096;
	ev.karg[2] = PROT_READ | PROT_WRITE;
	ev.karg[3] = MAP_PRIVATE | MAP_ANONYMOUS;
	ev.karg[4] = (uint64_t)-1;
	ev.name = "mmap";
	assert_string_equal(call(sys_decode_mmap, 0x7f0000001000),
			    "mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) "
			    "= 0x7f0000001000");
	reset();
	ev.name = "mmap";
	ev.karg[0] = 0x10000;
	ev.karg[1] = 8192;
	ev.karg[3] = MAP_SHARED | MAP_FIXED | MAP_HUGETLB | (21U << 26);
	ev.karg[4] = 3;
	ev.karg[5] = 0x3000;
	assert_string_equal(call(sys_decode_mmap, -22),
			    "mmap(0x10000, 8192, PROT_NONE, MAP_SHARED|MAP_FIXED|MAP_HUGETLB|"
			    "21<<MAP_HUGE_SHIFT, 3, 0x3000) = -1 EINVAL (Invalid argument)");
	reset();
	ev.name = "mmap";
	ev.karg[2] = 0x100;
	ev.karg[3] = 0xf;
	assert_string_equal(call(sys_decode_mmap, -9),
			    "mmap(NULL, 0, 0x100 /* PROT_??? */, 0xf /* MAP_??? */, 0, 0) "
			    "= -1 EBADF (Bad file descriptor)");
}

static void test_futex(void **state)
{
	static uint32_t w;
	struct timespec ts = { 0, 1000 };
	char want[256];

	reset();
	ev.name = "futex";
	ev.karg[0] = addr(&w);
	ev.karg[1] = FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME;
	ev.karg[2] = 1;
	ev.karg[3] = addr(&ts);
	ev.karg[5] = FUTEX_BITSET_MATCH_ANY;
	snprintf(want, sizeof(want), "futex(%s, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 1, "
		 "{tv_sec=0, tv_nsec=1000}, FUTEX_BITSET_MATCH_ANY) = -1 ETIMEDOUT "
		 "(Connection timed out)", hex(&w));
	assert_string_equal(call(sys_decode_futex, -110), want);
	reset();
	ev.name = "futex";
	ev.karg[0] = addr(&w);
	ev.karg[1] = FUTEX_WAKE_PRIVATE;
	ev.karg[2] = 2147483647;
	snprintf(want, sizeof(want), "futex(%s, FUTEX_WAKE_PRIVATE, 2147483647) = 0", hex(&w));
	assert_string_equal(call(sys_decode_futex, 0), want);
	reset();
	ev.name = "futex";
	ev.karg[0] = addr(&w);
	ev.karg[1] = FUTEX_WAKE_OP;
	ev.karg[2] = 1;
	ev.karg[3] = 1;
	ev.karg[4] = addr(&w);
	ev.karg[5] = FUTEX_OP(FUTEX_OP_SET, 1, FUTEX_OP_CMP_GT, 0);
	snprintf(want, sizeof(want), "futex(%s, FUTEX_WAKE_OP, 1, 1, %s, "
		 "FUTEX_OP_SET<<28|0x1<<12|FUTEX_OP_CMP_GT<<24|0) = 0", hex(&w), hex(&w));
	assert_string_equal(call(sys_decode_futex, 0), want);
	reset();
	ev.name = "futex";
	ev.karg[1] = 99;
	ev.karg[2] = 1;
	assert_string_equal(call(sys_decode_futex, -38),
			    "futex(NULL, 0x63 /* FUTEX_??? */, 1, NULL, NULL, 0) = -1 ENOSYS "
			    "(Function not implemented)");
}

static void test_clone_unfinished(void **state)
{
	static int ptid = 4321;
	struct clone_args ca;
	char want[512];

	/* clone: ", " of the exit arguments goes after "resumed>" */
	reset();
	ev.name = "clone";
	ev.karg[0] = CLONE_PARENT_SETTID | SIGCHLD;
	ev.karg[2] = addr(&ptid);
	sys_decode_clone(&ctx, &ev, 0);
	strbuf_reset(&sb);
	event_render_unfinished(&sb, &ev, NULL);
	assert_string_equal(sb.buf, "clone(child_stack=NULL, flags=CLONE_PARENT_SETTID|SIGCHLD "
			    "<unfinished ...>");
	ev.type = EV_SYSCALL;
	ev.retval = 4321;
	sys_decode_clone(&ctx, &ev, 1);
	strbuf_reset(&sb);
	event_render_resumed(&sb, &ev, NULL, 0);
	assert_string_equal(sb.buf, "<... clone resumed>, parent_tid=[4321]) = 4321");
	strbuf_reset(&sb);
	event_render_call(&sb, &ev, NULL, 0);
	assert_string_equal(sb.buf, "clone(child_stack=NULL, flags=CLONE_PARENT_SETTID|SIGCHLD, "
			    "parent_tid=[4321]) = 4321");

	/* clone3: " => {...}" after "resumed>" with no separator */
	reset();
	ev.name = "clone3";
	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_PARENT_SETTID;
	ca.parent_tid = addr(&ptid);
	ca.exit_signal = SIGCHLD;
	ev.karg[0] = addr(&ca);
	ev.karg[1] = sizeof(ca);
	sys_decode_clone3(&ctx, &ev, 0);
	strbuf_reset(&sb);
	event_render_unfinished(&sb, &ev, NULL);
	snprintf(want, sizeof(want), "clone3({flags=CLONE_PARENT_SETTID, parent_tid=%s, "
		 "exit_signal=SIGCHLD, stack=NULL, stack_size=0} <unfinished ...>", hex(&ptid));
	assert_string_equal(sb.buf, want);
	ev.type = EV_SYSCALL;
	ev.retval = 4321;
	sys_decode_clone3(&ctx, &ev, 1);
	strbuf_reset(&sb);
	event_render_resumed(&sb, &ev, NULL, 0);
	snprintf(want, sizeof(want), "<... clone3 resumed> => {parent_tid=[4321]}, %zu) = 4321",
		 sizeof(ca));
	assert_string_equal(sb.buf, want);
}

static void test_wait4_execve_prlimit(void **state)
{
	static int st = 0x8b;   /* killed by SIGSEGV, core dumped */
	static char *argv[] = { "ls", "-l", NULL };
	static char *envp[] = { "A=1", NULL };
	static struct { uint64_t cur, max; } rl = { 8192 * 1024, UINT64_MAX };
	char want[256];

	reset();
	ev.name = "wait4";
	ev.karg[0] = (uint64_t)-1;
	ev.karg[1] = addr(&st);
	ev.karg[2] = 0x40000000;
	assert_string_equal(call(sys_decode_wait4, 77),
			    "wait4(-1, [{WIFSIGNALED(s) && WTERMSIG(s) == SIGSEGV && WCOREDUMP(s)}], "
			    "__WALL, NULL) = 77");
	reset();
	ev.name = "execve";
	ev.karg[0] = addr("/bin/ls");
	ev.karg[1] = addr(argv);
	ev.karg[2] = addr(envp);
	snprintf(want, sizeof(want), "execve(\"/bin/ls\", [\"ls\", \"-l\"], %s /* 1 var */) = 0",
		 hex(envp));
	assert_string_equal(call(sys_decode_execve, 0), want);
	reset();
	ev.name = "prlimit64";
	ev.karg[1] = RLIMIT_STACK;
	ev.karg[3] = addr(&rl);
	assert_string_equal(call(sys_decode_prlimit64, 0),
			    "prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, "
			    "rlim_max=RLIM64_INFINITY}) = 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigset),
		cmocka_unit_test(test_siginfo),
		cmocka_unit_test(test_sockaddr),
		cmocka_unit_test(test_timespec),
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_futex),
		cmocka_unit_test(test_clone_unfinished),
		cmocka_unit_test(test_wait4_execve_prlimit),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
