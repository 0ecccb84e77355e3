/*
 * Back-pressure for the eBPF recorder: the command's cgroup is frozen while
 * a quarter of the ring buffer is unread (throttle.h says why).
 */
#include "bpf/throttle.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xmalloc.h"

/* The directory of the cgroup v2 hierarchy renacer is in: the cgroup2
 * mount point joined with the "0::" line of /proc/self/cgroup (less the
 * mount's own root, inside a cgroup namespace).  NULL when there is none. */
static char *own_cgroup_dir(void)
{
	char line[4096], mnt[PATH_MAX] = "", root[PATH_MAX] = "", *cg = NULL, *dir = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char r[PATH_MAX], m[PATH_MAX];
		const char *sep = strstr(line, " - ");

		/* id parent major:minor root mountpoint ... - fstype ... */
		if (sep && !strncmp(sep, " - cgroup2 ", 11) &&
		    sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) == 2) {
			strcpy(root, r);
			strcpy(mnt, m);
			break;
		}
	}
	fclose(f);
	if (!*mnt || !(f = fopen("/proc/self/cgroup", "re")))
		return NULL;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			cg = xstrdup(line + 3);
			break;
		}
	fclose(f);
	if (!cg)
		return NULL;
	/* octal escapes (\040) in mountinfo: such a mount is not worth it */
	if (!strchr(mnt, '\\') && !strchr(root, '\\')) {
		size_t rl = strcmp(root, "/") ? strlen(root) : 0;
		struct strbuf sb = STRBUF_INIT;

		if (!strncmp(cg, root, rl) && (cg[rl] == '/' || cg[rl] == '\0')) {
			strbuf_addf(&sb, "%s%s", mnt, cg + rl);
			while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
				sb.buf[--sb.len] = '\0';
			dir = strbuf_detach(&sb, NULL);
		}
	}
	free(cg);
	return dir;
}

static int open_in(const char *dir, const char *name, int flags)
{
	struct strbuf sb = STRBUF_INIT;
	int fd;

	strbuf_addf(&sb, "%s/%s", dir, name);
	fd = open(sb.buf, flags | O_CLOEXEC | O_NOFOLLOW);
	strbuf_release(&sb);
	return fd;
}

/*
 * Removes the cgroups of renacers that died where nothing could remove
 * theirs (killed with their watchdog, or whose command's zombie waited
 * for a slow reaper): "renacer-PID-..." under own whose PID is gone and
 * which hold no process.
 */
static void sweep(const char *own)
{
	char path[PATH_MAX], ev[256];
	struct dirent *e;
	DIR *d = opendir(own);

	if (!d)
		return;
	while ((e = readdir(d))) {
		int pid, fd;
		ssize_t n;

		if (e->d_type != DT_DIR || sscanf(e->d_name, "renacer-%d-", &pid) != 1 || pid <= 0 ||
		    !(kill(pid, 0) < 0 && errno == ESRCH) ||
		    snprintf(path, sizeof(path), "%s/%s/cgroup.events", own, e->d_name) >=
			    (int)sizeof(path))
			continue;
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		n = read(fd, ev, sizeof(ev) - 1);
		close(fd);
		if (n <= 0)
			continue;
		ev[n] = '\0';
		if (strstr(ev, "populated 0") &&
		    snprintf(path, sizeof(path), "%s/%s", own, e->d_name) < (int)sizeof(path))
			rmdir(path);
	}
	closedir(d);
}

int throttle_open(struct throttle *t, size_t ring_size)
{
	const char *env = getenv("RENACER_EBPF_THROTTLE");
	char *own;
	unsigned char rnd[8];
	struct strbuf sb = STRBUF_INIT;

	memset(t, 0, sizeof(*t));
	t->freeze_fd = t->procs_fd = -1;
	if ((env && !strcmp(env, "0")) || ring_size < 8192)
		return -1;
	own = own_cgroup_dir();
	if (!own)
		return -1;
	sweep(own);
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memcpy(rnd, &(uint64_t){ (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20 }, 8);
	strbuf_addf(&sb, "%s/renacer-%d-", own, (int)getpid());
	for (size_t i = 0; i < sizeof(rnd); i++)
		strbuf_addf(&sb, "%02x", rnd[i]);
	if (mkdir(sb.buf, 0755) < 0) {
		free(own);
		strbuf_release(&sb);
		return -1;
	}
	t->dir = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%s/cgroup.procs", own);
	t->parent_procs = strbuf_detach(&sb, NULL);
	free(own);
	t->freeze_fd = open_in(t->dir, "cgroup.freeze", O_WRONLY);
	t->procs_fd = open_in(t->dir, "cgroup.procs", O_WRONLY);
	if (t->freeze_fd < 0 || t->procs_fd < 0) {
		/* cgroup v2 without the freezer (before Linux 5.2) */
		throttle_release(t);
		return -1;
	}
	t->high = ring_size / 4;
	pthread_mutex_init(&t->lock, NULL);
	return 0;
}

int throttle_map(struct throttle *t, int ring_fd)
{
	void *c, *p;

	if (t->freeze_fd < 0)
		return -1;
	t->page = (size_t)sysconf(_SC_PAGESIZE);
	/* a BPF ring buffer: the consumer's position on its first page, the
	 * producer's on the second, both readable by anyone who maps them */
	c = mmap(NULL, t->page, PROT_READ, MAP_SHARED, ring_fd, 0);
	p = mmap(NULL, t->page, PROT_READ, MAP_SHARED, ring_fd, (off_t)t->page);
	if (c != MAP_FAILED)
		t->cons = c;
	if (p != MAP_FAILED)
		t->prod = p;
	if (!t->cons || !t->prod) {
		throttle_release(t);
		return -1;
	}
	return 0;
}

static int write_pid(int fd, pid_t pid)
{
	char buf[24], *s = buf + sizeof(buf);
	unsigned long v = (unsigned long)pid;

	do
		*--s = (char)('0' + v % 10);
	while (v /= 10);
	return write(fd, s, (size_t)(buf + sizeof(buf) - s)) < 0 ? -1 : 0;
}

int throttle_add(const struct throttle *t, pid_t pid)
{
	return t->procs_fd < 0 ? 0 : write_pid(t->procs_fd, pid);
}

int throttle_join(const struct throttle *t)
{
	return t->procs_fd < 0 ? 0 : write_pid(t->procs_fd, getpid());
}

/* Under t->lock: the flag always says what the cgroup was last told. */
static void set_frozen(struct throttle *t, bool on)
{
	if (t->frozen != on && pwrite(t->freeze_fd, on ? "1" : "0", 1, 0) == 1) {
		t->frozen = on;
		t->freezes += on;
	}
}

void throttle_check(struct throttle *t)
{
	unsigned long c, p;
	bool frozen;

	if (t->freeze_fd < 0 || !t->prod)
		return;
	c = __atomic_load_n(t->cons, __ATOMIC_ACQUIRE);
	p = __atomic_load_n(t->prod, __ATOMIC_ACQUIRE);
	frozen = __atomic_load_n(&t->frozen, __ATOMIC_RELAXED);
	if (frozen ? p - c != 0 : p - c <= t->high)
		return;
	pthread_mutex_lock(&t->lock);
	/* again, now that no one else changes it */
	c = __atomic_load_n(t->cons, __ATOMIC_ACQUIRE);
	p = __atomic_load_n(t->prod, __ATOMIC_ACQUIRE);
	if (!t->frozen && p - c > t->high)
		set_frozen(t, true);
	else if (t->frozen && p - c == 0)
		set_frozen(t, false);
	pthread_mutex_unlock(&t->lock);
}

static void *watch(void *arg)
{
	struct throttle *t = arg;
	struct timespec ms = { 0, 1000000 };

	while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
		throttle_check(t);
		nanosleep(&ms, NULL);
	}
	return NULL;
}

void throttle_watch(struct throttle *t)
{
	sigset_t all, old;

	if (t->freeze_fd < 0 || !t->prod || t->watching)
		return;
	/* the signals stay renacer's main thread's to take */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	t->watching = pthread_create(&t->watcher, NULL, watch, t) == 0;
	/* at real-time priority where renacer may (root): a watcher that
	 * waits behind busy processes for a CPU lets the ring fill; it wakes
	 * a thousand times a second for two loads, so it costs nothing */
	if (t->watching)
		pthread_setschedparam(t->watcher, SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 });
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * Moves every process in the cgroup dir (and in the cgroups the command
 * made under it, depth first) back to renacer's own, and removes those
 * below.  No allocation: the watchdog calls it too, forked from a process
 * that may have threads.  Returns the processes seen.
 */
static unsigned move_back(const struct throttle *t, const char *dir, int depth)
{
	char path[PATH_MAX], buf[4096], pid[24];
	size_t plen = 0;
	unsigned seen = 0;
	int in, out;
	ssize_t n;
	DIR *d;

	if (depth < 8 && (d = opendir(dir))) {
		struct dirent *e;

		while ((e = readdir(d)))
			if (e->d_type == DT_DIR && strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path)) {
				seen += move_back(t, path, depth + 1);
				rmdir(path);
			}
		closedir(d);
	}
	if (snprintf(path, sizeof(path), "%s/cgroup.procs", dir) >= (int)sizeof(path))
		return seen;
	in = open(path, O_RDONLY | O_CLOEXEC);
	out = open(t->parent_procs, O_WRONLY | O_CLOEXEC);
	/* one pid a line; a read may end inside one, carried to the next */
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (plen < sizeof(pid))
					pid[plen++] = buf[i];
				continue;
			}
			if (plen && plen < sizeof(pid)) {
				seen++;
				if (pwrite(out, pid, plen, 0) < 0) {
					/* gone meanwhile */
				}
			}
			plen = 0;
		}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return seen;
}

/* Thaws, moves what is left back and removes the cgroup (no allocation). */
static void undo(struct throttle *t)
{
	if (t->freeze_fd >= 0 && pwrite(t->freeze_fd, "0", 1, 0) == 1)
		t->frozen = false;     /* frozen tasks cannot exit: first */
	if (!t->dir)
		return;
	/* a task that has exited holds the cgroup until it is reaped: a
	 * moment longer, which is waited for while nothing else is left */
	for (int i = 0; i < 250 && rmdir(t->dir) < 0 && errno == EBUSY; i++) {
		struct timespec ms = { 0, 2000000 };

		if (move_back(t, t->dir, 0) == 0 && i >= 25)
			break;
		nanosleep(&ms, NULL);
	}
}

void throttle_abandon(struct throttle *t)
{
	undo(t);
}

void throttle_release(struct throttle *t)
{
	if (t->watching) {
		__atomic_store_n(&t->stop, 1, __ATOMIC_RELEASE);
		pthread_join(t->watcher, NULL);
		t->watching = false;
	}
	undo(t);
	free(t->dir);
	t->dir = NULL;
	free(t->parent_procs);
	t->parent_procs = NULL;
	if (t->freeze_fd >= 0)
		close(t->freeze_fd);
	if (t->procs_fd >= 0)
		close(t->procs_fd);
	t->freeze_fd = t->procs_fd = -1;
	if (t->cons)
		munmap((void *)t->cons, t->page);
	if (t->prod)
		munmap((void *)t->prod, t->page);
	t->cons = t->prod = NULL;
}
