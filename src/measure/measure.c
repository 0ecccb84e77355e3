/* Measuring a command without a tracer (see measure.h). */
#include "measure/measure.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/taskstats.h>
#include <poll.h>
#include <stddef.h>
#include <sys/socket.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>

#include "core/procstat.h"
#include "core/setup.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include "util/banned.h"

extern char **environ;

const char *measure_wait_name(enum mwait w)
{
	switch (w) {
	case MW_TREE: return "every task's taskstats";
	case MW_LEADER: return "the main thread's schedstat";
	default: return "not measured";
	}
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* --- taskstats: every task's run-queue delay at its exit (root) --- */

#define NLA_DATA(na) ((void *)((char *)(na) + NLA_HDRLEN))
#define NL_BUF 65536

static int nl_send(int fd, uint16_t type, uint16_t flags, uint8_t cmd, uint16_t atype,
		   const void *data, size_t len)
{
	char buf[512];
	struct nlmsghdr *n = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = NLMSG_DATA(n);
	struct nlattr *na;
	struct sockaddr_nl to;

	if (len > 256)
		return -1;
	memset(buf, 0, sizeof(buf));
	n->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	n->nlmsg_type = type;
	n->nlmsg_flags = NLM_F_REQUEST | flags;
	g->cmd = cmd;
	g->version = 1;
	na = (struct nlattr *)(buf + n->nlmsg_len);
	na->nla_type = atype;
	na->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy(NLA_DATA(na), data, len);
	n->nlmsg_len += NLA_ALIGN(na->nla_len);
	memset(&to, 0, sizeof(to));
	to.nl_family = AF_NETLINK;
	return sendto(fd, buf, n->nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0 ? -1 : 0;
}

/* The generic netlink family id of "TASKSTATS", or -1 with errno set. */
static int nl_family(int fd)
{
	char *buf = xmalloc(NL_BUF);
	int fam = -1, n;
	struct nlmsghdr *h;

	if (nl_send(fd, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		    TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME)) < 0 ||
	    (n = (int)recv(fd, buf, NL_BUF, 0)) < 0)
		goto out;
	h = (struct nlmsghdr *)buf;
	if (!NLMSG_OK(h, n) || h->nlmsg_type == NLMSG_ERROR) {
		errno = ENOENT;
		goto out;
	}
	{
		struct nlattr *na = (struct nlattr *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
		int rem = (int)h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
		while (rem >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN && na->nla_len <= rem) {
			if (na->nla_type == CTRL_ATTR_FAMILY_ID)
				fam = *(uint16_t *)NLA_DATA(na);
			rem -= NLA_ALIGN(na->nla_len);
			na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len));
		}
	}
out:
	free(buf);
	return fam;
}

/*
 * The acknowledgement of a request sent with NLM_F_ACK: 0, or -1 with errno
 * set.  Once registered, the socket also gets every exit on the machine;
 * those that come before the acknowledgement are passed over.  A kernel
 * that answers nothing within two seconds counts as a refusal: without the
 * flag, or without a bound, the wait lasted until some other task on the
 * machine exited, which on a quiet machine is never.
 */
static int nl_ack(int fd)
{
	char *buf = xmalloc(NL_BUF);
	double until = now_us() + 2e6;
	int n, ret = -1;

	errno = ETIMEDOUT;
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		double left = until - now_us();
		int pr;
		if (left <= 0) {
			errno = ETIMEDOUT;
			break;
		}
		pr = poll(&pfd, 1, (int)(left / 1e3) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0) {
			if (!pr)
				errno = ETIMEDOUT;
			break;
		}
		n = (int)recv(fd, buf, NL_BUF, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == ENOBUFS))
			continue;
		if (n < 0)
			break;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type != NLMSG_ERROR)
				continue;
			int e = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			if (e) {
				errno = -e;
				ret = -1;
			} else {
				ret = 0;
			}
			goto out;
		}
	}
out:
	free(buf);
	return ret;
}

/* Starts listening to the exits of every task; 0 or -1 (m->why_wait says why). */
static int tree_open(struct measure *m)
{
	char mask[32];
	int fd, fam, sz = 4 << 20;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct sockaddr_nl a;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		goto bad;
	{
		/* the controller's answer is bounded as the acknowledgement is */
		struct timeval tv = { 2, 0 };
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	memset(&a, 0, sizeof(a));
	a.nl_family = AF_NETLINK;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || (fam = nl_family(fd)) < 0)
		goto bad;
	/* every exit on the machine comes in: room for a busy one */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	snprintf(mask, sizeof(mask), "0-%ld", ncpu > 1 ? ncpu - 1 : 0);
	if (nl_send(fd, (uint16_t)fam, NLM_F_ACK, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK,
		    mask, strlen(mask) + 1) < 0 || nl_ack(fd) < 0)
		goto bad;
	m->nl_fd = fd;
	m->nl_family = fam;
	m->wait = MW_TREE;
	return 0;
bad:
	snprintf(m->why_wait, sizeof(m->why_wait), "the waits of child processes and threads are "
		 "not measured: %s (%s)", errno == ETIMEDOUT ? "the kernel's taskstats did not "
		 "answer" : "the kernel's taskstats need root", strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

static void tree_close(struct measure *m)
{
	if (m->nl_fd < 0)
		return;
	{
		char mask[32];
		long ncpu = sysconf(_SC_NPROCESSORS_CONF);
		snprintf(mask, sizeof(mask), "0-%ld", ncpu > 1 ? ncpu - 1 : 0);
		nl_send(m->nl_fd, (uint16_t)m->nl_family, 0, TASKSTATS_CMD_GET,
			TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK, mask, strlen(mask) + 1);
	}
	close(m->nl_fd);
	m->nl_fd = -1;
}

/* One task's exit. */
struct texit {
	uint32_t tid, tgid, ppid;
	uint64_t delay_ns;
};

struct texits {
	struct texit *v;
	size_t n, alloc;
	bool lost;               /* the socket overflowed: some are missing */
};

static void parse_stats(struct texits *t, struct nlattr *na, int len)
{
	while (len >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN && na->nla_len <= len) {
		if (na->nla_type == TASKSTATS_TYPE_STATS &&
		    na->nla_len >= NLA_HDRLEN + offsetof(struct taskstats, ac_tgid) + 4) {
			struct taskstats ts;
			size_t have = na->nla_len - NLA_HDRLEN;
			memset(&ts, 0, sizeof(ts));
			memcpy(&ts, NLA_DATA(na), have < sizeof(ts) ? have : sizeof(ts));
			ALLOC_GROW(t->v, t->n + 1, t->alloc);
			t->v[t->n].tid = ts.ac_pid;
			t->v[t->n].tgid = ts.ac_tgid;
			t->v[t->n].ppid = ts.ac_ppid;
			t->v[t->n].delay_ns = ts.cpu_delay_total;
			t->n++;
		}
		len -= NLA_ALIGN(na->nla_len);
		na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len));
	}
}

/* Reads what has come in (t may be NULL: thrown away). */
static void tree_drain(struct measure *m, struct texits *t)
{
	char *buf;
	int n;

	if (m->nl_fd < 0)
		return;
	buf = xmalloc(NL_BUF);
	for (;;) {
		n = (int)recv(m->nl_fd, buf, NL_BUF, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			if (t)
				t->lost = true;
			continue;
		}
		if (n <= 0)
			break;
		if (!t)
			continue;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n);
		     h = NLMSG_NEXT(h, n)) {
			struct nlattr *na;
			int rem;
			if (h->nlmsg_type != m->nl_family)
				continue;
			na = (struct nlattr *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
			rem = (int)h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
			while (rem >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN && na->nla_len <= rem) {
				/* one record per task; a process's total comes as well */
				if (na->nla_type == TASKSTATS_TYPE_AGGR_PID)
					parse_stats(t, NLA_DATA(na), na->nla_len - NLA_HDRLEN);
				rem -= NLA_ALIGN(na->nla_len);
				na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len));
			}
		}
	}
	free(buf);
}

static bool in_set(const uint32_t *s, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == v)
			return true;
	return false;
}

/*
 * The time the tree of leader was held up waiting for a CPU.  The threads
 * of a process run side by side, so the most held-up one counts for it;
 * the processes of a command mostly wait for each other (a shell and its
 * commands), so theirs add up.  (Adding up every task's waits was tried:
 * a pool's workers that wait while the main thread sleeps took the sleep
 * out too: that sum, *sum_us, is the other bound.  What is exact needs
 * when each wait happened, not how long the waits were in all.)  lead_ns
 * replaces the main thread's own delay (the part before its execve taken
 * out).  *ntasks gets the tasks of the tree.
 */
static double tree_wait_us(const struct texits *t, uint32_t leader, double lead_ns,
			   unsigned *ntasks, double *sum_us)
{
	uint32_t *procs = xcalloc(t->n + 1, sizeof(*procs));
	bool *in = xcalloc(t->n + 1, sizeof(*in));
	size_t np = 1;
	bool grew = true, lead_seen = false;
	double held = 0, sum = 0;

	procs[0] = leader;
	/* a process is in the tree when its parent is (orphans are lost) */
	while (grew) {
		grew = false;
		for (size_t i = 0; i < t->n; i++) {
			if (in[i])
				continue;
			if (in_set(procs, np, t->v[i].tgid)) {
				in[i] = true;
				grew = true;
			} else if (in_set(procs, np, t->v[i].ppid)) {
				procs[np++] = t->v[i].tgid;
				in[i] = true;
				grew = true;
			}
		}
	}
	*ntasks = 0;
	for (size_t p = 0; p < np; p++) {
		double most = 0;
		for (size_t i = 0; i < t->n; i++) {
			double d = (double)t->v[i].delay_ns;
			if (!in[i] || t->v[i].tgid != procs[p])
				continue;
			(*ntasks)++;
			if (t->v[i].tid == leader && lead_ns >= 0) {
				d = lead_ns;
				lead_seen = true;
			}
			sum += d;
			if (d > most)
				most = d;
		}
		if (p == 0 && !lead_seen && lead_ns >= 0) {
			(*ntasks)++;
			sum += lead_ns;
			if (lead_ns > most)
				most = lead_ns;
		}
		held += most;
	}
	free(procs);
	free(in);
	*sum_us = sum / 1e3;
	return held / 1e3;
}

/* --- hardware counters --- */

static int perf_open(uint64_t config, pid_t pid, bool on_exec)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.disabled = 1;
	a.enable_on_exec = on_exec;
	a.inherit = 1;
	a.exclude_kernel = 1;       /* allowed without privileges */
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void hw_probe(struct measure *m)
{
	int fd = perf_open(PERF_COUNT_HW_INSTRUCTIONS, 0, false);
	int e = errno;
	struct stat st;

	if (fd >= 0) {
		close(fd);
		if ((fd = perf_open(PERF_COUNT_HW_CPU_CYCLES, 0, false)) >= 0) {
			close(fd);
			m->hw = true;
			return;
		}
		e = errno;
	}
	if (stat("/sys/bus/event_source/devices/cpu", &st) < 0 &&
	    stat("/sys/bus/event_source/devices/armv8_pmuv3_0", &st) < 0)
		snprintf(m->why_hw, sizeof(m->why_hw), "this machine has no hardware performance "
			 "counters (no PMU under /sys/bus/event_source/devices): instructions and "
			 "cycles are not recorded");
	else
		snprintf(m->why_hw, sizeof(m->why_hw), "hardware performance counters cannot be "
			 "read here (perf_event_open: %s): instructions and cycles are not recorded",
			 strerror(e));
}

/* --- the runs --- */

void measure_init(struct measure *m, const volatile sig_atomic_t *stop)
{
	memset(m, 0, sizeof(*m));
	m->nl_fd = -1;
	m->stop = stop;
	m->sched_fd = proc_schedstat_open();
	if (tree_open(m) < 0) {
		uint64_t run, wait;
		/* the command's own main thread, at least */
		if (proc_schedstat(0, &run, &wait) == 0)
			m->wait = MW_LEADER;
		else
			snprintf(m->why_wait, sizeof(m->why_wait), "waits for a CPU are not measured: "
				 "this kernel has no schedstat (CONFIG_SCHED_INFO)");
	}
	hw_probe(m);
}

void measure_release(struct measure *m)
{
	tree_close(m);
	if (m->sched_fd >= 0)
		close(m->sched_fd);
	m->sched_fd = -1;
}

/* What the child tells the parent through a shared page. */
struct mshared {
	pid_t parent_tid;      /* the thread that waits for the command */
	double t0_us;          /* just before execve */
	double wait0_ns;       /* the child's run-queue delay so far (before the command) */
	double run0_ns;        /* and its CPU time */
	double pwait0_ns;      /* the parent's, once it sleeps; < 0: unknown */
	int err;               /* execve's errno, or 0 */
};

static double self_wait_ns(const struct measure *m)
{
	uint64_t run, wait;
	if (proc_schedstat_fd(m->sched_fd, &run, &wait) < 0)
		return -1;
	return (double)wait;
}

static double tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1e6 + tv->tv_usec;
}

/*
 * schedstat of task tid (0: the calling thread) with open and read only
 * (the child of a fork calls it); 0 or -1.
 */
static int schedstat_of(pid_t tid, uint64_t *run_ns, uint64_t *wait_ns)
{
	char path[64];
	int fd, r;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/schedstat");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	r = proc_schedstat_fd(fd, run_ns, wait_ns);
	close(fd);
	return r;
}

/* Whether task tid sleeps (state S in /proc/TID/stat). */
static bool task_sleeps(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/*
 * Child: waits for the counters when asked, then for the parent to sleep
 * in its wait for this process, so that every wait of the parent's for a
 * CPU from then on is the time it took to see the command's exit (read
 * from its schedstat now and when it is back); then runs the command.
 */
static void __attribute__((noreturn)) child(const struct measure *m, struct mshared *sh,
					     int sync_fd, const char *path, char *const argv[],
					     const struct run_setup *setup)
{
	sigset_t none;
	uint64_t run, wait;
	struct timespec cpu;
	char c;
	int e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if ((e = run_setup_apply(setup)) != 0) {
		sh->err = e;
		_exit(127);
	}
	if (sync_fd >= 0 && read(sync_fd, &c, 1) < 0)
		_exit(127);
	sh->pwait0_ns = -1;
	if (m->wait != MW_NONE) {
		for (int i = 0; i < 20000; i++) {
			if (task_sleeps(sh->parent_tid)) {
				if (schedstat_of(sh->parent_tid, &run, &wait) == 0)
					sh->pwait0_ns = (double)wait;
				break;
			}
			sched_yield();
		}
		if (schedstat_of(0, &run, &wait) == 0)
			sh->wait0_ns = (double)wait;
	}
	/* schedstat's run time of a running task lags: the clock is exact */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
	sh->run0_ns = cpu.tv_sec * 1e9 + cpu.tv_nsec;
	sh->t0_us = now_us();
	execve(path, argv, run_setup_envp(setup, environ));
	sh->err = errno;
	_exit(127);
}

int measure_run(struct measure *m, char *const argv[], const struct run_setup *setup,
		struct msample *s)
{
	char *path = run_setup_find_program(setup, argv[0]);
	struct mshared *sh;
	struct texits tx = { NULL, 0, 0, false };
	int sync[2] = { -1, -1 }, hwfd[2] = { -1, -1 }, status = 0, ret = -1;
	double w1 = -1, t1 = 0, lead_ns = -1, sum_us;
	struct rusage ru;
	pid_t pid, r;

	memset(s, 0, sizeof(*s));
	s->instructions = s->cycles = -1;
	if (!path)
		return error("cannot run '%s': %s", esc(argv[0]), strerror(errno));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		free(path);
		return error("cannot map a shared page: %s", strerror(errno));
	}
	memset(sh, 0, sizeof(*sh));
	sh->parent_tid = gettid();
	if (m->hw && pipe2(sync, O_CLOEXEC) < 0) {
		error("cannot create a pipe: %s", strerror(errno));
		goto out;
	}
	tree_drain(m, NULL);     /* other exits, before this run */
	pid = fork();
	if (pid < 0) {
		error("cannot fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		if (sync[1] >= 0)
			close(sync[1]);
		child(m, sh, sync[0], path, argv, setup);
	}
	if (m->hw) {
		close(sync[0]);
		sync[0] = -1;
		hwfd[0] = perf_open(PERF_COUNT_HW_INSTRUCTIONS, pid, true);
		hwfd[1] = perf_open(PERF_COUNT_HW_CPU_CYCLES, pid, true);
		if (write(sync[1], "g", 1) < 0) {
			/* the child died: its status says so */
		}
		close(sync[1]);
		sync[1] = -1;
	}
	if (m->wait != MW_NONE) {
		/* the main thread's delay, read while it is a zombie */
		siginfo_t si;
		int wr;
		memset(&si, 0, sizeof(si));
		while ((wr = waitid(P_PID, pid, &si, WEXITED | WNOWAIT)) < 0 && errno == EINTR)
			if (m->stop && *m->stop)
				kill(pid, SIGKILL);
		t1 = now_us();
		w1 = self_wait_ns(m);
		if (wr == 0) {
			uint64_t run, wait;
			if (schedstat_of(pid, &run, &wait) == 0)
				lead_ns = (double)wait - sh->wait0_ns;
		}
	}
	while ((r = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
		if (m->stop && *m->stop)
			kill(pid, SIGKILL);
	if (m->wait == MW_NONE) {
		t1 = now_us();
		w1 = -1;
	}
	if (r != pid) {
		error("cannot wait for '%s': %s", esc(argv[0]), strerror(errno));
		goto out;
	}
	if (sh->err) {
		error("cannot run '%s': %s", esc(argv[0]), strerror(sh->err));
		s->exit_code = 127;
		goto out;
	}
	if (m->stop && *m->stop) {
		ret = -2;
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		uint64_t v;
		if (hwfd[i] >= 0 && read(hwfd[i], &v, sizeof(v)) == (ssize_t)sizeof(v))
			*(i ? &s->cycles : &s->instructions) = (int64_t)v;
	}
	s->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
	s->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	/* renacer's own wait for a CPU once the command had exited */
	s->wall_us = t1 - sh->t0_us;
	if (w1 >= 0 && sh->pwait0_ns >= 0 && w1 > sh->pwait0_ns)
		s->wall_us -= (w1 - sh->pwait0_ns) / 1e3;
	if (s->wall_us < 0)
		s->wall_us = 0;
	s->user_us = tv_us(&ru.ru_utime);
	s->sys_us = tv_us(&ru.ru_stime);
	/* less what the child ran before the command */
	s->cpu_us = s->user_us + s->sys_us - sh->run0_ns / 1e3;
	if (s->cpu_us < 0)
		s->cpu_us = 0;
	s->maxrss_kb = (uint64_t)ru.ru_maxrss;
	s->tasks = 1;
	if (lead_ns < 0)
		lead_ns = -1;
	s->how = lead_ns >= 0 ? MW_LEADER : MW_NONE;
	s->wait_us = lead_ns >= 0 ? lead_ns / 1e3 : 0;
	sum_us = s->wait_us;
	if (m->nl_fd >= 0) {
		tree_drain(m, &tx);
		if (!tx.lost) {
			s->wait_us = tree_wait_us(&tx, (uint32_t)pid, lead_ns, &s->tasks, &sum_us);
			s->how = MW_TREE;
		}
	}
	if (s->wait_us > s->wall_us)
		s->wait_us = s->wall_us;
	s->net_us = s->wall_us - s->wait_us;
	s->net_low_us = s->wall_us - (sum_us < s->wall_us ? sum_us : s->wall_us);
	/* one task alone ran at least its CPU time besides its waits; a
	 * tree's waits added up can overlap, and its CPU time spread over the
	 * CPUs is a floor */
	if ((s->how == MW_LEADER || (s->how == MW_TREE && s->tasks == 1)) &&
	    s->net_us < s->cpu_us) {
		s->net_us = s->cpu_us < s->wall_us ? s->cpu_us : s->wall_us;
		s->wait_us = s->wall_us - s->net_us;
	} else if (s->how == MW_TREE && s->tasks > 1) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		double floor = s->cpu_us / (ncpu > 0 ? (double)ncpu : 1);
		if (s->net_us < floor && floor <= s->wall_us)
			s->net_us = floor;
		if (s->net_low_us < floor && floor <= s->wall_us)
			s->net_low_us = floor;
	}
	if (s->how != MW_TREE || s->tasks == 1 || s->net_low_us > s->net_us)
		s->net_low_us = s->net_us;
	ret = 0;
out:
	for (int i = 0; i < 2; i++) {
		if (hwfd[i] >= 0)
			close(hwfd[i]);
		if (sync[i] >= 0)
			close(sync[i]);
	}
	free(tx.v);
	munmap(sh, sizeof(*sh));
	free(path);
	return ret;
}
