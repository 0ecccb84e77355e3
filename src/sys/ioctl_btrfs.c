/*
 * btrfs's own ioctls (type 0x94, linux/btrfs.h), as strace 6.1 prints them:
 * subvolume and device arguments, balance, scrub, device replace, quota
 * groups, tree search, inode lookups, send and the informational requests.
 * The requests shared with linux/fs.h (clone, dedupe, label) are in
 * ioctl_fs_0x94.c, which calls ioctl_btrfs() for the others.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>

#include "sys/ioc.h"
#include "util/arena.h"

#include "xlat/btrfs_balance_args.h"
#include "xlat/btrfs_balance_ctl_cmds.h"
#include "xlat/btrfs_balance_flags.h"
#include "xlat/btrfs_balance_state.h"
#include "xlat/btrfs_compress_types.h"
#include "xlat/btrfs_cont_reading_from_srcdev_mode.h"
#include "xlat/btrfs_csum_types.h"
#include "xlat/btrfs_defrag_flags.h"
#include "xlat/btrfs_dev_replace_cmds.h"
#include "xlat/btrfs_dev_replace_results.h"
#include "xlat/btrfs_dev_replace_state.h"
#include "xlat/btrfs_dev_stats_flags.h"
#include "xlat/btrfs_dev_stats_values.h"
#include "xlat/btrfs_features_compat_ro.h"
#include "xlat/btrfs_features_incompat.h"
#include "xlat/btrfs_fs_info_flags.h"
#include "xlat/btrfs_key_types.h"
#include "xlat/btrfs_logical_ino_args_flags.h"
#include "xlat/btrfs_qgroup_ctl_cmds.h"
#include "xlat/btrfs_qgroup_inherit_flags.h"
#include "xlat/btrfs_qgroup_limit_flags.h"
#include "xlat/btrfs_scrub_flags.h"
#include "xlat/btrfs_send_flags.h"
#include "xlat/btrfs_snap_flags_v2.h"
#include "xlat/btrfs_space_info_flags.h"
#include "xlat/btrfs_tree_objectids.h"

#include "util/banned.h"

/* linux/btrfs.h defines no compat feature */
static const struct xlat btrfs_features_compat[1] = {
	{ NULL, 0, XT_FLAGS, "BTRFS_FEATURE_COMPAT_???" },
};

/* ---- field helpers -------------------------------------------------------- */

/* A u64 that prints UINT64_MAX by name (strace's PRINT_FIELD_U64). */
static void set_u64(struct dctx *c, struct val *v, const char *name, uint64_t x)
{
	struct val num;

	if (x != UINT64_MAX) {
		val_set_uint(v, name, x);
		return;
	}
	val_set_uint(&num, NULL, x);
	val_set_num_text(c, v, name, &num, "UINT64_MAX");
}

/* A value of a table printed in decimal, the bare number when unnamed
 * (PRINT_FIELD_XVAL_U with no default: object ids, key types). */
static void set_xval_u(struct dctx *c, struct val *v, const char *name, uint64_t x,
		       const struct xlat *xl)
{
	const char *text = xlat_name(xl, x);
	struct val num;

	val_set_uint(&num, NULL, x);
	if (text) {
		val_set_num_text(c, v, name, &num, text);
	} else {
		*v = num;
		v->name = name;
	}
}

static void set_objectid(struct dctx *c, struct val *v, const char *name, uint64_t x)
{
	set_xval_u(c, v, name, x, btrfs_tree_objectids);
}

static void set_uuid(struct dctx *c, struct val *v, const char *name, const unsigned char *u)
{
	val_set_text(c, v, name,
		     ioc_printf(c, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
				"%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
				u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
				u[14], u[15]));
}

/* The table xl with another text for unknown bits. */
static const struct xlat *xlat_unknown(struct dctx *c, const struct xlat *xl, const char *unknown)
{
	struct xlat *x = arena_alloc(c->arena, sizeof(*x));

	*x = *xl;
	x->unknown = unknown;
	return x;
}

/* ---- shared structures ---------------------------------------------------- */

static void balance_args(struct dctx *c, struct val *v, const char *name,
			 const struct btrfs_balance_args *a)
{
	struct val *f = val_new_array(c, 9);

	val_set_flags(&f[0], "profiles", a->profiles,
		      xlat_unknown(c, btrfs_space_info_flags, "BTRFS_BLOCK_GROUP_???"), NULL);
	set_u64(c, &f[1], "usage", a->usage);
	ioc_set_dev(c, &f[2], "devid", a->devid);
	set_u64(c, &f[3], "pstart", a->pstart);
	set_u64(c, &f[4], "pend", a->pend);
	set_u64(c, &f[5], "vstart", a->vstart);
	set_u64(c, &f[6], "vend", a->vend);
	set_u64(c, &f[7], "target", a->target);
	val_set_flags(&f[8], "flags", a->flags, btrfs_balance_args, NULL);
	val_set_struct(v, name, f, 9, false);
}

static void balance(struct dctx *c, struct val *v, const struct btrfs_ioctl_balance_args *b,
		    bool out)
{
	struct val *f = val_new_array(c, 5);
	unsigned n = 0;

	val_set_flags(&f[n++], "flags", b->flags, btrfs_balance_flags, NULL);
	if (out)
		val_set_flags(&f[n++], "state", b->state, btrfs_balance_state, NULL);
	if (b->flags & BTRFS_BALANCE_DATA)
		balance_args(c, &f[n++], "data", &b->data);
	if (b->flags & BTRFS_BALANCE_METADATA)
		balance_args(c, &f[n++], "meta", &b->meta);
	if (b->flags & BTRFS_BALANCE_SYSTEM)
		balance_args(c, &f[n++], "sys", &b->sys);
	val_set_struct(v, v->name, f, n, false);
}

static void features(struct dctx *c, struct val *v, const char *name,
		     const struct btrfs_ioctl_feature_flags *ff)
{
	struct val *f = val_new_array(c, 3);

	val_set_flags(&f[0], "compat_flags", ff->compat_flags, btrfs_features_compat, NULL);
	val_set_flags(&f[1], "compat_ro_flags", ff->compat_ro_flags, btrfs_features_compat_ro,
		      NULL);
	val_set_flags(&f[2], "incompat_flags", ff->incompat_flags, btrfs_features_incompat,
		      NULL);
	val_set_struct(v, name, f, 3, false);
}

static void qgroup_limit(struct dctx *c, struct val *v, const char *name,
			 const struct btrfs_qgroup_limit *l)
{
	struct val *f = val_new_array(c, 5);

	val_set_flags(&f[0], "flags", l->flags, btrfs_qgroup_limit_flags, NULL);
	FLD_U(&f[1], *l, max_rfer);
	FLD_U(&f[2], *l, max_excl);
	FLD_U(&f[3], *l, rsv_rfer);
	FLD_U(&f[4], *l, rsv_excl);
	val_set_struct(v, name, f, 5, false);
}

static void u64_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t x;

	memcpy(&x, elem, sizeof(x));
	val_set_uint(item, NULL, x);
}

static void objectid_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t x;

	memcpy(&x, elem, sizeof(x));
	set_objectid(c, item, NULL, x);
}

static void qgroup_inherit(struct ioc *io, struct val *v, const char *name, uint64_t addr)
{
	struct dctx *c = io->c;
	struct btrfs_qgroup_inherit q;
	struct val *f;

	v->name = name;
	if (!ioc_read(io, v, addr, &q, sizeof(q)))
		return;
	f = val_new_array(c, 6);
	val_set_flags(&f[0], "flags", q.flags, btrfs_qgroup_inherit_flags, NULL);
	FLD_U(&f[1], q, num_qgroups);
	FLD_U(&f[2], q, num_ref_copies);
	FLD_U(&f[3], q, num_excl_copies);
	qgroup_limit(c, &f[4], "lim", &q.lim);
	if (ioc_abbrev(io))
		ioc_more(c, &f[5]);
	else
		ioc_array(io, &f[5], "qgroups", addr + offsetof(struct btrfs_qgroup_inherit, qgroups),
			  q.num_qgroups, sizeof(uint64_t), UINT64_MAX, u64_elem, NULL);
	val_set_struct(v, name, f, 6, false);
}

/* ---- requests --------------------------------------------------------------- */

static int vol_args(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct btrfs_ioctl_vol_args a;

	if (ioc_read(io, v, io->arg, &a, sizeof(a))) {
		f = val_new_array(io->c, 2);
		val_set_fd(io->c, &f[0], "fd", a.fd);
		ioc_set_cstring(io->c, &f[1], "name", a.name, sizeof(a.name));
		val_set_struct(v, v->name, f, 2, false);
	}
	return IOC_DONE;
}

static bool vol_v2_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_vol_args_v2 *a = buf;
	struct val *f = val_new_array(io->c, 5);
	unsigned n = 0;

	val_set_fd(io->c, &f[n++], "fd", a->fd);
	val_set_flags(&f[n++], "flags", a->flags, btrfs_snap_flags_v2, NULL);
	if (a->flags & BTRFS_SUBVOL_QGROUP_INHERIT) {
		FLD_U(&f[n++], *a, size);
		qgroup_inherit(io, &f[n++], "qgroup_inherit", (uintptr_t)a->qgroup_inherit);
	}
	ioc_set_cstring(io->c, &f[n++], "name", a->name, sizeof(a->name));
	val_set_struct(v, v->name, f, n, false);
	return true;
}

static bool vol_v2_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_vol_args_v2 *a = buf;
	struct val *f = val_new_array(io->c, 1);

	FLD_U(&f[0], *a, transid);
	val_set_struct(v, NULL, f, 1, false);
	return true;
}

/* An output structure read at the exit stop only; fill sets v from buf. */
static int out_only(struct ioc *io, size_t size, ioc_struct_fn fill)
{
	void *buf;
	struct val *v;

	if (!io->exiting)
		return IOC_EXIT;
	buf = arena_alloc(io->c->arena, size);
	v = ioc_val(io);
	if (ioc_read(io, v, io->arg, buf, size))
		fill(io, v, buf);
	return IOC_DONE;
}

/* An input structure read at entry. */
static int in_only(struct ioc *io, size_t size, ioc_struct_fn fill)
{
	void *buf = arena_alloc(io->c->arena, size);
	struct val *v = ioc_val(io);

	if (ioc_read(io, v, io->arg, buf, size))
		fill(io, v, buf);
	return IOC_DONE;
}

static bool subvol_flags(struct ioc *io, struct val *v, const void *buf)
{
	uint64_t x;

	memcpy(&x, buf, sizeof(x));
	val_set_flags(v, v->name, x, btrfs_snap_flags_v2, NULL);
	return true;
}

static int balance_v2(struct ioc *io)
{
	struct btrfs_ioctl_balance_args b;
	struct val *v, after = { .name = NULL };

	if (!io->exiting) {
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &b, sizeof(b)))
			balance(io->c, v, &b, false);
		return IOC_EXIT;
	}
	if (io->ev->err)
		return IOC_DONE;
	if (ioc_read(io, &after, io->arg, &b, sizeof(b)))
		balance(io->c, &after, &b, true);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

static bool balance_progress(struct ioc *io, struct val *v, const void *buf)
{
	balance(io->c, v, buf, true);
	return true;
}

static bool defrag_range(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_defrag_range_args *a = buf;
	struct val *f = val_new_array(io->c, 5);

	FLD_U(&f[0], *a, start);
	set_u64(io->c, &f[1], "len", a->len);
	val_set_flags(&f[2], "flags", a->flags, btrfs_defrag_flags, NULL);
	FLD_U(&f[3], *a, extent_thresh);
	val_set_enum(&f[4], "compress_type", a->compress_type, btrfs_compress_types);
	val_set_struct(v, v->name, f, 5, false);
	return false;
}

static bool dev_info_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_dev_info_args *a = buf;
	struct val *f = val_new_array(io->c, 2);
	unsigned n = 0;

	ioc_set_dev(io->c, &f[n++], "devid", a->devid);
	if (!ioc_all_zero(a->uuid, sizeof(a->uuid)))
		set_uuid(io->c, &f[n++], "uuid", a->uuid);
	val_set_struct(v, v->name, f, n, false);
	return true;
}

static bool dev_info_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_dev_info_args *a = buf;
	struct val *f = val_new_array(io->c, 4);
	unsigned n = 0;

	if (!ioc_all_zero(a->uuid, sizeof(a->uuid)))
		set_uuid(io->c, &f[n++], "uuid", a->uuid);
	FLD_U(&f[n++], *a, bytes_used);
	FLD_U(&f[n++], *a, total_bytes);
	ioc_set_cstring(io->c, &f[n++], "path", a->path, sizeof(a->path));
	val_set_struct(v, NULL, f, n, false);
	return true;
}

static bool replace_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_dev_replace_args *a = buf;
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 2), *s;
	unsigned n = 0;

	val_set_enum(&f[n++], "cmd", a->cmd, btrfs_dev_replace_cmds);
	if (a->cmd == BTRFS_IOCTL_DEV_REPLACE_CMD_START) {
		s = val_new_array(c, 4);
		ioc_set_dev(c, &s[0], "srcdevid", a->start.srcdevid);
		val_set_enum(&s[1], "cont_reading_from_srcdev_mode",
			     a->start.cont_reading_from_srcdev_mode,
			     btrfs_cont_reading_from_srcdev_mode);
		ioc_set_cstring(c, &s[2], "srcdev_name", a->start.srcdev_name,
				sizeof(a->start.srcdev_name));
		ioc_set_cstring(c, &s[3], "tgtdev_name", a->start.tgtdev_name,
				sizeof(a->start.tgtdev_name));
		val_set_struct(&f[n++], "start", s, 4, false);
	}
	val_set_struct(v, v->name, f, n, false);
	return true;
}

static void set_time(struct dctx *c, struct val *v, const char *name, uint64_t t)
{
	struct val x;

	val_set_uint(&x, NULL, t);
	val_set_commented(c, v, name, &x, time_text(c, (int64_t)t, 0));
}

static bool replace_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_dev_replace_args *a = buf;
	const struct btrfs_ioctl_dev_replace_status_params *p = &a->status;
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 2), *s, x;
	unsigned n = 0;

	val_set_enum(&f[n++], "result", a->result, btrfs_dev_replace_results);
	if (a->cmd == BTRFS_IOCTL_DEV_REPLACE_CMD_STATUS) {
		s = val_new_array(c, 6);
		val_set_enum(&s[0], "replace_state", p->replace_state, btrfs_dev_replace_state);
		val_set_uint(&x, NULL, p->progress_1000);
		val_set_commented(c, &s[1], "progress_1000", &x,
				  p->progress_1000 <= 1000 ?
				  ioc_printf(c, "%u.%u%%", (unsigned)p->progress_1000 / 10,
					     (unsigned)p->progress_1000 % 10) : NULL);
		set_time(c, &s[2], "time_started", p->time_started);
		set_time(c, &s[3], "time_stopped", p->time_stopped);
		FLD_U(&s[4], *p, num_write_errors);
		FLD_U(&s[5], *p, num_uncorrectable_read_errors);
		val_set_struct(&f[n++], "status", s, 6, false);
	}
	val_set_struct(v, NULL, f, n, false);
	return true;
}

static bool get_features(struct ioc *io, struct val *v, const void *buf)
{
	features(io->c, v, v->name, buf);
	return true;
}

static bool set_features(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_feature_flags *ff = buf;
	struct val *it = val_new_array(io->c, 2);

	features(io->c, &it[0], NULL, &ff[0]);
	features(io->c, &it[1], NULL, &ff[1]);
	val_set_array(v, v->name, it, 2, false);
	return true;
}

static bool supported_features(struct ioc *io, struct val *v, const void *buf)
{
	static const char *const what[] = { "supported", "safe to set", "safe to clear" };
	const struct btrfs_ioctl_feature_flags *ff = buf;
	struct val *it = val_new_array(io->c, 3), s;

	for (unsigned i = 0; i < 3; i++) {
		features(io->c, &s, NULL, &ff[i]);
		val_set_commented(io->c, &it[i], NULL, &s, what[i]);
	}
	val_set_array(v, v->name, it, 3, false);
	return true;
}

static bool fs_info(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_fs_info_args *a = buf;
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 11);
	unsigned n = 0;

	FLD_U(&f[n++], *a, max_id);
	FLD_U(&f[n++], *a, num_devices);
	set_uuid(c, &f[n++], "fsid", a->fsid);
	FLD_U(&f[n++], *a, nodesize);
	FLD_U(&f[n++], *a, sectorsize);
	FLD_U(&f[n++], *a, clone_alignment);
	if (a->flags & BTRFS_FS_INFO_FLAG_CSUM_INFO) {
		val_set_enum(&f[n++], "csum_type", a->csum_type, btrfs_csum_types);
		FLD_U(&f[n++], *a, csum_size);
	}
	val_set_flags(&f[n++], "flags", a->flags, btrfs_fs_info_flags, NULL);
	if (a->flags & BTRFS_FS_INFO_FLAG_GENERATION)
		FLD_U(&f[n++], *a, generation);
	if (a->flags & BTRFS_FS_INFO_FLAG_METADATA_UUID)
		set_uuid(c, &f[n++], "metadata_uuid", a->metadata_uuid);
	val_set_struct(v, v->name, f, n, false);
	return true;
}

static bool dev_stats_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_get_dev_stats *a = buf;
	struct val *f = val_new_array(io->c, 3);

	ioc_set_dev(io->c, &f[0], "devid", a->devid);
	FLD_U(&f[1], *a, nr_items);
	val_set_flags(&f[2], "flags", a->flags, btrfs_dev_stats_flags, NULL);
	val_set_struct(v, v->name, f, 3, false);
	return true;
}

/* "[BTRFS_DEV_STAT_READ_ERRS]=11": an element with its index. */
static void indexed(struct dctx *c, struct val *v, const struct val *idx, const struct val *x)
{
	struct val *br = val_new_array(c, 3), *it = val_new_array(c, 2);

	val_set_text(c, &br[0], NULL, "[");
	br[1] = *idx;
	val_set_text(c, &br[2], NULL, "]");
	val_set_op(&it[0], NULL, br, 3, "");
	it[1] = *x;
	val_set_op(v, NULL, it, 2, "=");
}

static bool dev_stats_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_get_dev_stats *a = buf;
	struct dctx *c = io->c;
	const uint64_t max = sizeof(a->values) / sizeof(a->values[0]);
	uint64_t shown = a->nr_items < max ? a->nr_items : max;
	struct val *f = val_new_array(c, 3), *it = val_new_array(c, (unsigned)shown + 1);

	FLD_U(&f[0], *a, nr_items);
	val_set_flags(&f[1], "flags", a->flags, btrfs_dev_stats_flags, NULL);
	for (uint64_t i = 0; i < shown; i++) {
		struct val idx, x;

		set_xval_u(c, &idx, NULL, i, btrfs_dev_stats_values);
		val_set_uint(&x, NULL, a->values[i]);
		indexed(c, &it[i], &idx, &x);
	}
	val_set_array(&f[2], NULL, it, (unsigned)shown, a->nr_items > max);
	val_set_struct(v, NULL, f, 3, false);
	return true;
}

static bool ino_lookup_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_ino_lookup_args *a = buf;
	struct val *f = val_new_array(io->c, 2);

	set_objectid(io->c, &f[0], "treeid", a->treeid);
	set_objectid(io->c, &f[1], "objectid", a->objectid);
	val_set_struct(v, v->name, f, 2, false);
	return true;
}

static bool ino_lookup_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_ino_lookup_args *a = buf;
	const struct val *e = &io->ev->args[2];
	struct val *f = val_new_array(io->c, 2);
	unsigned n = 0;

	/* the tree id is an output when the entry gave 0 */
	if (e->kind == V_STRUCT && e->c.n == 2 && e->c.items[0].kind == V_UINT &&
	    e->c.items[0].u == 0)
		set_objectid(io->c, &f[n++], "treeid", a->treeid);
	ioc_set_cstring(io->c, &f[n++], "name", a->name, sizeof(a->name));
	val_set_struct(v, NULL, f, n, false);
	return true;
}

/* The header of a struct btrfs_data_container at addr and, with -v, its
 * elements (fn over nmemb(elem_cnt) elements of size bytes); v is the
 * address when it cannot be read. */
static void container(struct ioc *io, struct val *v, const char *name, uint64_t addr,
		      size_t size, uint64_t (*nmemb)(uint32_t), array_elem_fn fn, void *arg)
{
	struct dctx *c = io->c;
	struct btrfs_data_container d;
	struct val *f;
	uint64_t val_addr = addr + offsetof(struct btrfs_data_container, val);

	if (!ioc_read(io, v, addr, &d, sizeof(d))) {
		v->name = name;
		return;
	}
	f = val_new_array(c, 5);
	FLD_U(&f[0], d, bytes_left);
	FLD_U(&f[1], d, bytes_missing);
	FLD_U(&f[2], d, elem_cnt);
	FLD_U(&f[3], d, elem_missed);
	if (ioc_abbrev(io))
		ioc_more(c, &f[4]);
	else
		ioc_array(io, &f[4], "val", val_addr, nmemb(d.elem_cnt), size, UINT64_MAX, fn,
			  arg ? arg : &val_addr);
	val_set_struct(v, name, f, 5, false);
}

static bool ino_paths_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_ino_path_args *a = buf;
	struct val *f = val_new_array(io->c, 3);

	FLD_U(&f[0], *a, inum);
	FLD_U(&f[1], *a, size);
	val_set_ptr(&f[2], "fspath", a->fspath);
	val_set_struct(v, v->name, f, 3, false);
	return true;
}

static uint64_t count_paths(uint32_t n)
{
	return n;
}

static void path_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t off;

	memcpy(&off, elem, sizeof(off));
	val_read_path(c, item, NULL, *(const uint64_t *)arg + off);
}

static bool ino_paths_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_ino_path_args *a = buf;
	struct val *f = val_new_array(io->c, 1);

	container(io, &f[0], "fspath", a->fspath, sizeof(uint64_t), count_paths, path_elem,
		  NULL);
	val_set_struct(v, NULL, f, 1, false);
	return true;
}

static bool logical_ino_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_logical_ino_args *a = buf;
	struct val *f = val_new_array(io->c, 5);
	unsigned n = 0;

	FLD_U(&f[n++], *a, logical);
	FLD_U(&f[n++], *a, size);
	if (!ioc_all_zero(a->reserved, sizeof(a->reserved)))
		ioc_set_int_array(io->c, &f[n++], "reserved", a->reserved, 3, sizeof(a->reserved[0]),
				  NUM_X);
	val_set_flags(&f[n++], "flags", a->flags, btrfs_logical_ino_args_flags, NULL);
	val_set_ptr(&f[n++], "inodes", a->inodes);
	val_set_struct(v, v->name, f, n, false);
	return true;
}

static uint64_t count_records(uint32_t n)
{
	return n / 3;
}

static void record_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const uint64_t *r = elem;
	struct val *f = val_new_array(c, 3);

	val_set_uint(&f[0], "inum", r[0]);
	val_set_uint(&f[1], "offset", r[1]);
	val_set_uint(&f[2], "root", r[2]);
	val_set_struct(item, NULL, f, 3, false);
}

static bool logical_ino_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_logical_ino_args *a = buf;
	struct val *f = val_new_array(io->c, 1);

	container(io, &f[0], "inodes", a->inodes, 3 * sizeof(uint64_t), count_records,
		  record_elem, NULL);
	val_set_struct(v, NULL, f, 1, false);
	return true;
}

static bool qgroup_assign(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_qgroup_assign_args *a = buf;
	struct val *f = val_new_array(io->c, 3);

	FLD_U(&f[0], *a, assign);
	FLD_U(&f[1], *a, src);
	FLD_U(&f[2], *a, dst);
	val_set_struct(v, v->name, f, 3, false);
	return false;
}

static bool qgroup_create(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_qgroup_create_args *a = buf;
	struct val *f = val_new_array(io->c, 2);

	FLD_U(&f[0], *a, create);
	FLD_U(&f[1], *a, qgroupid);
	val_set_struct(v, v->name, f, 2, false);
	return false;
}

static bool qgroup_limit_args(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_qgroup_limit_args *a = buf;
	struct val *f = val_new_array(io->c, 2);

	FLD_U(&f[0], *a, qgroupid);
	qgroup_limit(io->c, &f[1], "lim", &a->lim);
	val_set_struct(v, v->name, f, 2, false);
	return true;
}

static bool quota_ctl(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_quota_ctl_args *a = buf;
	struct val *f = val_new_array(io->c, 1);

	val_set_enum(&f[0], "cmd", a->cmd, btrfs_qgroup_ctl_cmds);
	val_set_struct(v, v->name, f, 1, false);
	return false;
}

static bool quota_rescan(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_quota_rescan_args *a = buf;
	struct val *f = val_new_array(io->c, 1);

	FLD_U(&f[0], *a, flags);
	val_set_struct(v, v->name, f, 1, false);
	return false;
}

static bool rescan_status(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_quota_rescan_args *a = buf;
	struct val *f = val_new_array(io->c, 2);

	FLD_U(&f[0], *a, flags);
	set_objectid(io->c, &f[1], "progress", a->progress);
	val_set_struct(v, v->name, f, 2, false);
	return true;
}

static void btrfs_time(struct dctx *c, struct val *v, const char *name,
		       const struct btrfs_ioctl_timespec *t)
{
	struct val *f = val_new_array(c, 2), s;

	FLD_U(&f[0], *t, sec);
	FLD_U(&f[1], *t, nsec);
	val_set_struct(&s, NULL, f, 2, false);
	val_set_commented(c, v, name, &s, time_text(c, (int64_t)t->sec, t->nsec));
}

static bool received_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_received_subvol_args *a = buf;
	struct val *f = val_new_array(io->c, 4);

	set_uuid(io->c, &f[0], "uuid", (const unsigned char *)a->uuid);
	FLD_U(&f[1], *a, stransid);
	btrfs_time(io->c, &f[2], "stime", &a->stime);
	FLD_U(&f[3], *a, flags);
	val_set_struct(v, v->name, f, 4, false);
	return true;
}

static bool received_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_received_subvol_args *a = buf;
	struct val *f = val_new_array(io->c, 2);

	FLD_U(&f[0], *a, rtransid);
	btrfs_time(io->c, &f[1], "rtime", &a->rtime);
	val_set_struct(v, NULL, f, 2, false);
	return true;
}

static bool scrub_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_scrub_args *a = buf;
	struct val *f = val_new_array(io->c, 4);
	unsigned n = 0;

	ioc_set_dev(io->c, &f[n++], "devid", a->devid);
	if (io->code == BTRFS_IOC_SCRUB) {
		FLD_U(&f[n++], *a, start);
		set_u64(io->c, &f[n++], "end", a->end);
		val_set_flags(&f[n++], "flags", a->flags, btrfs_scrub_flags, NULL);
	}
	val_set_struct(v, v->name, f, n, false);
	return true;
}

static bool scrub_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_scrub_progress *p = &((const struct btrfs_ioctl_scrub_args *)buf)->progress;
	struct val *f = val_new_array(io->c, 1), *s = val_new_array(io->c, 15);

	FLD_U(&s[0], *p, data_extents_scrubbed);
	FLD_U(&s[1], *p, tree_extents_scrubbed);
	FLD_U(&s[2], *p, data_bytes_scrubbed);
	FLD_U(&s[3], *p, tree_bytes_scrubbed);
	FLD_U(&s[4], *p, read_errors);
	FLD_U(&s[5], *p, csum_errors);
	FLD_U(&s[6], *p, verify_errors);
	FLD_U(&s[7], *p, no_csum);
	FLD_U(&s[8], *p, csum_discards);
	FLD_U(&s[9], *p, super_errors);
	FLD_U(&s[10], *p, malloc_errors);
	FLD_U(&s[11], *p, uncorrectable_errors);
	FLD_U(&s[12], *p, corrected_errors);
	FLD_U(&s[13], *p, last_physical);
	FLD_U(&s[14], *p, unverified_errors);
	val_set_struct(&f[0], "progress", s, 15, false);
	val_set_struct(v, NULL, f, 1, false);
	return true;
}

static bool send_args(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_send_args *a = buf;
	struct val *f = val_new_array(io->c, 5);
	uint64_t clones = (uintptr_t)a->clone_sources;

	val_set_fd(io->c, &f[0], "send_fd", a->send_fd);
	FLD_U(&f[1], *a, clone_sources_count);
	if (ioc_abbrev(io))
		val_set_ptr(&f[2], "clone_sources", clones);
	else
		ioc_array(io, &f[2], "clone_sources", clones, a->clone_sources_count,
			  sizeof(uint64_t), UINT64_MAX, objectid_elem, NULL);
	set_objectid(io->c, &f[3], "parent_root", a->parent_root);
	val_set_flags(&f[4], "flags", a->flags, btrfs_send_flags, NULL);
	val_set_struct(v, v->name, f, 5, false);
	return false;
}

static bool space_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_space_args *a = buf;
	struct val *f = val_new_array(io->c, 1);

	FLD_U(&f[0], *a, space_slots);
	val_set_struct(v, v->name, f, 1, false);
	return true;
}

static void space_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct btrfs_ioctl_space_info *s = elem;
	struct val *f = val_new_array(c, 3);

	val_set_flags(&f[0], "flags", s->flags, btrfs_space_info_flags, NULL);
	FLD_U(&f[1], *s, total_bytes);
	FLD_U(&f[2], *s, used_bytes);
	val_set_struct(item, NULL, f, 3, false);
}

static bool space_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct btrfs_ioctl_space_args *a = buf;
	struct val *f = val_new_array(io->c, 2);
	unsigned n = 0;

	FLD_U(&f[n++], *a, total_spaces);
	if (!(a->space_slots == 0 && a->total_spaces)) {
		if (ioc_abbrev(io))
			ioc_more(io->c, &f[n++]);
		else
			ioc_array(io, &f[n++], "spaces",
				  io->arg + offsetof(struct btrfs_ioctl_space_args, spaces),
				  a->total_spaces, sizeof(struct btrfs_ioctl_space_info),
				  UINT64_MAX, space_elem, NULL);
	}
	val_set_struct(v, NULL, f, n, false);
	return true;
}

/* ---- tree search ---------------------------------------------------------- */

static void search_key(struct ioc *io, struct val *v, const struct btrfs_ioctl_search_key *k)
{
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 10);
	unsigned n = 0;

	if (io->exiting) {
		FLD_U(&f[n++], *k, nr_items);
		val_set_struct(v, "key", f, n, false);
		return;
	}
	set_objectid(c, &f[n++], "tree_id", k->tree_id);
	if (k->min_objectid != BTRFS_FIRST_FREE_OBJECTID || !ioc_abbrev(io))
		set_objectid(c, &f[n++], "min_objectid", k->min_objectid);
	if (k->max_objectid != BTRFS_LAST_FREE_OBJECTID || !ioc_abbrev(io))
		set_objectid(c, &f[n++], "max_objectid", k->max_objectid);
	set_u64(c, &f[n++], "min_offset", k->min_offset);
	set_u64(c, &f[n++], "max_offset", k->max_offset);
	set_u64(c, &f[n++], "min_transid", k->min_transid);
	set_u64(c, &f[n++], "max_transid", k->max_transid);
	set_xval_u(c, &f[n++], "min_type", k->min_type, btrfs_key_types);
	set_xval_u(c, &f[n++], "max_type", k->max_type, btrfs_key_types);
	FLD_U(&f[n++], *k, nr_items);
	val_set_struct(v, "key", f, n, false);
}

/* The found items of a search (exit only): "..." without -v, else the
 * headers of nr_items items, each followed by its len bytes of data. */
static void search_buf(struct ioc *io, struct val *v, uint64_t addr, uint64_t size,
		       uint32_t nr_items)
{
	struct dctx *c = io->c;
	uint64_t limit = c->opts->string_limit, off = 0;
	/* strace shows string limit + 1 headers at most; renacer also stops
	 * at its own element and memory budgets */
	uint64_t cap = limit < DECODE_MAX_ELEMS ? limit + 1 : DECODE_MAX_ELEMS;
	struct val *it;
	unsigned n = 0;
	bool more = false;

	if (ioc_abbrev(io)) {
		ioc_more(c, v);
		return;
	}
	it = val_new_array(c, (unsigned)(nr_items < cap ? nr_items : cap) + 1);
	for (uint32_t i = 0; i < nr_items; i++) {
		struct btrfs_ioctl_search_header h;
		uint64_t a = addr + off;
		struct val *f, *m;

		if (a < addr || off + sizeof(h) > size || i >= cap ||
		    (i && decode_over_budget(c))) {
			more = true;
			break;
		}
		if (!tread(c, a, &h, sizeof(h))) {
			m = val_new_array(c, 2);
			val_set_text(c, &m[0], NULL, "...");
			val_set_comment(c, &m[1], ioc_printf(c, "%#llx", (unsigned long long)a));
			val_set_op(&it[n++], NULL, m, 2, " ");
			break;
		}
		f = val_new_array(c, 5);
		FLD_U(&f[0], h, transid);
		set_objectid(c, &f[1], "objectid", h.objectid);
		FLD_U(&f[2], h, offset);
		set_xval_u(c, &f[3], "type", h.type, btrfs_key_types);
		FLD_U(&f[4], h, len);
		val_set_struct(&it[n++], NULL, f, 5, false);
		off += sizeof(h) + h.len;
	}
	val_set_array(v, "buf", it, n, more);
}

static int tree_search(struct ioc *io)
{
	struct btrfs_ioctl_search_args_v2 a;   /* the key, and buf_size for v2 */
	bool v2 = io->code == BTRFS_IOC_TREE_SEARCH_V2;
	size_t size = v2 ? sizeof(a) : sizeof(a.key);
	uint64_t buf = io->arg + (v2 ? offsetof(struct btrfs_ioctl_search_args_v2, buf)
				     : offsetof(struct btrfs_ioctl_search_args, buf));
	struct val *v, *f, after = { .name = NULL };
	unsigned n = 0;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &a, size))
			return IOC_DONE;
	} else if (io->ev->err) {
		if (!v2 || io->ev->err != EOVERFLOW)
			return IOC_DONE;
		if (ioc_read_ignore_err(io, &after, io->arg, &a, sizeof(a))) {
			f = val_new_array(io->c, 1);
			FLD_U(&f[0], a, buf_size);
			val_set_struct(&after, NULL, f, 1, false);
		}
		ioc_set_after(io, &after);
		return IOC_DONE;
	} else {
		v = &after;
		if (!ioc_read(io, v, io->arg, &a, size)) {
			ioc_set_after(io, &after);
			return IOC_DONE;
		}
	}
	f = val_new_array(io->c, 3);
	search_key(io, &f[n++], &a.key);
	if (v2)
		FLD_U(&f[n++], a, buf_size);
	if (io->exiting)
		search_buf(io, &f[n++], buf, v2 ? a.buf_size : BTRFS_SEARCH_ARGS_BUFSIZE,
			   a.key.nr_items);
	val_set_struct(v, io->exiting ? NULL : v->name, f, n, false);
	if (!io->exiting)
		return IOC_EXIT;
	ioc_set_after(io, &after);
	return IOC_DONE;
}

/* ---- dispatch ------------------------------------------------------------- */

int ioctl_btrfs(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case BTRFS_IOC_TRANS_START:
	case BTRFS_IOC_TRANS_END:
	case BTRFS_IOC_SYNC:
	case BTRFS_IOC_SCRUB_CANCEL:
	case BTRFS_IOC_QUOTA_RESCAN_WAIT:
	/* vol_args in their numbers, but none is read */
	case BTRFS_IOC_DEFRAG:
	case BTRFS_IOC_BALANCE:
		return ioc_none(io);
	case BTRFS_IOC_BALANCE_CTL:
		v = ioc_val(io);
		val_set_enum(v, v->name, io->arg, btrfs_balance_ctl_cmds);
		return IOC_DONE;
	case BTRFS_IOC_START_SYNC:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case BTRFS_IOC_DEFAULT_SUBVOL:
	case BTRFS_IOC_WAIT_SYNC:
		return ioc_arg_num(io, 8, NUM_U);
	case BTRFS_IOC_SUBVOL_GETFLAGS:
		return out_only(io, sizeof(uint64_t), subvol_flags);
	case BTRFS_IOC_SUBVOL_SETFLAGS:
		return in_only(io, sizeof(uint64_t), subvol_flags);
	case BTRFS_IOC_BALANCE_V2:
		return balance_v2(io);
	case BTRFS_IOC_BALANCE_PROGRESS:
		return out_only(io, sizeof(struct btrfs_ioctl_balance_args), balance_progress);
	case BTRFS_IOC_DEFRAG_RANGE:
		return in_only(io, sizeof(struct btrfs_ioctl_defrag_range_args), defrag_range);
	case BTRFS_IOC_DEV_INFO:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_dev_info_args), dev_info_in,
				   dev_info_out);
	case BTRFS_IOC_DEV_REPLACE:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_dev_replace_args), replace_in,
				   replace_out);
	case BTRFS_IOC_GET_FEATURES:
		return out_only(io, sizeof(struct btrfs_ioctl_feature_flags), get_features);
	case BTRFS_IOC_SET_FEATURES:
		return in_only(io, 2 * sizeof(struct btrfs_ioctl_feature_flags), set_features);
	case BTRFS_IOC_GET_SUPPORTED_FEATURES:
		return out_only(io, 3 * sizeof(struct btrfs_ioctl_feature_flags),
				supported_features);
	case BTRFS_IOC_FS_INFO:
		return out_only(io, sizeof(struct btrfs_ioctl_fs_info_args), fs_info);
	case BTRFS_IOC_GET_DEV_STATS:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_get_dev_stats), dev_stats_in,
				   dev_stats_out);
	case BTRFS_IOC_INO_LOOKUP:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_ino_lookup_args), ino_lookup_in,
				   ino_lookup_out);
	case BTRFS_IOC_INO_PATHS:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_ino_path_args), ino_paths_in,
				   ino_paths_out);
	case BTRFS_IOC_LOGICAL_INO:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_logical_ino_args), logical_ino_in,
				   logical_ino_out);
	case BTRFS_IOC_QGROUP_ASSIGN:
		return in_only(io, sizeof(struct btrfs_ioctl_qgroup_assign_args), qgroup_assign);
	case BTRFS_IOC_QGROUP_CREATE:
		return in_only(io, sizeof(struct btrfs_ioctl_qgroup_create_args), qgroup_create);
	case BTRFS_IOC_QGROUP_LIMIT:
		return out_only(io, sizeof(struct btrfs_ioctl_qgroup_limit_args), qgroup_limit_args);
	case BTRFS_IOC_QUOTA_CTL:
		return in_only(io, sizeof(struct btrfs_ioctl_quota_ctl_args), quota_ctl);
	case BTRFS_IOC_QUOTA_RESCAN:
		return in_only(io, sizeof(struct btrfs_ioctl_quota_rescan_args), quota_rescan);
	case BTRFS_IOC_QUOTA_RESCAN_STATUS:
		return out_only(io, sizeof(struct btrfs_ioctl_quota_rescan_args), rescan_status);
	case BTRFS_IOC_SET_RECEIVED_SUBVOL:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_received_subvol_args), received_in,
				   received_out);
	case BTRFS_IOC_SCRUB:
	case BTRFS_IOC_SCRUB_PROGRESS:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_scrub_args), scrub_in, scrub_out);
	case BTRFS_IOC_TREE_SEARCH:
	case BTRFS_IOC_TREE_SEARCH_V2:
		return tree_search(io);
	case BTRFS_IOC_SEND:
		return in_only(io, sizeof(struct btrfs_ioctl_send_args), send_args);
	case BTRFS_IOC_SPACE_INFO:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_space_args), space_in, space_out);
	case BTRFS_IOC_SNAP_CREATE:
	case BTRFS_IOC_RESIZE:
	case BTRFS_IOC_SCAN_DEV:
	case BTRFS_IOC_FORGET_DEV:
	case BTRFS_IOC_ADD_DEV:
	case BTRFS_IOC_RM_DEV:
	case BTRFS_IOC_SUBVOL_CREATE:
	case BTRFS_IOC_SNAP_DESTROY:
	case BTRFS_IOC_DEVICES_READY:
		return vol_args(io);
	case BTRFS_IOC_SNAP_CREATE_V2:
	case BTRFS_IOC_SUBVOL_CREATE_V2:
		return ioc_changed(io, sizeof(struct btrfs_ioctl_vol_args_v2), vol_v2_in,
				   vol_v2_out);
	}
	return IOC_DEFAULT;
}
