/* Infrared remote ioctls ('i') on a bad descriptor, for
 * tests/t/decode_ioctl_small.sh. */
#include <linux/lirc.h>

#include "ioctl_test.h"

int main(void)
{
	static const unsigned long reqs[] = {
		LIRC_GET_FEATURES, LIRC_GET_SEND_MODE, LIRC_GET_REC_MODE, LIRC_GET_REC_RESOLUTION,
		LIRC_GET_MIN_TIMEOUT, LIRC_GET_MAX_TIMEOUT, LIRC_GET_LENGTH, LIRC_SET_SEND_MODE,
		LIRC_SET_REC_MODE, LIRC_SET_SEND_CARRIER, LIRC_SET_REC_CARRIER,
		LIRC_SET_SEND_DUTY_CYCLE, LIRC_SET_TRANSMITTER_MASK, LIRC_SET_REC_TIMEOUT,
		LIRC_SET_REC_TIMEOUT_REPORTS, LIRC_SET_MEASURE_CARRIER_MODE,
		LIRC_SET_REC_CARRIER_RANGE, LIRC_SET_WIDEBAND_RECEIVER, LIRC_GET_REC_TIMEOUT,
	};
	unsigned *pu = TAIL(unsigned);

	*pu = LIRC_MODE_MODE2;
	for (unsigned i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		IOC(reqs[i], pu);
		IOC(reqs[i], NULL);
	}
	*pu = LIRC_CAN_SEND_PULSE | LIRC_CAN_REC_MODE2 | 1;
	IOC(LIRC_GET_FEATURES, pu);
	*pu = 0x20;
	IOC(LIRC_SET_SEND_MODE, pu);
	IOC(_IOR('i', 0x55, int), pu);
	return 0;
}
