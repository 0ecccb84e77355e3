/*
 * 0x94 ioctls of linux/fs.h shared with btrfs: FICLONE, FICLONERANGE,
 * FIDEDUPERANGE and the file system label; btrfs's own requests are in
 * ioctl_btrfs.c.
 */
#include <stddef.h>
#include <linux/fs.h>

#include "sys/ioc.h"

#include "util/banned.h"

static int clone_range(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct file_clone_range r;

	if (ioc_read(io, v, io->arg, &r, sizeof(r))) {
		f = val_new_array(io->c, 4);
		val_set_fd(io->c, &f[0], "src_fd", r.src_fd);
		FLD_U(&f[1], r, src_offset);
		FLD_U(&f[2], r, src_length);
		FLD_U(&f[3], r, dest_offset);
		val_set_struct(v, v->name, f, 4, false);
	}
	return IOC_DONE;
}

static void info_in(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct file_dedupe_range_info *i = elem;
	struct val *f = val_new_array(c, 2);

	val_set_fd(c, &f[0], "dest_fd", i->dest_fd);
	FLD_U(&f[1], *i, dest_offset);
	val_set_struct(item, NULL, f, 2, false);
}

static void info_out(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct file_dedupe_range_info *i = elem;
	struct val *f = val_new_array(c, 2);

	FLD_U(&f[0], *i, bytes_deduped);
	FLD_D(&f[1], *i, status);
	val_set_struct(item, NULL, f, 2, false);
}

/* The info array: with no -v two elements at most, then "..."; false when
 * an element could not be read. */
static bool infos(struct ioc *io, struct val *v, const struct file_dedupe_range *r)
{
	return ioc_array(io, v, "info", io->arg + offsetof(struct file_dedupe_range, info),
			 r->dest_count, sizeof(struct file_dedupe_range_info),
			 ioc_abbrev(io) ? 2 : UINT64_MAX, io->exiting ? info_out : info_in,
			 NULL);
}

static int dedupe(struct ioc *io)
{
	struct dctx *c = io->c;
	struct file_dedupe_range r;
	struct val *v, *f;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &r, sizeof(r)))
			return IOC_DONE;
		f = val_new_array(c, 4);
		FLD_U(&f[0], r, src_offset);
		FLD_U(&f[1], r, src_length);
		FLD_U(&f[2], r, dest_count);
		bool whole = infos(io, &f[3], &r);

		val_set_struct(v, v->name, f, 4, false);
		return whole ? IOC_EXIT : IOC_DONE;
	}
	if (io->ev->err)
		return IOC_DONE;
	struct val after = { .name = NULL };

	if (ioc_read(io, &after, io->arg, &r, sizeof(r))) {
		f = val_new_array(c, 1);
		infos(io, &f[0], &r);
		val_set_struct(&after, NULL, f, 1, false);
	}
	ioc_set_after(io, &after);
	return IOC_DONE;
}

static int fslabel(struct ioc *io)
{
	struct val *v = ioc_val(io);
	char label[FSLABEL_MAX];

	if (ioc_read(io, v, io->arg, label, sizeof(label)))
		ioc_set_cstring(io->c, v, v->name, label, sizeof(label));
	return IOC_DONE;
}

int ioctl_fs_0x94(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case FICLONE:
		v = ioc_val(io);
		val_set_int(v, v->name, (int)io->arg);
		return IOC_DONE;
	case FICLONERANGE:
		return clone_range(io);
	case FIDEDUPERANGE:
		return dedupe(io);
	case FS_IOC_GETFSLABEL:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case FS_IOC_SETFSLABEL:
		return fslabel(io);
	}
	return ioctl_btrfs(io);
}
