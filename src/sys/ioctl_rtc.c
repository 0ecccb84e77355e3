/*
 * Real-time clock ioctls ('p', linux/rtc.h): times, alarms, PLL
 * information, voltage flags and parameters.
 */
#include <linux/rtc.h>

#include "sys/ioc.h"
#include "xlat/rtc_backup_switch_modes.h"
#include "xlat/rtc_features.h"
#include "xlat/rtc_params.h"
#include "xlat/rtc_vl_flags.h"

#include "util/banned.h"

static void rtc_time(struct ioc *io, struct val *v, const char *name, const struct rtc_time *t)
{
	struct val *f = val_new_array(io->c, 9);
	unsigned n = 0;

	FLD_D(&f[n++], *t, tm_sec);
	FLD_D(&f[n++], *t, tm_min);
	FLD_D(&f[n++], *t, tm_hour);
	FLD_D(&f[n++], *t, tm_mday);
	FLD_D(&f[n++], *t, tm_mon);
	FLD_D(&f[n++], *t, tm_year);
	if (ioc_abbrev(io)) {
		val_set_struct(v, name, f, n, true);
		return;
	}
	FLD_D(&f[n++], *t, tm_wday);
	FLD_D(&f[n++], *t, tm_yday);
	FLD_D(&f[n++], *t, tm_isdst);
	val_set_struct(v, name, f, n, false);
}

static int time_arg(struct ioc *io)
{
	struct val *v = ioc_val(io);
	struct rtc_time t;

	if (ioc_read(io, v, io->arg, &t, sizeof(t)))
		rtc_time(io, v, v->name, &t);
	return IOC_DONE;
}

static int wkalrm(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct rtc_wkalrm w;

	if (ioc_read(io, v, io->arg, &w, sizeof(w))) {
		f = val_new_array(io->c, 3);
		FLD_U(&f[0], w, enabled);
		FLD_U(&f[1], w, pending);
		rtc_time(io, &f[2], "time", &w.time);
		val_set_struct(v, v->name, f, 3, false);
	}
	return IOC_DONE;
}

static int pll(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	struct rtc_pll_info p;

	if (ioc_read(io, v, io->arg, &p, sizeof(p))) {
		f = val_new_array(io->c, 7);
		FLD_D(&f[0], p, pll_ctrl);
		FLD_D(&f[1], p, pll_value);
		FLD_D(&f[2], p, pll_max);
		FLD_D(&f[3], p, pll_min);
		FLD_D(&f[4], p, pll_posmult);
		FLD_D(&f[5], p, pll_negmult);
		FLD_D(&f[6], p, pll_clock);
		val_set_struct(v, v->name, f, 7, false);
	}
	return IOC_DONE;
}

static void param_value(struct val *v, const struct rtc_param *p)
{
	switch (p->param) {
	case RTC_PARAM_FEATURES:
		val_set_flags(v, "uvalue", p->uvalue, rtc_features, NULL);
		break;
	case RTC_PARAM_CORRECTION:
		val_set_int(v, "svalue", p->svalue);
		break;
	case RTC_PARAM_BACKUP_SWITCH_MODE:
		val_set_enum(v, "uvalue", p->uvalue, rtc_backup_switch_modes);
		break;
	default:
		val_set_hex(v, "uvalue", p->uvalue);
		break;
	}
}

/*
 * SET: {param=..., value, index=N}; GET: {param=..., index=N} at entry and
 * " => {value}" at exit, the address there when the call failed.
 */
static int param(struct ioc *io, bool get)
{
	struct rtc_param p;
	struct val *v, *f, after = { .name = NULL };
	unsigned n = 0;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &p, sizeof(p)))
			return IOC_DONE;
		f = val_new_array(io->c, 4);
		val_set_enum(&f[n++], "param", p.param, rtc_params);
		if (!get)
			param_value(&f[n++], &p);
		FLD_U(&f[n++], p, index);
		if (p.__pad)
			FLD_X(&f[n++], p, __pad);
		val_set_struct(v, v->name, f, n, false);
		return get ? IOC_EXIT : IOC_DONE;
	}
	if (ioc_read(io, &after, io->arg, &p, sizeof(p))) {
		f = val_new_array(io->c, 2);
		param_value(&f[n++], &p);
		if (p.__pad)
			FLD_X(&f[n++], p, __pad);
		val_set_struct(&after, NULL, f, n, false);
	}
	ioc_set_after(io, &after);
	return IOC_DONE;
}

int ioctl_rtc(struct ioc *io)
{
	struct val *v, in;
	unsigned int x;

	switch (io->code) {
	case RTC_ALM_READ: case RTC_RD_TIME:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case RTC_ALM_SET: case RTC_SET_TIME:
		return time_arg(io);
	case RTC_IRQP_SET: case RTC_EPOCH_SET:
		return ioc_arg_val(io, NUM_U);
	case RTC_IRQP_READ: case RTC_EPOCH_READ:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, sizeof(long), NUM_U);
	case RTC_WKALM_RD:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case RTC_WKALM_SET:
		return wkalrm(io);
	case RTC_PLL_GET:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case RTC_PLL_SET:
		return pll(io);
	case RTC_VL_READ:
		if (!io->exiting)
			return IOC_EXIT;
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &x, sizeof(x))) {
			val_set_flags(&in, NULL, x, rtc_vl_flags, NULL);
			val_set_boxed(io->c, v, v->name, &in);
		}
		return IOC_DONE;
	case RTC_PARAM_GET: case RTC_PARAM_SET:
		return param(io, io->code == RTC_PARAM_GET);
	case RTC_AIE_ON: case RTC_AIE_OFF: case RTC_UIE_ON: case RTC_UIE_OFF:
	case RTC_PIE_ON: case RTC_PIE_OFF: case RTC_WIE_ON: case RTC_WIE_OFF: case RTC_VL_CLR:
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
