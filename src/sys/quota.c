/*
 * Decoders of quotactl and quotactl_fd: the command as QCMD(Q_GETQUOTA,
 * USRQUOTA) and its id and data as the command reads them (strace 6.1's
 * quota.c).  The XFS statistics of Q_XGETQSTAT/Q_XGETQSTATV are shown by
 * address.
 */
#include <linux/dqblk_xfs.h>
#include <stdio.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/if_dqblk_valid.h"
#include "xlat/if_dqinfo_flags.h"
#include "xlat/if_dqinfo_valid.h"
#include "xlat/quota_formats.h"
#include "xlat/quotacmds.h"
#include "xlat/quotatypes.h"
#include "xlat/xfs_dqblk_flags.h"
#include "xlat/xfs_quota_flags.h"
#include "util/banned.h"

enum {
	Q_SYNC_ = 0x800001, Q_QUOTAON_, Q_QUOTAOFF_, Q_GETFMT_, Q_GETINFO_, Q_SETINFO_,
	Q_GETQUOTA_, Q_SETQUOTA_, Q_GETNEXTQUOTA_,
	Q_XQUOTAON_ = 0x5801, Q_XQUOTAOFF_, Q_XGETQUOTA_, Q_XSETQLIM_, Q_XGETQSTAT_,
	Q_XQUOTARM_, Q_XQUOTASYNC_, Q_XGETQSTATV_, Q_XGETNEXTQUOTA_,
};

struct if_dqblk_k {
	uint64_t bhardlimit, bsoftlimit, curspace, ihardlimit, isoftlimit, curinodes,
		 btime, itime;
	uint32_t valid;
	uint32_t id;   /* if_nextdqblk only */
};

struct if_dqinfo_k {
	uint64_t bgrace, igrace;
	uint32_t flags, valid;
};

/* fs_disk_quota (linux/dqblk_xfs.h) */
struct fs_disk_quota_k {
	int8_t d_version, d_flags;
	uint16_t d_fieldmask;
	uint32_t d_id;
	uint64_t d_blk_hardlimit, d_blk_softlimit, d_ino_hardlimit, d_ino_softlimit;
	uint64_t d_bcount, d_icount;
	int32_t d_itimer, d_btimer;
	uint16_t d_iwarns, d_bwarns;
	int8_t d_itimer_hi, d_btimer_hi, d_rtbtimer_hi, d_padding2;
	uint64_t d_rtb_hardlimit, d_rtb_softlimit, d_rtbcount;
	int32_t d_rtbtimer;
	uint16_t d_rtbwarns;
	int16_t d_padding3;
	char d_padding4[8];
};

/* QCMD(Q_GETQUOTA, USRQUOTA), or the numbers with their comments */
static void val_set_qcmd(struct dctx *c, struct val *v, const char *name, uint32_t q)
{
	struct val *it = val_new_array(c, 2), call, num;
	const char *cn = xlat_name(quotacmds, q >> 8), *tn = xlat_name(quotatypes, q & 0xff);
	char text[160], cmd[64], type[48];

	val_set_enum(&it[0], NULL, q >> 8, quotacmds);
	val_set_enum(&it[1], NULL, q & 0xff, quotatypes);
	val_set_call(c, &call, NULL, "QCMD", it, 2);
	/* -X raw: the number; -X verbose: the number and the call as -X
	 * abbrev shows it */
	if (cn)
		snprintf(cmd, sizeof(cmd), "%s", cn);
	else if (q >> 8)
		snprintf(cmd, sizeof(cmd), "%#x /* Q_??? */", q >> 8);
	else
		snprintf(cmd, sizeof(cmd), "0 /* Q_??? */");
	if (tn)
		snprintf(type, sizeof(type), "%s", tn);
	else
		snprintf(type, sizeof(type), "%#x /* ???QUOTA */", q & 0xff);
	snprintf(text, sizeof(text), "QCMD(%s, %s)", cmd, type);
	val_set_uint(&num, NULL, q);
	{
		struct val forms[3], t;

		forms[0] = call;
		forms[1] = num;
		val_set_num_text(c, &t, NULL, &num, text);
		forms[2] = t.c.items[2];
		val_set_xforms(c, v, name, &forms[0], &forms[1], &forms[2]);
	}
}

/* strace's printuid */
static void val_set_qid(struct val *v, const char *name, uint32_t id)
{
	if (id == UINT32_MAX)
		val_set_int(v, name, -1);
	else
		val_set_uint(v, name, id);
}

static void dqblk_val(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      bool next)
{
	struct if_dqblk_k d;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &d, next ? sizeof(d) : sizeof(d) - 4)) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 11);
	val_set_uint(&f[n++], "dqb_bhardlimit", d.bhardlimit);
	val_set_uint(&f[n++], "dqb_bsoftlimit", d.bsoftlimit);
	val_set_uint(&f[n++], "dqb_curspace", d.curspace);
	val_set_uint(&f[n++], "dqb_ihardlimit", d.ihardlimit);
	val_set_uint(&f[n++], "dqb_isoftlimit", d.isoftlimit);
	val_set_uint(&f[n++], "dqb_curinodes", d.curinodes);
	if (c->opts->verbose) {
		val_set_uint(&f[n++], "dqb_btime", d.btime);
		val_set_uint(&f[n++], "dqb_itime", d.itime);
		val_set_flags(&f[n++], "dqb_valid", d.valid, if_dqblk_valid, NULL);
		if (next)
			val_set_uint(&f[n++], "dqb_id", d.id);
		val_set_struct(v, name, f, n, false);
		return;
	}
	if (next)
		val_set_uint(&f[n++], "dqb_id", d.id);
	val_set_struct(v, name, f, n, true);
}

static void xfs_dquot_val(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct fs_disk_quota_k d;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &d, sizeof(d))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 20);
	val_set_int(&f[n++], "d_version", d.d_version);
	val_set_flags(&f[n++], "d_flags", (uint8_t)d.d_flags, xfs_dqblk_flags, NULL);
	val_set_hex(&f[n++], "d_fieldmask", d.d_fieldmask);
	val_set_uint(&f[n++], "d_id", d.d_id);
	val_set_uint(&f[n++], "d_blk_hardlimit", d.d_blk_hardlimit);
	val_set_uint(&f[n++], "d_blk_softlimit", d.d_blk_softlimit);
	val_set_uint(&f[n++], "d_ino_hardlimit", d.d_ino_hardlimit);
	val_set_uint(&f[n++], "d_ino_softlimit", d.d_ino_softlimit);
	val_set_uint(&f[n++], "d_bcount", d.d_bcount);
	val_set_uint(&f[n++], "d_icount", d.d_icount);
	if (!c->opts->verbose) {
		val_set_struct(v, name, f, n, true);
		return;
	}
	val_set_int(&f[n++], "d_itimer", d.d_itimer);
	val_set_int(&f[n++], "d_btimer", d.d_btimer);
	val_set_uint(&f[n++], "d_iwarns", d.d_iwarns);
	val_set_uint(&f[n++], "d_bwarns", d.d_bwarns);
	val_set_uint(&f[n++], "d_rtb_hardlimit", d.d_rtb_hardlimit);
	val_set_uint(&f[n++], "d_rtb_softlimit", d.d_rtb_softlimit);
	val_set_uint(&f[n++], "d_rtbcount", d.d_rtbcount);
	val_set_int(&f[n++], "d_rtbtimer", d.d_rtbtimer);
	val_set_uint(&f[n++], "d_rtbwarns", d.d_rtbwarns);
	val_set_struct(v, name, f, n, false);
}

/* A u32 behind a pointer as [flags] (Q_XQUOTAON/OFF/RM) or [format]. */
static void boxed_u32(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      const struct xlat *xl, bool flags)
{
	uint32_t x;
	struct val t;

	if (!tread(c, addr, &x, sizeof(x))) {
		val_set_ptr(v, name, addr);
		return;
	}
	if (flags)
		val_set_flags(&t, NULL, x, xl, NULL);
	else
		val_set_enum(&t, NULL, x, xl);
	val_set_boxed(c, v, name, &t);
}

static void dqinfo_val(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct if_dqinfo_k d;
	struct val *f;

	if (!tread(c, addr, &d, sizeof(d))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 4);
	val_set_uint(&f[0], "dqi_bgrace", d.bgrace);
	val_set_uint(&f[1], "dqi_igrace", d.igrace);
	val_set_flags(&f[2], "dqi_flags", d.flags, if_dqinfo_flags, NULL);
	val_set_flags(&f[3], "dqi_valid", d.valid, if_dqinfo_valid, NULL);
	val_set_struct(v, name, f, 4, false);
}

/* {qfs_ino=N, qfs_nblks=N, qfs_nextents=N} */
static void qfilestat_val(struct val *v, const char *name, const struct fs_qfilestat *q,
			  struct dctx *c)
{
	struct val *f = val_new_array(c, 3);

	val_set_uint(&f[0], "qfs_ino", q->qfs_ino);
	val_set_uint(&f[1], "qfs_nblks", q->qfs_nblks);
	val_set_uint(&f[2], "qfs_nextents", q->qfs_nextents);
	val_set_struct(v, name, f, 3, false);
}

/* Q_XGETQSTAT's fs_quota_stat: {qs_version=N, ...} (all of it with -v) */
static void qstat_val(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	fs_quota_stat_t q;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &q, sizeof(q))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 10);
	val_set_int(&f[n++], "qs_version", q.qs_version);
	if (!c->opts->verbose) {
		val_set_struct(v, name, f, n, true);
		return;
	}
	val_set_flags(&f[n++], "qs_flags", q.qs_flags, xfs_quota_flags, NULL);
	qfilestat_val(&f[n++], "qs_uquota", &q.qs_uquota, c);
	qfilestat_val(&f[n++], "qs_gquota", &q.qs_gquota, c);
	val_set_uint(&f[n++], "qs_incoredqs", q.qs_incoredqs);
	val_set_int(&f[n++], "qs_btimelimit", q.qs_btimelimit);
	val_set_int(&f[n++], "qs_itimelimit", q.qs_itimelimit);
	val_set_int(&f[n++], "qs_rtbtimelimit", q.qs_rtbtimelimit);
	val_set_uint(&f[n++], "qs_bwarnlimit", q.qs_bwarnlimit);
	val_set_uint(&f[n++], "qs_iwarnlimit", q.qs_iwarnlimit);
	val_set_struct(v, name, f, n, false);
}

static void qfilestatv_val(struct val *v, const char *name, const struct fs_qfilestatv *q,
			   struct dctx *c)
{
	struct val *f = val_new_array(c, 3);

	val_set_uint(&f[0], "qfs_ino", q->qfs_ino);
	val_set_uint(&f[1], "qfs_nblks", q->qfs_nblks);
	val_set_uint(&f[2], "qfs_nextents", q->qfs_nextents);
	val_set_struct(v, name, f, 3, false);
}

/* Q_XGETQSTATV's fs_quota_statv */
static void qstatv_val(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct fs_quota_statv q;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &q, sizeof(q))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 11);
	val_set_int(&f[n++], "qs_version", q.qs_version);
	if (!c->opts->verbose) {
		val_set_struct(v, name, f, n, true);
		return;
	}
	val_set_flags(&f[n++], "qs_flags", q.qs_flags, xfs_quota_flags, NULL);
	val_set_uint(&f[n++], "qs_incoredqs", q.qs_incoredqs);
	qfilestatv_val(&f[n++], "qs_uquota", &q.qs_uquota, c);
	qfilestatv_val(&f[n++], "qs_gquota", &q.qs_gquota, c);
	qfilestatv_val(&f[n++], "qs_pquota", &q.qs_pquota, c);
	val_set_int(&f[n++], "qs_btimelimit", q.qs_btimelimit);
	val_set_int(&f[n++], "qs_itimelimit", q.qs_itimelimit);
	val_set_int(&f[n++], "qs_rtbtimelimit", q.qs_rtbtimelimit);
	val_set_uint(&f[n++], "qs_bwarnlimit", q.qs_bwarnlimit);
	val_set_uint(&f[n++], "qs_iwarnlimit", q.qs_iwarnlimit);
	val_set_struct(v, name, f, n, false);
}

/* Commands that show no id: their data comes right after the path. */
static bool no_id(uint32_t cmd)
{
	switch (cmd) {
	case Q_GETFMT_: case Q_GETINFO_: case Q_SETINFO_: case Q_XGETQSTAT_:
	case Q_XGETQSTATV_: case Q_XQUOTAON_: case Q_XQUOTAOFF_: case Q_XQUOTARM_:
		return true;
	}
	return false;
}

/* The data argument (register r) of cmd in slot i. */
static struct val *data_slot(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	v->name = "addr";
	return v;
}

/*
 * The id and data arguments (registers i and i + 1) of command cmd, in
 * slots i and i + 1, or the data alone in slot i for the commands without
 * an id; returns RVAL_EXIT for the commands whose data the kernel fills.
 */
static int quota_data(struct dctx *c, struct event *ev, int exiting, unsigned i, uint32_t cmd)
{
	uint32_t id = (uint32_t)ev->karg[i];
	uint64_t data = ev->karg[i + 1];
	unsigned d = no_id(cmd) ? i : i + 1;
	struct val *v;

	if (exiting) {
		v = data_slot(c, ev, d);
		if (ev->err) {
			val_set_ptr(v, v->name, data);
		} else {
			switch (cmd) {
			case Q_GETQUOTA_: dqblk_val(c, v, v->name, data, false); break;
			case Q_GETNEXTQUOTA_: dqblk_val(c, v, v->name, data, true); break;
			case Q_XGETQUOTA_: case Q_XGETNEXTQUOTA_: xfs_dquot_val(c, v, v->name, data); break;
			case Q_GETFMT_: boxed_u32(c, v, v->name, data, quota_formats, false); break;
			case Q_GETINFO_: dqinfo_val(c, v, v->name, data); break;
			case Q_XGETQSTAT_: qstat_val(c, v, v->name, data); break;
			case Q_XGETQSTATV_: qstatv_val(c, v, v->name, data); break;
			default: val_set_ptr(v, v->name, data); break;
			}
		}
		v->flags |= VF_EXIT;
		return RVAL_DONE;
	}
	if (d == i + 1) {
		v = arg_slot(c, ev, i);
		if (cmd == Q_QUOTAON_)
			val_set_enum(v, v->name, id, quota_formats);
		else
			val_set_qid(v, v->name, id);
	}
	switch (cmd) {
	case Q_QUOTAOFF_:
	case Q_SYNC_:
	case Q_XQUOTASYNC_:
		ev->nargs = (uint8_t)i;   /* nothing after the path */
		return RVAL_DONE;
	case Q_QUOTAON_:
		v = data_slot(c, ev, d);
		val_read_path(c, v, v->name, data);
		return RVAL_DONE;
	case Q_GETQUOTA_:
	case Q_GETNEXTQUOTA_:
	case Q_XGETQUOTA_:
	case Q_XGETNEXTQUOTA_:
	case Q_GETFMT_:
	case Q_GETINFO_:
	case Q_XGETQSTAT_:
	case Q_XGETQSTATV_:
		arg_count(ev, d + 1);
		return RVAL_EXIT;
	case Q_SETQUOTA_:
		v = data_slot(c, ev, d);
		dqblk_val(c, v, v->name, data, false);
		return RVAL_DONE;
	case Q_XSETQLIM_:
		v = data_slot(c, ev, d);
		xfs_dquot_val(c, v, v->name, data);
		return RVAL_DONE;
	case Q_SETINFO_:
		v = data_slot(c, ev, d);
		dqinfo_val(c, v, v->name, data);
		return RVAL_DONE;
	case Q_XQUOTAON_:
	case Q_XQUOTAOFF_:
		v = data_slot(c, ev, d);
		boxed_u32(c, v, v->name, data, xfs_quota_flags, true);
		return RVAL_DONE;
	case Q_XQUOTARM_:
		v = data_slot(c, ev, d);
		boxed_u32(c, v, v->name, data, xfs_dqblk_flags, true);
		return RVAL_DONE;
	default:
		v = data_slot(c, ev, d);
		val_set_ptr(v, v->name, data);
		return RVAL_DONE;
	}
}

/* quotactl(cmd, special, id, addr) */
SYS_FUNC(quotactl)
{
	uint32_t q = (uint32_t)ev->karg[0];
	struct val *v;

	if (!exiting) {
		v = arg_slot(ctx, ev, 0);
		val_set_qcmd(ctx, v, v->name, q);
		arg_path(ctx, ev, 1);
	}
	return quota_data(ctx, ev, exiting, 2, q >> 8);
}

/* quotactl_fd(fd, cmd, id, addr) */
SYS_FUNC(quotactl_fd)
{
	uint32_t q = (uint32_t)ev->karg[1];
	struct val *v;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		val_set_qcmd(ctx, v, v->name, q);
	}
	return quota_data(ctx, ev, exiting, 2, q >> 8);
}
