/*
 * Unit tests for the analysis sink (src/assert/analysis.c, memory.c,
 * critpath.c) on events live and replayed: committed memory, the tree's
 * allocation and RSS peaks, and the critical path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "assert/assert.h"
#include "assert/internal.h"
#include "util/strbuf.h"
#include "unit/assert_evgen.h"

#include "util/banned.h"

static void test_mapset(void **state)
{
	struct amap_set m = { 0 };
	amap_set_add(&m, 0x10000, 0x20000);
	assert_int_equal(m.bytes, 0x10000);
	amap_set_remove(&m, 0x14000, 0x16000);       /* a hole in the middle */
	assert_int_equal(m.bytes, 0xe000);
	assert_int_equal(m.n, 2);
	amap_set_add(&m, 0x14000, 0x16000);          /* filled again: merged */
	assert_int_equal(m.n, 1);
	assert_int_equal(m.bytes, 0x10000);
	amap_set_add(&m, 0x18000, 0x30000);          /* overlap counts once */
	assert_int_equal(m.bytes, 0x20000);
	amap_set_remove(&m, 0x0, 0x12000);           /* the head */
	assert_int_equal(m.bytes, 0x1e000);
	amap_set_remove(&m, 0x2f000, 0x40000);       /* the tail */
	assert_int_equal(m.bytes, 0x1d000);
	amap_set_add(&m, 0x50000, 0x51000);
	amap_set_remove(&m, 0, 0x100000);
	assert_int_equal(m.bytes, 0);
	assert_int_equal(m.n, 0);
	free(m.r);
}

/* mmap(NULL, len, ...) = addr, in typed or text form. */
static void do_mmap(struct analysis *a, pid_t pid, uint64_t ts, uint64_t addr, uint64_t len,
		    bool text)
{
	struct event ev = gen_sc(pid, "mmap", ts, 1000, (int64_t)addr);
	char lbuf[32];
	if (text) {
		snprintf(lbuf, sizeof(lbuf), "%llu", (unsigned long long)len);
		gen_text(&ev, 0, "NULL");
		gen_text(&ev, 1, lbuf);
		gen_text(&ev, 2, "PROT_READ|PROT_WRITE");
		gen_text(&ev, 3, "MAP_PRIVATE|MAP_ANONYMOUS");
		gen_text(&ev, 4, "-1");
		gen_text(&ev, 5, "0");
	} else {
		gen_hex(&ev, 0, 0);
		gen_int(&ev, 1, (int64_t)len);
		gen_int(&ev, 2, PROT_READ | PROT_WRITE);
		gen_int(&ev, 3, MAP_PRIVATE | MAP_ANONYMOUS);
		gen_int(&ev, 4, -1);
		gen_int(&ev, 5, 0);
	}
	gen_feed(a, &ev);
}

static void do_munmap(struct analysis *a, pid_t pid, uint64_t ts, uint64_t addr, uint64_t len,
		      bool text)
{
	struct event ev = gen_sc(pid, "munmap", ts, 1000, 0);
	char abuf[32], lbuf[32];
	if (text) {
		snprintf(abuf, sizeof(abuf), "0x%llx", (unsigned long long)addr);
		snprintf(lbuf, sizeof(lbuf), "%llu", (unsigned long long)len);
		gen_text(&ev, 0, abuf);
		gen_text(&ev, 1, lbuf);
	} else {
		gen_hex(&ev, 0, addr);
		gen_int(&ev, 1, (int64_t)len);
	}
	gen_feed(a, &ev);
}

static void do_brk(struct analysis *a, pid_t pid, uint64_t ts, uint64_t req, uint64_t ret)
{
	struct event ev = gen_sc(pid, "brk", ts, 1000, (int64_t)ret);
	gen_hex(&ev, 0, req);
	gen_feed(a, &ev);
}

static void memory_run(bool text)
{
	struct analysis *a = analysis_new();
	const uint64_t M = 1 << 20;
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	do_brk(a, 100, 1 * MS, 0, 0x5000000);            /* initial break */
	do_brk(a, 100, 2 * MS, 0x5000000 + M, 0x5000000 + M);   /* +1M heap */
	do_mmap(a, 100, 3 * MS, 0x7f0000000000, 10 * M, text);
	assert_int_equal(analysis_mem_peak(a), 11 * M);
	do_munmap(a, 100, 4 * MS, 0x7f0000000000 + 2 * M, 3 * M, text);   /* a hole */
	assert_int_equal(a->mem_now, 8 * M);
	do_mmap(a, 100, 5 * MS, 0x7f0000000000 + 2 * M, 1 * M, text);   /* back in the hole */
	assert_int_equal(a->mem_now, 9 * M);
	assert_int_equal(analysis_mem_peak(a), 11 * M);

	/* a fork: the child starts with a copy of the parent's 9M */
	gen_proc(a, EV_PROC_START, 101, 100, 6 * MS);
	struct event f = gen_sc(100, "clone", 6 * MS, 1000, 101);
	if (text) {
		gen_text(&f, 0, "NULL");
		gen_text(&f, 1, "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD");
		f.args[0].name = "child_stack";
		f.args[1].name = "flags";
	} else {
		f.raw[0] = f.karg[0] = 0x1200011;   /* undecoded: the register */
	}
	gen_feed(a, &f);
	assert_int_equal(a->mem_now, 18 * M);
	assert_int_equal(analysis_mem_peak(a), 18 * M);
	/* the child unmaps part of what it inherited */
	do_munmap(a, 101, 7 * MS, 0x7f0000000000, 1 * M, text);
	assert_int_equal(a->mem_now, 17 * M);
	/* exec resets the child */
	struct event x = gen_sc(101, "execve", 8 * MS, 1000, 0);
	gen_str(&x, 0, "/usr/bin/true");
	gen_feed(a, &x);
	assert_int_equal(a->mem_now, 9 * M);
	do_mmap(a, 101, 9 * MS, 0x7e0000000000, 20 * M, text);
	assert_int_equal(analysis_mem_peak(a), 29 * M);
	gen_exit(a, 101, 10 * MS, 0);
	assert_int_equal(a->mem_now, 9 * M);

	/* mremap moves and grows the first 2M to 40M */
	struct event r = gen_sc(100, "mremap", 11 * MS, 1000, 0x7d0000000000);
	gen_hex(&r, 0, 0x7f0000000000);
	gen_int(&r, 1, 2 * (int64_t)M);
	gen_int(&r, 2, 40 * (int64_t)M);
	gen_int(&r, 3, 1);
	gen_feed(a, &r);
	assert_int_equal(a->mem_now, 47 * M);   /* 38M more */
	do_munmap(a, 100, 11 * MS + 2000, 0x7d0000000000, 40 * M, false);
	assert_int_equal(a->mem_now, 7 * M);
	gen_exit(a, 100, 12 * MS, 0);
	analysis_end(a, NULL);
	assert_int_equal(analysis_mem_peak(a), 47 * M);
	gen_free(a);
}

static void test_memory_typed(void **state) { memory_run(false); }
static void test_memory_text(void **state) { memory_run(true); }

/* mmap(addr, len, prot, flags, fd, 0) = ret, typed or as text. */
static void do_map(struct analysis *a, uint64_t ts, uint64_t ret, uint64_t len, int prot,
		   int flags, const char *prot_text, const char *flags_text, bool text)
{
	struct event ev = gen_sc(100, "mmap", ts, 1000, (int64_t)ret);
	char lbuf[32];
	if (text) {
		snprintf(lbuf, sizeof(lbuf), "%llu", (unsigned long long)len);
		gen_text(&ev, 0, "NULL");
		gen_text(&ev, 1, lbuf);
		gen_text(&ev, 2, prot_text);
		gen_text(&ev, 3, flags_text);
		gen_text(&ev, 4, flags & MAP_ANONYMOUS ? "-1" : "3</tmp/f>");
		gen_text(&ev, 5, "0");
	} else {
		gen_hex(&ev, 0, 0);
		gen_int(&ev, 1, (int64_t)len);
		gen_int(&ev, 2, prot);
		gen_int(&ev, 3, flags);
		gen_int(&ev, 4, flags & MAP_ANONYMOUS ? -1 : 3);
		gen_int(&ev, 5, 0);
	}
	gen_feed(a, &ev);
}

static void do_protect(struct analysis *a, uint64_t ts, uint64_t addr, uint64_t len, bool write,
		       bool text)
{
	struct event ev = gen_sc(100, "mprotect", ts, 1000, 0);
	char abuf[32], lbuf[32];
	if (text) {
		snprintf(abuf, sizeof(abuf), "0x%llx", (unsigned long long)addr);
		snprintf(lbuf, sizeof(lbuf), "%llu", (unsigned long long)len);
		gen_text(&ev, 0, abuf);
		gen_text(&ev, 1, lbuf);
		gen_text(&ev, 2, write ? "PROT_READ|PROT_WRITE" : "PROT_NONE");
	} else {
		gen_hex(&ev, 0, addr);
		gen_int(&ev, 1, (int64_t)len);
		gen_int(&ev, 2, write ? PROT_READ | PROT_WRITE : PROT_NONE);
	}
	gen_feed(a, &ev);
}

/*
 * Committed memory: reservations without write access count nothing until
 * mprotect makes part of them writable (glibc's arenas), and keep what was
 * committed when write access goes; MAP_NORESERVE, shared and read-only
 * file mappings count nothing; mremap moves what it was.
 */
static void committed_run(bool text)
{
	struct analysis *a = analysis_new();
	const uint64_t M = 1 << 20, A = 0x7f0000000000;
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	/* an arena: 64M reserved, 132K made writable, grown by 1M */
	do_map(a, 1 * MS, A, 64 * M, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
	       "PROT_NONE", "MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE", text);
	assert_int_equal(a->mem_now, 0);
	assert_int_equal(a->resv_now, 64 * M);
	do_protect(a, 2 * MS, A, 132 * 1024, true, text);
	assert_int_equal(a->mem_now, 132 * 1024);
	do_protect(a, 3 * MS, A + 132 * 1024, M, true, text);
	assert_int_equal(a->mem_now, 132 * 1024 + M);
	do_protect(a, 4 * MS, A, 132 * 1024, false, text);   /* stays committed */
	assert_int_equal(a->mem_now, 132 * 1024 + M);
	/* a sparse writable mapping, a shared and a read-only file mapping */
	do_map(a, 5 * MS, A + 128 * M, 1024 * M, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, "PROT_READ|PROT_WRITE",
	       "MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE", text);
	do_map(a, 6 * MS, A + 2048 * M, 8 * M, PROT_READ | PROT_WRITE, MAP_SHARED,
	       "PROT_READ|PROT_WRITE", "MAP_SHARED", text);
	do_map(a, 7 * MS, A + 2056 * M, 8 * M, PROT_READ | PROT_EXEC, MAP_PRIVATE,
	       "PROT_READ|PROT_EXEC", "MAP_PRIVATE", text);
	assert_int_equal(a->mem_now, 132 * 1024 + M);
	/* a writable private mapping of a file (data) and a shared anonymous one count */
	do_map(a, 8 * MS, A + 2064 * M, 2 * M, PROT_READ | PROT_WRITE, MAP_PRIVATE,
	       "PROT_READ|PROT_WRITE", "MAP_PRIVATE", text);
	do_map(a, 9 * MS, A + 2066 * M, 3 * M, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	       "PROT_READ|PROT_WRITE", "MAP_SHARED|MAP_ANONYMOUS", text);
	assert_int_equal(a->mem_now, 132 * 1024 + 6 * M);
	/* MAP_FIXED PROT_NONE over the arena's committed part gives it back */
	do_map(a, 10 * MS, A, 64 * 1024, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
	       "PROT_NONE", "MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED", text);
	assert_int_equal(a->mem_now, 68 * 1024 + 6 * M);
	/* mremap moves the committed 2M of the file's data, grown to 5M */
	struct event r = gen_sc(100, "mremap", 11 * MS, 1000, (int64_t)(A + 4096 * M));
	if (text) {
		gen_text(&r, 0, "0x7f0081000000");
		gen_text(&r, 1, "2097152");
		gen_text(&r, 2, "5242880");
		gen_text(&r, 3, "MREMAP_MAYMOVE");
	} else {
		gen_hex(&r, 0, A + 2064 * M);
		gen_int(&r, 1, 2 * (int64_t)M);
		gen_int(&r, 2, 5 * (int64_t)M);
		gen_int(&r, 3, 1);
	}
	gen_feed(a, &r);
	assert_int_equal(a->mem_now, 68 * 1024 + 9 * M);
	gen_exit(a, 100, 12 * MS, 0);
	assert_int_equal(a->mem_now, 0);
	assert_int_equal(analysis_mem_peak(a), 68 * 1024 + 9 * M);
	gen_free(a);
}

static void test_committed_typed(void **state) { committed_run(false); }
static void test_committed_text(void **state) { committed_run(true); }

/* munmap(addr, len) by task tid, entered at ts, lasting dur. */
static void unmap_by(struct analysis *a, pid_t tid, uint64_t ts, uint64_t dur, uint64_t addr,
		     uint64_t len)
{
	struct event ev = gen_sc(100, "munmap", ts, dur, 0);
	ev.tid = tid;
	gen_hex(&ev, 0, addr);
	gen_int(&ev, 1, (int64_t)len);
	gen_feed(a, &ev);
}

/*
 * Calls are seen when they end: a thread's munmap seen after the main
 * thread's mmap that the kernel answered with the freed range (glibc
 * trimming a new arena while the next thread's stack is mapped) does not
 * take the stack away; the same munmap seen in order, or one that began
 * after the mapping was made, does.  The tracker (golden comparison) uses
 * the same model.
 */
static void test_unmap_seen_late(void **state)
{
	const uint64_t M = 1 << 20, S = 0x7f0000000000;
	for (int late = 0; late < 3; late++) {
		struct analysis *a = analysis_new();
		gen_proc(a, EV_PROC_START, 100, 1, 0);
		gen_thread(a, 102, 100, 100, 1 * MS);
		/* thread 102's munmap of [S - 56M, S + 16M) began at 10ms */
		uint64_t un_ts = late == 2 ? 10 * MS + 100000 : 10 * MS;
		if (late == 0)
			unmap_by(a, 102, un_ts, 60000, S - 56 * M, 72 * M);
		/* the main thread maps a stack there from 10.01ms to 10.04ms, then
		 * makes it writable */
		do_map(a, 10 * MS + 10000, S, 8 * M + 4096, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, "PROT_NONE",
		       "MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK", false);
		do_protect(a, 10 * MS + 50000, S + 4096, 8 * M, true, false);
		if (late > 0)
			unmap_by(a, 102, un_ts, 60000, S - 56 * M, 72 * M);
		/* late == 2: a munmap that began after the mapping was made */
		assert_int_equal(a->mem_now, late == 2 ? 0 : 8 * M);
		analysis_end(a, NULL);
		gen_free(a);
	}
}

static void test_vfork_shares(void **state)
{
	struct analysis *a = analysis_new();
	const uint64_t M = 1 << 20;
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	do_mmap(a, 100, 1 * MS, 0x7f0000000000, 64 * M, false);
	gen_proc(a, EV_PROC_START, 101, 100, 2 * MS);
	struct event x = gen_sc(101, "execve", 3 * MS, 1000, 0);
	gen_str(&x, 0, "/bin/echo");
	gen_feed(a, &x);
	struct event v = gen_sc(100, "clone", 2 * MS, 2 * MS, 101);
	gen_text(&v, 0, "0x7f00");
	gen_text(&v, 1, "CLONE_VM|CLONE_VFORK|SIGCHLD");
	v.args[0].name = "child_stack";
	v.args[1].name = "flags";
	gen_feed(a, &v);
	assert_int_equal(analysis_mem_peak(a), 64 * M);   /* never counted twice */
	gen_free(a);
}

static void test_rss_peak(void **state)
{
	struct analysis *a = analysis_new();
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	gen_proc(a, EV_PROC_START, 101, 100, 10 * MS);
	gen_proc(a, EV_PROC_START, 102, 100, 30 * MS);
	gen_exit(a, 101, 20 * MS, 5000);      /* alone with the parent */
	gen_exit(a, 102, 40 * MS, 3000);
	gen_proc(a, EV_PROC_START, 103, 100, 35 * MS);
	gen_exit(a, 103, 50 * MS, 1000);      /* overlaps 102 */
	gen_exit(a, 100, 60 * MS, 2000);
	analysis_end(a, NULL);
	/* max(2000+5000, 2000+3000+1000) */
	assert_int_equal(analysis_rss_peak(a), 7000 * 1024ULL);
	gen_free(a);

	a = analysis_new();
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	gen_exit(a, 100, 1 * MS, 0);
	assert_int_equal(analysis_rss_peak(a), 0);
	gen_free(a);
}

/* A wait4 by parent for child, blocking from ts to end. */
static void do_wait(struct analysis *a, pid_t parent, pid_t child, uint64_t ts, uint64_t end)
{
	struct event w = gen_sc(parent, "wait4", ts, end - ts, child);
	gen_int(&w, 0, -1);
	gen_feed(a, &w);
}

static void do_exec(struct analysis *a, pid_t pid, const char *path, uint64_t ts)
{
	struct event x = gen_sc(pid, "execve", ts, 1000, 0);
	gen_str(&x, 0, path);
	gen_feed(a, &x);
}

static void test_critical_path(void **state)
{
	struct analysis *a = analysis_new();
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	do_exec(a, 100, "/bin/sh", 0);
	/* A: waited for (10..60ms); B: detached (70..500ms) */
	gen_proc(a, EV_PROC_START, 101, 100, 10 * MS);
	do_exec(a, 101, "/usr/bin/worker", 11 * MS);
	gen_exit(a, 101, 60 * MS, 0);
	do_wait(a, 100, 101, 20 * MS, 61 * MS);
	gen_proc(a, EV_PROC_START, 102, 100, 70 * MS);
	do_exec(a, 102, "/usr/bin/daemon", 71 * MS);
	gen_exit(a, 100, 100 * MS, 0);
	gen_exit(a, 102, 500 * MS, 0);
	analysis_end(a, NULL);

	assert_int_equal(analysis_critical_path_ns(a, NULL), 100 * MS);
	assert_int_equal(analysis_critical_path_ns(a, "^worker$"), 50 * MS);
	assert_int_equal(analysis_critical_path_ns(a, "sh"), 50 * MS);
	assert_int_equal(analysis_critical_path_ns(a, "daemon"), 0);

	struct cp_result cp;
	critical_path(a, &cp);
	assert_int_equal(cp.nsegs, 2);
	assert_string_equal(a->procs[cp.segs[0].proc].name, "sh");
	assert_string_equal(a->procs[cp.segs[1].proc].name, "worker");
	assert_int_equal(cp.total_ns, 100 * MS);
	cp_result_release(&cp);
	gen_free(a);
}

/* Nested: the root waits for a child that waits for a grandchild. */
static void test_critical_path_nested(void **state)
{
	struct analysis *a = analysis_new();
	gen_proc(a, EV_PROC_START, 100, 1, 0);
	do_exec(a, 100, "/usr/bin/make", 0);
	gen_proc(a, EV_PROC_START, 101, 100, 5 * MS);
	do_exec(a, 101, "/bin/sh", 6 * MS);
	gen_proc(a, EV_PROC_START, 102, 101, 10 * MS);
	do_exec(a, 102, "/usr/bin/cc", 11 * MS);
	/* a sibling of cc that the shell reaped only after it had ended */
	gen_proc(a, EV_PROC_START, 103, 101, 12 * MS);
	gen_exit(a, 103, 13 * MS, 0);
	gen_exit(a, 102, 80 * MS, 0);
	do_wait(a, 101, 102, 15 * MS, 81 * MS);
	do_wait(a, 101, 103, 82 * MS, 83 * MS);
	gen_exit(a, 101, 85 * MS, 0);
	do_wait(a, 100, 101, 6 * MS, 86 * MS);
	gen_exit(a, 100, 90 * MS, 0);
	analysis_end(a, NULL);

	assert_int_equal(analysis_critical_path_ns(a, NULL), 90 * MS);
	assert_int_equal(analysis_critical_path_ns(a, "^cc$"), 70 * MS);
	assert_int_equal(analysis_critical_path_ns(a, "^make$"), 5 * MS + 5 * MS);
	assert_int_equal(analysis_critical_path_ns(a, "^sh$"), 5 * MS + 5 * MS);
	gen_free(a);
}

/* A replayed trace without process records: links come from clone and wait4. */
static void test_critical_path_from_syscalls(void **state)
{
	struct analysis *a = analysis_new();
	struct event e = gen_sc(200, "execve", 0, 1000, 0);
	gen_text(&e, 0, "\"/bin/sh\"");
	gen_feed(a, &e);
	struct event c = gen_sc(200, "clone", 1 * MS, 1000, 201);
	gen_text(&c, 0, "NULL");
	gen_text(&c, 1, "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD");
	c.args[1].name = "flags";
	gen_feed(a, &c);
	/* a thread made with clone: not a process */
	struct event t = gen_sc(200, "clone", 1 * MS + 10, 1000, 205);
	gen_text(&t, 0, "0x7f0000");
	gen_text(&t, 1, "CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM");
	t.args[1].name = "flags";
	gen_feed(a, &t);
	struct event s = gen_sc(201, "clock_nanosleep", 2 * MS, 300 * MS, 0);
	gen_feed(a, &s);
	struct event w = gen_sc(200, "wait4", 3 * MS, 300 * MS, 201);
	gen_text(&w, 0, "-1");
	gen_feed(a, &w);
	struct event x = gen_sc(200, "exit_group", 304 * MS, 0, 0);
	gen_feed(a, &x);
	analysis_end(a, NULL);
	/* the child's end is its last call's end (302ms): 1 + 301 + 2 (rest in sh) */
	assert_int_equal(analysis_critical_path_ns(a, NULL), 304 * MS);
	assert_int_equal(analysis_critical_path_ns(a, "^sh$"), 304 * MS);   /* inherited name */
	assert_int_equal(a->nprocs, 2);   /* the thread made no process */
	gen_free(a);
}

static void test_span_counts(void **state)
{
	struct analysis *a = analysis_new();
	for (int i = 0; i < 10; i++) {
		struct event ev = gen_sc(7, i % 2 ? "write" : "read", (uint64_t)i * MS, 10, 1);
		gen_int(&ev, 0, 0);
		gen_feed(a, &ev);
	}
	analysis_end(a, NULL);
	assert_int_equal(analysis_syscalls(a), 10);
	struct assert_spec s[2] = {
		{ .name = "all", .type = AT_SPAN_COUNT, .enabled = true, .fail_on_violation = true,
		  .max_spans = 9 },
		{ .name = "writes", .type = AT_SPAN_COUNT, .enabled = true, .fail_on_violation = true,
		  .max_spans = 5, .span_name_pattern = "^wr" },
	};
	struct assert_results res = ASSERT_RESULTS_INIT;
	assert_int_equal(assert_eval_specs(s, 2, a, &res), 0);
	assert_int_equal(res.r[0].status, AS_FAILED);
	assert_true(res.r[0].actual == 10);
	assert_int_equal(res.r[1].status, AS_PASSED);
	assert_true(res.r[1].actual == 5);
	assert_int_equal(assert_exit_status(&res), 1);
	assert_results_release(&res);
	gen_free(a);
}

/* Totals of an engine without records (eBPF): more names than the table
 * starts with, counted as span_count reads them. */
static void test_totals(void **state)
{
	struct analysis *a = analysis_new();
	struct sc_total rows[200];
	char names[200][16];
	struct trace_totals tt = { rows, 200, false, true };
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 200; i++) {
		snprintf(names[i], sizeof(names[i]), "sc%d", i);
		rows[i].nr = -1;
		rows[i].name = names[i];
		rows[i].calls = (uint64_t)i + 1;
		rows[i].errors = i % 2;
	}
	analysis_totals(a, &tt);
	analysis_end(a, NULL);
	assert_int_equal(analysis_syscalls(a), 200 * 201 / 2);
	struct assert_spec s = { .name = "one", .type = AT_SPAN_COUNT, .enabled = true,
				 .fail_on_violation = true, .max_spans = 1000,
				 .span_name_pattern = "^sc199$" };
	struct assert_results res = ASSERT_RESULTS_INIT;
	assert_int_equal(assert_eval_specs(&s, 1, a, &res), 0);
	assert_true(res.r[0].actual == 200);
	assert_results_release(&res);
	gen_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapset),
		cmocka_unit_test(test_memory_typed),
		cmocka_unit_test(test_memory_text),
		cmocka_unit_test(test_committed_typed),
		cmocka_unit_test(test_committed_text),
		cmocka_unit_test(test_unmap_seen_late),
		cmocka_unit_test(test_vfork_shares),
		cmocka_unit_test(test_rss_peak),
		cmocka_unit_test(test_critical_path),
		cmocka_unit_test(test_critical_path_nested),
		cmocka_unit_test(test_critical_path_from_syscalls),
		cmocka_unit_test(test_span_counts),
		cmocka_unit_test(test_totals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
