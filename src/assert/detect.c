/*
 * The anti-pattern detectors: each reads the analysis of a run and gives a
 * confidence between 0 and 1 with its evidence and a recommendation.  The
 * algorithms are documented in docs/anti-patterns.md; keep the two in step.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "assert/internal.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define LOOP_MIN_REPEATS 20.0
#define GOD_MIN_WORK 200.0
#define PCIE_MIN_CALLS 10.0
#define RFA_HALF 20.0

const char *const anti_pattern_names[] = {
	"TightLoop",
	"GodProcess",
	"PCIeBottleneck",
	"UnbufferedIO",
	"RedundantFileAccess",
	NULL,
};

bool anti_pattern_known(const char *name)
{
	for (size_t i = 0; anti_pattern_names[i]; i++)
		if (!strcmp(anti_pattern_names[i], name))
			return true;
	return false;
}

static void add_evidence(struct ap_finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_evidence(struct ap_finding *f, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	f->evidence = xreallocarray(f->evidence, f->nevidence + 1, sizeof(*f->evidence));
	f->evidence[f->nevidence++] = strbuf_detach(&sb, NULL);
}

static void add_evidence_sb(struct ap_finding *f, struct strbuf *sb)
{
	f->evidence = xreallocarray(f->evidence, f->nevidence + 1, sizeof(*f->evidence));
	f->evidence[f->nevidence++] = strbuf_detach(sb, NULL);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

static const char *proc_name(const struct analysis *a, pid_t pid)
{
	for (size_t i = a->nprocs; i-- > 0;)
		if (a->procs[i].pid == pid)
			return a->procs[i].name ? a->procs[i].name : "?";
	return "?";
}

/* "s" unless n is 1, for plurals in evidence lines. */
static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* ---- TightLoop ------------------------------------------------------------ */

static double loop_confidence(const struct analysis *a, const struct loop_found *l)
{
	double repeats = (double)l->calls / l->period;
	double len = clamp01(1 - LOOP_MIN_REPEATS / repeats);
	double share_calls = a->syscalls ? (double)l->calls / a->syscalls : 0;
	uint64_t run = an_run_ns(a);
	double span = l->end_ns > l->start_ns ? (double)(l->end_ns - l->start_ns) : 0;
	double share_time = run ? span / run : 0;
	double share = clamp01(share_calls > share_time ? share_calls : share_time);
	return len * (0.5 + 0.5 * share);
}

static void detect_tight_loop(const struct analysis *a, struct ap_finding *f)
{
	const struct loop_found *best = NULL;
	double bc = 0;
	for (size_t i = 0; i < a->nloops; i++) {
		double c = loop_confidence(a, &a->loops[i]);
		if (!best || c > bc) {
			best = &a->loops[i];
			bc = c;
		}
	}
	f->confidence = bc;
	if (!best) {
		add_evidence(f, "no call or cycle of up to %d calls repeated %d times in a row",
			     LOOP_MAXP, (int)LOOP_MIN_REPEATS);
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	uint64_t run = an_run_ns(a);
	uint64_t span = best->end_ns > best->start_ns ? best->end_ns - best->start_ns : 0;
	for (unsigned i = 0; i < best->period; i++) {
		if (i)
			strbuf_addstr(&sb, " \xe2\x86\x92 ");
		strbuf_addstr(&sb, an_name(a, best->names[i]));
	}
	if (best->period == 1)
		add_evidence(f, "%s repeated %llu times in a row with the same arguments and result "
			     "(thread %d of %s)", sb.buf, (unsigned long long)best->calls,
			     (int)best->tid, proc_name(a, best->pid));
	else
		add_evidence(f, "cycle %s repeated %llu times in a row (%llu calls, thread %d of %s)",
			     sb.buf, (unsigned long long)(best->calls / best->period),
			     (unsigned long long)best->calls, (int)best->tid, proc_name(a, best->pid));
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%.0f%% of the run's %llu syscalls; ", pct((double)best->calls, (double)a->syscalls),
		    (unsigned long long)a->syscalls);
	fmt_ms(&sb, span);
	strbuf_addf(&sb, " of the run's ");
	fmt_ms(&sb, run);
	strbuf_addf(&sb, " (%.0f%%), ", pct((double)span, (double)run));
	fmt_ms(&sb, best->busy_ns);
	strbuf_addstr(&sb, " inside the calls");
	add_evidence_sb(f, &sb);
	if (best->sample)
		add_evidence(f, "e.g. %s", best->sample);
	strbuf_release(&sb);
	f->recommendation = xstrdup("Wait instead of polling (a blocking call, poll/epoll with a "
				    "timeout, inotify, a condition variable) or back off between "
				    "attempts; cache results that do not change");
}

/* ---- GodProcess --------------------------------------------------------------- */

struct member {
	pid_t id;
	const char *label;
	uint64_t calls, ns, start, end;
};

static bool mostly_overlaps(const struct member *m, const struct member *top)
{
	uint64_t lo = m->start > top->start ? m->start : top->start;
	uint64_t hi = m->end < top->end ? m->end : top->end;
	uint64_t len = m->end > m->start ? m->end - m->start : 0;
	if (!len)
		return m->start >= top->start && m->start <= top->end;
	return hi > lo && (hi - lo) * 2 >= len;
}

struct god_best {
	double conf;
	char *what;              /* "threads of process 12 (prog)" */
	struct member top;
	struct member peers[4];
	size_t npeers, nshown;
	uint64_t calls, ns;      /* group totals (top + peers) */
	double share_calls, share_time;
};

static void god_group(struct member *m, size_t n, const char *what, struct god_best *best)
{
	if (n < 2)
		return;
	size_t ti = 0;
	for (size_t i = 1; i < n; i++)
		if (m[i].calls > m[ti].calls || (m[i].calls == m[ti].calls && m[i].ns > m[ti].ns))
			ti = i;
	struct member *top = &m[ti];
	uint64_t calls = top->calls, ns = top->ns;
	size_t npeers = 0;
	for (size_t i = 0; i < n; i++)
		if (i != ti && mostly_overlaps(&m[i], top)) {
			calls += m[i].calls;
			ns += m[i].ns;
			npeers++;
		}
	if (!npeers || !calls)
		return;
	double k = (double)npeers + 1;
	double sc = (double)top->calls / calls;
	double st = ns ? (double)top->ns / ns : 0;
	/* the mean of the two shares: syscall times under ptrace are noisy */
	double share = ns ? (sc + st) / 2 : sc;
	double dominance = clamp01((share - 1 / k) / (1 - 1 / k));
	double size_f = clamp01((k - 1) / 3);
	double volume_f = clamp01(calls / GOD_MIN_WORK);
	double conf = dominance * size_f * volume_f;
	if (best->what && conf <= best->conf)
		return;
	free(best->what);
	best->what = xstrdup(what);
	best->conf = conf;
	best->top = *top;
	best->npeers = npeers;
	best->nshown = 0;
	best->calls = calls;
	best->ns = ns;
	best->share_calls = sc;
	best->share_time = st;
	for (size_t i = 0; i < n && best->nshown < 4; i++)
		if (i != ti && mostly_overlaps(&m[i], top))
			best->peers[best->nshown++] = m[i];
}

static void detect_god_process(const struct analysis *a, struct ap_finding *f)
{
	struct god_best best = { 0 };
	struct member *m = xcalloc(a->ntasks + a->nprocs + 1, sizeof(*m));
	struct strbuf what = STRBUF_INIT;
	size_t *cnt = xcalloc(a->nprocs + 1, sizeof(*cnt));

	/* threads of each process */
	for (size_t i = 0; i < a->ntasks; i++)
		if (a->tasks[i].proc >= 0)
			cnt[a->tasks[i].proc]++;
	for (size_t pi = 0; pi < a->nprocs; pi++) {
		if (cnt[pi] < 2)
			continue;
		size_t n = 0;
		for (size_t i = 0; i < a->ntasks; i++) {
			const struct task *t = &a->tasks[i];
			if (t->proc != (int)pi)
				continue;
			m[n].id = t->tid;
			m[n].label = "thread";
			m[n].calls = t->work_calls;
			m[n].ns = t->work_ns;
			m[n].start = t->first_ns;
			m[n].end = t->last_ns;
			n++;
		}
		strbuf_reset(&what);
		strbuf_addf(&what, "threads of process %d (%s)", (int)a->procs[pi].pid,
			    a->procs[pi].name ? a->procs[pi].name : "?");
		god_group(m, n, what.buf, &best);
	}
	/* a parent and its child processes */
	memset(cnt, 0, (a->nprocs + 1) * sizeof(*cnt));
	for (size_t i = 0; i < a->nprocs; i++)
		if (a->procs[i].parent >= 0)
			cnt[a->procs[i].parent]++;
	for (size_t pi = 0; pi < a->nprocs; pi++) {
		if (!cnt[pi])
			continue;
		size_t n = 0;
		for (size_t i = 0; i < a->nprocs; i++) {
			const struct proc *p = &a->procs[i];
			if (i != pi && p->parent != (int)pi)
				continue;
			m[n].id = p->pid;
			m[n].label = p->name ? p->name : "?";
			m[n].calls = p->work_calls;
			m[n].ns = p->work_ns;
			m[n].start = p->start_ns;
			m[n].end = p->end_ns;
			n++;
		}
		strbuf_reset(&what);
		strbuf_addf(&what, "process %d (%s) and its children", (int)a->procs[pi].pid,
			    a->procs[pi].name ? a->procs[pi].name : "?");
		god_group(m, n, what.buf, &best);
	}
	free(m);
	free(cnt);
	strbuf_release(&what);

	f->confidence = best.conf;
	if (!best.what) {
		add_evidence(f, "no two threads or processes ran side by side");
		return;
	}
	add_evidence(f, "%s: %s %d made %llu of %llu working syscalls (%.0f%%)",
		     best.what, !strcmp(best.top.label, "thread") ? "thread" : best.top.label,
		     (int)best.top.id, (unsigned long long)best.top.calls,
		     (unsigned long long)best.calls, 100 * best.share_calls);
	struct strbuf sb = STRBUF_INIT;
	fmt_ms(&sb, best.top.ns);
	strbuf_addstr(&sb, " of ");
	fmt_ms(&sb, best.ns);
	strbuf_addf(&sb, " syscall time (%.0f%%), waits not counted", 100 * best.share_time);
	add_evidence_sb(f, &sb);
	strbuf_addf(&sb, "%zu side by side:", best.npeers);
	for (size_t i = 0; i < best.nshown; i++)
		strbuf_addf(&sb, "%s %d (%llu call%s)", i ? "," : "", (int)best.peers[i].id,
			    (unsigned long long)best.peers[i].calls, plural(best.peers[i].calls));
	if (best.npeers > best.nshown)
		strbuf_addstr(&sb, ", ...");
	add_evidence_sb(f, &sb);
	strbuf_release(&sb);
	free(best.what);
	f->recommendation = xstrdup("Spread the work over the idle workers (a shared work queue, "
				    "partitioned input), or drop the workers that get none");
}

/* ---- PCIeBottleneck ------------------------------------------------------------- */

static void detect_pcie(const struct analysis *a, struct ap_finding *f)
{
	uint64_t run = an_run_ns(a);
	if (!a->gpu_calls) {
		f->confidence = 0;
		add_evidence(f, "no ioctl/read/write/mmap on GPU device files "
			     "(/dev/nvidia*, /dev/dri/*, /dev/kfd, /dev/accel/*)%s",
			     a->gpu_opens ? " after opening one" : "");
		return;
	}
	double share = run ? clamp01((double)a->gpu_ns / run) : 1;
	f->confidence = share * clamp01(a->gpu_calls / PCIE_MIN_CALLS);
	struct strbuf sb = STRBUF_INIT;
	uint64_t gpu = a->gpu_ns < run ? a->gpu_ns : run;
	strbuf_addstr(&sb, "GPU transfers: ");
	fmt_ms(&sb, a->gpu_ns);
	strbuf_addf(&sb, " (%.0f%% of total time)", 100 * share);
	add_evidence_sb(f, &sb);
	strbuf_addstr(&sb, "Compute time: ");
	fmt_ms(&sb, run - gpu);
	strbuf_addf(&sb, " (%.0f%% of total time)", 100 - 100 * share);
	add_evidence_sb(f, &sb);
	for (size_t i = 0; i < a->ngpu; i++) {
		const struct gpu_dev *d = &a->gpu[i];
		strbuf_addf(&sb, "%s: %llu calls (%llu ioctl, %llu read ", d->path,
			    (unsigned long long)d->calls, (unsigned long long)d->ioctls,
			    (unsigned long long)d->reads);
		fmt_bytes(&sb, d->bytes_in);
		strbuf_addf(&sb, ", %llu write ", (unsigned long long)d->writes);
		fmt_bytes(&sb, d->bytes_out);
		strbuf_addf(&sb, ", %llu mmap ", (unsigned long long)d->mmaps);
		fmt_bytes(&sb, d->bytes_mapped);
		strbuf_addstr(&sb, "), ");
		fmt_ms(&sb, d->time_ns);
		add_evidence_sb(f, &sb);
	}
	strbuf_release(&sb);
	f->recommendation = xstrdup("Batch operations, keep data on the GPU between kernels, and "
				    "use larger workloads to amortize transfer costs");
}

/* ---- UnbufferedIO ---------------------------------------------------------------- */

static const char *std_name(int64_t fd)
{
	return fd == 0 ? "<stdin>" : fd == 1 ? "<stdout>" : fd == 2 ? "<stderr>" : NULL;
}

static void detect_unbuffered(const struct analysis *a, struct ap_finding *f)
{
	const struct io_found *best = NULL;
	double bc = 0;
	for (size_t i = 0; i < a->nio; i++) {
		double c = unbuffered_confidence(a->io[i].calls, a->io[i].bytes);
		if (!best || c > bc || (c == bc && a->io[i].calls > best->calls)) {
			best = &a->io[i];
			bc = c;
		}
	}
	f->confidence = bc;
	if (!best) {
		add_evidence(f, "no descriptor with more than %d reads or writes averaging under %d bytes",
			     (int)IO_MIN_CALLS, (int)IO_TINY_BYTES);
		return;
	}
	const char *path = best->path ? best->path : std_name(best->fd);
	double avg = (double)best->bytes / best->calls;
	uint64_t needed = (best->bytes + 4095) / 4096;
	add_evidence(f, "fd %lld (%s) in process %d (%s): %llu %s averaging %.1f bytes "
		     "(%llu bytes in all)", (long long)best->fd, path ? path : "path unknown",
		     (int)best->pid, proc_name(a, best->pid), (unsigned long long)best->calls,
		     best->writes ? "writes" : "reads", avg, (unsigned long long)best->bytes);
	if (!needed)
		needed = 1;
	add_evidence(f, "buffered in 4096-byte blocks: %llu %s%s instead of %llu",
		     (unsigned long long)needed, best->writes ? "write" : "read", plural(needed),
		     (unsigned long long)best->calls);
	for (size_t i = 0; i < a->nio; i++) {
		const struct io_found *o = &a->io[i];
		if (o == best || unbuffered_confidence(o->calls, o->bytes) < AP_REPORT_THRESHOLD)
			continue;
		const char *op = o->path ? o->path : std_name(o->fd);
		add_evidence(f, "also fd %lld (%s) in process %d: %llu %s averaging %.1f bytes",
			     (long long)o->fd, op ? op : "path unknown", (int)o->pid,
			     (unsigned long long)o->calls, o->writes ? "writes" : "reads",
			     (double)o->bytes / o->calls);
	}
	f->recommendation = xstrdup("Buffer the I/O (stdio with full buffering, a larger read "
				    "size, BufReader/BufWriter) or gather it into one call");
}

/* ---- RedundantFileAccess ---------------------------------------------------------- */

static uint64_t redundant(const struct path_use *u)
{
	uint64_t n = (uint64_t)u->opens + u->stats;
	return n > 1 ? n - 1 : 0;
}

static void detect_redundant(const struct analysis *a, struct ap_finding *f)
{
	const struct path_use *best = NULL;
	for (size_t i = 0; i < a->nkept_paths; i++)
		if (!best || path_more_redundant(&a->kept_paths[i], best))
			best = &a->kept_paths[i];
	if (!best || !redundant(best)) {
		f->confidence = 0;
		add_evidence(f, "no path opened or stat-ed more than once by one process");
		return;
	}
	double r = (double)redundant(best);
	f->confidence = r / (r + RFA_HALF);
	struct strbuf sb = STRBUF_INIT;
	size_t shown = 0;
	/* the worst first, then the others by redundancy */
	const struct path_use *order[PATHS_KEPT];
	size_t n = a->nkept_paths;
	for (size_t i = 0; i < n; i++)
		order[i] = &a->kept_paths[i];
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (path_more_redundant(order[j], order[i])) {
				const struct path_use *t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
	for (size_t i = 0; i < n && shown < 4; i++) {
		const struct path_use *u = order[i];
		if (!redundant(u) || (i && redundant(u) < 2))
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s: opened %u time%s, stat-ed %u time%s, read %u time%s (",
			    u->path, u->opens, plural(u->opens), u->stats, plural(u->stats),
			    u->reads, plural(u->reads));
		fmt_bytes(&sb, u->bytes_read);
		strbuf_addf(&sb, ") by process %d (%s), ", (int)u->pid, proc_name(a, u->pid));
		fmt_ms(&sb, u->time_ns);
		strbuf_addstr(&sb, " in opens and stats");
		add_evidence_sb(f, &sb);
		shown++;
	}
	if (a->paths_dropped)
		add_evidence(f, "%llu accesses to further paths not counted (table full)",
			     (unsigned long long)a->paths_dropped);
	strbuf_release(&sb);
	f->recommendation = xstrdup("Open and read the file once and keep its contents (or the "
				    "descriptor); cache stat results instead of asking again");
}

/* ---- entry points ------------------------------------------------------------------- */

static const struct {
	const char *name;
	const char *label;
	void (*fn)(const struct analysis *a, struct ap_finding *f);
} detectors[] = {
	{ "TightLoop", "Tight loop", detect_tight_loop },
	{ "GodProcess", "God process", detect_god_process },
	{ "PCIeBottleneck", "PCIe Bottleneck", detect_pcie },
	{ "UnbufferedIO", "Unbuffered I/O", detect_unbuffered },
	{ "RedundantFileAccess", "Redundant file access", detect_redundant },
};

int anti_pattern_run(const struct analysis *a, const char *pattern, struct ap_finding *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < ARRAY_SIZE(detectors); i++) {
		if (strcmp(detectors[i].name, pattern))
			continue;
		f->pattern = detectors[i].name;
		detectors[i].fn(a, f);
		f->confidence = clamp01(f->confidence);
		if (isnan(f->confidence))
			f->confidence = 0;
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s %s (confidence: %.0f%%)", detectors[i].label,
			    f->confidence >= AP_REPORT_THRESHOLD ? "detected" : "not detected",
			    floor(100 * f->confidence));
		f->headline = strbuf_detach(&sb, NULL);
		if (f->confidence < AP_REPORT_THRESHOLD && f->confidence == 0) {
			free(f->recommendation);
			f->recommendation = NULL;
		}
		return 0;
	}
	return error("unknown anti-pattern '%s' (known: TightLoop, GodProcess, PCIeBottleneck, "
		     "UnbufferedIO, RedundantFileAccess)", esc(pattern));
}

const char *anti_pattern_label(const char *pattern)
{
	for (size_t i = 0; i < ARRAY_SIZE(detectors); i++)
		if (!strcmp(detectors[i].name, pattern))
			return detectors[i].label;
	return pattern;
}

void ap_finding_release(struct ap_finding *f)
{
	free(f->headline);
	for (size_t i = 0; i < f->nevidence; i++)
		free(f->evidence[i]);
	free(f->evidence);
	free(f->recommendation);
	memset(f, 0, sizeof(*f));
}
