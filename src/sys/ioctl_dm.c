/*
 * Device mapper ioctls (type 0xfd, linux/dm-ioctl.h): the struct dm_ioctl
 * header and the payload each request carries after it (target specs,
 * dependencies, device names, target versions, messages, strings), as
 * "[{header}, payload...]" at entry and " => [...]" at exit.
 */
#include <stddef.h>
#include <string.h>
#include <linux/dm-ioctl.h>

#include "sys/ioc.h"
#include "util/arena.h"
#include "xlat/dm_flags.h"

#include "util/banned.h"

/* The list being built: items of "[...]". */
struct dml {
	struct dctx *c;
	struct val *it;
	unsigned n, cap;
};

static struct val *dml_next(struct dml *l)
{
	if (l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 8;
		struct val *it = val_new_array(l->c, cap);

		if (l->n)
			memcpy(it, l->it, l->n * sizeof(*it));
		l->it = it;
		l->cap = cap;
	}
	return &l->it[l->n++];
}

/* "??? / * misplaced ... * /" */
static void misplaced(struct dml *l, const char *what)
{
	struct val x;

	val_set_text(l->c, &x, NULL, "???");
	val_set_commented(l->c, dml_next(l), NULL, &x, ioc_printf(l->c, "misplaced %s", what));
}

static bool has_params(uint32_t code)
{
	switch (code) {
	case DM_VERSION: case DM_REMOVE_ALL: case DM_DEV_CREATE: case DM_DEV_REMOVE:
	case DM_DEV_SUSPEND: case DM_DEV_STATUS: case DM_TABLE_CLEAR: case DM_DEV_ARM_POLL:
		return false;
	}
	return true;
}

/* The header structure; false when its version or size stop decoding. */
static bool header(struct ioc *io, struct val *v, const struct dm_ioctl *d)
{
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 14), x;
	unsigned n = 0;
	bool ok = false;

	ioc_set_int_array(c, &f[n++], "version", d->version, 3, sizeof(d->version[0]), NUM_U);
	if (d->version[0] != DM_VERSION_MAJOR) {
		val_set_comment(c, &f[n++], "unsupported device mapper ABI version");
		goto out;
	}
	FLD_U(&x, *d, data_size);
	if (d->data_size < offsetof(struct dm_ioctl, data)) {
		val_set_commented(c, &f[n++], "data_size", &x, "data_size too small");
		goto out;
	}
	f[n++] = x;
	if (has_params(io->code))
		FLD_U(&f[n++], *d, data_start);
	switch (io->code) {
	case DM_REMOVE_ALL: case DM_LIST_DEVICES: case DM_LIST_VERSIONS:
		break;
	default:
		if (d->dev)
			ioc_set_dev(c, &f[n++], "dev", d->dev);
		if (d->name[0])
			ioc_set_cstring(c, &f[n++], "name", d->name, sizeof(d->name));
		if (d->uuid[0])
			ioc_set_cstring(c, &f[n++], "uuid", d->uuid, sizeof(d->uuid));
		break;
	}
	if (!io->exiting) {
		switch (io->code) {
		case DM_TABLE_LOAD:
			FLD_U(&f[n++], *d, target_count);
			break;
		case DM_DEV_SUSPEND:
			if (d->flags & DM_SUSPEND_FLAG)
				break;
			/* fall through */
		case DM_DEV_RENAME: case DM_DEV_REMOVE: case DM_DEV_WAIT:
			FLD_U(&f[n++], *d, event_nr);
			break;
		}
	} else if (!io->ev->err) {
		switch (io->code) {
		case DM_DEV_CREATE: case DM_DEV_RENAME: case DM_DEV_SUSPEND: case DM_DEV_STATUS:
		case DM_DEV_WAIT: case DM_TABLE_LOAD: case DM_TABLE_CLEAR: case DM_TABLE_DEPS:
		case DM_TABLE_STATUS: case DM_TARGET_MSG:
			FLD_U(&f[n++], *d, target_count);
			FLD_U(&f[n++], *d, open_count);
			FLD_U(&f[n++], *d, event_nr);
			break;
		}
	}
	val_set_flags(&f[n++], "flags", d->flags, dm_flags, NULL);
	ok = true;
out:
	/* the comments follow the last field with no separator */
	if (n >= 2 && f[n - 1].kind == V_COMMENT) {
		struct val *p = val_new_array(c, 2);

		p[0] = f[n - 2];
		p[0].name = NULL;
		p[1] = f[n - 1];
		val_set_op(&f[n - 2], f[n - 2].name, p, 2, " ");
		n--;
	}
	val_set_struct(v, NULL, f, n, false);
	return ok;
}

static void target_spec(struct ioc *io, struct dml *l, const struct dm_ioctl *d)
{
	struct dctx *c = io->c;
	uint32_t offset = d->data_start, end = 0;

	if (ioc_abbrev(io)) {
		if (d->target_count)
			ioc_more(c, dml_next(l));
		return;
	}
	for (uint32_t i = 0; i < d->target_count; i++) {
		struct dm_target_spec s;
		struct val *it, *f;

		if (i && offset <= end)
			goto misplaced;
		end = offset + sizeof(struct dm_target_spec);
		if (end <= offset || end > d->data_size)
			goto misplaced;
		if (i >= c->opts->string_limit) {
			ioc_more(c, dml_next(l));
			break;
		}
		it = dml_next(l);
		it->name = NULL;
		if (!ioc_read(io, it, io->arg + offset, &s, sizeof(s)))
			break;
		f = val_new_array(c, 5);
		unsigned n = 0;

		FLD_U(&f[n++], s, sector_start);
		FLD_U(&f[n++], s, length);
		if (io->exiting)
			FLD_D(&f[n++], s, status);
		ioc_set_cstring(c, &f[n++], "target_type", s.target_type, sizeof(s.target_type));
		ioc_read_cstr_n(io, &f[n++], "string", io->arg + end, d->data_size - end, false);
		val_set_struct(it, NULL, f, n, false);
		offset = io->exiting ? d->data_start + s.next : offset + s.next;
	}
	return;
misplaced:
	misplaced(l, "struct dm_target_spec");
}

static void dev_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t dev;

	memcpy(&dev, elem, sizeof(dev));
	ioc_set_dev(c, item, NULL, dev);
}

static void target_deps(struct ioc *io, struct dml *l, const struct dm_ioctl *d)
{
	struct dctx *c = io->c;
	uint32_t offset = d->data_start, end = offset + offsetof(struct dm_target_deps, dev);
	struct dm_target_deps s;
	struct val *it, *f;

	if (d->data_start == d->data_size)
		return;
	if (ioc_abbrev(io)) {
		ioc_more(c, dml_next(l));
		return;
	}
	if (end <= offset || end > d->data_size)
		goto misplaced;
	it = dml_next(l);
	it->name = NULL;
	if (!ioc_read(io, it, io->arg + offset, &s, sizeof(s)))
		return;
	if (s.count > (d->data_size - end) / sizeof(uint64_t)) {
		l->n--;
		goto misplaced;
	}
	f = val_new_array(c, 2);
	FLD_U(&f[0], s, count);
	decode_array(c, &f[1], "deps", io->arg + end, s.count, sizeof(uint64_t), dev_elem, NULL);
	val_set_struct(it, NULL, f, 2, false);
	return;
misplaced:
	misplaced(l, "struct dm_target_deps");
}

static void name_list(struct ioc *io, struct dml *l, const struct dm_ioctl *d)
{
	struct dctx *c = io->c;
	uint32_t offset = d->data_start, end = 0;

	if (d->data_start == d->data_size)
		return;
	if (ioc_abbrev(io)) {
		ioc_more(c, dml_next(l));
		return;
	}
	for (uint32_t count = 0;; count++) {
		struct dm_name_list s;
		struct val *it, *f;
		int rc;

		if (count && offset <= end)
			goto misplaced;
		end = offset + offsetof(struct dm_name_list, name);
		if (end <= offset || end > d->data_size)
			goto misplaced;
		if (count >= c->opts->string_limit) {
			ioc_more(c, dml_next(l));
			break;
		}
		it = dml_next(l);
		it->name = NULL;
		if (!ioc_read(io, it, io->arg + offset, &s, sizeof(s)))
			break;
		f = val_new_array(c, 3);
		unsigned n = 0;

		ioc_set_dev(c, &f[n++], "dev", s.dev);
		rc = ioc_read_cstr_n(io, &f[n++], "name", io->arg + end, d->data_size - end, false);
		/* the event number the kernel (4.37+) puts after the name */
		if (rc > 0 && d->version[1] >= 37) {
			uint64_t ev_addr = (io->arg + end + (uint64_t)rc + 7) & ~(uint64_t)7;
			uint32_t event_nr;

			if (ev_addr + sizeof(event_nr) <= io->arg + offset + s.next &&
			    tread(c, ev_addr, &event_nr, sizeof(event_nr)))
				val_set_uint(&f[n++], "event_nr", event_nr);
		}
		val_set_struct(it, NULL, f, n, false);
		if (!s.next)
			break;
		offset += s.next;
	}
	return;
misplaced:
	misplaced(l, "struct dm_name_list");
}

static void target_versions(struct ioc *io, struct dml *l, const struct dm_ioctl *d)
{
	struct dctx *c = io->c;
	uint32_t offset = d->data_start, end = 0;

	if (d->data_start == d->data_size)
		return;
	if (ioc_abbrev(io)) {
		ioc_more(c, dml_next(l));
		return;
	}
	for (uint32_t count = 0;; count++) {
		struct dm_target_versions s;
		struct val *it, *f;

		if (count && offset <= end)
			goto misplaced;
		end = offset + offsetof(struct dm_target_versions, name);
		if (end <= offset || end > d->data_size)
			goto misplaced;
		if (count >= c->opts->string_limit) {
			ioc_more(c, dml_next(l));
			break;
		}
		it = dml_next(l);
		it->name = NULL;
		if (!ioc_read(io, it, io->arg + offset, &s, sizeof(s)))
			break;
		f = val_new_array(c, 2);
		ioc_read_cstr_n(io, &f[0], "name", io->arg + end, d->data_size - end, false);
		ioc_set_int_array(c, &f[1], "version", s.version, 3, sizeof(s.version[0]), NUM_U);
		val_set_struct(it, NULL, f, 2, false);
		if (!s.next)
			break;
		offset += s.next;
	}
	return;
misplaced:
	misplaced(l, "struct dm_target_versions");
}

static void target_msg(struct ioc *io, struct dml *l, const struct dm_ioctl *d)
{
	struct dctx *c = io->c;
	uint32_t offset = d->data_start, end = offset + offsetof(struct dm_target_msg, message);
	struct dm_target_msg s;
	struct val *it, *f;

	if (d->data_start == d->data_size)
		return;
	if (ioc_abbrev(io)) {
		ioc_more(c, dml_next(l));
		return;
	}
	if (end <= offset || end > d->data_size) {
		misplaced(l, "struct dm_target_msg");
		return;
	}
	it = dml_next(l);
	it->name = NULL;
	if (!ioc_read(io, it, io->arg + offset, &s, sizeof(s)))
		return;
	f = val_new_array(c, 2);
	FLD_U(&f[0], s, sector);
	ioc_read_cstr_n(io, &f[1], "message", io->arg + end, d->data_size - end, false);
	val_set_struct(it, NULL, f, 2, false);
}

static void string(struct ioc *io, struct dml *l, const struct dm_ioctl *d)
{
	struct dctx *c = io->c;
	struct val *it, *f;

	if (ioc_abbrev(io)) {
		ioc_more(c, dml_next(l));
		return;
	}
	if (d->data_start > d->data_size) {
		misplaced(l, "string");
		return;
	}
	it = dml_next(l);
	f = val_new_array(c, 1);
	ioc_read_cstr_n(io, &f[0], "string", io->arg + d->data_start,
			d->data_size - d->data_start, false);
	val_set_struct(it, NULL, f, 1, false);
}

static void payload(struct ioc *io, struct dml *l, const struct dm_ioctl *d)
{
	bool ok_exit = io->exiting && !io->ev->err;

	switch (io->code) {
	case DM_DEV_WAIT: case DM_TABLE_STATUS:
		if (ok_exit)
			target_spec(io, l, d);
		break;
	case DM_TABLE_LOAD:
		if (!io->exiting)
			target_spec(io, l, d);
		break;
	case DM_TABLE_DEPS:
		if (ok_exit)
			target_deps(io, l, d);
		break;
	case DM_LIST_DEVICES:
		if (ok_exit)
			name_list(io, l, d);
		break;
	case DM_LIST_VERSIONS:
		if (ok_exit)
			target_versions(io, l, d);
		break;
	case DM_TARGET_MSG:
		if (!io->exiting)
			target_msg(io, l, d);
		else if (ok_exit && (d->flags & DM_DATA_OUT_FLAG))
			string(io, l, d);
		break;
	case DM_DEV_RENAME: case DM_DEV_SET_GEOMETRY:
		if (!io->exiting)
			string(io, l, d);
		break;
	}
}

/*
 * The entry's header is kept (a copy in the arena, as a pointer item
 * beyond the shown ones) to tell at exit whether the kernel changed it:
 * a failed call shows its exit part only then.
 */
static int known(struct ioc *io)
{
	struct dctx *c = io->c;
	struct dml l = { .c = c };
	struct dm_ioctl d, *saved = NULL;
	struct val *v, arr;

	if (!tread(c, io->arg, &d, offsetof(struct dm_ioctl, data)) ||
	    d.data_size < offsetof(struct dm_ioctl, data_size))
		return io->exiting ? IOC_DEFAULT : IOC_EXIT;
	if (io->exiting) {
		v = &io->ev->args[2];
		if (v->kind == V_ARRAY && v->c.n < (uint32_t)-1)
			saved = (struct dm_ioctl *)(uintptr_t)v->c.items[v->c.n].u;
		bool changed = !saved || memcmp(d.version, saved->version, sizeof(d.version)) ||
			       d.data_size != saved->data_size ||
			       d.data_start != saved->data_start || d.flags != saved->flags;

		if (io->ev->err && !changed)
			return IOC_DONE;
	}
	if (header(io, dml_next(&l), &d))
		payload(io, &l, &d);
	if (!io->exiting) {
		saved = arena_memdup(c->arena, &d, sizeof(d));
		val_set_ptr(dml_next(&l), NULL, (uint64_t)(uintptr_t)saved);
		v = ioc_val(io);
		val_set_array(v, v->name, l.it, l.n - 1, false);
		return IOC_EXIT;
	}
	val_set_array(&arr, NULL, l.it, l.n, false);
	ioc_set_after(io, &arr);
	return IOC_DONE;
}

int ioctl_dm(struct ioc *io)
{
	switch (io->code) {
	case DM_VERSION: case DM_REMOVE_ALL: case DM_LIST_DEVICES: case DM_DEV_CREATE:
	case DM_DEV_REMOVE: case DM_DEV_RENAME: case DM_DEV_SUSPEND: case DM_DEV_STATUS:
	case DM_DEV_WAIT: case DM_TABLE_LOAD: case DM_TABLE_CLEAR: case DM_TABLE_DEPS:
	case DM_TABLE_STATUS: case DM_LIST_VERSIONS: case DM_TARGET_MSG:
	case DM_DEV_SET_GEOMETRY: case DM_DEV_ARM_POLL:
		return known(io);
	}
	return IOC_DEFAULT;
}
