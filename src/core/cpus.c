/*
 * CPU placement (co-location) of renacer and its tracees; the policy is in
 * docs/architecture.md, "CPU placement".  In short: while exactly one
 * tracee can run, it and renacer share one CPU (every stop is then a local
 * switch); as soon as a second one can run, every tracee has its own mask
 * and renacer its whole set again, as under strace.  The program never sees
 * the pin: its own mask is put back before any call that could show it.
 */
#include "core/cpus.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys/tmem.h"
#include "sys/sysent.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "util/banned.h"

enum {
	CT_RUNNING = 1 << 0,   /* resumed and not stopped since (may run) */
	CT_PINNED = 1 << 1,    /* its mask is {pinned_to}, not its own */
	CT_BLOCKING = 1 << 2,  /* the call it is inside may sleep */
	CT_OWN = 1 << 3,       /* it reads or sets CPU masks itself: never pin */
	CT_SETAFF = 1 << 4,    /* inside a sched_setaffinity */
	CT_SENSITIVE = 1 << 5, /* the call it is inside reads or sets a mask */
	CT_AT_ENTRY = 1 << 6,  /* stopped at a syscall entry: resumed into it */
};

/* How often renacer checks that its CPU is its own while pinned, and how
 * much of that time it may have waited behind other work on it. */
#define CHECK_NS 100000000ull       /* 100 ms */
#define CONTENDED_PCT 10
#define BACKOFF_MIN_NS 500000000ull /* 0.5 s, doubling up to 8 s */
#define BACKOFF_MAX_NS 8000000000ull
/* After two tasks ran at once, how long before one alone is pinned again
 * (threads that take turns on a lock would otherwise flip the masks at
 * every turn) */
#define MULTI_HOLD_NS 10000000ull   /* 10 ms */

struct cpus {
	int mode;
	bool attached;
	cpu_set_t orig;           /* renacer's mask at the start */
	cpu_set_t allowed;        /* orig, or --cpu LIST */
	bool confine;             /* --cpu: renacer stays inside allowed */
	int self_pin;             /* CPU renacer is pinned to, or -1 */
	size_t nrunning;          /* tasks with CT_RUNNING */
	struct cpu_task **pinned; /* tasks with CT_PINNED */
	size_t npinned, apinned;
	uint64_t check_at;        /* next contention check (ns) */
	uint64_t last_delay, last_wall;   /* renacer's wait at the last check */
	uint64_t last_tdelay, last_tcount;/* the task's wait and runs then */
	pid_t last_tid;           /* that task */
	uint64_t backoff_until;   /* no pinning before (ns) */
	uint64_t multi_until;     /* several tasks ran until about then (ns) */
	uint64_t backoff_ns;
	unsigned follow_count;    /* PIN_TRACER: resumes since the last look */
	unsigned epoch;           /* bumped when a program set another task's
				     mask: every saved own mask is stale */
	/* syscall numbers the policy looks at (-1 when absent) */
	long nr_getaff, nr_setaff, nr_open, nr_openat, nr_openat2, nr_futex;
	bool follow;              /* -f: new tasks are traced (else a new task
				     must never inherit a pin) */
	uint8_t *forks;           /* bitmap: fork, vfork, clone, clone3 */
	uint8_t *blocking;        /* bitmap over nr: calls that may sleep */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- lists ----------------------------------------------------------- */

int cpus_parse_list(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	if (!*s)
		return -1;
	while (*s) {
		char *end;
		unsigned long a, b;

		if (*s < '0' || *s > '9')
			return -1;
		a = strtoul(s, &end, 10);
		b = a;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -1;
			b = strtoul(end + 1, &end, 10);
		}
		if (a > b || b >= CPU_SETSIZE)
			return -1;
		for (unsigned long i = a; i <= b; i++)
			CPU_SET(i, set);
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

void cpus_format_list(const cpu_set_t *set, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < CPU_SETSIZE && n + 1 < size; i++) {
		int j = i;
		if (!CPU_ISSET(i, set))
			continue;
		while (j + 1 < CPU_SETSIZE && CPU_ISSET(j + 1, set))
			j++;
		n += (size_t)snprintf(buf + n, size - n, j > i ? "%s%d-%d" : "%s%d",
				      n ? "," : "", i, j);
		if (n >= size)
			n = size - 1;
		i = j;
	}
}

int cpus_check(const struct cpu_opts *o)
{
	cpu_set_t mine, both;
	char want[256], have[256];

	if (o->mode == PIN_OFF || !o->have_cpus)
		return 0;
	if (sched_getaffinity(0, sizeof(mine), &mine) < 0)
		return error("cannot read renacer's CPU affinity: %s", strerror(errno));
	CPU_AND(&both, &o->cpus, &mine);
	if (!CPU_EQUAL(&both, &o->cpus)) {
		cpus_format_list(&o->cpus, want, sizeof(want));
		cpus_format_list(&mine, have, sizeof(have));
		return error("--cpu %s: renacer may only run on CPUs %s (its affinity)", want, have);
	}
	return 0;
}

/* ---- setup ------------------------------------------------------------- */

static void mark(uint8_t *set, long nr)
{
	if (nr >= 0 && (unsigned long)nr < sysent_count)
		set[nr >> 3] |= (uint8_t)(1u << (nr & 7));
}

static bool has(const uint8_t *set, long nr)
{
	return nr >= 0 && (unsigned long)nr < sysent_count && (set[nr >> 3] & (1u << (nr & 7)));
}

/* Calls after whose entry a task usually sleeps: it is not counted as
 * running while inside them (a parent in wait4, a thread on a futex). */
struct cpus *cpus_new(const struct cpu_opts *o, bool attached, bool follow)
{
	struct cpus *c;

	if (o->mode == PIN_OFF)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->mode = o->mode;
	c->attached = attached;
	c->self_pin = -1;
	if (sched_getaffinity(0, sizeof(c->orig), &c->orig) < 0) {
		free(c);
		return NULL;
	}
	c->allowed = c->orig;
	if (o->have_cpus) {
		CPU_AND(&c->allowed, &o->cpus, &c->orig);
		c->confine = true;
	}
	/* calls that may sleep, and those that make a task (the semantics
	 * table's SEM_BLOCKING, less exit and vfork: handled as a fork) */
	c->blocking = xcalloc(1, (sysent_count + 7) / 8);
	c->forks = xcalloc(1, (sysent_count + 7) / 8);
	for (unsigned nr = 0; nr < sysent_count; nr++) {
		uint32_t sem = sysent_sem(sysent_get(nr));
		if ((sem & SEM_BLOCKING) && !(sem & (SEM_EXIT | SEM_CLONE)))
			mark(c->blocking, nr);
		if (sem & SEM_CLONE)
			mark(c->forks, nr);
	}
	c->nr_getaff = sysent_lookup("sched_getaffinity");
	c->nr_setaff = sysent_lookup("sched_setaffinity");
	c->nr_open = sysent_lookup("open");
	c->nr_openat = sysent_lookup("openat");
	c->nr_openat2 = sysent_lookup("openat2");
	c->nr_futex = sysent_lookup("futex");
	c->follow = follow;
	return c;
}

void cpus_begin(struct cpus *c)
{
	if (c && c->confine)
		sched_setaffinity(0, sizeof(c->allowed), &c->allowed);
}

void cpus_child_reset(const struct cpus *c)
{
	if (c)
		sched_setaffinity(0, sizeof(c->orig), &c->orig);
}

void cpus_free(struct cpus *c)
{
	if (!c)
		return;
	sched_setaffinity(0, sizeof(c->orig), &c->orig);
	free(c->pinned);
	free(c->blocking);
	free(c->forks);
	free(c);
}

void cpus_add_watched(const struct cpus *c, uint8_t *set, size_t nbytes)
{
	/* a parent blocks in wait4 while its child runs; the others show or
	 * set a mask.  Not open and openat: a /proc/self/status read under a
	 * filter that does not select them shows the pin (documented), as the
	 * price of not stopping programs at every open (find would take
	 * twice as long) */
	const char *const names[] = { "wait4", "waitid", "sched_getaffinity",
				       "sched_setaffinity" };

	if (!c || c->attached || c->mode == PIN_TRACER)
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		long nr = sysent_lookup(names[i]);
		if (nr >= 0 && (size_t)(nr >> 3) < nbytes)
			mark(set, nr);
	}

}

/* ---- the masks ----------------------------------------------------------- */

/* The task's own mask, read before renacer ever changes it (never while
 * the task is pinned: then the saved one is the truth). */
static const cpu_set_t *user_mask(struct cpus *c, struct cpu_task *ct)
{
	if (ct->user && ct->epoch != c->epoch && !(ct->flags & CT_PINNED)) {
		free(ct->user);
		ct->user = NULL;
	}
	if (!ct->user) {
		ct->epoch = c->epoch;
		ct->user = xmalloc(sizeof(*ct->user));
		if (sched_getaffinity(ct->tid, sizeof(*ct->user), ct->user) < 0) {
			free(ct->user);
			ct->user = NULL;
		}
	}
	return ct->user;
}

static void pinned_add(struct cpus *c, struct cpu_task *ct)
{
	ALLOC_GROW(c->pinned, c->npinned + 1, c->apinned);
	c->pinned[c->npinned++] = ct;
}

static void pinned_remove(struct cpus *c, struct cpu_task *ct)
{
	for (size_t i = 0; i < c->npinned; i++) {
		if (c->pinned[i] == ct) {
			c->pinned[i] = c->pinned[--c->npinned];
			return;
		}
	}
}

/* Gives the task its own mask back. */
static void unpin(struct cpus *c, struct cpu_task *ct)
{
	if (!(ct->flags & CT_PINNED))
		return;
	if (ct->user)
		sched_setaffinity(ct->tid, sizeof(*ct->user), ct->user);
	ct->flags &= ~CT_PINNED;
	pinned_remove(c, ct);
}

static void unpin_all(struct cpus *c)
{
	while (c->npinned)
		unpin(c, c->pinned[c->npinned - 1]);
}

static void self_unpin(struct cpus *c)
{
	if (c->self_pin < 0)
		return;
	sched_setaffinity(0, sizeof(c->allowed), &c->allowed);
	c->self_pin = -1;
}

static void self_pin(struct cpus *c, int cpu)
{
	cpu_set_t one;

	if (c->self_pin == cpu)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) == 0)
		c->self_pin = cpu;
}

/* Run-queue wait of a task so far (ns) and the number of times it ran,
 * from /proc/.../schedstat; -1 when unreadable. */
static int run_delay(const char *path, uint64_t *delay, uint64_t *count)
{
	char buf[128];
	unsigned long long run, d, n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	if (sscanf(buf, "%llu %llu %llu", &run, &d, &n) != 3)
		return -1;
	*delay = d;
	*count = n;
	return 0;
}

/*
 * While pinned, renacer checks every 100 ms whether their CPU is really
 * theirs, from the run-queue waits of /proc/.../schedstat.  Sharing a CPU,
 * the tracee always waits a little (about 2 us a stop: renacer finishes
 * its turn first), so neither its total wait nor an idle machine's numbers
 * mean contention.  Other work on the CPU shows as renacer waiting more
 * than 10% of the time (a syscall storm), or as the tracee waiting 50 us
 * or more on average each time it is to run (a program that computes
 * between calls).  Then the task is better off where the scheduler puts
 * it: everything is unpinned for a while.
 */
static bool contended(struct cpus *c, pid_t tid, uint64_t now)
{
	char path[64];
	uint64_t md, mn, td, tn;
	bool busy = false;

	if (now < c->check_at)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	if (run_delay("/proc/self/schedstat", &md, &mn) < 0 || run_delay(path, &td, &tn) < 0)
		return false;
	if (c->last_wall && c->last_tid == tid && now > c->last_wall) {
		uint64_t wall = now - c->last_wall;
		if ((md - c->last_delay) * 100 > wall * CONTENDED_PCT)
			busy = true;
		if (tn > c->last_tcount && (td - c->last_tdelay) / (tn - c->last_tcount) >= 50000)
			busy = true;
	}
	c->last_delay = md;
	c->last_tdelay = td;
	c->last_tcount = tn;
	c->last_tid = tid;
	c->last_wall = now;
	c->check_at = now + CHECK_NS;
	return busy;
}

/* The CPU a stopped task last ran on (/proc/TID/stat, field 39), or -1. */
static int task_cpu(pid_t tid)
{
	char path[64], buf[1024];
	const char *p;
	int fd, field = 2;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	for (; p && *p; p++)
		if (*p == ' ' && ++field == 39)
			return atoi(p + 1);
	return -1;
}

/* ---- tasks ------------------------------------------------------------- */

void cpus_task_new(struct cpus *c, struct cpu_task *ct, pid_t tid,
		   const struct cpu_task *creator)
{
	ct->tid = tid;
	if (!c || !creator)
		return;
	/* the kernel copied the creator's mask, which may be renacer's pin:
	 * the new task's own mask is the creator's own */
	if (creator->user && !ct->user) {
		ct->user = xmalloc(sizeof(*ct->user));
		*ct->user = *creator->user;
		ct->epoch = creator->epoch;
	}
	if ((creator->flags & CT_PINNED) && !(ct->flags & CT_PINNED)) {
		ct->flags |= CT_PINNED;
		ct->pinned_to = creator->pinned_to;
		pinned_add(c, ct);
	}
	ct->flags |= creator->flags & CT_OWN;
}

void cpus_stopped(struct cpus *c, struct cpu_task *ct)
{
	ct->flags &= ~CT_AT_ENTRY;
	if (c && (ct->flags & CT_RUNNING)) {
		ct->flags &= ~CT_RUNNING;
		c->nrunning--;
	}
}

void cpus_resume(struct cpus *c, struct cpu_task *ct)
{
	size_t others;
	bool blocks, want, in_call = ct->flags & CT_AT_ENTRY;
	uint64_t now;
	int x;

	if (!c)
		return;
	ct->flags &= ~CT_AT_ENTRY;
	others = c->nrunning - ((ct->flags & CT_RUNNING) ? 1 : 0);
	blocks = in_call && (ct->flags & CT_BLOCKING);
	if (!(ct->flags & CT_RUNNING) && !blocks) {
		ct->flags |= CT_RUNNING;
		c->nrunning++;
	} else if ((ct->flags & CT_RUNNING) && blocks) {
		ct->flags &= ~CT_RUNNING;
		c->nrunning--;
	}
	if (c->attached)
		return;
	now = mono_ns();
	if (others) {
		/* more than one tracee runs: every one as under strace */
		c->multi_until = now + MULTI_HOLD_NS;
		unpin(c, ct);
		self_unpin(c);
		return;
	}
	if (now < c->backoff_until || now < c->multi_until) {
		unpin(c, ct);
		return;
	}
	if (c->self_pin >= 0 && c->mode != PIN_ALWAYS && contended(c, ct->tid, now)) {
		unpin_all(c);
		self_unpin(c);
		c->backoff_ns = c->backoff_ns ? c->backoff_ns * 2 : BACKOFF_MIN_NS;
		if (c->backoff_ns > BACKOFF_MAX_NS)
			c->backoff_ns = BACKOFF_MAX_NS;
		c->backoff_until = now + c->backoff_ns;
		return;
	}
	if (c->mode == PIN_TRACER) {
		/* benchmarks: renacer alone goes where the tracee is */
		if (c->follow_count++ % 64 == 0 && (x = task_cpu(ct->tid)) >= 0 &&
		    CPU_ISSET(x, &c->allowed))
			self_pin(c, x);
		return;
	}
	/* into a call that sleeps, alone: masks stay as they are (an event
	 * loop would otherwise flip them at every poll) */
	if (blocks)
		return;
	want = !(ct->flags & CT_OWN) && !(in_call && (ct->flags & CT_SENSITIVE));
	if (!want) {
		unpin(c, ct);
		return;
	}
	/* renacer's CPU, if the task may run there; else the first CPU both
	 * may use; none: leave both alone */
	x = c->self_pin >= 0 ? c->self_pin : sched_getcpu();
	if (!user_mask(c, ct))
		return;
	if (x < 0 || !CPU_ISSET(x, &c->allowed) || !CPU_ISSET(x, ct->user)) {
		cpu_set_t both;
		CPU_AND(&both, &c->allowed, ct->user);
		for (x = 0; x < CPU_SETSIZE && !CPU_ISSET(x, &both); x++)
			;
		if (x == CPU_SETSIZE) {
			unpin(c, ct);
			return;
		}
	}
	if (c->self_pin != x) {
		self_pin(c, x);
		if (c->self_pin != x) {
			unpin(c, ct);      /* renacer cannot go there */
			return;
		}
		c->check_at = now + CHECK_NS;
		c->last_wall = 0;
	}
	if (!(ct->flags & CT_PINNED) || ct->pinned_to != x) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(x, &one);
		if (sched_setaffinity(ct->tid, sizeof(one), &one) == 0) {
			if (!(ct->flags & CT_PINNED))
				pinned_add(c, ct);
			ct->flags |= CT_PINNED;
			ct->pinned_to = x;
		}
	}
}

/* True when the path opened (relative to dirfd) is a /proc file that shows
 * a task's CPU mask: /proc/PID/status, /proc/self/task/TID/status, "status"
 * from a dirfd or working directory under /proc.  A "status" elsewhere (an
 * icon theme's directory) is not one.  Unreadable: assumed to be one. */
static bool shows_mask(pid_t tid, long dirfd, uint64_t addr)
{
	char buf[PATH_MAX + 1], link[64], dir[PATH_MAX + 1];
	bool term;
	ssize_t n = tmem_read_str(tid, addr, buf, PATH_MAX, &term);
	const char *base;

	if (n < 0)
		return true;           /* cannot tell: be safe */
	base = strrchr(buf, '/');
	base = base ? base + 1 : buf;
	if (strcmp(base, "status"))
		return false;
	if (buf[0] == '/')
		return strstr(buf, "/proc/") != NULL;
	if ((int)dirfd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", (int)tid);
	else
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, (int)dirfd);
	n = readlink(link, dir, sizeof(dir) - 2);
	if (n <= 0)
		return true;
	dir[n] = '/';
	dir[n + 1] = '\0';
	return strstr(dir, "/proc/") != NULL || strstr(buf, "proc/") != NULL;
}

bool cpus_syscall_entry(struct cpus *c, struct cpu_task *ct, long nr, const uint64_t *args)
{
	if (!c)
		return false;
	ct->flags &= ~(CT_BLOCKING | CT_SETAFF | CT_SENSITIVE);
	ct->flags |= CT_AT_ENTRY;
	if (c->attached)
		return false;
	if (!c->follow && has(c->forks, nr)) {
		/* an untraced child would keep a pin for good */
		ct->flags |= CT_SENSITIVE;
		unpin(c, ct);
		return false;
	}
	if (has(c->blocking, nr)) {
		/* futex blocks for the WAIT kinds only (op & 127: WAIT 0,
		 * LOCK_PI 6, WAIT_BITSET 9, WAIT_REQUEUE_PI 11, LOCK_PI2 13) */
		unsigned op = (unsigned)args[1] & 127;
		if (nr != c->nr_futex || op == 0 || op == 6 || op == 9 || op == 11 || op == 13)
			ct->flags |= CT_BLOCKING;
		/* its exit says the task runs again */
		return true;
	}
	if (nr == c->nr_getaff) {
		/* whoever it asks about sees its own mask */
		ct->flags |= CT_SENSITIVE;
		unpin_all(c);
		return false;
	}
	if (nr == c->nr_setaff) {
		/* the program places itself: its mask is its own from now */
		ct->flags |= CT_SETAFF | CT_SENSITIVE;
		ct->set_target = (pid_t)args[0];
		unpin_all(c);
		return true;
	}
	if ((nr == c->nr_open && shows_mask(ct->tid, AT_FDCWD, args[0])) ||
	    ((nr == c->nr_openat || nr == c->nr_openat2) &&
	     shows_mask(ct->tid, (long)(int)args[0], args[1]))) {
		/* it reads a status file: never pinned again */
		ct->flags |= CT_OWN | CT_SENSITIVE;
		unpin_all(c);
	}
	return false;
}

void cpus_syscall_exit(struct cpus *c, struct cpu_task *ct, int64_t rval)
{
	pid_t target;

	if (!c || !(ct->flags & CT_SETAFF))
		return;
	ct->flags &= ~CT_SETAFF;
	if (rval != 0)
		return;
	/* its new mask is its own: the caller is never pinned again; a mask
	 * set on another task makes every saved mask stale (none is pinned
	 * now: the entry gave each its own back) */
	target = ct->set_target;
	if (target == 0 || target == ct->tid) {
		ct->flags |= CT_OWN;
		free(ct->user);
		ct->user = NULL;
	} else {
		c->epoch++;
	}
}

void cpus_task_release(struct cpus *c, struct cpu_task *ct, bool detached)
{
	if (c) {
		cpus_stopped(c, ct);
		if (ct->flags & CT_PINNED) {
			if (detached)
				unpin(c, ct);
			else
				pinned_remove(c, ct);
		}
	}
	free(ct->user);
	ct->user = NULL;
	ct->flags = 0;
}
