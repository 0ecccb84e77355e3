/* PTP clock ioctls ('=') with filled, short and bad arguments on a bad
 * descriptor, for tests/t/decode_ioctl_ptp.sh. */
#include <linux/ptp_clock.h>

#include "ioctl_test.h"

int main(void)
{
	struct ptp_clock_caps *caps = TAIL(struct ptp_clock_caps);
	struct ptp_extts_request *ex = TAIL(struct ptp_extts_request);
	struct ptp_perout_request *po = TAIL(struct ptp_perout_request);
	struct ptp_sys_offset *so = TAIL(struct ptp_sys_offset);
	struct ptp_sys_offset_extended *se = TAIL(struct ptp_sys_offset_extended);
	struct ptp_sys_offset_precise *sp = TAIL(struct ptp_sys_offset_precise);
	struct ptp_pin_desc *pd = TAIL(struct ptp_pin_desc);

	fill(caps, sizeof(*caps), 1);
	IOC(PTP_CLOCK_GETCAPS, caps);
	memset(caps->rsv, 0, sizeof(caps->rsv));
	IOC(PTP_CLOCK_GETCAPS2, caps);
	memset(ex, 0, sizeof(*ex));
	ex->index = 1;
	ex->flags = PTP_ENABLE_FEATURE | PTP_RISING_EDGE | 0x100;
	IOC(PTP_EXTTS_REQUEST, ex);
	ex->rsv[1] = 3;
	IOC(PTP_EXTTS_REQUEST2, ex);
	memset(po, 0, sizeof(*po));
	po->start.sec = 1700000000;
	po->start.nsec = 5;
	po->period.sec = 1;
	po->index = 2;
	IOC(PTP_PEROUT_REQUEST, po);
	po->flags = PTP_PEROUT_PHASE | PTP_PEROUT_DUTY_CYCLE;
	po->on.nsec = 500;
	po->phase.reserved = 7;
	IOC(PTP_PEROUT_REQUEST2, po);
	po->flags = PTP_PEROUT_ONE_SHOT;
	po->rsv[0] = 1;
	IOC(PTP_PEROUT_REQUEST2, po);
	IOC(PTP_ENABLE_PPS, 1);
	IOC(PTP_ENABLE_PPS2, 0);
	memset(so, 0, sizeof(*so));
	so->n_samples = 2;
	for (int i = 0; i < 5; i++) {
		so->ts[i].sec = 1700000000 + i;
		so->ts[i].nsec = i;
	}
	IOC(PTP_SYS_OFFSET, so);
	so->n_samples = 100;
	IOC(PTP_SYS_OFFSET2, so);
	memset(se, 0, sizeof(*se));
	se->n_samples = 1;
	se->ts[0][1].sec = 1700000000;
	IOC(PTP_SYS_OFFSET_EXTENDED, se);
	IOC(PTP_SYS_OFFSET_EXTENDED2, (char *)se + 1);
	fill(sp, sizeof(*sp), 4);
	sp->device.sec = 1700000000;
	memset(sp->rsv, 0, sizeof(sp->rsv));
	IOC(PTP_SYS_OFFSET_PRECISE, sp);
	memset(pd, 0, sizeof(*pd));
	strcpy(pd->name, "pin");
	pd->index = 1;
	pd->func = PTP_PF_PEROUT;
	pd->chan = 2;
	IOC(PTP_PIN_GETFUNC, pd);
	IOC(PTP_PIN_SETFUNC, pd);
	pd->rsv[0] = 5;
	pd->func = 9;
	IOC(PTP_PIN_GETFUNC2, pd);
	IOC(PTP_PIN_SETFUNC2, pd);
	IOC(PTP_PIN_SETFUNC2, NULL);
	return 0;
}
