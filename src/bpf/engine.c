/*
 * The eBPF back end's loader: loads the embedded program (renacer.bpf.c, a
 * libbpf skeleton), starts the command already registered in it, turns the
 * kernel's process events into event records and its per-syscall counters
 * into totals for the sinks.  See engine.h and docs/architecture.md.
 */
#include "bpf/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/quals.h"
#include "core/setup.h"
#include "core/startup.h"
#include "sys/filter.h"
#include "sys/qualify.h"
#include "sys/sysent.h"
#include "util/error.h"
#include "util/intmap.h"
#include "util/xmalloc.h"

#ifdef HAVE_EBPF
#include <linux/types.h>
#include <sys/epoll.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/ptrace.h>
#include <sys/stat.h>

#include "bpf/abi.h"
#include "bpf/capture.h"
#include "bpf/record.h"
#include "bpf/throttle.h"
#include "util/dynlib.h"

/*
 * libbpf (and its libelf) is loaded when the back end runs, not when
 * renacer starts (util/dynlib.h): calls go through the table bpfl, whose
 * members have the functions' own types.
 */
#define BPF_FUNCS(X) \
	X(libbpf_set_print) X(libbpf_num_possible_cpus) X(bpf_map__fd) \
	X(bpf_map__set_max_entries) X(bpf_map_update_elem) X(bpf_map_lookup_elem) \
	X(bpf_object__open_skeleton) X(bpf_object__load_skeleton) \
	X(bpf_object__attach_skeleton) X(bpf_object__detach_skeleton) \
	X(bpf_object__destroy_skeleton) X(ring_buffer__new) X(ring_buffer__free) \
	X(ring_buffer__consume) X(ring_buffer__epoll_fd) X(bpf_map_get_next_key) \
	X(bpf_program__set_autoload) X(bpf_program__fd) X(bpf_obj_get_info_by_fd) \
	X(bpf_object__next_program) X(bpf_program__name) X(bpf_object__next_map) X(bpf_map__name) \
	X(bpf_map__max_entries) X(bpf_map__value_size)

static struct bpf_api {
#define BPF_MEMBER(f) __typeof__(&f) f;
	BPF_FUNCS(BPF_MEMBER)
#undef BPF_MEMBER
} bpfl;

static const struct dynlib_sym bpf_syms[] = {
#define BPF_ROW(f) DYNLIB_SYM(struct bpf_api, f),
	BPF_FUNCS(BPF_ROW)
#undef BPF_ROW
};

/* libbpf's soname since 1.0 (Debian's libbpf1), the headers' version */
static struct dynlib bpf_lib = { "libbpf.so.1", bpf_syms, ARRAY_SIZE(bpf_syms), &bpfl };

/* The generated skeleton calls these by name: it gets the table's. */
#define bpf_object__open_skeleton bpfl.bpf_object__open_skeleton
#define bpf_object__load_skeleton bpfl.bpf_object__load_skeleton
#define bpf_object__attach_skeleton bpfl.bpf_object__attach_skeleton
#define bpf_object__detach_skeleton bpfl.bpf_object__detach_skeleton
#define bpf_object__destroy_skeleton bpfl.bpf_object__destroy_skeleton
#include "renacer.skel.h"
#undef bpf_object__open_skeleton
#undef bpf_object__load_skeleton
#undef bpf_object__attach_skeleton
#undef bpf_object__detach_skeleton
#undef bpf_object__destroy_skeleton
#include "renacer_minbtf.h"
#endif

#include "util/banned.h"

/* Effective capability bits (from /proc/self/status), or 0. */
static unsigned long long cap_effective(void)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long caps = 0;
	const char *p;

	if (strbuf_read_file(&sb, "/proc/self/status") == 0 && (p = strstr(sb.buf, "CapEff:")))
		caps = strtoull(p + 7, NULL, 16);
	strbuf_release(&sb);
	return caps;
}

int ebpf_probe(struct strbuf *why)
{
	enum { CAP_SYS_ADMIN_ = 21, CAP_PERFMON_ = 38, CAP_BPF_ = 39 };
	unsigned long long caps;
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (getenv("RENACER_NO_EBPF")) {
		strbuf_addstr(why, "disabled by RENACER_NO_EBPF");
		return -1;
	}
#ifndef HAVE_EBPF
#ifndef EBPF_MISSING
#define EBPF_MISSING "this renacer was built without it"
#endif
	strbuf_addstr(why, EBPF_MISSING);
	return -1;
#endif
	caps = cap_effective();
	if (!(caps & (1ULL << CAP_SYS_ADMIN_)) &&
	    !((caps & (1ULL << CAP_BPF_)) && (caps & (1ULL << CAP_PERFMON_)))) {
		strbuf_addstr(why, geteuid() ? "not running as root" :
			      "no CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN)");
		return -1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		strbuf_addstr(why, "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return -1;
	}
	if (strbuf_read_file(&sb, "/sys/kernel/security/lockdown") == 0 &&
	    strstr(sb.buf, "[confidentiality]")) {
		strbuf_addstr(why, "the kernel is locked down (confidentiality)");
		ret = -1;
	}
	strbuf_release(&sb);
	return ret;
}

bool ebpf_can_record(const struct tracer_opts *o, struct strbuf *why)
{
	const struct trace_quals *q = o->quals;
	const char *no = NULL;

	if (o->dopts.string_limit >= EBPF_DATA_STRING_MAX)
		no = "its strings are shorter than -s";
	else if (q && q->inject)
		no = "it cannot tamper with calls";
	else if (q && (q->user || q->daemonize || q->daemon_tracee || q->detach_on_execve))
		no = "it cannot start the command as -u, -D or -b ask";
	if (no && why)
		strbuf_addstr(why, no);
	return !no;
}

bool ebpf_record_default(void)
{
	const char *b = getenv("RENACER_BACKEND");

	return b && !strcmp(b, "ebpf");
}

bool ebpf_golden_default(void)
{
	const char *b = getenv("RENACER_BACKEND");

	return !(b && !strcmp(b, "ptrace"));
}

bool ebpf_golden_forced(void)
{
	return ebpf_record_default();
}

int engine_run(const struct tracer_opts *o, char *const argv[], struct sink_list *sinks,
	       struct trace_end *end, unsigned ring_scale)
{
	struct ebpf_opts eo = { 0 };
	struct strbuf why = STRBUF_INIT;
	int r = EBPF_UNAVAILABLE;

	static bool said;

	eo.record = true;
	eo.ring_scale = ring_scale;
	eo.shallow_ioctl = true;
	if (ring_scale != ENGINE_PTRACE && ebpf_golden_default() && ebpf_can_record(o, NULL)) {
		if (ebpf_probe(&why) == 0)
			r = ebpf_run(o, &eo, argv, sinks, end, &why);
		/* (why the recorder is not used, once: a capture runs many) */
		if (r == EBPF_UNAVAILABLE && !said) {
			said = true;
			warning("eBPF back end unavailable (%s): recording with ptrace", why.buf);
		}
	}
	strbuf_release(&why);
	if (r != EBPF_UNAVAILABLE)
		return r;
	return tracer_run(o, argv, sinks, end);
}

#ifndef HAVE_EBPF

int ebpf_run(const struct tracer_opts *o, const struct ebpf_opts *eo, char *const argv[],
	     struct sink_list *sinks, struct trace_end *end, struct strbuf *why)
{
	memset(end, 0, sizeof(*end));
	if (ebpf_probe(why) == 0)
		strbuf_addstr(why, "this renacer was built without it");
	return EBPF_UNAVAILABLE;
}

#else

_Static_assert(sizeof(struct rb_stat) == 128, "a counter row is two cache lines");
_Static_assert(EBPF_STRING_MAX + 2 <= RB_REGION_MAX, "a string region holds the limit");

/*
 * When each step of a run happened (CLOCK_MONOTONIC ns, the clock of the
 * kernel's event times; 0: not reached), printed with RENACER_EBPF_STATS
 * so that `make bench` can tell where renacer's start-up and end go.
 */
enum {
	CK_RUN,      /* ebpf_run() begins */
	CK_FORK,     /* the command's process is forked (it waits to exec) */
	CK_LIB,      /* libbpf is loaded */
	CK_OPEN,     /* the program is opened and configured */
	CK_LOAD,     /* loaded: the verifier is done, the maps exist */
	CK_ATTACH,   /* attached */
	CK_GO,       /* the command is told to exec */
	CK_EXEC,     /* its execve (the kernel's exec event) */
	CK_RING,     /* the ring buffer is mapped (the command runs) */
	CK_EXIT,     /* its exit (the kernel's exit event) */
	CK_REAPED,   /* renacer has its status */
	CK_DETACHED, /* the program is detached and freed */
	CK_END,      /* ebpf_run() returns */
	CK_N
};
static const char *const ck_names[CK_N] = {
	"run", "fork", "libbpf", "open", "load", "attach", "go", "execve", "ring", "exit", "reaped",
	"detached", "end",
};

/* renacer's CPU time since its exec, in ms */
static double cpu_ms(void)
{
	struct timespec c;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
	return c.tv_sec * 1e3 + c.tv_nsec / 1e6;
}

/* The state of one run. */
struct erun {
	const struct tracer_opts *o;
	struct sink_list *sinks;
	struct renacer_bpf *skel;
	struct ring_buffer *rb;
	uint64_t t0;              /* monotonic ns at the start */
	int ncpu;                 /* rows of the counters (possible CPUs) */
	pid_t leader;
	pid_t tracer;             /* renacer's pid */
	pid_t watchdog;           /* kills the tree if renacer dies, or 0 */
	int watchdog_fd;          /* its pipe (renacer's end), or -1 */
	const struct rb_task *tasks; /* the kernel's table of traced tasks
				      (mmap'ed, read by the watchdog) */
	size_t ntasks;
	pid_t *procs;             /* live traced processes (to kill on SIGINT) */
	size_t nprocs, aprocs;
	struct intmap progs;      /* pid -> its program's path (char *), for an
				     exec of /proc/self/exe decoded once the
				     process is gone */
	struct recorder *rc;      /* recording (ebpf_opts.record), else NULL */
	struct trace_end *end;
	bool attached;            /* -p: processes renacer did not start */
	struct throttle th;       /* recording: the command's cgroup, frozen
				     while a quarter of the ring is unread (throttle.h) */
	unsigned nrec;            /* records read (throttle_check every 64) */
	pid_t early;              /* the command, forked before the program is
				     loaded and waiting on go_fd, or 0 */
	int go_fd;                /* its end: a byte says exec, or -1 */
	uint64_t ck[CK_N];        /* when each step happened (CK_*) */
	double cpu_run_ms;        /* renacer's CPU time (since its own exec)
				     when ebpf_run() began */
	double cpu_exec_ms;       /* and when the command was told to exec */
	struct strbuf loaded;     /* RENACER_EBPF_STATS: what was loaded */
	struct sigaction old_int, old_term, old_hup, old_chld;  /* as renacer was given them */
};

static volatile sig_atomic_t interrupted;       /* the last SIGINT/TERM/HUP */
static volatile sig_atomic_t interrupt_count;   /* how many came */

/* How long the command has, after renacer's own SIGINT, SIGTERM or SIGHUP
 * was passed on to it, to end before it is killed (as the ptrace engine) */
#define INTERRUPT_GRACE_MS 2000

/* Recording: how often the ring buffer is read when the kernel side has not
 * woken the reader (it does once an eighth of it is full). */
#define RECORD_POLL_MS 10

static void on_interrupt_signal(int sig)
{
	interrupted = sig;
	interrupt_count++;
}

/* SIGCHLD only wakes the wait (a stop of the command, see
 * traceme_stop) */
static void on_sigchld(int sig)
{
	(void)sig;
}

/* libbpf's messages are kept quiet: the reason reaches the user in one line.
 * RENACER_DEBUG_EBPF shows them (the verifier's log on a load failure). */
/* The verifier's last word on a program it rejected (from libbpf's log of
 * the load), for the one-line error; empty when none. */
static char verifier_said[160];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[16384];
	const char *log, *end, *line, *best = NULL;
	size_t best_len = 0;

	if (getenv("RENACER_DEBUG_EBPF"))
		return vfprintf(stderr, fmt, ap);
	if (level != LIBBPF_WARN || !strstr(fmt, "LOAD LOG"))
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (!(log = strstr(buf, "-- BEGIN PROG LOAD LOG --\n")) ||
	    !(end = strstr(log, "-- END PROG LOAD LOG --")))
		return 0;
	/* the last line that says why: not the statistics after it */
	for (line = strchr(log, '\n') + 1; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
		if (len && strncmp(line, "processed ", 10) && strncmp(line, "verification time", 17))
			best = line, best_len = len;
		line += len + 1;
	}
	if (best)
		snprintf(verifier_said, sizeof(verifier_said), "%.*s", (int)best_len, best);
	return 0;
}

static void procs_add(struct erun *r, pid_t pid)
{
	ALLOC_GROW(r->procs, r->nprocs + 1, r->aprocs);
	r->procs[r->nprocs++] = pid;
}

static void procs_del(struct erun *r, pid_t pid)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i] == pid) {
			r->procs[i] = r->procs[--r->nprocs];
			return;
		}
}

/* The program of process pid (its last exec, or its parent's), or NULL. */
static const char *prog_of(struct erun *r, pid_t pid)
{
	uint64_t *v = intmap_get(&r->progs, (uint64_t)pid);

	return v ? (const char *)(uintptr_t)*v : NULL;
}

static void prog_set(struct erun *r, pid_t pid, const char *path)
{
	uint64_t *v = intmap_put(&r->progs, (uint64_t)pid, NULL);

	free((char *)(uintptr_t)*v);
	*v = (uintptr_t)(path ? xstrdup(path) : NULL);
}

static void progs_release(struct erun *r)
{
	uint64_t k, v;

	for (uint32_t i = 0; intmap_next(&r->progs, &i, &k, &v); )
		free((char *)(uintptr_t)v);
	intmap_release(&r->progs);
}

/* Whether p names the exec-ing task's own program (/proc/self/exe). */
static bool own_exe(const char *p, pid_t pid, pid_t tid)
{
	char own[40];

	if (!strcmp(p, "/proc/self/exe") || !strcmp(p, "/proc/thread-self/exe"))
		return true;
	snprintf(own, sizeof(own), "/proc/%d/exe", (int)pid);
	if (!strcmp(p, own))
		return true;
	snprintf(own, sizeof(own), "/proc/%d/exe", (int)tid);
	return !strcmp(p, own);
}

/*
 * The program the kernel ran, as /proc/PID/exe names it: the path handed
 * to the binary loader (the interpreter of a script), resolved against the
 * task's working directory and its symbolic links while it is still there;
 * when it is not and the path was the task's own program (execl of
 * /proc/self/exe), before, the one its last exec ran (was, which may be
 * NULL).
 */
static void exec_path(pid_t tid, const char *p, const char *was, char out[PATH_MAX])
{
	struct strbuf sb = STRBUF_INIT;

	/* (/proc/self is the task's, not renacer's: execl("/proc/self/exe")) */
	if (!strncmp(p, "/proc/self/", 11))
		strbuf_addf(&sb, "/proc/%d/%s", (int)tid, p + 11);
	else if (!strncmp(p, "/proc/thread-self/", 18))
		strbuf_addf(&sb, "/proc/%d/%s", (int)tid, p + 18);
	else if (p[0] == '/')
		strbuf_addstr(&sb, p);
	else
		strbuf_addf(&sb, "/proc/%d/cwd/%s", (int)tid, p);
	if (!realpath(sb.buf, out)) {
		const char *q = was ? was : p;
		size_t n = strlen(q);
		if (n >= PATH_MAX)
			n = PATH_MAX - 1;
		memcpy(out, q, n);
		out[n] = '\0';
	}
	strbuf_release(&sb);
}

/* One process event from the ring buffer becomes an event record. */
static int on_rb_event(void *ctx, void *data, size_t size)
{
	struct erun *r = ctx;
	const struct rb_event *e = data;
	struct event ev;
	char path[PATH_MAX];

	if (size < sizeof(uint32_t))
		return 0;
	if (e->type == RB_EV_CALL || e->type == RB_EV_ENTRY || e->type == RB_EV_SIGNAL ||
	    e->type == RB_EV_EXECARGS || e->type == RB_EV_STACK || e->type == RB_EV_MAP ||
	    e->type == RB_EV_DATA) {
		if (r->rc)
			recorder_record(r->rc, data, size);
		if ((++r->nrec & 63) == 0)
			throttle_check(&r->th);
		return 0;
	}
	if (size < sizeof(*e))
		return 0;
	if ((pid_t)e->pid == r->leader && e->type == RB_EV_EXEC && !r->ck[CK_EXEC])
		r->ck[CK_EXEC] = e->ts_ns;
	if ((pid_t)e->tid == r->leader && e->type == RB_EV_EXIT)
		r->ck[CK_EXIT] = e->ts_ns;
	memset(&ev, 0, sizeof(ev));
	ev.pid = (pid_t)e->pid;
	ev.tid = (pid_t)e->tid;
	ev.nr = -1;
	ev.ts_ns = ev.end_ns = e->ts_ns > r->t0 ? e->ts_ns - r->t0 : 0;
	switch (e->type) {
	case RB_EV_FORK:
		ev.type = EV_PROC_START;
		ev.ppid = (pid_t)e->ppid;
		ev.is_thread = e->is_thread != 0;
		if (!ev.is_thread)
			procs_add(r, ev.pid);
		if (r->rc)
			recorder_note_comm(r->rc, ev.tid, e->comm, sizeof(e->comm));
		if (r->rc && !ev.is_thread)
			recorder_fork(r->rc, ev.pid, (pid_t)e->ptgid);
		if (!ev.is_thread && prog_of(r, (pid_t)e->ptgid))
			prog_set(r, ev.pid, prog_of(r, (pid_t)e->ptgid));
		break;
	case RB_EV_EXEC:
		ev.type = EV_EXEC;
		exec_path(ev.tid, e->path,
			  own_exe(e->path, ev.pid, (pid_t)e->ppid) ? prog_of(r, ev.pid) : NULL, path);
		prog_set(r, ev.pid, path);
		ev.exec_path = path;
		if (e->ppid != e->tid)
			ev.exec_old_tid = (pid_t)e->ppid;
		if (r->rc)
			recorder_note_comm(r->rc, ev.tid, e->comm, sizeof(e->comm));
		break;
	case RB_EV_EXIT:
		ev.type = EV_PROC_EXIT;
		ev.is_thread = ev.tid != ev.pid;
		if (WIFSIGNALED((int)e->exit_code)) {
			ev.term_signal = WTERMSIG((int)e->exit_code);
			ev.core_dumped = WCOREDUMP((int)e->exit_code);
		} else {
			ev.exit_code = WEXITSTATUS((int)e->exit_code);
		}
		if (ev.tid == ev.pid) {
			procs_del(r, ev.pid);
			prog_set(r, ev.pid, NULL);
			intmap_del(&r->progs, (uint64_t)ev.pid);
		}
		/* -p: the first process's status is renacer's (no wait) */
		if (r->attached && ev.tid == r->leader) {
			r->end->exit_code = ev.exit_code;
			r->end->term_signal = ev.term_signal;
		}
		/* (the ptrace engine's collect_rss and collect_sched: no
		 * tracer held the task, so tracer_wait_ns stays 0) */
		if (r->o->collect_rss && ev.tid == ev.pid)
			ev.max_rss_kb = e->max_rss_kb;
		if (r->o->collect_sched) {
			ev.rq_run_ns = e->run_ns;
			ev.rq_wait_ns = e->wait_ns;
		}
		break;
	default:
		return 0;
	}
	if (r->rc)
		recorder_process_event(r->rc, &ev);
	else
		sink_list_event(r->sinks, &ev);
	return 0;
}

/*
 * Whether the running kernel's BTF is the one the embedded minimal BTF was
 * cut from at build time (same size, same bytes at eight places).
 */
static bool min_btf_fits(void)
{
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);
	unsigned char buf[RENACER_MIN_BTF_CHUNK];
	struct stat st;
	bool ok = false;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && (unsigned long long)st.st_size == RENACER_MIN_BTF_KERNEL_SIZE) {
		ok = true;
		for (size_t i = 0; ok && i < ARRAY_SIZE(renacer_min_btf_offs); i++) {
			unsigned long long off = renacer_min_btf_offs[i];
			size_t len = RENACER_MIN_BTF_KERNEL_SIZE - off < sizeof(buf) ?
				     (size_t)(RENACER_MIN_BTF_KERNEL_SIZE - off) : sizeof(buf);
			ok = pread(fd, buf, len, (off_t)off) == (ssize_t)len &&
			     !memcmp(buf, renacer_min_btf_samples[i], len);
		}
	}
	close(fd);
	return ok;
}

/*
 * A memfd holding the minimal BTF when it fits this kernel (its path goes
 * to libbpf as btf_custom_path), or -1: libbpf then reads the whole
 * vmlinux BTF, which gives the same offsets at a higher start-up cost.
 */
static int min_btf_fd(void)
{
	int fd;

	if (getenv("RENACER_EBPF_FULL_BTF") || !min_btf_fits())
		return -1;
	fd = memfd_create("renacer-btf", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, renacer_min_btf, sizeof(renacer_min_btf)) !=
		       (ssize_t)sizeof(renacer_min_btf)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * Whether a swap area is in use (or /proc/swaps cannot be read): without
 * one, a page of a private anonymous mapping that is not there holds
 * zeros, which the recorder then records as such (RBR_ZERO) where it
 * cannot read it.
 */
static bool swap_on(void)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[256];
	int lines = 0;

	if (!f)
		return true;
	while (lines < 2 && fgets(line, sizeof(line), f))
		lines++;
	fclose(f);
	return lines > 1;
}

/* Entries of the table of traced tasks without -f (the command alone):
 * 160 KiB rather than RB_TASKS' 1.3 MiB. */
#define TASKS_ALONE 4096

/* Bytes of the ring buffer when recording: RENACER_EBPF_RINGBUF (a power
 * of two, 4 KiB at least: for tests), else 8 MiB. */
/* The kernel side of -e read= and -e write= (see dump_data() in
 * renacer.bpf.c); the user side keeps the descriptors the sets name. */
static void dump_setup(struct renacer_bpf *skel, const struct trace_quals *q)
{
	const struct numset *sets[2] = { q->read_fds, q->write_fds };
	uint8_t *bits[2] = { (uint8_t *)skel->rodata->dump_rfds,
			     (uint8_t *)skel->rodata->dump_wfds };

	skel->rodata->want_dump = true;
	capture_dumps((uint8_t *)skel->rodata->dump_kind);
	for (int s = 0; s < 2; s++) {
		if (!sets[s])
			continue;
		for (uint32_t fd = 0; fd < RB_DUMP_FDS; fd++)
			if (numset_has(sets[s], fd))
				bits[s][fd / 8] |= (uint8_t)(1u << (fd & 7));
		/* (descriptors past the bitmap: all of them, filtered on
		 * the user side) */
		if (numset_has(sets[s], INT32_MAX - 1)) {
			if (s == 0)
				skel->rodata->dump_rall = true;
			else
				skel->rodata->dump_wall = true;
		}
	}
}

static uint32_t ringbuf_size(unsigned scale)
{
	const char *env = getenv("RENACER_EBPF_RINGBUF");
	unsigned long n = env ? strtoul(env, NULL, 0) : 0;

	if (!(n >= 4096 && n <= (1ul << 30) && !(n & (n - 1))))
		n = 8u << 20;
	while (scale-- && n < (1ul << 28))
		n *= 4;
	return (uint32_t)n;
}

/*
 * Bytes of user stack copied with each call when unwinding: 16 KiB (perf's
 * --call-graph dwarf takes 8 KiB), or RENACER_EBPF_STACK (a multiple of 8
 * up to RB_STACK_MAX; a test knob: a small slice cuts deep stacks short).
 */
static uint32_t stack_bytes(void)
{
	const char *env = getenv("RENACER_EBPF_STACK");
	unsigned long n = env ? strtoul(env, NULL, 0) : 0;

	if (!env || n > RB_STACK_MAX || (n & 7))
		n = 16384;
	return (uint32_t)n;
}

/* Opens, configures and loads the program; EBPF_UNAVAILABLE with why. */
static int load(struct erun *r, const struct ebpf_opts *eo, struct strbuf *why)
{
	const struct tracer_opts *o = r->o;
	struct renacer_bpf *skel;
	unsigned m = o->status_mask;
	int err, btf_fd = min_btf_fd();
	unsigned long ntasks, knob;
	const char *env;
	char btf_path[64];
	LIBBPF_OPTS(bpf_object_open_opts, oo);

	bpfl.libbpf_set_print(libbpf_print);
	if (btf_fd >= 0) {
		snprintf(btf_path, sizeof(btf_path), "/proc/self/fd/%d", btf_fd);
		oo.btf_custom_path = btf_path;
	}
	skel = renacer_bpf__open_opts(&oo);
	if (!skel) {
		if (btf_fd >= 0)
			close(btf_fd);
		strbuf_addf(why, "cannot open the eBPF program: %s", strerror(errno));
		return EBPF_UNAVAILABLE;
	}
	/* Without -f the table holds the command alone: a smaller one is
	 * created faster (its pages are zeroed at every start) and still
	 * spreads the lookups of the machine's other tasks over enough cache
	 * lines that they seldom share the command's.  Test knob
	 * RENACER_EBPF_TASKS: a tiny table sends most tasks to the overflow
	 * hash. */
	ntasks = !o->follow && !o->attach ? TASKS_ALONE : RB_TASKS;
	if ((env = getenv("RENACER_EBPF_TASKS")) && (knob = strtoul(env, NULL, 10)) &&
	    knob <= RB_TASKS && !(knob & (knob - 1)))
		ntasks = knob;
	bpfl.bpf_map__set_max_entries(skel->maps.tasks, (uint32_t)ntasks);
	skel->rodata->tasks_mask = (uint32_t)ntasks - 1;
	/* a new task is followed only with -f: without it, sched_process_fork
	 * needs no program (one less to verify, attach and detach) */
	if (!o->follow)
		bpfl.bpf_program__set_autoload(skel->progs.rb_fork, false);
	r->ncpu = bpfl.libbpf_num_possible_cpus();
	if (r->ncpu <= 0) {
		strbuf_addf(why, "cannot count the CPUs: %s", strerror(-r->ncpu));
		renacer_bpf__destroy(skel);
		if (btf_fd >= 0)
			close(btf_fd);
		return EBPF_UNAVAILABLE;
	}
	if (eo->record) {
		/* (stacks: 16 KiB a call, a buffer four times larger) */
		unsigned scale = eo->ring_scale + (o->enrich ? 1 : 0);

		/* the recorder: its programs, a buffer to build records in per
		 * CPU, a ring buffer for them, and no counters */
		bpfl.bpf_program__set_autoload(skel->progs.rb_sys_enter, false);
		bpfl.bpf_program__set_autoload(skel->progs.rb_sys_exit, false);
		bpfl.bpf_map__set_max_entries(skel->maps.stats, 1);
		bpfl.bpf_map__set_max_entries(skel->maps.scratch, (uint32_t)r->ncpu);
		bpfl.bpf_map__set_max_entries(skel->maps.events, ringbuf_size(scale));
		skel->rodata->want_record = true;
		/* the reader is woken with an eighth of the buffer waiting,
		 * and reads every RECORD_POLL_MS anyway */
		skel->rodata->wake_bytes = ringbuf_size(scale) / 8;
		skel->rodata->call_room = ringbuf_size(scale) / 32;
		skel->rodata->strlim = o->dopts.string_limit + 1;
		skel->rodata->strcap = o->dopts.string_limit + 2;
		skel->rodata->maxptrs = o->dopts.verbose || o->dopts.string_limit >= 255 ? 256
					: o->dopts.string_limit + 1;
		skel->rodata->anon_zero = !swap_on();
		/* -k, -s, profiles: each call's stack, unwound afterwards */
		if (o->enrich) {
			skel->rodata->want_stack = true;
			skel->rodata->stack_bytes = stack_bytes();
		}
		capture_fill((struct rb_spec *)skel->rodata->specs,
			     o->dopts.verbose || (o->quals && o->quals->abbrev_set));
		/* (no pointer fields to follow: the verifier, knowing the
		 * read-only table empty, prunes their code, 10 ms of it) */
		capture_iocflex((struct rb_iocflex *)skel->rodata->ioc_flex,
				(struct rb_iocptr *)skel->rodata->ioc_ptrs,
				!eo->shallow_ioctl &&
				(trace_set_has(o->trace_set, sysent_lookup("ioctl")) ||
				 trace_set_has(o->trace_set, sysent_lookup("bpf"))));
		capture_sets((const struct rb_spec *)skel->rodata->specs,
			     (uint8_t *)skel->rodata->entry_set, (uint8_t *)skel->rodata->block_set,
			     (uint8_t *)skel->rodata->fork_set);
		/* -y, -P: what each call's descriptors refer to */
		if (o->dopts.decode_fds || (o->quals && o->quals->paths)) {
			skel->rodata->want_fdpath = true;
			capture_fdpaths((uint32_t *)skel->rodata->fdpath_set,
					(uint8_t *)skel->rodata->entry_set);
		}
		/* -e read=, -e write=: the whole data of the selected calls;
		 * -s past a record's strings: the data of every such call, up
		 * to the limit */
		if (o->quals && (o->quals->read_fds || o->quals->write_fds))
			dump_setup(skel, o->quals);
		if (o->dopts.string_limit >= EBPF_STRING_MAX) {
			skel->rodata->want_dump = true;
			capture_dumps((uint8_t *)skel->rodata->dump_kind);
			skel->rodata->data_cap = o->dopts.string_limit + 1;
		}
	} else {
		bpfl.bpf_program__set_autoload(skel->progs.rec_sys_enter, false);
		bpfl.bpf_program__set_autoload(skel->progs.rec_sys_exit, false);
		bpfl.bpf_program__set_autoload(skel->progs.rec_signal_deliver, false);
		bpfl.bpf_program__set_autoload(skel->progs.rec_signal_generate, false);
		bpfl.bpf_program__set_autoload(skel->progs.rec_capture, false);
		bpfl.bpf_map__set_max_entries(skel->maps.stats, (uint32_t)r->ncpu * RB_SLOTS);
	}
	skel->rodata->follow = o->follow;
	skel->rodata->want_cpu = o->cpu_time;
	skel->rodata->want_wall = eo->wall;
	skel->rodata->want_minmax = eo->minmax;
	skel->rodata->want_events = true;
	if (o->trace_set) {
		skel->rodata->use_set = true;
		for (unsigned s = 0; s < RB_SLOTS; s++)
			if (s >= RB_NR || trace_set_has(o->trace_set, (long)s))
				skel->rodata->trace_set[s / 8] |= (uint8_t)(1u << (s & 7));
	}
	if (m && (m & STATUS_ALL) != STATUS_ALL && !eo->record) {
		unsigned bm = 0x80000000u;       /* status=none: no bit matches */
		if (m & STATUS_SUCCESSFUL)
			bm |= RB_ST_SUCCESSFUL;
		if (m & STATUS_FAILED)
			bm |= RB_ST_FAILED;
		if (m & STATUS_UNFINISHED)
			bm |= RB_ST_UNFINISHED;
		skel->rodata->status_mask = bm;
	}
	{
		struct timespec c0, c1;

		r->ck[CK_OPEN] = now_ns();
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
		err = renacer_bpf__load(skel);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
		r->ck[CK_LOAD] = now_ns();
		if (getenv("RENACER_EBPF_STATS"))
			fprintf(stderr, "renacer: eBPF: loaded in %.2f ms (CPU %.2f ms)\n",
				(r->ck[CK_LOAD] - r->ck[CK_OPEN]) / 1e6,
				((c1.tv_sec - c0.tv_sec) * 1e9 + (c1.tv_nsec - c0.tv_nsec)) / 1e6);
	}
	if (btf_fd >= 0)
		close(btf_fd);
	/* the recorder's capture program, which its two stubs tail-call */
	if (!err && eo->record) {
		uint32_t k = 0;
		int fd = bpfl.bpf_program__fd(skel->progs.rec_capture);

		if (bpfl.bpf_map_update_elem(bpfl.bpf_map__fd(skel->maps.capture), &k, &fd, BPF_ANY) < 0)
			err = -errno;
	}
	if (!err)
		err = renacer_bpf__attach(skel);
	if (err == -EACCES && verifier_said[0]) {
		/* not a permission: the verifier rejected the program (a defect
		 * of renacer's, or a kernel stricter than it was built for) */
		strbuf_addf(why, "the kernel's verifier rejected the eBPF program: %s",
			    verifier_said);
		renacer_bpf__destroy(skel);
		return EBPF_UNAVAILABLE;
	}
	if (err) {
		strbuf_addf(why, "the kernel refused the eBPF program: %s", strerror(-err));
		renacer_bpf__destroy(skel);
		return EBPF_UNAVAILABLE;
	}
	r->skel = skel;
	{
		size_t len = (size_t)(skel->rodata->tasks_mask + 1) * sizeof(struct rb_task);
		void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, bpfl.bpf_map__fd(skel->maps.tasks), 0);
		if (m != MAP_FAILED) {
			r->tasks = m;
			r->ntasks = skel->rodata->tasks_mask + 1;
		}
	}
	r->ck[CK_ATTACH] = now_ns();
	return 0;
}

/*
 * Maps the ring buffer for reading, once the command runs: mapping the
 * recorder's 8 MiB takes the kernel ~5 ms (a page-table entry per page,
 * twice), which the command need not wait for (what it sends meanwhile
 * waits in the buffer); the watchdog, forked before, need not copy those
 * entries either.  Returns 0, or -1 after error().
 */
static int open_ring(struct erun *r)
{
	r->rb = bpfl.ring_buffer__new(bpfl.bpf_map__fd(r->skel->maps.events), on_rb_event, r, NULL);
	if (!r->rb)
		return error("cannot read the eBPF ring buffer: %s", strerror(errno));
	r->ck[CK_RING] = now_ns();
	return 0;
}

/*
 * In the command's process, once the program is attached: its streams and
 * directory, then execve.  Failures go to fd as two ints (1: registering,
 * 2: running, and the errno); fd is close-on-exec, so an exec closes it
 * without a word.  Never returns.
 */
static void exec_child(struct erun *r, const char *path, char *const argv[], int fd)
{
	int e[2];

	/* its streams and directory, before it is counted */
	if ((e[1] = run_setup_apply(r->o->setup)) != 0) {
		e[0] = 2;
		if (write(fd, e, sizeof(e)) < 0)
			_exit(1);
		_exit(127);
	}
	execve(path, argv, run_setup_envp(r->o->setup, environ));
	e[0] = 2;
	e[1] = errno;
	if (write(fd, e, sizeof(e)) < 0)
		_exit(1);
	_exit(127);
}

/*
 * Forks the command before the program is loaded, so that the fork (and
 * the child's wake-up) overlap the load instead of following it: the
 * child waits on a socket for one byte from start_go() before it execs,
 * and ends without a word when the socket closes without it (the program
 * could not be loaded: the caller may fall back to ptrace).  It starts
 * with the signal dispositions renacer was given (renacer sets its own
 * after the fork).  Returns the pid and sets r->go_fd, or -1 (nothing
 * printed: start_go() then forks as before).
 */
static pid_t start_early(struct erun *r, const char *path, char *const argv[])
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		char c;
		ssize_t n;

		close(sv[0]);
		/* killed with renacer, as PTRACE_O_EXITKILL does for the
		 * ptrace engine's tracees (the watchdog kills the rest of the
		 * tree, see watchdog_start) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != r->tracer)
			_exit(1);
		do {
			n = read(sv[1], &c, 1);
		} while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(0);
		exec_child(r, path, argv, sv[1]);
	}
	close(sv[1]);
	r->early = pid;
	r->go_fd = sv[0];
	return pid;
}

/* The early child is not needed (the program could not be loaded, or the
 * run ended before its start): it ends, and is reaped. */
static void early_cancel(struct erun *r)
{
	if (!r->early)
		return;
	close(r->go_fd);
	r->go_fd = -1;
	while (waitpid(r->early, NULL, 0) < 0 && errno == EINTR)
		;
	r->early = 0;
}

/* Puts the command (not yet exec'ed) in the program's table of traced
 * tasks, hidden until its execve (so its execve and everything after are
 * counted, nothing before).  Nothing else is traced yet: its entry is
 * free.  Returns 0, or -1 with errno. */
static int register_command(struct erun *r, pid_t pid)
{
	struct rb_task init = { .tid = (uint32_t)pid, .flags = RBT_HIDE, .slot = RB_NO_CALL };
	uint32_t key = init.tid & r->skel->rodata->tasks_mask;

	return bpfl.bpf_map_update_elem(bpfl.bpf_map__fd(r->skel->maps.tasks), &key, &init,
					BPF_ANY);
}

/*
 * Starts argv with the program attached: the child forked early
 * (start_early) is registered and told to exec; without one, a child is
 * forked now (with renacer's dispositions restored) and registered.  The
 * socket (or a close-on-exec pipe) says whether the exec failed, and why.
 * Returns the pid, or -1 after error().
 */
static pid_t start_go(struct erun *r, const char *path, char *const argv[], struct trace_end *end)
{
	int pfd[2] = { -1, -1 }, msg[2] = { 0, 0 }, rfd;
	ssize_t n;
	pid_t pid = r->early;

	r->skel->bss->live = 1;
	if (pid) {
		char c = 'g';

		r->early = 0;
		rfd = r->go_fd;
		r->go_fd = -1;
		/* into the cgroup that holds it back while renacer catches up
		 * (without one, a storm loses calls, counted and reported) */
		if (throttle_add(&r->th, pid) < 0)
			throttle_release(&r->th);     /* nothing to hold back */
		if (register_command(r, pid) < 0) {
			msg[0] = 1;
			msg[1] = errno;
			close(rfd);
			waitpid(pid, NULL, 0);
			goto failed;
		}
		r->ck[CK_GO] = now_ns();
		/* (a socket: a child killed meanwhile gives EPIPE, no SIGPIPE) */
		if (send(rfd, &c, 1, MSG_NOSIGNAL) != 1) {
			msg[0] = 2;
			msg[1] = errno;
			close(rfd);
			waitpid(pid, NULL, 0);
			goto failed;
		}
	} else {
		if (pipe2(pfd, O_CLOEXEC) < 0)
			return error("cannot create pipe: %s", strerror(errno));
		r->ck[CK_GO] = now_ns();
		pid = fork();
		if (pid < 0) {
			close(pfd[0]);
			close(pfd[1]);
			return error("cannot fork: %s", strerror(errno));
		}
		if (pid == 0) {
			close(pfd[0]);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != r->tracer)
				_exit(1);
			/* the command starts with the dispositions renacer was
			 * given (an ignored SIGINT stays ignored), as with the
			 * ptrace engine */
			sigaction(SIGINT, &r->old_int, NULL);
			sigaction(SIGTERM, &r->old_term, NULL);
			sigaction(SIGHUP, &r->old_hup, NULL);
			sigaction(SIGCHLD, &r->old_chld, NULL);
			throttle_join(&r->th);
			if (register_command(r, getpid()) < 0) {
				int e[2] = { 1, errno };
				if (write(pfd[1], e, sizeof(e)) < 0)
					_exit(1);
				_exit(1);
			}
			exec_child(r, path, argv, pfd[1]);
		}
		close(pfd[1]);
		rfd = pfd[0];
	}
	do {
		n = read(rfd, msg, sizeof(msg));
	} while (n < 0 && errno == EINTR);
	close(rfd);
	if (n != (ssize_t)sizeof(msg))
		return pid;
	waitpid(pid, NULL, 0);
failed:
	if (msg[0] == 2) {
		end->exit_code = 127;
		return error("cannot run '%s': %s", argv[0], strerror(msg[1]));
	}
	return error("cannot register '%s' with the eBPF program: %s", argv[0],
		     strerror(msg[1]));
}

/* Sends sig to every process started (the command and, with -f, its
 * children), as a shell's process group would get it. */
static void signal_all(struct erun *r, int sig)
{
	kill(r->leader, sig);
	for (size_t i = 0; i < r->nprocs; i++)
		kill(r->procs[i], sig);
}

/*
 * The command made renacer, its parent, its tracer (PTRACE_TRACEME) and
 * now stops for it: renacer is no debugger, so it lets go at once, with
 * the signal the stop was for, and the program goes on as it would
 * untraced (under the ptrace engine or strace the request fails instead).
 * The SIGTRAP that an exec sends a task traced that way is not the
 * program's own: it is dropped, as it would never have been sent.
 */
static void traceme_stop(pid_t pid, int status)
{
	int sig = WSTOPSIG(status);
	siginfo_t si;

	if (sig == SIGTRAP && ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) == 0 &&
	    si.si_code == SI_USER && si.si_pid == pid)
		sig = 0;
	ptrace(PTRACE_DETACH, pid, NULL, (void *)(uintptr_t)sig);
}

/*
 * In the watchdog, once renacer is gone: SIGKILL to every traced task
 * until none is left (those forked meanwhile are in the table too: the
 * watchdog holds the program), for 5 s at most.
 */
static void watchdog_kill(struct erun *r)
{
	int ovf = bpfl.bpf_map__fd(r->skel->maps.overflow);

	for (int pass = 0; pass < 5000; pass++) {
		uint32_t key, next, *prev = NULL;
		struct timespec ms = { 0, 1000000 };

		for (size_t i = 0; i < r->ntasks; i++) {
			uint32_t tid = __atomic_load_n(&r->tasks[i].tid, __ATOMIC_RELAXED);
			if (tid)
				kill((pid_t)tid, SIGKILL);
		}
		while (bpfl.bpf_map_get_next_key(ovf, prev, &next) == 0) {
			kill((pid_t)next, SIGKILL);
			key = next;
			prev = &key;
		}
		if (__atomic_load_n(&r->skel->bss->live, __ATOMIC_ACQUIRE) == 0)
			return;
		nanosleep(&ms, NULL);
	}
}

/*
 * With -f, or a cgroup that holds the command back (throttle.h): a child
 * of renacer that keeps the program attached (it holds its descriptors)
 * and waits on a pipe.  renacer writes one byte when it
 * ends as it should (watchdog_stop); when renacer dies instead (kill -9)
 * the pipe ends without it, and the watchdog kills the traced tree (-f),
 * as PTRACE_O_EXITKILL does for the ptrace engine's tracees, and thaws
 * and removes the cgroup.  The command alone needs none: it has
 * PR_SET_PDEATHSIG.  Returns whether there is a watchdog.
 */
static bool watchdog_start(struct erun *r)
{
	int p[2];
	pid_t pid;
	bool kills = r->o->follow && r->tasks;

	if ((!kills && r->th.freeze_fd < 0) || pipe2(p, O_CLOEXEC) < 0)
		return false;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	if (pid == 0) {
		char c;
		ssize_t n;

		close(p[1]);
		for (int fd = 0; fd < 3; fd++)
			close(fd);
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		do {
			n = read(p[0], &c, 1);
		} while (n < 0 && errno == EINTR);
		if (n != 1) {
			if (kills)
				watchdog_kill(r);
			/* never leave the program frozen */
			throttle_abandon(&r->th);
		}
		_exit(0);
	}
	close(p[0]);
	r->watchdog = pid;
	r->watchdog_fd = p[1];
	return true;
}

/* renacer ends as it should: the watchdog exits (and lets go of the program). */
static void watchdog_stop(struct erun *r)
{
	char c = 'q';

	if (r->watchdog_fd < 0)
		return;
	if (write(r->watchdog_fd, &c, 1) < 0)
		kill(r->watchdog, SIGKILL);
	close(r->watchdog_fd);
	r->watchdog_fd = -1;
	while (waitpid(r->watchdog, NULL, 0) < 0 && errno == EINTR)
		;
	r->watchdog = 0;
}

/* Puts tid in the kernel's table of traced tasks (the array, or the
 * overflow hash when its entry is taken).  Returns 0 or -1 (errno). */
static int table_add(struct erun *r, pid_t tid)
{
	/* (recording: the call it is inside is recorded from its exit) */
	struct rb_task e = { .tid = (uint32_t)tid, .slot = RB_NO_CALL,
			     .flags = r->rc ? RBT_ATTACHED : 0 }, cur;
	uint32_t key = (uint32_t)tid & r->skel->rodata->tasks_mask, k = (uint32_t)tid;
	int fd = bpfl.bpf_map__fd(r->skel->maps.tasks);

	if (bpfl.bpf_map_lookup_elem(fd, &key, &cur) == 0 && cur.tid == 0)
		return bpfl.bpf_map_update_elem(fd, &key, &e, BPF_ANY);
	if (bpfl.bpf_map_update_elem(bpfl.bpf_map__fd(r->skel->maps.overflow), &k, &e,
				     BPF_NOEXIST) < 0)
		return -1;
	__atomic_fetch_add(&r->skel->bss->noverflow, 1, __ATOMIC_RELAXED);
	return 0;
}

static void deliver(struct erun *r, struct event *ev)
{
	if (r->rc)
		recorder_process_event(r->rc, ev);
	else
		sink_list_event(r->sinks, ev);
}

/*
 * -p: each process joins the table, its threads too with -f (found in
 * /proc/PID/task; those it creates later join from birth), and each
 * thread gets its EV_PROC_START, attached.  Nothing stops: a call in
 * progress is counted from its end on no more (its exit is not counted);
 * recording, it shows whole from its exit (RBT_ATTACHED), as ptrace shows
 * it.  Returns 0, or -1 after error() when a process cannot be.
 */
static int attach_all(struct erun *r)
{
	const struct tracer_opts *o = r->o;
	uint64_t live = 0;

	for (size_t i = 0; i < o->nattach; i++) {
		pid_t pid = o->attach[i], *tids = NULL;
		size_t n = 0, alloc = 0;
		char path[64];
		DIR *d;
		struct dirent *de;

		if (kill(pid, 0) < 0 && errno == ESRCH)
			return error("cannot attach to process %d: %s", (int)pid, strerror(ESRCH));
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		if (o->follow && (d = opendir(path))) {
			while ((de = readdir(d))) {
				pid_t tid = (pid_t)atoi(de->d_name);
				if (tid <= 0)
					continue;
				ALLOC_GROW(tids, n + 1, alloc);
				tids[n++] = tid;
			}
			closedir(d);
		} else {
			ALLOC_GROW(tids, n + 1, alloc);
			tids[n++] = pid;
		}
		for (size_t k = 0; k < n; k++) {
			struct event ev;

			if (table_add(r, tids[k]) < 0) {
				free(tids);
				return error("cannot attach to process %d: %s", (int)pid,
					     strerror(errno));
			}
			live++;
			memset(&ev, 0, sizeof(ev));
			ev.type = EV_PROC_START;
			ev.pid = pid;
			ev.tid = tids[k];
			ev.nr = -1;
			ev.is_thread = tids[k] != pid;
			ev.attached = true;
			ev.attach_threads = (unsigned)n;
			ev.ts_ns = ev.end_ns = now_ns() - r->t0;
			deliver(r, &ev);
		}
		procs_add(r, pid);
		if (r->rc)
			recorder_seed_fds(r->rc, pid, pid);
		if (!r->leader)
			r->leader = pid;
		free(tids);
	}
	__atomic_fetch_add(&r->skel->bss->live, live, __ATOMIC_RELEASE);
	return 0;
}

/* -p, interrupted: the tasks still in the table leave it (EV_DETACH),
 * and keep running. */
static void detach_all(struct erun *r)
{
	for (size_t i = 0; r->tasks && i < r->ntasks; i++) {
		uint32_t tid = __atomic_load_n(&r->tasks[i].tid, __ATOMIC_RELAXED);
		char path[64];
		struct event ev;
		int tgid = 0;
		struct strbuf sb = STRBUF_INIT;
		const char *p;

		if (!tid)
			continue;
		snprintf(path, sizeof(path), "/proc/%u/status", tid);
		if (strbuf_read_file(&sb, path) == 0 && (p = strstr(sb.buf, "\nTgid:")))
			tgid = atoi(p + 6);
		strbuf_release(&sb);
		memset(&ev, 0, sizeof(ev));
		ev.type = EV_DETACH;
		ev.pid = tgid ? tgid : (pid_t)tid;
		ev.tid = (pid_t)tid;
		ev.nr = -1;
		ev.ts_ns = ev.end_ns = now_ns() - r->t0;
		deliver(r, &ev);
		if ((pid_t)tid == r->leader)
			r->end->detached = 1;
	}
}

/* Waits for the command and, with -f, every traced task to end. */
static void wait_all(struct erun *r, struct trace_end *end)
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	int pidfd = (int)syscall(SYS_pidfd_open, r->leader, 0);
	struct epoll_event ee = { .events = EPOLLIN };
	bool reaped = r->attached;       /* (-p: not our children) */
	sig_atomic_t seen = 0;
	uint64_t kill_at = 0;

	if (ep >= 0) {
		epoll_ctl(ep, EPOLL_CTL_ADD, bpfl.ring_buffer__epoll_fd(r->rb), &ee);
		if (pidfd >= 0)
			epoll_ctl(ep, EPOLL_CTL_ADD, pidfd, &ee);
	}
	for (;;) {
		struct epoll_event evs[2];
		int status;

		/* SIGINT/SIGTERM/SIGHUP: passed on to what was started, which
		 * is recorded to its end; killed when the grace period ends
		 * or at a second one, as the ptrace engine does */
		if (interrupt_count != seen && r->attached) {
			/* -p: let go of them (detach_all) */
			end->interrupted = 1;
			end->interrupt_signal = interrupted;
			break;
		}
		if (interrupt_count != seen) {
			seen = interrupt_count;
			if (!end->interrupted) {
				end->interrupted = 1;
				end->interrupt_signal = interrupted;
				signal_all(r, interrupted);
				kill_at = now_ns() + INTERRUPT_GRACE_MS * 1000000ull;
			} else {
				signal_all(r, SIGKILL);
				kill_at = 0;
			}
		}
		if (kill_at && now_ns() >= kill_at) {
			signal_all(r, SIGKILL);
			kill_at = 0;
		}
		bpfl.ring_buffer__consume(r->rb);
		/* read empty: the command may go on */
		throttle_check(&r->th);
		if (!reaped && !r->attached && waitpid(r->leader, &status, WNOHANG) == r->leader) {
			if (WIFSTOPPED(status)) {
				traceme_stop(r->leader, status);
				continue;
			}
			reaped = true;
			r->ck[CK_REAPED] = now_ns();
			if (WIFSIGNALED(status))
				end->term_signal = WTERMSIG(status);
			else
				end->exit_code = WEXITSTATUS(status);
		}
		/* the last exit event is in the ring before live drops to 0 */
		if (reaped && __atomic_load_n(&r->skel->bss->live, __ATOMIC_ACQUIRE) == 0)
			break;
		if (ep < 0 || epoll_wait(ep, evs, 2, r->rc ? RECORD_POLL_MS : 100) < 0) {
			if (ep < 0)
				usleep(10000);
		}
	}
	bpfl.ring_buffer__consume(r->rb);
	if (pidfd >= 0)
		close(pidfd);
	if (ep >= 0)
		close(ep);
}

/* Sums the per-CPU counters into totals and hands them to the sinks. */
static int deliver_totals(struct erun *r)
{
	size_t len = (size_t)r->ncpu * RB_SLOTS * sizeof(struct rb_stat);
	const struct rb_stat *all;
	struct sc_total *rows;
	struct trace_totals tt = { NULL, 0, r->o->cpu_time, false };
	size_t n = 0;

	all = mmap(NULL, len, PROT_READ, MAP_SHARED, bpfl.bpf_map__fd(r->skel->maps.stats), 0);
	if (all == MAP_FAILED)
		return error("cannot read the eBPF counters: %s", strerror(errno));
	rows = xcalloc(RB_SLOTS, sizeof(*rows));
	tt.have_wall = r->skel->rodata->want_wall;
	for (uint32_t k = 0; k < RB_SLOTS; k++) {
		struct sc_total *t = &rows[n];
		char buf[32];
		bool any = false;

		for (int c = 0; c < r->ncpu; c++) {
			const struct rb_stat *v = &all[(size_t)c * RB_SLOTS + k];
			if (v->calls) {
				if (!t->calls || v->cpu_min_ns < t->cpu_min_ns)
					t->cpu_min_ns = v->cpu_min_ns;
				if (!t->calls || v->wall_min_ns < t->wall_min_ns)
					t->wall_min_ns = v->wall_min_ns;
				if (v->cpu_max_ns > t->cpu_max_ns)
					t->cpu_max_ns = v->cpu_max_ns;
				if (v->wall_max_ns > t->wall_max_ns)
					t->wall_max_ns = v->wall_max_ns;
			}
			t->calls += v->calls;
			t->errors += v->errors;
			t->unfinished += v->unfinished;
			t->cpu_ns += v->cpu_ns;
			t->wall_ns += v->wall_ns;
			t->unfinished_wall_ns += v->unfinished_wall_ns;
			any = any || v->calls || v->unfinished;
		}
		if (!any)
			continue;
		/* an ia32 call is shown as the ptrace engine shows it: -1 - nr */
		t->nr = k < RB_NR ? (long)k : -1 - (long)(k - RB_COMPAT);
		t->name = xstrdup(sysent_name(t->nr, buf));
		n++;
	}
	munmap((void *)all, len);
	tt.rows = rows;
	tt.n = n;
	sink_list_totals(r->sinks, &tt);
	for (size_t i = 0; i < n; i++)
		free((char *)rows[i].name);
	free(rows);
	return 0;
}

/* Times the kernel skipped one of the recording programs (it never runs
 * a program inside another on one CPU: a timer's signal while a call is
 * being recorded). */
static uint64_t recursion_misses(const struct renacer_bpf *skel)
{
	const struct bpf_program *progs[] = {
		skel->progs.rec_sys_enter, skel->progs.rec_sys_exit,
		skel->progs.rec_signal_deliver, skel->progs.rec_signal_generate,
		skel->progs.rb_fork, skel->progs.rb_exec, skel->progs.rb_exit,
	};
	uint64_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(progs); i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpfl.bpf_program__fd(progs[i]);

		memset(&info, 0, sizeof(info));
		if (fd >= 0 && bpfl.bpf_obj_get_info_by_fd(fd, &info, &len) == 0)
			n += info.recursion_misses;
	}
	return n;
}

static void warn_lost(const struct renacer_bpf *skel)
{
	uint64_t missed = skel->rodata->want_record ? recursion_misses(skel) : 0;

	if (skel->bss->lost_tasks)
		warning("eBPF: %llu new tasks could not be followed (no room for their state)",
			(unsigned long long)skel->bss->lost_tasks);
	if (skel->bss->lost_events)
		warning("eBPF: %llu process events were lost (ring buffer full)",
			(unsigned long long)skel->bss->lost_events);
	if (skel->bss->lost_calls)
		warning("eBPF: %llu calls and signals were lost (ring buffer full): "
			"the trace misses them", (unsigned long long)skel->bss->lost_calls);
	if (missed)
		warning("eBPF: %llu events were missed (the kernel skipped the recorder "
			"inside another program): the trace may miss them", (unsigned long long)missed);
	if (skel->bss->lost_stacks)
		warning("eBPF: %llu stacks and mappings were lost (ring buffer full): "
			"some calls show no stack", (unsigned long long)skel->bss->lost_stacks);
	if (skel->bss->cut_calls)
		warning("eBPF: %llu calls had more memory than a record holds: "
			"some arguments show as addresses", (unsigned long long)skel->bss->cut_calls);
	if (skel->bss->lost_nr)
		warning("eBPF: %llu calls with a syscall number above %d were not counted",
			(unsigned long long)skel->bss->lost_nr, RB_NR - 1);
}

/*
 * RENACER_EBPF_STATS: what was loaded, noted before it is freed: the
 * programs (those the run does not need are not loaded) and the maps with
 * the bytes of their values.
 */
static void note_loaded(struct erun *r, struct renacer_bpf *skel)
{
	struct bpf_program *p;
	struct bpf_map *m;
	struct strbuf sb = STRBUF_INIT;
	unsigned long long bytes = 0;
	unsigned n = 0;

	for (p = bpfl.bpf_object__next_program(skel->obj, NULL); p;
	     p = bpfl.bpf_object__next_program(skel->obj, p))
		if (bpfl.bpf_program__fd(p) >= 0) {
			strbuf_addf(&sb, " %s", bpfl.bpf_program__name(p));
			n++;
		}
	strbuf_addf(&r->loaded, "renacer: eBPF: programs: %u loaded:%s\n", n, sb.buf);
	strbuf_reset(&sb);
	n = 0;
	for (m = bpfl.bpf_object__next_map(skel->obj, NULL); m;
	     m = bpfl.bpf_object__next_map(skel->obj, m))
		if (bpfl.bpf_map__fd(m) >= 0) {
			/* (a ring buffer's max_entries is its size) */
			unsigned long long b = bpfl.bpf_map__value_size(m) ?
				(unsigned long long)bpfl.bpf_map__max_entries(m) *
				bpfl.bpf_map__value_size(m) : bpfl.bpf_map__max_entries(m);
			strbuf_addf(&sb, " %s=%llu", bpfl.bpf_map__name(m), b);
			bytes += b;
			n++;
		}
	strbuf_addf(&r->loaded, "renacer: eBPF: maps: %u, %llu bytes of values:%s\n", n, bytes,
		    sb.buf);
	strbuf_release(&sb);
}

/*
 * RENACER_EBPF_STATS: where the run's time went: each step in ms after
 * ebpf_run() began, the end's after the command's exit, and their
 * CLOCK_MONOTONIC times (make bench measures from its own clock); then
 * what note_loaded() saw.
 */
static void print_stats(const struct erun *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "renacer: eBPF: start-up:");
	for (int k = CK_FORK; k <= CK_RING; k++)
		if (r->ck[k])
			strbuf_addf(&sb, " %s +%.2f", ck_names[k], (r->ck[k] - r->ck[CK_RUN]) / 1e6);
	fprintf(stderr, "%s ms; renacer's CPU %.2f ms at run, %.2f at go\n", sb.buf,
		r->cpu_run_ms, r->cpu_exec_ms);
	strbuf_reset(&sb);
	if (r->ck[CK_EXIT]) {
		strbuf_addstr(&sb, "renacer: eBPF: end:");
		for (int k = CK_REAPED; k <= CK_END; k++)
			if (r->ck[k])
				strbuf_addf(&sb, " %s +%.2f", ck_names[k],
					    ((double)r->ck[k] - (double)r->ck[CK_EXIT]) / 1e6);
		fprintf(stderr, "%s ms after the command's exit\n", sb.buf);
		strbuf_reset(&sb);
	}
	strbuf_addstr(&sb, "renacer: eBPF: clock:");
	for (int k = 0; k < CK_N; k++)
		strbuf_addf(&sb, " %s=%llu", ck_names[k], (unsigned long long)r->ck[k]);
	fprintf(stderr, "%s\n%s", sb.buf, r->loaded.buf);
	strbuf_release(&sb);
}

int ebpf_run(const struct tracer_opts *o, const struct ebpf_opts *eo, char *const argv[],
	     struct sink_list *sinks, struct trace_end *end, struct strbuf *why)
{
	struct erun r;
	/* a recording's records read back as the ptrace engine's: no
	 * backend named in the trace */
	struct trace_info ti = { RENACER_VERSION, o->attach ? NULL : argv, 0, o->follow,
				 eo->record ? NULL : "ebpf", o->attach ? NULL : o->env };
	struct sigaction sa;
	struct timespec rt;
	struct event ev;
	char *path = NULL;
	const char *e;
	uint64_t ts;
	int ret, path_errno = 0;
	bool stats = getenv("RENACER_EBPF_STATS") != NULL;

	memset(end, 0, sizeof(*end));
	memset(&r, 0, sizeof(r));
	r.ck[CK_RUN] = now_ns();
	r.cpu_run_ms = cpu_ms();
	r.watchdog_fd = -1;
	r.th.freeze_fd = r.th.procs_fd = -1;
	r.go_fd = -1;
	strbuf_init(&r.loaded, 0);
	r.tracer = getpid();
	r.o = o;
	r.sinks = sinks;
	r.end = end;
	r.attached = o->attach != NULL;
	if (ebpf_probe(why) < 0)
		return EBPF_UNAVAILABLE;
	/* the command's process first: its fork overlaps the load */
	if (!r.attached) {
		path = run_setup_find_program(o->setup, argv[0]);
		path_errno = errno;
		if (path && !getenv("RENACER_EBPF_LATE_FORK") && start_early(&r, path, argv) > 0)
			r.ck[CK_FORK] = now_ns();
	}
	if (dynlib_load(&bpf_lib, &e) < 0) {
		strbuf_addstr(why, e);
		ret = EBPF_UNAVAILABLE;
		goto out;
	}
	r.ck[CK_LIB] = now_ns();
	ret = load(&r, eo, why);
	if (ret < 0)
		goto out;

	/* SA_RESTART: the loop's epoll_wait() and usleep() return at a
	 * signal all the same, while a sink's write to a slow pipe, which a
	 * signal would cut (EINTR: a lost trace), goes on */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, &r.old_int);
	sigaction(SIGTERM, &sa, &r.old_term);
	sigaction(SIGHUP, &sa, &r.old_hup);
	sa.sa_handler = on_sigchld;
	sigaction(SIGCHLD, &sa, &r.old_chld);
	interrupted = 0;
	interrupt_count = 0;

	clock_gettime(CLOCK_REALTIME, &rt);
	ti.start_realtime_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
	r.t0 = now_ns();
	if (eo->record)
		r.rc = recorder_new(o, sinks, r.t0);
	/* as tracer_run: a sink that cannot begin gets no end() either */
	ret = sink_list_begin(sinks, &ti) < 0 ? -1 : 0;
	if (r.attached) {
		if (attach_all(&r) < 0) {
			end->exit_code = 1;
			ret = -1;
			goto restore;
		}
	} else {
		if (!path) {
			end->exit_code = 127;
			ret = error("cannot run '%s': %s", argv[0], strerror(path_errno));
			goto restore;
		}
		/* a command renacer starts waits while renacer catches up
		 * (-p: the processes are not renacer's to move) */
		if (eo->record && throttle_open(&r.th, ringbuf_size(eo->ring_scale)) == 0 &&
		    throttle_map(&r.th, bpfl.bpf_map__fd(r.skel->maps.events)) == 0)
			/* watching before the command's first call: under load
			 * renacer's reader may not run for a while after it */
			throttle_watch(&r.th);
		ts = now_ns();          /* the command's start precedes its execve */
		r.leader = start_go(&r, path, argv, end);
		r.cpu_exec_ms = cpu_ms();
		if (r.leader < 0) {
			if (!end->exit_code)
				end->exit_code = 1;
			ret = -1;
			goto restore;
		}
		memset(&ev, 0, sizeof(ev));
		ev.type = EV_PROC_START;
		ev.pid = ev.tid = r.leader;
		ev.ppid = getpid();
		if (r.rc)
			recorder_seed_fds(r.rc, r.leader, getpid());
		ev.nr = -1;
		ev.ts_ns = ev.end_ns = ts - r.t0;
		deliver(&r, &ev);
		procs_add(&r, r.leader);
		/* -I: once the command has its own dispositions */
		if (o->quals)
			startup_signals(o->quals->interruptible);
		/* no back-pressure without a watchdog to thaw the command
		 * should renacer die while it is frozen */
		if (!watchdog_start(&r))
			throttle_release(&r.th);
	}
	if (open_ring(&r) < 0) {
		/* (never seen: ENOMEM) what was started ends with renacer */
		if (!r.attached) {
			signal_all(&r, SIGKILL);
			waitpid(r.leader, NULL, 0);
		}
		end->exit_code = 1;
		ret = -1;
		goto restore;
	}

	wait_all(&r, end);
	if (getenv("RENACER_EBPF_STATS") && r.th.freezes)
		fprintf(stderr, "renacer: eBPF: the command was held back %llu times "
			"(ring buffer a quarter full)\n", (unsigned long long)r.th.freezes);
	/* thawed before the watchdog goes, which thaws it should renacer die */
	throttle_release(&r.th);
	watchdog_stop(&r);
	bpfl.ring_buffer__consume(r.rb);
	if (r.rc)
		recorder_flush_exits(r.rc);
	if (r.attached && end->interrupted)
		detach_all(&r);
	end->wall_ns = now_ns() - r.t0;
	if (!r.rc && deliver_totals(&r) < 0)
		ret = -2;
	warn_lost(r.skel);
	end->lost = r.skel->bss->lost_calls + r.skel->bss->lost_events;
	if (r.rc && stats)
		recorder_print_gaps(r.rc, stderr);
	/* detach now: every syscall on the machine stops paying for the program */
	bpfl.ring_buffer__free(r.rb);
	r.rb = NULL;
	if (stats)
		note_loaded(&r, r.skel);
	renacer_bpf__destroy(r.skel);
	r.skel = NULL;
	r.ck[CK_DETACHED] = now_ns();
	if (ret != -1 && sink_list_end(sinks, end) < 0)
		ret = -2;
restore:
	sigaction(SIGINT, &r.old_int, NULL);
	sigaction(SIGTERM, &r.old_term, NULL);
	sigaction(SIGHUP, &r.old_hup, NULL);
	sigaction(SIGCHLD, &r.old_chld, NULL);
out:
	early_cancel(&r);
	throttle_release(&r.th);
	watchdog_stop(&r);
	recorder_free(r.rc);
	if (r.tasks)
		munmap((void *)r.tasks, r.ntasks * sizeof(struct rb_task));
	free(path);
	free(r.procs);
	progs_release(&r);
	if (r.rb)
		bpfl.ring_buffer__free(r.rb);
	renacer_bpf__destroy(r.skel);
	if (stats && r.ck[CK_ATTACH]) {
		r.ck[CK_END] = now_ns();
		print_stats(&r);
	}
	strbuf_release(&r.loaded);
	return ret;
}

#endif
