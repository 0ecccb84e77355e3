/* Atomic file writing (see atomicfile.h). */
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/banned.h"

#define TMP_PREFIX ".renacer-tmp-"
#define MAX_LINK_HOPS 40        /* as the kernel's MAXSYMLINKS */

/* --- who we are: pid namespace, pid, start time --- */

/* Field 22 (starttime, clock ticks after boot) of /proc/PID/stat; 0 if unknown. */
static unsigned long long proc_start_time(long pid)
{
	char path[64], buf[1024];
	unsigned long long v = 0;
	ssize_t n;
	int fd, field;
	char *p;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* the command name may hold anything: count fields after its ')' */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	for (field = 2; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (unsigned long long)(*p++ - '0');
	return v;
}

/* The inode of our pid namespace (0 if unknown). */
static unsigned long long pid_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

struct self_id {
	unsigned long long ns, start;
	long pid;
};

static const struct self_id *self_id(void)
{
	static struct self_id id;

	/* recomputed after a fork (the pid changes) */
	if (id.pid != (long)getpid()) {
		id.pid = (long)getpid();
		id.ns = pid_ns();
		id.start = proc_start_time(id.pid);
	}
	return &id;
}

/* --- stale temporaries --- */

/* Parses ".renacer-tmp-NS-PID-START-RANDOM[.base]"; 0 on success. */
static int parse_tmp_name(const char *name, unsigned long long *ns, long *pid,
			  unsigned long long *start)
{
	const char *p = name + strlen(TMP_PREFIX);
	unsigned long long v[3];
	int i, nrand = 0;

	if (strncmp(name, TMP_PREFIX, strlen(TMP_PREFIX)))
		return -1;
	for (i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9')
			return -1;
		v[i] = 0;
		while (*p >= '0' && *p <= '9') {
			if (v[i] > ULLONG_MAX / 10 - 10)
				return -1;
			v[i] = v[i] * 10 + (unsigned long long)(*p++ - '0');
		}
		if (*p++ != '-')
			return -1;
	}
	while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
		p++;
		nrand++;
	}
	if (nrand != 12 || (*p && *p != '.'))
		return -1;
	if (v[1] == 0 || v[1] > INT_MAX)
		return -1;
	*ns = v[0];
	*pid = (long)v[1];
	*start = v[2];
	return 0;
}

/*
 * True when the process that made a temporary is gone: same pid namespace
 * (else we cannot tell), and no process with that pid or one that started
 * at another time (the pid was reused).
 */
static bool creator_gone(unsigned long long ns, long pid, unsigned long long start)
{
	const struct self_id *me = self_id();
	unsigned long long now;

	if (!ns || ns != me->ns)
		return false;
	if (pid == me->pid)
		return start != me->start;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return true;
	now = proc_start_time(pid);
	/* alive (or unreadable /proc): keep it unless the start differs */
	return now && start && now != start;
}

static int clean_stale_fd(int dfd)
{
	uid_t me = geteuid();
	struct dirent *de;
	int removed = 0;
	DIR *d;

	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	while ((de = readdir(d))) {
		unsigned long long ns, start;
		struct stat st;
		long pid;

		if (de->d_name[0] != '.' || parse_tmp_name(de->d_name, &ns, &pid, &start))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != me)
			continue;
		if (!creator_gone(ns, pid, start))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

int atomicfile_clean_stale(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return dfd < 0 ? 0 : clean_stale_fd(dfd);
}

/* Cleans the directory of dirfd once per process (by device and inode). */
static void clean_once(int dfd)
{
	static struct { dev_t dev; ino_t ino; } seen[16];
	static unsigned nseen;
	static pid_t owner;
	struct stat st;
	unsigned i;
	int fd;

	if (owner != getpid()) {
		owner = getpid();
		nseen = 0;
	}
	if (fstat(dfd, &st) < 0)
		return;
	for (i = 0; i < nseen && i < ARRAY_SIZE(seen); i++)
		if (seen[i].dev == st.st_dev && seen[i].ino == st.st_ino)
			return;
	seen[nseen % ARRAY_SIZE(seen)].dev = st.st_dev;
	seen[nseen % ARRAY_SIZE(seen)].ino = st.st_ino;
	nseen++;
	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		clean_stale_fd(fd);
}

/* --- where a path leads --- */

/* The directory part of p ("." when none). */
static void dir_of(struct strbuf *out, const char *p)
{
	const char *slash = strrchr(p, '/');

	strbuf_reset(out);
	if (!slash)
		strbuf_addch(out, '.');
	else if (slash == p)
		strbuf_addch(out, '/');
	else
		strbuf_add(out, p, (size_t)(slash - p));
}

static const char *base_of(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? slash + 1 : p;
}

/* Reads a decimal fd number that makes up the rest of s; -1 if none. */
static int fd_number(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > INT_MAX / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (int)v;
}

/* The descriptor a magic link names (/dev/fd/N, /proc/self/fd/N, ...), or -1. */
static int fd_link(const char *p)
{
	static const char *const pre[] = {
		"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/",
	};
	char own[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pre); i++)
		if (!strncmp(p, pre[i], strlen(pre[i])))
			return fd_number(p + strlen(pre[i]));
	snprintf(own, sizeof(own), "/proc/%ld/fd/", (long)getpid());
	if (!strncmp(p, own, strlen(own)))
		return fd_number(p + strlen(own));
	return -1;
}

/*
 * True when an entry owned by owner in directory dir must not be followed
 * or written into: the kernel's protected_symlinks / protected_fifos rule
 * (dir is sticky and world-writable, and owner is neither this user nor
 * dir's owner), applied to world-writable directories without the sticky
 * bit too, where anybody could have planted it.
 */
static bool protected_entry(const char *dir, uid_t owner)
{
	struct stat ds;

	if (stat(dir, &ds) < 0)
		return false;
	return (ds.st_mode & S_IWOTH) && owner != geteuid() && owner != ds.st_uid;
}

/*
 * Follows the symbolic links at the end of path.  Returns 0 with *fdnum >= 0
 * for a magic link to a descriptor, or with *fdnum == -1 and out the name
 * that is not a link (it may not exist); -1 after error().
 */
static int resolve(const char *path, struct strbuf *out, int *fdnum)
{
	struct strbuf dir = STRBUF_INIT, link = STRBUF_INIT;
	int hops, ret = -1;

	*fdnum = -1;
	strbuf_reset(out);
	strbuf_addstr(out, path);
	for (hops = 0; hops <= MAX_LINK_HOPS; hops++) {
		struct stat st;
		ssize_t n;

		if ((*fdnum = fd_link(out->buf)) >= 0) {
			ret = 0;
			goto out;
		}
		if (lstat(out->buf, &st) < 0) {
			if (errno == ENOENT) {
				ret = 0;
				goto out;
			}
			error("cannot write '%s': %s", esc(path), strerror(errno));
			goto out;
		}
		if (!S_ISLNK(st.st_mode)) {
			ret = 0;
			goto out;
		}
		dir_of(&dir, out->buf);
		if (protected_entry(dir.buf, st.st_uid)) {
			error("cannot write '%s': refusing to follow the symbolic link '%s' "
			      "of another user in the world-writable directory '%s'",
			      esc(path), esc(out->buf), esc(dir.buf));
			goto out;
		}
		strbuf_reset(&link);
		strbuf_grow(&link, PATH_MAX);
		n = readlink(out->buf, link.buf, link.alloc - 1);
		if (n < 0) {
			error("cannot write '%s': %s", esc(path), strerror(errno));
			goto out;
		}
		strbuf_setlen(&link, (size_t)n);
		if (link.buf[0] != '/' && strcmp(dir.buf, ".")) {
			strbuf_reset(out);
			strbuf_addf(out, "%s%s%s", dir.buf,
				    dir.buf[dir.len - 1] == '/' ? "" : "/", link.buf);
		} else {
			strbuf_reset(out);
			strbuf_addstr(out, link.buf);
		}
	}
	error("cannot write '%s': %s", esc(path), strerror(ELOOP));
out:
	strbuf_release(&dir);
	strbuf_release(&link);
	return ret;
}

/* --- open --- */

static mode_t default_mode(void)
{
	static mode_t mask = (mode_t)-1;
	char buf[4096];
	ssize_t n;
	int fd;

	if (mask != (mode_t)-1)
		return 0666 & ~mask;
	/* /proc/self/status has the umask without changing it (umask(2)
	 * cannot be read without a write, which races with other threads) */
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			char *p;

			buf[n] = '\0';
			p = strstr(buf, "\nUmask:");
			if (p)
				mask = (mode_t)strtoul(p + 7, NULL, 8) & 0777;
		}
	}
	if (mask == (mode_t)-1) {
		mask = umask(022);
		umask(mask);
	}
	return 0666 & ~mask;
}

static void af_free(struct atomicfile *af)
{
	free(af->path);
	free(af->tmp);
	free(af->base);
	if (af->dirfd >= 0)
		close(af->dirfd);
	memset(af, 0, sizeof(*af));
	af->dirfd = -1;
}

/* Opens descriptor fdnum (or the non-regular file at p) for writing in place. */
static int open_in_place(struct atomicfile *af, const char *path, const char *p, int fdnum)
{
	int fd;

	if (fdnum >= 0)
		fd = fcntl(fdnum, F_DUPFD_CLOEXEC, 3);
	else
		fd = open(p, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error("cannot write '%s': %s", esc(path), strerror(errno));
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		close(fd);
		return error("cannot write '%s': %s", esc(path), strerror(errno));
	}
	af->path = xstrdup(path);
	return 0;
}

/* Creates the temporary in af->dirfd; 0 or -1 after error(). */
static int create_tmp(struct atomicfile *af, const char *path)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	const struct self_id *id = self_id();
	struct strbuf name = STRBUF_INIT;
	int tries, fd = -1;

	for (tries = 0; tries < 100 && fd < 0; tries++) {
		unsigned char rnd[12];
		size_t i, room;

		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
			/* no getrandom (old kernel): time and address bits
			 * still make a name nobody can plant in advance */
			struct timespec ts;
			unsigned long long x;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			x = (unsigned long long)ts.tv_nsec * 2654435761u ^
			    (unsigned long long)(uintptr_t)&ts ^ (unsigned long long)tries << 40;
			for (i = 0; i < sizeof(rnd); i++, x = x * 6364136223846793005ull + 1)
				rnd[i] = (unsigned char)(x >> 33);
		}
		strbuf_reset(&name);
		strbuf_addf(&name, TMP_PREFIX "%llu-%ld-%llu-", id->ns, id->pid, id->start);
		for (i = 0; i < sizeof(rnd); i++)
			strbuf_addch(&name, digits[rnd[i] % 36]);
		/* the target's name helps a reader; cut to fit NAME_MAX; ".tmp"
		 * last, so that no scanner of "*.json" or "*.new" takes it */
		room = NAME_MAX > name.len + 5 ? NAME_MAX - name.len - 5 : 0;
		strbuf_addch(&name, '.');
		strbuf_add(&name, af->base, strlen(af->base) < room ? strlen(af->base) : room);
		strbuf_addstr(&name, ".tmp");
		fd = openat(af->dirfd, name.buf,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		error("cannot create '%s': %s", esc(path), strerror(errno));
		strbuf_release(&name);
		return -1;
	}
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int e = errno;

		unlinkat(af->dirfd, name.buf, 0);
		close(fd);
		strbuf_release(&name);
		return error("cannot write '%s': %s", esc(path), strerror(e));
	}
	af->tmp = strbuf_detach(&name, NULL);
	return 0;
}

int atomicfile_open(struct atomicfile *af, const char *path)
{
	struct strbuf target = STRBUF_INIT, dir = STRBUF_INIT;
	struct stat st;
	int fdnum, ret = -1;

	memset(af, 0, sizeof(*af));
	af->dirfd = -1;
	if (!*path)
		return error("cannot write '': %s", strerror(ENOENT));
	if (resolve(path, &target, &fdnum) < 0)
		goto out;
	if (fdnum >= 0) {
		ret = open_in_place(af, path, NULL, fdnum);
		goto out;
	}
	dir_of(&dir, target.buf);
	if (stat(target.buf, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			error("cannot write '%s': %s", esc(path), strerror(EISDIR));
			goto out;
		}
		if (!S_ISREG(st.st_mode)) {
			if ((S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) &&
			    protected_entry(dir.buf, st.st_uid)) {
				error("cannot write '%s': refusing to write into a FIFO or socket "
				      "of another user in the world-writable directory '%s'",
				      esc(path), esc(dir.buf));
				goto out;
			}
			ret = open_in_place(af, path, target.buf, -1);
			goto out;
		}
		af->mode = st.st_mode & 0777;
	} else if (errno != ENOENT) {
		error("cannot write '%s': %s", esc(path), strerror(errno));
		goto out;
	} else {
		af->mode = default_mode();
	}
	af->dirfd = open(dir.buf, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (af->dirfd < 0) {
		error("cannot create '%s': %s", esc(path), strerror(errno));
		goto out;
	}
	af->base = xstrdup(base_of(target.buf));
	if (!*af->base || !strcmp(af->base, ".") || !strcmp(af->base, "..")) {
		error("cannot write '%s': %s", esc(path), strerror(EISDIR));
		goto out;
	}
	clean_once(af->dirfd);
	if (create_tmp(af, path) < 0)
		goto out;
	af->path = xstrdup(path);
	ret = 0;
out:
	if (ret < 0)
		af_free(af);
	strbuf_release(&target);
	strbuf_release(&dir);
	return ret;
}

/* --- commit --- */

int atomicfile_close_tmp(struct atomicfile *af)
{
	int e = 0;

	if (af->closed)
		return 0;
	errno = 0;
	if (fflush(af->fp) != 0 || ferror(af->fp))
		e = errno ? errno : EIO;
	if (!e && af->tmp && fchmod(fileno(af->fp), af->mode) < 0)
		e = errno;
	/* no fsync: the rename already makes the file complete or absent for
	 * every reader and against renacer dying; fsync would only guard
	 * against power loss, at a cost of milliseconds per trace */
	if (fclose(af->fp) != 0 && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
	af->closed = true;
	if (e) {
		error("cannot write '%s': %s", esc(af->path), strerror(e));
		return -1;
	}
	return 0;
}

int atomicfile_rename_as(struct atomicfile *af, const char *name)
{
	int ret = 0;

	if (af->tmp && renameat(af->dirfd, af->tmp, af->dirfd, name ? name : af->base) < 0) {
		int e = errno;

		unlinkat(af->dirfd, af->tmp, 0);
		ret = error("cannot write '%s': %s", esc(af->path), strerror(e));
	}
	af_free(af);
	return ret;
}

int atomicfile_commit(struct atomicfile *af)
{
	if (atomicfile_close_tmp(af) < 0) {
		atomicfile_abort(af);
		return -1;
	}
	return atomicfile_rename_as(af, NULL);
}

void atomicfile_abort(struct atomicfile *af)
{
	if (af->fp)
		fclose(af->fp);
	if (af->tmp && af->dirfd >= 0)
		unlinkat(af->dirfd, af->tmp, 0);
	af_free(af);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct atomicfile af;

	if (atomicfile_open(&af, path) < 0)
		return -1;
	if (len && fwrite(data, 1, len, af.fp) != len) {
		int e = errno;

		atomicfile_abort(&af);
		return error("cannot write '%s': %s", esc(path), strerror(e));
	}
	return atomicfile_commit(&af);
}
