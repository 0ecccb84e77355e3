/*
 * The engine's side of strace's filtering and dumping options (see
 * quals.h): -P, -e signal=, -e abbrev=/verbose=, -e read=/write=.
 */
#include "core/quals.h"

#include <stdlib.h>
#include <string.h>

#include "core/pathtrace.h"
#include "sys/tmem.h"
#include "sys/compat.h"
#include "sys/filter.h"
#include "sys/qualify.h"
#include "sys/sysent.h"
#include "util/arena.h"
#include "util/xmalloc.h"
#include "util/banned.h"

bool quals_entry_wanted(const struct trace_quals *q, pid_t pid, pid_t tid,
			long nr, const uint64_t *args)
{
	if (!q || !q->paths)
		return true;
	return pathset_match(q->paths, pid, tid, nr, args);
}

const struct decode_opts *quals_dopts(const struct trace_quals *q,
				      const struct decode_opts *base, long nr,
				      struct decode_opts *tmp)
{
	bool abbrev, deref;

	if (!q || (!q->abbrev_set && !q->verbose_set))
		return base;
	abbrev = q->abbrev_set ? trace_set_has(q->abbrev_set, nr) : !base->verbose;
	deref = q->verbose_set ? trace_set_has(q->verbose_set, nr) : !base->no_deref;
	if (abbrev == !base->verbose && deref == !base->no_deref)
		return base;
	*tmp = *base;
	tmp->verbose = !abbrev;
	tmp->no_deref = !deref;
	return tmp;
}

bool quals_compat_traced(const struct trace_quals *q, long nr)
{
	long pnr;
	int pers = compat_personality(nr, &pnr);

	if (pers == PERS_64 || !q)
		return true;
	return compat_set_has(q->compat_set[pers], pers, pnr);
}

const struct compat_sysent *quals_compat_call(long nr, int *pers)
{
	long pnr;

	*pers = compat_personality(nr, &pnr);
	return *pers == PERS_64 ? NULL : compat_get(*pers, pnr);
}

bool quals_signal_shown(const struct trace_quals *q, int sig)
{
	if (!q || !q->signal_filter || sig < 1 || sig > 64)
		return true;
	return (q->signal_set >> (sig - 1)) & 1;
}

/* ---- -e read= / -e write= (strace's dumpio) ---------------------------- */

static const struct {
	const char *name;
	enum dump_kind kind;
} dump_calls[] = {
	{ "write", D_WRITE_BUF }, { "pwrite64", D_WRITE_BUF }, { "sendto", D_WRITE_BUF },
	{ "mq_timedsend", D_WRITE_BUF },
	{ "writev", D_WRITE_IOV }, { "pwritev", D_WRITE_IOV }, { "pwritev2", D_WRITE_IOV },
	{ "vmsplice", D_WRITE_IOV },
	{ "sendmsg", D_WRITE_MSG }, { "sendmmsg", D_WRITE_MMSG },
	{ "read", D_READ_BUF }, { "pread64", D_READ_BUF }, { "recvfrom", D_READ_BUF },
	{ "mq_timedreceive", D_READ_BUF },
	{ "readv", D_READ_IOV }, { "preadv", D_READ_IOV }, { "preadv2", D_READ_IOV },
	{ "recvmsg", D_READ_MSG }, { "recvmmsg", D_READ_MMSG },
};

enum dump_kind quals_dump_kind(long nr)
{
	static long nrs[sizeof(dump_calls) / sizeof(dump_calls[0])];
	static bool init;

	if (!init) {
		for (size_t i = 0; i < sizeof(dump_calls) / sizeof(dump_calls[0]); i++)
			nrs[i] = sysent_lookup(dump_calls[i].name);
		init = true;
	}
	for (size_t i = 0; i < sizeof(dump_calls) / sizeof(dump_calls[0]); i++)
		if (nrs[i] == nr)
			return dump_calls[i].kind;
	return D_NONE;
}

/* The dumps being gathered for one event. */
struct dumps {
	struct dctx *c;
	struct iodump *d;
	uint32_t n, alloc;
	uint64_t bytes;          /* bytes kept so far (IODUMP_MAX_BYTES) */
	bool full;               /* a limit was reached: add nothing more */
};

/* Buffers are read this much at a time, as strace's dumpstr does; the
 * first chunk that cannot be read whole ends the buffer's dump. */
#define DUMP_CHUNK 65536u

/*
 * Reads up to len bytes at addr a chunk at a time into the arena, at most
 * max of them; stops at the first chunk that cannot be read whole.
 * Returns the bytes read (*out is NULL when none).
 */
static uint64_t dump_fetch(struct dctx *c, uint64_t addr, uint64_t len, uint64_t max,
			   uint8_t **out)
{
	uint8_t *buf = NULL;
	uint64_t got = 0, cap = 0;

	*out = NULL;
	while (got < len && got < max) {
		uint64_t want = len - got < DUMP_CHUNK ? len - got : DUMP_CHUNK;
		ssize_t r;

		if (want > max - got)
			want = max - got;
		if (got + want > cap) {
			/* grown with what is read, never with what is claimed */
			cap = cap ? cap * 2 : DUMP_CHUNK;
			if (cap < got + want)
				cap = got + want;
			buf = xrealloc(buf, (size_t)cap);
		}
		r = tmem_read(c->tid, addr + got, buf + got, (size_t)want);
		if (r > 0)
			got += (uint64_t)r;
		if (r != (ssize_t)want)
			break;
	}
	if (got)
		*out = arena_memdup(c->arena, buf, (size_t)got);
	free(buf);
	return got;
}

/* Appends a dump of len bytes at addr (what can be read of them, within
 * the call's limits); NULL when a limit was reached before it. */
static struct iodump *add_dump(struct dumps *ds, uint64_t addr, uint64_t len, int iov)
{
	struct iodump *d;
	uint8_t *buf = NULL;
	uint64_t got = 0, room;

	if (ds->full)
		return NULL;
	if (ds->n >= IODUMP_MAX_BUFS) {
		ds->d[ds->n - 1].capped = true;
		ds->full = true;
		return NULL;
	}
	if (ds->n == ds->alloc) {
		uint32_t na = ds->alloc ? ds->alloc * 2 : 4;
		struct iodump *nd = arena_alloc(ds->c->arena, na * sizeof(*nd));
		if (ds->n)
			memcpy(nd, ds->d, ds->n * sizeof(*nd));
		ds->d = nd;
		ds->alloc = na;
	}
	room = IODUMP_MAX_BYTES - ds->bytes;
	if (len)
		got = dump_fetch(ds->c, addr, len, room, &buf);
	ds->bytes += got;
	d = &ds->d[ds->n++];
	memset(d, 0, sizeof(*d));
	d->data = buf;
	d->len = len;
	d->fetched = got;
	d->addr = addr;
	d->iov = iov;
	d->vec = -1;
	if (got == room && got < len) {
		d->capped = true;
		ds->full = true;
	}
	return d;
}

/* iovec entries read at a time */
#define IOV_CHUNK 256

/* strace's dumpiov_upto: each iov_base up to what is left of data_size
 * ((uint64_t)-1: all), " * N bytes in buffer I" before each; stops at the
 * first empty one.  As strace, nothing when the iovec array cannot be read
 * whole. */
static void dump_iov(struct dumps *ds, uint64_t iov, uint64_t cnt, uint64_t data_size)
{
	struct { uint64_t base, len; } v[IOV_CHUNK];
	uint32_t first = ds->n;
	uint64_t i = 0;

	/* strace's limit: the array's size in bytes must fit in 32 bits */
	if (cnt > UINT32_MAX / sizeof(v[0]) || iov + cnt * sizeof(v[0]) < iov)
		return;
	while (i < cnt && !ds->full) {
		uint64_t n = cnt - i < IOV_CHUNK ? cnt - i : IOV_CHUNK;

		if (tmem_read(ds->c->tid, iov + i * sizeof(v[0]), v, n * sizeof(v[0])) !=
		    (ssize_t)(n * sizeof(v[0]))) {
			ds->n = first;   /* the array is unreadable: no dump */
			ds->full = false;
			return;
		}
		for (uint64_t k = 0; k < n; k++, i++) {
			uint64_t len = v[k].len < data_size ? v[k].len : data_size;
			if (!len)
				return;
			data_size -= len;
			if (!add_dump(ds, v[k].base, len, (int)i))
				return;
		}
	}
}

/* struct msghdr (x86_64): msg_iov at 16, msg_iovlen at 24. */
static void dump_msghdr(struct dumps *ds, uint64_t addr, uint64_t data_size)
{
	uint64_t f[7];

	if (tmem_read(ds->c->tid, addr, f, sizeof(f)) != sizeof(f))
		return;
	dump_iov(ds, f[2], f[3], data_size);
}

/* strace's dumpiov_in_mmsghdr: for each of the retval messages,
 * " = N buffers in vector I" and its iovec up to msg_len. */
static void dump_mmsghdr(struct dumps *ds, uint64_t addr, uint64_t count)
{
	struct { uint64_t f[7]; uint32_t msg_len, pad; } m;

	for (uint64_t i = 0; i < count && i < 1024 && !ds->full; i++) {
		if (tmem_read(ds->c->tid, addr + i * sizeof(m), &m, sizeof(m)) != sizeof(m))
			return;
		struct iodump *h = add_dump(ds, 0, 0, -1);
		if (!h)
			return;
		h->vec = (int32_t)i;
		h->nbufs = m.f[3];
		dump_iov(ds, m.f[2], m.f[3], m.msg_len);
	}
}

void quals_dumpio(const struct trace_quals *q, struct dctx *c, struct event *ev)
{
	struct dumps ds = { c, NULL, 0, 0, 0, false };
	enum dump_kind k;
	int fd = (int)ev->raw[0];

	if (!q || (!q->read_fds && !q->write_fds) || ev->state != SC_COMPLETE || fd < 0)
		return;
	k = quals_dump_kind(ev->nr);
	if (k == D_NONE)
		return;
	if (k <= D_WRITE_MMSG) {
		if (!q->write_fds || !numset_has(q->write_fds, (uint64_t)fd))
			return;
		switch (k) {
		case D_WRITE_BUF: add_dump(&ds, ev->raw[1], ev->raw[2], -1); break;
		case D_WRITE_IOV: dump_iov(&ds, ev->raw[1], ev->raw[2], (uint64_t)-1); break;
		case D_WRITE_MSG: dump_msghdr(&ds, ev->raw[1], (uint64_t)-1); break;
		/* strace counts the messages sent (the result) here, too */
		case D_WRITE_MMSG:
			if (!ev->err)
				dump_mmsghdr(&ds, ev->raw[1], (uint64_t)ev->retval);
			break;
		default: break;
		}
	} else {
		if (ev->err || !q->read_fds || !numset_has(q->read_fds, (uint64_t)fd))
			return;
		switch (k) {
		case D_READ_BUF: add_dump(&ds, ev->raw[1], (uint64_t)ev->retval, -1); break;
		case D_READ_IOV: dump_iov(&ds, ev->raw[1], ev->raw[2], (uint64_t)ev->retval); break;
		case D_READ_MSG: dump_msghdr(&ds, ev->raw[1], (uint64_t)ev->retval); break;
		case D_READ_MMSG: dump_mmsghdr(&ds, ev->raw[1], (uint64_t)ev->retval); break;
		default: break;
		}
	}
	ev->dumps = ds.d;
	ev->ndumps = ds.n;
}
