/* A golden and its summary as one unit (see store.h). */
#include "golden/store.h"
#include "golden/machine.h"
#include "replay/reader.h"
#include "sink/sinks.h"
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/quote.h"
#include "util/xmalloc.h"
#include "util/zlimit.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "util/banned.h"

#define ID_KEY "\"golden_id\": \""
#define SUM_ID "golden_id: "
#define LOCK_NAME ".renacer.lock"
#define LOCK_NOTE_MS 2000       /* say that renacer waits after this long */
#define LOCK_POLL_MS 20

/*
 * Reads path (zstd-compressed or not: by its magic) into sb, at most max
 * bytes of text when max is not 0.  0, or -1 with errno set.
 */
static int read_text(const char *path, struct strbuf *sb, size_t max)
{
	ZSTD_DStream *z = NULL;
	unsigned char in[1 << 14];
	uint64_t zin = 0, start = sb->len;
	size_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	ssize_t r;
	bool first = true;

	if (fd < 0)
		return -1;
	for (;;) {
		do
			r = read(fd, in, sizeof(in));
		while (r < 0 && errno == EINTR);
		if (r < 0)
			goto out;
		if (r == 0)
			break;
		n = (size_t)r;
		if (first && n >= 4 && ((in[0] == 0x28 && in[1] == 0xb5 && in[2] == 0x2f &&
					 in[3] == 0xfd) ||
					((in[0] & 0xf0) == 0x50 && in[1] == 0x2a && in[2] == 0x4d &&
					 in[3] == 0x18))) {
			z = ZSTD_createDStream();
			if (!z) {
				errno = ENOMEM;
				goto out;
			}
			ZSTD_initDStream(z);
		}
		first = false;
		if (!z) {
			strbuf_add(sb, in, n);
		} else {
			ZSTD_inBuffer ib = { in, n, 0 };

			zin += n;
			while (ib.pos < ib.size) {
				ZSTD_outBuffer ob;
				size_t zr;

				strbuf_grow(sb, 1 << 16);
				ob.dst = sb->buf + sb->len;
				ob.size = sb->alloc - sb->len - 1;
				ob.pos = 0;
				zr = ZSTD_decompressStream(z, &ob, &ib);
				if (ZSTD_isError(zr)) {
					errno = EINVAL;
					goto out;
				}
				strbuf_setlen(sb, sb->len + ob.pos);
				if (max && sb->len >= max)
					break;
				if (!zlimit_ok(zin, sb->len - start)) {
					errno = EFBIG;
					goto out;
				}
			}
		}
		if (max && sb->len >= max)
			break;
	}
	ret = 0;
out:
	ZSTD_freeDStream(z);
	close(fd);
	return ret;
}

/* The "timing" member with the machine the runs were made on, as text after the
 * document's last member: ",\n  \"timing\": {...}\n}\n". */
static void timing_tail(const struct gtiming *t, struct strbuf *sb)
{
	char *tj = gtiming_to_json(t);
	struct gmachine m;
	size_t end;

	strbuf_addstr(sb, ",\n  \"timing\": ");
	strbuf_addstr(sb, tj);
	free(tj);
	/* the machine the runs were made (and timed) on: "timing.machine" */
	end = sb->len;
	while (end && sb->buf[end - 1] != '}')
		end--;
	if (end) {
		bool empty = end >= 2 && sb->buf[end - 2] == '{';
		strbuf_setlen(sb, end - 1);
		strbuf_addstr(sb, empty ? "\"machine\": " : ", \"machine\": ");
		gmachine_current(&m);
		gmachine_json(&m, sb);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "\n}\n");
}

/* Where golden_trace_copy() puts its bytes: a FILE or a strbuf, through zstd or not. */
struct tcopy_out {
	FILE *fp;               /* NULL: into sb */
	struct strbuf *sb;
	const char *name;       /* for messages */
	ZSTD_CStream *z;        /* NULL: plain */
	unsigned char zbuf[1 << 16];
	bool failed;            /* an error was reported */
};

static int tcopy_put(struct tcopy_out *o, const void *p, size_t n)
{
	if (o->fp) {
		if (n && fwrite(p, 1, n, o->fp) != n) {
			int e = errno;

			o->failed = true;
			return error("cannot write '%s': %s", esc(o->name), strerror(e ? e : EIO));
		}
	} else {
		strbuf_add(o->sb, p, n);
	}
	return 0;
}

/* Writes n bytes (end: and ends the zstd frame); 0 or -1 after error(). */
static int tcopy_write(struct tcopy_out *o, const void *p, size_t n, bool end)
{
	ZSTD_inBuffer ib = { p, n, 0 };

	if (!o->z)
		return tcopy_put(o, p, n);
	for (;;) {
		ZSTD_outBuffer ob = { o->zbuf, sizeof(o->zbuf), 0 };
		size_t left = ZSTD_compressStream2(o->z, &ob, &ib, end ? ZSTD_e_end : ZSTD_e_continue);

		if (ZSTD_isError(left)) {
			o->failed = true;
			return error("cannot compress '%s': %s", esc(o->name), ZSTD_getErrorName(left));
		}
		if (tcopy_put(o, o->zbuf, ob.pos) < 0)
			return -1;
		if (end ? left == 0 : ib.pos == ib.size)
			return 0;
	}
}

int golden_trace_copy(const char *src, const struct gtiming *t, const char *id, bool zst,
		      int level, FILE *fp, struct strbuf *sb, const char *outname)
{
	ZSTD_DStream *zd = NULL;
	struct tcopy_out *o = xcalloc(1, sizeof(*o));
	struct strbuf hold = STRBUF_INIT, tail = STRBUF_INIT;
	unsigned char in[1 << 16], un[1 << 16];
	uint64_t zin = 0, zout = 0;
	bool first = true, opened = false;
	int fd = -1, ret = -1;
	ssize_t r;

	o->fp = fp;
	o->sb = sb;
	o->name = outname;
	if (zst) {
		o->z = ZSTD_createCStream();
		if (!o->z || ZSTD_isError(ZSTD_CCtx_setParameter(o->z, ZSTD_c_compressionLevel,
								 level))) {
			error("cannot compress '%s': out of memory", esc(outname));
			goto out;
		}
	}
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto read_error;
	for (;;) {
		ZSTD_inBuffer ib;

		do
			r = read(fd, in, sizeof(in));
		while (r < 0 && errno == EINTR);
		if (r < 0)
			goto read_error;
		if (r == 0)
			break;
		if (first && r >= 4 && ((in[0] == 0x28 && in[1] == 0xb5 && in[2] == 0x2f &&
					 in[3] == 0xfd) ||
					((in[0] & 0xf0) == 0x50 && in[1] == 0x2a && in[2] == 0x4d &&
					 in[3] == 0x18))) {
			zd = ZSTD_createDStream();
			if (!zd) {
				errno = ENOMEM;
				goto read_error;
			}
			ZSTD_initDStream(zd);
		}
		first = false;
		ib = (ZSTD_inBuffer){ in, (size_t)r, 0 };
		zin += (size_t)r;
		while (ib.pos < ib.size) {
			const unsigned char *p;
			size_t n, i, last, prev;

			if (zd) {
				ZSTD_outBuffer ob = { un, sizeof(un), 0 };
				size_t zr = ZSTD_decompressStream(zd, &ob, &ib);

				if (ZSTD_isError(zr)) {
					errno = EINVAL;
					goto read_error;
				}
				zout += ob.pos;
				if (!zlimit_ok(zin, zout)) {
					errno = EFBIG;
					goto read_error;
				}
				p = un;
				n = ob.pos;
			} else {
				p = in;
				n = ib.size;
				ib.pos = ib.size;
			}
			if (!opened && n) {
				/* the id goes right after the opening brace */
				for (i = 0; i < n && isspace(p[i]); i++)
					;
				if (i < n) {
					if (p[i] != '{')
						goto not_json;
					if (tcopy_write(o, p, i + 1, false) < 0)
						goto out;
					if (id) {
						strbuf_reset(&tail);
						strbuf_addf(&tail, "\n  " ID_KEY "%s\",", id);
						if (tcopy_write(o, tail.buf, tail.len, false) < 0)
							goto out;
					}
					opened = true;
					p += i + 1;
					n -= i + 1;
				} else if (tcopy_write(o, p, n, false) < 0) {
					goto out;
				}
				if (!opened)
					continue;
			}
			/* held back: from after the last-but-one non-space byte on, so
			 * that the closing brace and the spaces around it can go */
			strbuf_add(&hold, p, n);
			last = prev = SIZE_MAX;
			for (i = hold.len; i-- > 0;) {
				if (isspace((unsigned char)hold.buf[i]))
					continue;
				if (last == SIZE_MAX) {
					last = i;
				} else {
					prev = i;
					break;
				}
			}
			if (prev != SIZE_MAX) {
				if (tcopy_write(o, hold.buf, prev + 1, false) < 0)
					goto out;
				memmove(hold.buf, hold.buf + prev + 1, hold.len - prev - 1);
				strbuf_setlen(&hold, hold.len - prev - 1);
			}
		}
	}
	if (!opened)
		goto not_json;
	strbuf_reset(&tail);
	if (t) {
		size_t end = hold.len;

		while (end && isspace((unsigned char)hold.buf[end - 1]))
			end--;
		if (!end || hold.buf[end - 1] != '}')
			goto not_json;
		timing_tail(t, &tail);
	} else {
		strbuf_add(&tail, hold.buf, hold.len);
	}
	if (tcopy_write(o, tail.buf, tail.len, true) < 0)
		goto out;
	ret = 0;
	goto out;
read_error:
	error("cannot read '%s': %s", esc(src), errno == EFBIG ? ZLIMIT_MESSAGE : strerror(errno));
	ret = -2;
	goto out;
not_json:
	error("cannot read trace '%s': not a JSON document", esc(src));
	ret = -2;
out:
	if (fd >= 0)
		close(fd);
	ZSTD_freeDStream(zd);
	ZSTD_freeCStream(o->z);
	free(o);
	strbuf_release(&hold);
	strbuf_release(&tail);
	return ret;
}

static void new_id(char *id)
{
	static const char hx[] = "0123456789abcdef";
	unsigned char rnd[8];

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		struct timespec ts;
		unsigned long long x;

		clock_gettime(CLOCK_REALTIME, &ts);
		x = ((unsigned long long)ts.tv_sec << 30) ^ (unsigned long long)ts.tv_nsec ^
		    ((unsigned long long)getpid() << 44);
		memcpy(rnd, &x, sizeof(rnd));
	}
	for (size_t i = 0; i < sizeof(rnd); i++) {
		id[2 * i] = hx[rnd[i] >> 4];
		id[2 * i + 1] = hx[rnd[i] & 15];
	}
	id[16] = '\0';
}

/* 16 hex digits at p, copied to id: 1, else 0. */
static int take_id(const char *p, char *id)
{
	for (int i = 0; i < 16; i++)
		if (!isxdigit((unsigned char)p[i]))
			return 0;
	memcpy(id, p, 16);
	id[16] = '\0';
	return 1;
}

int golden_id_of(const char *path, char *id)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	size_t i;
	int r = 0;

	if (read_text(path, &sb, 4096) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	/* the first member, right after the opening brace */
	for (i = 0; i < sb.len && isspace((unsigned char)sb.buf[i]); i++)
		;
	if (i < sb.len && sb.buf[i] == '{') {
		for (i++; i < sb.len && isspace((unsigned char)sb.buf[i]); i++)
			;
		p = sb.buf + i;
		if (!strncmp(p, ID_KEY, strlen(ID_KEY)) &&
		    sb.len - i >= strlen(ID_KEY) + 17 && p[strlen(ID_KEY) + 16] == '"')
			r = take_id(p + strlen(ID_KEY), id);
	}
	strbuf_release(&sb);
	return r;
}

/* The id on the last line of a summary file: 1, 0 (none or no file), -1 on error. */
static int summary_id(const char *path, char *id)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int r = 0;

	if (strbuf_read_file(&sb, path) < 0) {
		int e = errno;

		strbuf_release(&sb);
		return e == ENOENT ? 0 : -1;
	}
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		strbuf_setlen(&sb, sb.len - 1);
	p = strrchr(sb.buf, '\n');
	p = p ? p + 1 : sb.buf;
	if (!strncmp(p, SUM_ID, strlen(SUM_ID)) && strlen(p) == strlen(SUM_ID) + 16)
		r = take_id(p + strlen(SUM_ID), id);
	strbuf_release(&sb);
	return r;
}

/*
 * NAME_summary.txt: the -c table (wall-clock times, as a saved trace has),
 * then per-syscall totals in ms and the wall time ("Syscall Summary:").
 */
static const struct sink_opts golden_summary_opts = { .timing = true };

/* The summary of the trace src, and the id line, into sb; 0 or -1 after error(). */
static int summary_text(const char *src, const char *id, struct strbuf *sb)
{
	struct sink_list sl = SINK_LIST_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	struct sink *s;
	int ret;

	if (!mf)
		return error("cannot make the summary of '%s': %s", esc(src), strerror(errno));
	if (!(s = summary_sink_new(mf, NULL, &golden_summary_opts))) {
		fclose(mf);
		free(buf);
		return -1;
	}
	sink_list_add(&sl, s);
	ret = trace_read(src, &sl, NULL, NULL);
	sink_list_release(&sl);
	fclose(mf);
	if (ret == 0) {
		strbuf_add(sb, buf, len);
		if (sb->len && sb->buf[sb->len - 1] != '\n')
			strbuf_addch(sb, '\n');
		strbuf_addf(sb, "\n" SUM_ID "%s\n", id);
	}
	free(buf);
	return ret < 0 ? -1 : 0;
}

/* Writes len bytes to an opened temporary and closes it; 0 or -1 after error(). */
static int fill(struct atomicfile *af, const void *p, size_t len)
{
	if (len && fwrite(p, 1, len, af->fp) != len) {
		int e = errno;

		error("cannot write '%s': %s", esc(af->path), strerror(e ? e : EIO));
		return -1;
	}
	return atomicfile_close_tmp(af);
}

static void block_stops(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Milliseconds of a monotonic clock. */
static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * Takes dir's lock (how: LOCK_SH or LOCK_EX) into lk, waiting for another
 * renacer's hold at most GOLDEN_LOCK_WAIT_S seconds (saying so after
 * LOCK_NOTE_MS) and giving up early when *stop is set.  A directory that
 * does not exist or where the lock file can be neither made nor opened
 * (read-only, not ours) gives no lock and 0: nobody can change a golden
 * there either.  Returns 0, 1 when stopped, or -1 after error().  The lock
 * file is opened without following a link and must be a regular file (a
 * checkout could hold a link or a FIFO there).
 */
static int lock_take(const char *dir, int how, const volatile sig_atomic_t *stop,
		     struct golden_lock *lk)
{
	struct strbuf path = STRBUF_INIT;
	const int fl = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
	uint64_t start = 0;
	bool noted = false;
	struct stat st;
	int fd, ret = -1;

	lk->fd = -1;
	strbuf_addf(&path, "%s/" LOCK_NAME, dir);
	fd = open(path.buf, fl | O_CREAT, 0666);
	if (fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM))
		fd = open(path.buf, fl);
	if (fd < 0) {
		if (errno == ENOENT || errno == EACCES || errno == EROFS || errno == EPERM ||
		    errno == ENOTDIR)
			ret = 0;
		else
			error("cannot open '%s': %s", esc(path.buf), strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		error("cannot lock the golden directory '%s': '%s' is not a regular file",
		      esc(dir), esc(path.buf));
		close(fd);
		goto out;
	}
	for (;;) {
		struct timespec ts = { 0, LOCK_POLL_MS * 1000000L };
		uint64_t waited;

		if (flock(fd, how | LOCK_NB) == 0)
			break;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			error("cannot lock '%s': %s", esc(path.buf), strerror(errno));
			close(fd);
			goto out;
		}
		if (stop && *stop) {
			close(fd);
			ret = 1;
			goto out;
		}
		if (!start)
			start = now_ms();
		waited = now_ms() - start;
		if (waited >= GOLDEN_LOCK_WAIT_S * 1000u) {
			error("cannot lock the golden directory '%s': another renacer has held "
			      "'%s' for %d s", esc(dir), esc(path.buf), GOLDEN_LOCK_WAIT_S);
			close(fd);
			goto out;
		}
		if (!noted && waited >= LOCK_NOTE_MS) {
			warning("waiting for another renacer's lock on the golden directory "
				"'%s' ('%s')", esc(dir), esc(path.buf));
			noted = true;
		}
		nanosleep(&ts, NULL);
	}
	lk->fd = fd;
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

void golden_unlock(struct golden_lock *lk)
{
	if (lk->fd >= 0)
		close(lk->fd);   /* the last descriptor of it: the lock goes */
	lk->fd = -1;
}

/* The identity of name's golden in dir, as golden_pair_begin() says. */
static void base_of(const char *dir, const char *name, char *base)
{
	struct strbuf p = STRBUF_INIT;
	char id[GOLDEN_ID_SIZE];

	strbuf_addf(&p, "%s/%s.json", dir, name);
	if (!exists(p.buf)) {
		strbuf_addstr(&p, ".zst");
		if (!exists(p.buf)) {
			base[0] = '\0';
			strbuf_release(&p);
			return;
		}
	}
	if (golden_id_of(p.buf, id) == 1)
		memcpy(base, id, GOLDEN_ID_SIZE);
	else
		memcpy(base, "-", 2);
	strbuf_release(&p);
}

int golden_pair_write(const char *dir, const char *name, const char *src,
		      const char *summary, const struct gtiming *t, bool zst, int level,
		      const volatile sig_atomic_t *stop, const char *base, char **written)
{
	struct strbuf sum = STRBUF_INIT, path = STRBUF_INIT,
		      other = STRBUF_INIT, spath = STRBUF_INIT, staged = STRBUF_INIT;
	struct atomicfile at, as;
	struct golden_lock lk = GOLDEN_LOCK_INIT;
	bool at_open = false, as_open = false;
	char id[GOLDEN_ID_SIZE], now[GOLDEN_BASE_SIZE];
	sigset_t old;
	int ret = -1;

	*written = NULL;
	new_id(id);
	if (summary) {
		/* made by the run itself: no second reading of the trace */
		strbuf_addstr(&sum, summary);
		if (sum.len && sum.buf[sum.len - 1] != '\n')
			strbuf_addch(&sum, '\n');
		strbuf_addf(&sum, "\n" SUM_ID "%s\n", id);
	}
	if (!summary && summary_text(src, id, &sum) < 0) {
		ret = -2;
		goto out;
	}
	strbuf_addf(&path, "%s/%s.json%s", dir, name, zst ? ".zst" : "");
	strbuf_addf(&other, "%s/%s.json%s", dir, name, zst ? "" : ".zst");
	strbuf_addf(&spath, "%s/%s_summary.txt", dir, name);
	strbuf_addf(&staged, ".%s_summary.txt.pending", name);

	/* both complete under temporary names first; the trace streams
	 * through (its size does not bound renacer's memory) */
	if (atomicfile_open(&at, path.buf) < 0)
		goto out;
	at_open = true;
	switch (golden_trace_copy(src, t, id, zst, level, at.fp, NULL, path.buf)) {
	case 0:
		break;
	case -2:
		ret = -2;
		goto out;
	default:
		goto out;
	}
	if (fill(&at, NULL, 0) < 0)
		goto out;
	if (atomicfile_open(&as, spath.buf) < 0)
		goto out;
	as_open = true;
	if (fill(&as, sum.buf, sum.len) < 0)
		goto out;
	if (!atomicfile_is_atomic(&at) || !atomicfile_is_atomic(&as)) {
		error("cannot write the golden of '%s': '%s' or '%s' is not a regular file",
		      esc(name), esc(path.buf), esc(spath.buf));
		goto out;
	}

	/* the commit, under the directory's lock: no reader or recovery sees
	 * it half done, and it replaces only the golden its command began
	 * with */
	switch (lock_take(dir, LOCK_EX, stop, &lk)) {
	case 0:
		break;
	case 1:
		ret = 1;
		goto out;
	default:
		goto out;
	}
	if (base) {
		base_of(dir, name, now);
		if (strcmp(now, base)) {
			error("the golden of '%s' in '%s' was stored by another renacer while "
			      "this one worked: nothing stored (run this again to replace it)",
			      esc(name), esc(dir));
			ret = -3;
			goto out;
		}
	}
	/* no SIGINT/SIGTERM/SIGHUP in between */
	block_stops(&old);
	if (stop && *stop) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		ret = 1;
		goto out;
	}
	{
		int sdir = fcntl(as.dirfd, F_DUPFD_CLOEXEC, 3);
		char *sbase = xstrdup(as.base);

		as_open = false;
		if (sdir < 0 || atomicfile_rename_as(&as, staged.buf) < 0) {
			if (sdir < 0)
				error("cannot write '%s': %s", esc(spath.buf), strerror(errno));
			sigprocmask(SIG_SETMASK, &old, NULL);
			if (sdir >= 0)
				close(sdir);
			free(sbase);
			goto out;
		}
		at_open = false;
		bool renamed = atomicfile_rename_as(&at, NULL) == 0;
		if (!renamed || (zst && unlink(other.buf) < 0 && errno != ENOENT)) {
			/* not committed: the old golden is still the golden */
			if (renamed) {
				error("cannot remove '%s': %s", esc(other.buf), strerror(errno));
				unlink(path.buf);
			}
			unlinkat(sdir, staged.buf, 0);
			sigprocmask(SIG_SETMASK, &old, NULL);
			close(sdir);
			free(sbase);
			goto out;
		}
		/* committed: the other compression goes first (so that two
		 * goldens are only ever seen with a pending summary beside
		 * them), then the summary follows */
		if (!zst && unlink(other.buf) < 0 && errno != ENOENT)
			warning("cannot remove '%s': %s", esc(other.buf), strerror(errno));
		if (renameat(sdir, staged.buf, sdir, sbase) < 0)
			error("cannot rename the summary of '%s' into place: %s (the next "
			      "renacer command finishes it)", esc(name), strerror(errno));
		else
			ret = 0;
		close(sdir);
		free(sbase);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	*written = strbuf_detach(&path, NULL);
out:
	if (at_open)
		atomicfile_abort(&at);
	if (as_open)
		atomicfile_abort(&as);
	golden_unlock(&lk);
	strbuf_release(&sum);
	strbuf_release(&path);
	strbuf_release(&other);
	strbuf_release(&spath);
	strbuf_release(&staged);
	return ret;
}

int golden_pair_recover(const char *dir, const char *name)
{
	struct strbuf json = STRBUF_INIT, zst = STRBUF_INIT, sum = STRBUF_INIT,
		      staged = STRBUF_INIT;
	struct golden_lock lk = GOLDEN_LOCK_INIT;
	char id[GOLDEN_ID_SIZE], sid[GOLDEN_ID_SIZE];
	int ret = 0;

	strbuf_addf(&json, "%s/%s.json", dir, name);
	strbuf_addf(&zst, "%s/%s.json.zst", dir, name);
	strbuf_addf(&sum, "%s/%s_summary.txt", dir, name);
	strbuf_addf(&staged, "%s/.%s_summary.txt.pending", dir, name);
	/* nothing pending: nothing to do (and nothing else is ever touched) */
	if (!exists(staged.buf))
		goto out;
	/* a pending summary is a dead writer's only once the lock is ours: a
	 * live one holds it from that rename to the last */
	if (lock_take(dir, LOCK_EX, NULL, &lk) < 0) {
		ret = -1;
		goto out;
	}
	if (!exists(staged.buf))
		goto out;
	if (summary_id(staged.buf, sid) != 1) {
		if (unlink(staged.buf) < 0)
			ret = error("cannot remove '%s': %s", esc(staged.buf), strerror(errno));
		goto out;
	}
	if (golden_id_of(json.buf, id) == 1 && !strcmp(id, sid)) {
		/* NAME.json was committed: the old .zst goes, the summary follows */
		if (unlink(zst.buf) < 0 && errno != ENOENT)
			ret = error("cannot remove '%s': %s", esc(zst.buf), strerror(errno));
		else if (rename(staged.buf, sum.buf) < 0)
			ret = error("cannot rename '%s' to '%s': %s", esc(staged.buf),
				    esc(sum.buf), strerror(errno));
	} else if (golden_id_of(zst.buf, id) == 1 && !strcmp(id, sid)) {
		if (exists(json.buf)) {
			/* the old NAME.json was never removed: not committed */
			if (unlink(zst.buf) < 0 || unlink(staged.buf) < 0)
				ret = error("cannot remove '%s': %s", esc(zst.buf), strerror(errno));
		} else if (rename(staged.buf, sum.buf) < 0) {
			ret = error("cannot rename '%s' to '%s': %s", esc(staged.buf),
				    esc(sum.buf), strerror(errno));
		}
	} else if (unlink(staged.buf) < 0) {
		/* the write it belonged to was never committed */
		ret = error("cannot remove '%s': %s", esc(staged.buf), strerror(errno));
	}
out:
	golden_unlock(&lk);
	strbuf_release(&json);
	strbuf_release(&zst);
	strbuf_release(&sum);
	strbuf_release(&staged);
	return ret;
}

int golden_pair_begin(const char *dir, const char *name, char *base, struct golden_lock *lk)
{
	struct golden_lock mine = GOLDEN_LOCK_INIT;
	int ret = golden_pair_recover(dir, name);

	if (!lk)
		lk = &mine;
	if (lock_take(dir, LOCK_SH, NULL, lk) < 0)
		ret = -1;
	if (base)
		base_of(dir, name, base);
	golden_unlock(&mine);
	return ret;
}

int golden_pair_check(const char *gpath)
{
	struct strbuf sum = STRBUF_INIT;
	char gid[GOLDEN_ID_SIZE], sid[GOLDEN_ID_SIZE];
	size_t l = strlen(gpath);
	int ret = 0, r;

	if (golden_id_of(gpath, gid) != 1)
		return 0;
	if (l > 9 && !strcmp(gpath + l - 9, ".json.zst"))
		l -= 9;
	else if (l > 5 && !strcmp(gpath + l - 5, ".json"))
		l -= 5;
	strbuf_add(&sum, gpath, l);
	strbuf_addstr(&sum, "_summary.txt");
	r = summary_id(sum.buf, sid);
	if (r < 0)
		ret = error("cannot read '%s': %s", esc(sum.buf), strerror(errno));
	else if (r == 0)
		ret = error("golden '%s' has no matching summary '%s' (golden id %s): capture it "
			    "again", esc(gpath), esc(sum.buf), gid);
	else if (strcmp(gid, sid))
		ret = error("golden '%s' and its summary '%s' do not match (golden id %s, summary "
			    "id %s): capture it again", esc(gpath), esc(sum.buf), gid, sid);
	strbuf_release(&sum);
	return ret;
}
