/* Real-time clock ioctls ('p') with filled, short and bad arguments on a
 * bad descriptor, for tests/t/decode_ioctl_rtc.sh. */
#include <linux/rtc.h>

#include "ioctl_test.h"

int main(void)
{
	struct rtc_time *t = TAIL(struct rtc_time);
	struct rtc_wkalrm *w = TAIL(struct rtc_wkalrm);
	struct rtc_pll_info *p = TAIL(struct rtc_pll_info);
	struct rtc_param *pa = TAIL(struct rtc_param);
	unsigned long *pl = TAIL(unsigned long);
	unsigned *pu = TAIL(unsigned);

	fill(t, sizeof(*t), 1);
	fill(w, sizeof(*w), 2);
	fill(p, sizeof(*p), 3);
	*pl = 1024;
	*pu = RTC_VL_DATA_INVALID | RTC_VL_BACKUP_SWITCH | 0x100;
	IOC(RTC_RD_TIME, t);
	IOC(RTC_ALM_READ, t);
	IOC(RTC_SET_TIME, t);
	IOC(RTC_ALM_SET, (char *)t + 1);
	IOC(RTC_IRQP_SET, 64);
	IOC(RTC_EPOCH_SET, 1900);
	IOC(RTC_IRQP_READ, pl);
	IOC(RTC_EPOCH_READ, NULL);
	IOC(RTC_WKALM_RD, w);
	IOC(RTC_WKALM_SET, w);
	IOC(RTC_PLL_GET, p);
	IOC(RTC_PLL_SET, p);
	IOC(RTC_VL_READ, pu);
	memset(pa, 0, sizeof(*pa));
	pa->param = RTC_PARAM_FEATURES;
	pa->uvalue = (1 << RTC_FEATURE_ALARM) | (1 << RTC_FEATURE_CORRECTION) | 0x100;
	IOC(RTC_PARAM_SET, pa);
	IOC(RTC_PARAM_GET, pa);
	pa->param = RTC_PARAM_CORRECTION;
	pa->svalue = -5;
	pa->index = 2;
	IOC(RTC_PARAM_SET, pa);
	IOC(RTC_PARAM_GET, pa);
	pa->param = RTC_PARAM_BACKUP_SWITCH_MODE;
	pa->uvalue = RTC_BSM_LEVEL;
	IOC(RTC_PARAM_SET, pa);
	pa->param = 77;
	pa->uvalue = 0xdead;
	pa->__pad = 1;
	IOC(RTC_PARAM_SET, pa);
	IOC(RTC_PARAM_GET, pa);
	IOC(RTC_PARAM_GET, (char *)pa + 1);
	IOC(RTC_AIE_ON, 0);
	IOC(RTC_UIE_OFF, 0);
	IOC(RTC_VL_CLR, 0);
	return 0;
}
