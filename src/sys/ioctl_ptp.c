/*
 * PTP hardware clock ioctls ('=', linux/ptp_clock.h): capabilities,
 * external timestamp and periodic output requests, pin functions and the
 * system/device clock offsets (times with their date as a comment).
 */
#include <linux/ptp_clock.h>

#include "sys/ioc.h"
#include "xlat/ptp_extts_flags.h"
#include "xlat/ptp_perout_flags.h"
#include "xlat/ptp_pin_funcs.h"

#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* {sec=..., nsec=...}, with rtc its date as a comment (not with -X raw) */
static void clock_time(struct dctx *c, struct val *v, const char *name,
		       const struct ptp_clock_time *t, bool rtc)
{
	struct val *f = val_new_array(c, 3), st;
	const char *date;
	unsigned n = 0;

	FLD_D(&f[n++], *t, sec);
	FLD_U(&f[n++], *t, nsec);
	if (t->reserved)
		FLD_X(&f[n++], *t, reserved);
	val_set_struct(&st, NULL, f, n, false);
	date = rtc ? time_text(c, t->sec, t->nsec) : NULL;
	if (!date) {
		*v = st;
		v->name = name;
		return;
	}
	struct val com;

	val_set_commented(c, &com, NULL, &st, date);
	ioc_set_xalt(c, v, name, &com, &st, &com);
}

/* rsv=[...] when not all zero */
static void rsv(struct ioc *io, struct val *f, unsigned *n, const unsigned int *r, unsigned cnt)
{
	if (!ioc_all_zero(r, cnt * sizeof(*r)))
		ioc_set_local_array(io, &f[(*n)++], "rsv", r, cnt, sizeof(*r), NUM_X);
}

static int caps(struct ioc *io)
{
	struct ptp_clock_caps cp;
	struct val *v, *f;
	unsigned n = 0;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &cp, sizeof(cp)))
		return IOC_DONE;
	f = val_new_array(io->c, 9);
	FLD_D(&f[n++], cp, max_adj);
	FLD_D(&f[n++], cp, n_alarm);
	FLD_D(&f[n++], cp, n_ext_ts);
	FLD_D(&f[n++], cp, n_per_out);
	FLD_D(&f[n++], cp, pps);
	FLD_D(&f[n++], cp, n_pins);
	FLD_D(&f[n++], cp, cross_timestamping);
	FLD_D(&f[n++], cp, adjust_phase);
	rsv(io, f, &n, (const unsigned int *)cp.rsv, NELEM(cp.rsv));
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

static int extts(struct ioc *io)
{
	struct ptp_extts_request r;
	struct val *v = ioc_val(io), *f;
	unsigned n = 0;

	if (!ioc_read(io, v, io->arg, &r, sizeof(r)))
		return IOC_DONE;
	f = val_new_array(io->c, 3);
	FLD_U(&f[n++], r, index);
	val_set_flags(&f[n++], "flags", r.flags, ptp_extts_flags, NULL);
	if (io->code == PTP_EXTTS_REQUEST2)
		rsv(io, f, &n, r.rsv, NELEM(r.rsv));
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

static int perout(struct ioc *io)
{
	struct dctx *c = io->c;
	struct ptp_perout_request r;
	struct val *v = ioc_val(io), *f;
	unsigned n = 0;

	if (!ioc_read(io, v, io->arg, &r, sizeof(r)))
		return IOC_DONE;
	f = val_new_array(c, 5);
	if (r.flags & PTP_PEROUT_PHASE)
		clock_time(c, &f[n++], "phase", &r.phase, false);
	else
		clock_time(c, &f[n++], "start", &r.start, true);
	clock_time(c, &f[n++], "period", &r.period, false);
	FLD_U(&f[n++], r, index);
	val_set_flags(&f[n++], "flags", r.flags, ptp_perout_flags, NULL);
	if (r.flags & PTP_PEROUT_DUTY_CYCLE)
		clock_time(c, &f[n++], "on", &r.on, false);
	else if (io->code == PTP_PEROUT_REQUEST2)
		rsv(io, f, &n, r.rsv, NELEM(r.rsv));
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

/*
 * The structures whose entry part is printed open ("{n_samples=N") and
 * whose exit part continues it (", ts=[...]}"): at entry the structure has
 * room for the exit's item; at exit it is added when the call succeeded,
 * "???" when the memory could not be read.
 */
static struct val *open_struct(struct ioc *io)
{
	return ioc_reopen(io);
}

static void times_elem(struct dctx *c, struct val *v, const struct ptp_clock_time *t,
		       unsigned k)
{
	struct val *it = val_new_array(c, k);

	for (unsigned i = 0; i < k; i++)
		clock_time(c, &it[i], NULL, &t[i], true);
	if (k == 1)
		*v = it[0];
	else
		val_set_array(v, NULL, it, k, false);
}

static int sys_offset(struct ioc *io, bool extended)
{
	struct dctx *c = io->c;
	struct ptp_sys_offset_extended ext;
	struct ptp_sys_offset so;
	unsigned int n_samples, *r, nr;
	struct val *v, *f, *it;
	unsigned n = 0, cnt;

	if (!io->exiting) {
		v = ioc_val(io);
		if (extended) {
			if (!ioc_read(io, v, io->arg, &ext, sizeof(ext)))
				return IOC_DONE;
			n_samples = ext.n_samples;
			r = ext.rsv;
			nr = NELEM(ext.rsv);
		} else {
			if (!ioc_read(io, v, io->arg, &so, sizeof(so)))
				return IOC_DONE;
			n_samples = so.n_samples;
			r = so.rsv;
			nr = NELEM(so.rsv);
		}
		f = val_new_array(c, 3);
		val_set_uint(&f[n++], "n_samples", n_samples);
		rsv(io, f, &n, r, nr);
		val_set_struct(v, v->name, f, n, false);
		v->flags |= VF_OPEN;
		return IOC_EXIT;
	}
	v = open_struct(io);
	if (!v || io->ev->err)
		return IOC_DONE;
	f = &v->c.items[v->c.n];
	if (extended ? !tread(c, io->arg, &ext, sizeof(ext)) : !tread(c, io->arg, &so, sizeof(so))) {
		val_set_text(c, f, NULL, "???");
		v->c.n++;
		return IOC_DONE;
	}
	n_samples = extended ? ext.n_samples : so.n_samples;
	if (n_samples > PTP_MAX_SAMPLES)
		n_samples = PTP_MAX_SAMPLES;
	cnt = extended ? n_samples : 2 * n_samples + 1;
	it = val_new_array(c, cnt);
	for (unsigned i = 0; i < cnt; i++)
		times_elem(c, &it[i], extended ? ext.ts[i] : &so.ts[i], extended ? 3 : 1);
	val_set_local_array(c, f, "ts", it, cnt);
	v->c.n++;
	return IOC_DONE;
}

static int pin(struct ioc *io)
{
	struct dctx *c = io->c;
	bool get = io->code == PTP_PIN_GETFUNC || io->code == PTP_PIN_GETFUNC2;
	struct ptp_pin_desc p;
	struct val *v, *f;
	unsigned n;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &p, sizeof(p)))
			return IOC_DONE;
		f = val_new_array(c, 6);
		n = 0;
		FLD_U(&f[n++], p, index);
		if (io->code == PTP_PIN_GETFUNC2)
			rsv(io, f, &n, p.rsv, NELEM(p.rsv));
		if (get) {
			val_set_struct(v, v->name, f, n, false);
			v->flags |= VF_OPEN;
			return IOC_EXIT;
		}
	} else {
		v = open_struct(io);
		if (!v || io->ev->err)
			return IOC_DONE;
		f = v->c.items;
		n = v->c.n;
		if (!tread(c, io->arg, &p, sizeof(p))) {
			val_set_text(c, &f[n++], NULL, "???");
			v->c.n = n;
			return IOC_DONE;
		}
	}
	if (get)
		ioc_set_cstring(c, &f[n++], "name", p.name, sizeof(p.name));
	val_set_enum(&f[n++], "func", p.func, ptp_pin_funcs);
	FLD_U(&f[n++], p, chan);
	if (io->code == PTP_PIN_SETFUNC2)
		rsv(io, f, &n, p.rsv, NELEM(p.rsv));
	if (io->exiting)
		v->c.n = n;
	else
		val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

static int precise(struct ioc *io)
{
	struct dctx *c = io->c;
	struct ptp_sys_offset_precise p;
	struct val *v, *f;
	unsigned n = 0;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &p, sizeof(p)))
		return IOC_DONE;
	f = val_new_array(c, 4);
	clock_time(c, &f[n++], "device", &p.device, true);
	clock_time(c, &f[n++], "sys_realtime", &p.sys_realtime, true);
	clock_time(c, &f[n++], "sys_monoraw", &p.sys_monoraw, false);
	rsv(io, f, &n, p.rsv, NELEM(p.rsv));
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

int ioctl_ptp(struct ioc *io)
{
	struct val *v;

	/* -e verbose= leaving the call out: strace does not decode these */
	if (io->c->opts->no_deref)
		return IOC_DEFAULT;
	switch (io->code) {
	case PTP_CLOCK_GETCAPS: case PTP_CLOCK_GETCAPS2:
		return caps(io);
	case PTP_EXTTS_REQUEST: case PTP_EXTTS_REQUEST2:
		return extts(io);
	case PTP_PEROUT_REQUEST: case PTP_PEROUT_REQUEST2:
		return perout(io);
	case PTP_ENABLE_PPS: case PTP_ENABLE_PPS2:
		v = ioc_val(io);
		val_set_hex(v, v->name, io->arg);
		return IOC_DONE;
	case PTP_SYS_OFFSET: case PTP_SYS_OFFSET2:
		return sys_offset(io, false);
	case PTP_PIN_GETFUNC: case PTP_PIN_GETFUNC2: case PTP_PIN_SETFUNC: case PTP_PIN_SETFUNC2:
		return pin(io);
	case PTP_SYS_OFFSET_PRECISE: case PTP_SYS_OFFSET_PRECISE2:
		return precise(io);
	case PTP_SYS_OFFSET_EXTENDED: case PTP_SYS_OFFSET_EXTENDED2:
		return sys_offset(io, true);
	}
	return IOC_DEFAULT;
}
