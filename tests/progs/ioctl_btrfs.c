/* btrfs ioctls (0x94) with filled, short, NULL and bad arguments on a bad
 * descriptor, for tests/t/decode_ioctl_btrfs.sh. */
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/fs.h>

#include "ioctl_test.h"

static void vol_args(void)
{
	struct btrfs_ioctl_vol_args *va = TAIL(struct btrfs_ioctl_vol_args);
	struct btrfs_ioctl_vol_args_v2 *v2 = TAIL(struct btrfs_ioctl_vol_args_v2);
	struct btrfs_qgroup_inherit *qi = tail_alloc(sizeof(*qi) + 3 * sizeof(__u64));

	memset(va, 0, sizeof(*va));
	va->fd = 2;
	strcpy(va->name, "subvol");
	IOC(BTRFS_IOC_SNAP_CREATE, va);
	IOC(BTRFS_IOC_SUBVOL_CREATE, va);
	IOC(BTRFS_IOC_SNAP_DESTROY, va);
	IOC(BTRFS_IOC_RESIZE, va);
	IOC(BTRFS_IOC_SCAN_DEV, va);
	IOC(BTRFS_IOC_FORGET_DEV, va);
	IOC(BTRFS_IOC_ADD_DEV, va);
	IOC(BTRFS_IOC_RM_DEV, va);
	IOC(BTRFS_IOC_DEVICES_READY, va);
	memset(va->name, 'x', sizeof(va->name));
	IOC(BTRFS_IOC_SUBVOL_CREATE, va);
	IOC(BTRFS_IOC_SUBVOL_CREATE, (char *)va + 1);
	IOC(BTRFS_IOC_SUBVOL_CREATE, NULL);

	memset(v2, 0, sizeof(*v2));
	v2->fd = -1;
	v2->flags = BTRFS_SUBVOL_RDONLY;
	strcpy(v2->name, "snap");
	v2->transid = 0x1234;
	IOC(BTRFS_IOC_SNAP_CREATE_V2, v2);
	IOC(BTRFS_IOC_SUBVOL_CREATE_V2, v2);
	IOC(BTRFS_IOC_SNAP_DESTROY_V2, v2);
	v2->flags = BTRFS_SUBVOL_QGROUP_INHERIT | 0x100;
	v2->size = sizeof(*qi) + 3 * sizeof(__u64);
	memset(qi, 0, sizeof(*qi));
	qi->flags = BTRFS_QGROUP_INHERIT_SET_LIMITS;
	qi->num_qgroups = 3;
	qi->num_ref_copies = 1;
	qi->num_excl_copies = 2;
	qi->lim.flags = BTRFS_QGROUP_LIMIT_MAX_RFER | BTRFS_QGROUP_LIMIT_EXCL_CMPR;
	qi->lim.max_rfer = 4096;
	qi->lim.max_excl = 8192;
	qi->lim.rsv_rfer = 1;
	qi->lim.rsv_excl = 2;
	qi->qgroups[0] = 5;
	qi->qgroups[1] = 256;
	qi->qgroups[2] = (__u64)-1;
	v2->qgroup_inherit = qi;
	IOC(BTRFS_IOC_SNAP_CREATE_V2, v2);
	qi->num_qgroups = 4;
	IOC(BTRFS_IOC_SUBVOL_CREATE_V2, v2);
	v2->qgroup_inherit = BAD_PTR;
	IOC(BTRFS_IOC_SNAP_CREATE_V2, v2);
	v2->qgroup_inherit = NULL;
	v2->flags = BTRFS_SUBVOL_SPEC_BY_ID;
	v2->subvolid = 300;
	IOC(BTRFS_IOC_SNAP_DESTROY_V2, v2);
	IOC(BTRFS_IOC_SNAP_CREATE_V2, (char *)v2 + 1);
	IOC(BTRFS_IOC_SNAP_CREATE_V2, NULL);
}

static void numbers(void)
{
	uint64_t *u = TAIL(uint64_t);

	IOC(BTRFS_IOC_TRANS_START, 0);
	IOC(BTRFS_IOC_TRANS_END, 0);
	IOC(BTRFS_IOC_SYNC, 0);
	IOC(BTRFS_IOC_SCRUB_CANCEL, 0);
	IOC(BTRFS_IOC_QUOTA_RESCAN_WAIT, 0);
	IOC(BTRFS_IOC_DEFRAG, 0);
	IOC(BTRFS_IOC_BALANCE, 0);
	IOC(BTRFS_IOC_BALANCE_CTL, BTRFS_BALANCE_CTL_PAUSE);
	IOC(BTRFS_IOC_BALANCE_CTL, BTRFS_BALANCE_CTL_CANCEL);
	IOC(BTRFS_IOC_BALANCE_CTL, 0xbadc0ded);
	*u = 256;
	IOC(BTRFS_IOC_DEFAULT_SUBVOL, u);
	IOC(BTRFS_IOC_WAIT_SYNC, u);
	IOC(BTRFS_IOC_START_SYNC, u);
	IOC(BTRFS_IOC_WAIT_SYNC, NULL);
	IOC(BTRFS_IOC_START_SYNC, BAD_PTR);
	*u = BTRFS_SUBVOL_RDONLY;
	IOC(BTRFS_IOC_SUBVOL_GETFLAGS, u);
	IOC(BTRFS_IOC_SUBVOL_SETFLAGS, u);
	*u = 0;
	IOC(BTRFS_IOC_SUBVOL_SETFLAGS, u);
	*u = 0xfffffffffffffff0ULL;
	IOC(BTRFS_IOC_SUBVOL_SETFLAGS, u);
	IOC(BTRFS_IOC_SUBVOL_GETFLAGS, NULL);
	IOC(BTRFS_IOC_SUBVOL_SETFLAGS, (char *)u + 1);
}

static void balance(void)
{
	struct btrfs_ioctl_balance_args *b = TAIL(struct btrfs_ioctl_balance_args);

	fill(b, sizeof(*b), 0x10);
	b->flags = BTRFS_BALANCE_DATA | BTRFS_BALANCE_FORCE;
	b->state = BTRFS_BALANCE_STATE_RUNNING;
	b->data.profiles = BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_RAID1;
	b->data.devid = 0x801;
	b->data.pstart = (__u64)-1;
	b->data.flags = BTRFS_BALANCE_ARGS_USAGE | BTRFS_BALANCE_ARGS_CONVERT;
	IOC(BTRFS_IOC_BALANCE_V2, b);
	IOC(BTRFS_IOC_BALANCE_PROGRESS, b);
	b->flags = BTRFS_BALANCE_METADATA | BTRFS_BALANCE_SYSTEM | 0x1000;
	b->state = 0x80;
	b->meta.profiles = 0x8000;
	b->meta.flags = 0x8000;
	b->sys.profiles = 0;
	b->sys.flags = 0;
	IOC(BTRFS_IOC_BALANCE_V2, b);
	IOC(BTRFS_IOC_BALANCE_PROGRESS, b);
	IOC(BTRFS_IOC_BALANCE_V2, NULL);
	IOC(BTRFS_IOC_BALANCE_PROGRESS, (char *)b + 1);
}

static void defrag_scrub(void)
{
	struct btrfs_ioctl_defrag_range_args *d = TAIL(struct btrfs_ioctl_defrag_range_args);
	struct btrfs_ioctl_scrub_args *s = TAIL(struct btrfs_ioctl_scrub_args);

	fill(d, sizeof(*d), 0x40);
	d->len = (__u64)-1;
	d->flags = BTRFS_DEFRAG_RANGE_COMPRESS | 8;
	d->compress_type = 3;
	IOC(BTRFS_IOC_DEFRAG_RANGE, d);
	d->len = 100;
	d->flags = 0;
	d->compress_type = 9;
	IOC(BTRFS_IOC_DEFRAG_RANGE, d);
	IOC(BTRFS_IOC_DEFRAG_RANGE, NULL);

	fill(s, sizeof(*s), 0x50);
	s->devid = 1;
	s->end = (__u64)-1;
	s->flags = BTRFS_SCRUB_READONLY;
	IOC(BTRFS_IOC_SCRUB, s);
	IOC(BTRFS_IOC_SCRUB_PROGRESS, s);
	s->flags = 6;
	s->end = 77;
	IOC(BTRFS_IOC_SCRUB, s);
	IOC(BTRFS_IOC_SCRUB, (char *)s + 1);
}

static void infos(void)
{
	struct btrfs_ioctl_dev_info_args *di = TAIL(struct btrfs_ioctl_dev_info_args);
	struct btrfs_ioctl_fs_info_args *fi = TAIL(struct btrfs_ioctl_fs_info_args);
	struct btrfs_ioctl_feature_flags *ff = tail_alloc(3 * sizeof(*ff));
	struct btrfs_ioctl_space_args *sa = tail_alloc(sizeof(*sa) + 3 * sizeof(sa->spaces[0]));

	fill(di, sizeof(*di), 0x60);
	di->devid = 2;
	strcpy((char *)di->path, "/dev/sda1");
	IOC(BTRFS_IOC_DEV_INFO, di);
	memset(di->uuid, 0, sizeof(di->uuid));
	IOC(BTRFS_IOC_DEV_INFO, di);
	IOC(BTRFS_IOC_DEV_INFO, NULL);

	fill(fi, sizeof(*fi), 0x70);
	fi->flags = BTRFS_FS_INFO_FLAG_CSUM_INFO | BTRFS_FS_INFO_FLAG_GENERATION |
		    BTRFS_FS_INFO_FLAG_METADATA_UUID;
	fi->csum_type = 1;
	IOC(BTRFS_IOC_FS_INFO, fi);
	fi->flags = 0x10;
	IOC(BTRFS_IOC_FS_INFO, fi);
	fi->flags = BTRFS_FS_INFO_FLAG_CSUM_INFO;
	fi->csum_type = 7;
	IOC(BTRFS_IOC_FS_INFO, fi);
	IOC(BTRFS_IOC_FS_INFO, BAD_PTR);

	memset(ff, 0, 3 * sizeof(*ff));
	ff[0].compat_flags = 1;
	ff[0].compat_ro_flags = BTRFS_FEATURE_COMPAT_RO_FREE_SPACE_TREE;
	ff[0].incompat_flags = BTRFS_FEATURE_INCOMPAT_MIXED_BACKREF |
			       BTRFS_FEATURE_INCOMPAT_NO_HOLES | (1ULL << 40);
	ff[1].compat_ro_flags = 1ULL << 50;
	ff[2].incompat_flags = BTRFS_FEATURE_INCOMPAT_SKINNY_METADATA;
	IOC(BTRFS_IOC_GET_FEATURES, ff);
	IOC(BTRFS_IOC_SET_FEATURES, ff);
	IOC(BTRFS_IOC_GET_SUPPORTED_FEATURES, ff);
	IOC(BTRFS_IOC_SET_FEATURES, (char *)ff + sizeof(*ff) * 2);
	IOC(BTRFS_IOC_GET_SUPPORTED_FEATURES, NULL);

	memset(sa, 0, sizeof(*sa) + 3 * sizeof(sa->spaces[0]));
	sa->space_slots = 3;
	sa->total_spaces = 2;
	sa->spaces[0].flags = BTRFS_BLOCK_GROUP_DATA;
	sa->spaces[0].total_bytes = 1 << 20;
	sa->spaces[0].used_bytes = 1 << 10;
	sa->spaces[1].flags = BTRFS_SPACE_INFO_GLOBAL_RSV | (1ULL << 60);
	IOC(BTRFS_IOC_SPACE_INFO, sa);
	sa->space_slots = 0;
	IOC(BTRFS_IOC_SPACE_INFO, sa);
	sa->total_spaces = 0;
	IOC(BTRFS_IOC_SPACE_INFO, sa);
	sa->space_slots = 3;
	sa->total_spaces = 4;
	IOC(BTRFS_IOC_SPACE_INFO, sa);
	IOC(BTRFS_IOC_SPACE_INFO, NULL);
}

static void search(void)
{
	struct btrfs_ioctl_search_args *sa = TAIL(struct btrfs_ioctl_search_args);
	struct btrfs_ioctl_search_args_v2 *s2 = tail_alloc(sizeof(*s2) + 256);
	struct btrfs_ioctl_search_header *h;

	memset(sa, 0, sizeof(*sa));
	sa->key.tree_id = BTRFS_ROOT_TREE_OBJECTID;
	sa->key.min_objectid = BTRFS_FIRST_FREE_OBJECTID;
	sa->key.max_objectid = BTRFS_LAST_FREE_OBJECTID;
	sa->key.max_offset = (__u64)-1;
	sa->key.max_transid = (__u64)-1;
	sa->key.min_type = BTRFS_ROOT_ITEM_KEY;
	sa->key.max_type = BTRFS_ROOT_BACKREF_KEY;
	sa->key.nr_items = 2;
	h = (void *)sa->buf;
	h->transid = 7;
	h->objectid = 257;
	h->offset = 3;
	h->type = BTRFS_ROOT_ITEM_KEY;
	h->len = 8;
	h = (void *)(sa->buf + sizeof(*h) + 8);
	h->objectid = BTRFS_FS_TREE_OBJECTID;
	h->type = 0xfe;
	IOC(BTRFS_IOC_TREE_SEARCH, sa);
	sa->key.min_objectid = 1000;
	sa->key.max_objectid = 2000;
	sa->key.max_type = 0x77;
	sa->key.nr_items = 0;
	IOC(BTRFS_IOC_TREE_SEARCH, sa);
	IOC(BTRFS_IOC_TREE_SEARCH, NULL);

	memset(s2, 0, sizeof(*s2) + 256);
	s2->key = sa->key;
	s2->key.nr_items = 3;
	s2->buf_size = 256;
	h = (void *)s2->buf;
	h->transid = 1;
	h->objectid = 300;
	h->len = 100;
	h = (void *)(s2->buf + sizeof(*h) + 100);
	h->transid = 2;
	h->objectid = (__u64)-1;
	h->type = BTRFS_INODE_ITEM_KEY;
	IOC(BTRFS_IOC_TREE_SEARCH_V2, s2);
	s2->buf_size = 40;
	IOC(BTRFS_IOC_TREE_SEARCH_V2, s2);
	s2->key.nr_items = 1;
	s2->buf_size = 0;
	IOC(BTRFS_IOC_TREE_SEARCH_V2, s2);
	IOC(BTRFS_IOC_TREE_SEARCH_V2, (char *)s2 + 300);
}

static void lookups(void)
{
	struct btrfs_ioctl_ino_lookup_args *il = TAIL(struct btrfs_ioctl_ino_lookup_args);
	struct btrfs_ioctl_ino_path_args *ip = TAIL(struct btrfs_ioctl_ino_path_args);
	struct btrfs_ioctl_logical_ino_args *li = TAIL(struct btrfs_ioctl_logical_ino_args);
	struct btrfs_data_container *dc = tail_alloc(sizeof(*dc) + 64);
	uint64_t *val = (uint64_t *)dc->val;

	memset(il, 0, sizeof(*il));
	il->objectid = BTRFS_FIRST_FREE_OBJECTID;
	strcpy(il->name, "dir/file");
	IOC(BTRFS_IOC_INO_LOOKUP, il);
	il->treeid = 5;
	IOC(BTRFS_IOC_INO_LOOKUP, il);
	il->treeid = 12345;
	il->objectid = 3;
	IOC(BTRFS_IOC_INO_LOOKUP, il);
	IOC(BTRFS_IOC_INO_LOOKUP, NULL);

	memset(dc, 0, sizeof(*dc) + 64);
	dc->bytes_left = 1;
	dc->bytes_missing = 2;
	dc->elem_cnt = 2;
	dc->elem_missed = 3;
	val[0] = 16;
	val[1] = 24;
	strcpy((char *)dc->val + 16, "a");
	strcpy((char *)dc->val + 24, "bc");
	fill(ip, sizeof(*ip), 0x30);
	ip->inum = 257;
	ip->size = sizeof(*dc) + 64;
	ip->fspath = (uintptr_t)dc;
	IOC(BTRFS_IOC_INO_PATHS, ip);
	ip->fspath = 0;
	IOC(BTRFS_IOC_INO_PATHS, ip);
	IOC(BTRFS_IOC_INO_PATHS, (char *)ip + 1);

	memset(li, 0, sizeof(*li));
	li->logical = 0x10000;
	li->size = sizeof(*dc) + 64;
	li->inodes = (uintptr_t)dc;
	dc->elem_cnt = 6;
	val[2] = 5;
	val[3] = 6;
	val[4] = 7;
	val[5] = 8;
	IOC(BTRFS_IOC_LOGICAL_INO, li);
	li->flags = BTRFS_LOGICAL_INO_ARGS_IGNORE_OFFSET | 2;
	li->reserved[1] = 0xdead;
	IOC(BTRFS_IOC_LOGICAL_INO_V2, li);
	li->inodes = (uintptr_t)BAD_PTR;
	IOC(BTRFS_IOC_LOGICAL_INO, li);
	IOC(BTRFS_IOC_LOGICAL_INO_V2, NULL);
}

static void quota(void)
{
	struct btrfs_ioctl_quota_ctl_args *qc = TAIL(struct btrfs_ioctl_quota_ctl_args);
	struct btrfs_ioctl_qgroup_assign_args *qa = TAIL(struct btrfs_ioctl_qgroup_assign_args);
	struct btrfs_ioctl_qgroup_create_args *qn = TAIL(struct btrfs_ioctl_qgroup_create_args);
	struct btrfs_ioctl_qgroup_limit_args *ql = TAIL(struct btrfs_ioctl_qgroup_limit_args);
	struct btrfs_ioctl_quota_rescan_args *qr = TAIL(struct btrfs_ioctl_quota_rescan_args);

	fill(qc, sizeof(*qc), 0);
	qc->cmd = BTRFS_QUOTA_CTL_ENABLE;
	IOC(BTRFS_IOC_QUOTA_CTL, qc);
	qc->cmd = 0xbad;
	IOC(BTRFS_IOC_QUOTA_CTL, qc);
	IOC(BTRFS_IOC_QUOTA_CTL, NULL);
	qa->assign = 1;
	qa->src = 257;
	qa->dst = (1ULL << 48) | 5;
	IOC(BTRFS_IOC_QGROUP_ASSIGN, qa);
	qn->create = 0;
	qn->qgroupid = 0xabcdef;
	IOC(BTRFS_IOC_QGROUP_CREATE, qn);
	IOC(BTRFS_IOC_QGROUP_CREATE, (char *)qn + 1);
	fill(ql, sizeof(*ql), 0x20);
	ql->lim.flags = BTRFS_QGROUP_LIMIT_RSV_EXCL | 0x100;
	IOC(BTRFS_IOC_QGROUP_LIMIT, ql);
	IOC(BTRFS_IOC_QGROUP_LIMIT, NULL);
	fill(qr, sizeof(*qr), 0x40);
	qr->progress = BTRFS_FIRST_FREE_OBJECTID;
	IOC(BTRFS_IOC_QUOTA_RESCAN, qr);
	IOC(BTRFS_IOC_QUOTA_RESCAN_STATUS, qr);
	qr->progress = 777;
	IOC(BTRFS_IOC_QUOTA_RESCAN_STATUS, qr);
	IOC(BTRFS_IOC_QUOTA_RESCAN_STATUS, BAD_PTR);
}

static void replace_send(void)
{
	struct btrfs_ioctl_dev_replace_args *dr = TAIL(struct btrfs_ioctl_dev_replace_args);
	struct btrfs_ioctl_send_args *sd = TAIL(struct btrfs_ioctl_send_args);
	struct btrfs_ioctl_get_dev_stats *ds = TAIL(struct btrfs_ioctl_get_dev_stats);
	struct btrfs_ioctl_received_subvol_args *rs = TAIL(struct btrfs_ioctl_received_subvol_args);
	__u64 *clones = tail_alloc(3 * sizeof(__u64));

	memset(dr, 0, sizeof(*dr));
	dr->cmd = BTRFS_IOCTL_DEV_REPLACE_CMD_START;
	dr->start.srcdevid = 1;
	dr->start.cont_reading_from_srcdev_mode =
		BTRFS_IOCTL_DEV_REPLACE_CONT_READING_FROM_SRCDEV_MODE_AVOID;
	strcpy((char *)dr->start.srcdev_name, "/dev/sdb");
	strcpy((char *)dr->start.tgtdev_name, "/dev/sdc");
	IOC(BTRFS_IOC_DEV_REPLACE, dr);
	dr->cmd = BTRFS_IOCTL_DEV_REPLACE_CMD_STATUS;
	dr->result = BTRFS_IOCTL_DEV_REPLACE_RESULT_NOT_STARTED;
	memset(&dr->status, 0, sizeof(dr->status));
	dr->status.replace_state = BTRFS_IOCTL_DEV_REPLACE_STATE_STARTED;
	dr->status.progress_1000 = 305;
	dr->status.time_started = 1500000000;
	dr->status.num_write_errors = 4;
	IOC(BTRFS_IOC_DEV_REPLACE, dr);
	dr->cmd = 7;
	dr->result = 9;
	IOC(BTRFS_IOC_DEV_REPLACE, dr);
	dr->cmd = BTRFS_IOCTL_DEV_REPLACE_CMD_STATUS;
	dr->status.replace_state = 8;
	dr->status.progress_1000 = 1001;
	dr->status.time_started = 0;
	IOC(BTRFS_IOC_DEV_REPLACE, dr);
	IOC(BTRFS_IOC_DEV_REPLACE, NULL);

	clones[0] = 5;
	clones[1] = 300;
	clones[2] = BTRFS_LAST_FREE_OBJECTID;
	memset(sd, 0, sizeof(*sd));
	sd->send_fd = 1;
	sd->clone_sources_count = 3;
	sd->clone_sources = clones;
	sd->parent_root = BTRFS_FS_TREE_OBJECTID;
	sd->flags = BTRFS_SEND_FLAG_NO_FILE_DATA | BTRFS_SEND_FLAG_OMIT_END_CMD | 0x1000;
	IOC(BTRFS_IOC_SEND, sd);
	sd->clone_sources_count = 4;
	sd->parent_root = 1234;
	sd->flags = 0;
	IOC(BTRFS_IOC_SEND, sd);
	sd->clone_sources = NULL;
	IOC(BTRFS_IOC_SEND, sd);
	IOC(BTRFS_IOC_SEND, (char *)sd + 1);

	memset(ds, 0, sizeof(*ds));
	ds->devid = 1;
	ds->nr_items = 3;
	ds->flags = BTRFS_DEV_STATS_RESET;
	ds->values[0] = 10;
	ds->values[1] = 11;
	ds->values[2] = 12;
	IOC(BTRFS_IOC_GET_DEV_STATS, ds);
	ds->nr_items = 7;
	ds->flags = 2;
	IOC(BTRFS_IOC_GET_DEV_STATS, ds);
	IOC(BTRFS_IOC_GET_DEV_STATS, NULL);

	fill(rs, sizeof(*rs), 0x11);
	rs->stime.sec = 1500000000;
	rs->stime.nsec = 5;
	rs->rtime.sec = 0;
	rs->rtime.nsec = 0;
	IOC(BTRFS_IOC_SET_RECEIVED_SUBVOL, rs);
	rs->rtime.sec = 1600000000;
	rs->rtime.nsec = 2000000000;
	IOC(BTRFS_IOC_SET_RECEIVED_SUBVOL, rs);
	IOC(BTRFS_IOC_SET_RECEIVED_SUBVOL, BAD_PTR);
}

int main(void)
{
	vol_args();
	numbers();
	balance();
	defrag_scrub();
	infos();
	search();
	lookups();
	quota();
	replace_send();
	IOC(BTRFS_IOC_CLONE, 3);
	IOC(BTRFS_IOC_GET_SUBVOL_INFO, 0);
	IOC(BTRFS_IOC_INO_LOOKUP_USER, 0);
	return 0;
}
