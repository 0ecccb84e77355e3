/* Infrared remote control ioctls ('i', linux/lirc.h): one u32 each. */
#include <linux/lirc.h>

#include "sys/ioc.h"
#include "xlat/lirc_features.h"
#include "xlat/lirc_modes.h"

#include "util/banned.h"

int ioctl_lirc(struct ioc *io)
{
	struct val *v, in;
	unsigned int x;

	switch (io->code) {
	case LIRC_GET_FEATURES: case LIRC_GET_SEND_MODE: case LIRC_GET_REC_MODE:
	case LIRC_GET_REC_RESOLUTION: case LIRC_GET_MIN_TIMEOUT: case LIRC_GET_MAX_TIMEOUT:
	case LIRC_GET_LENGTH: case LIRC_SET_SEND_MODE: case LIRC_SET_REC_MODE:
	case LIRC_SET_SEND_CARRIER: case LIRC_SET_REC_CARRIER: case LIRC_SET_SEND_DUTY_CYCLE:
	case LIRC_SET_TRANSMITTER_MASK: case LIRC_SET_REC_TIMEOUT:
	case LIRC_SET_REC_TIMEOUT_REPORTS: case LIRC_SET_MEASURE_CARRIER_MODE:
	case LIRC_SET_REC_CARRIER_RANGE: case LIRC_SET_WIDEBAND_RECEIVER:
	case LIRC_GET_REC_TIMEOUT:
		break;
	default:
		return IOC_DEFAULT;
	}
	if (!io->exiting && _IOC_DIR(io->code) == _IOC_READ)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &x, sizeof(x)))
		return IOC_DONE;
	switch (io->code) {
	case LIRC_GET_FEATURES:
		val_set_flags(&in, NULL, x, lirc_features, NULL);
		break;
	case LIRC_GET_SEND_MODE: case LIRC_GET_REC_MODE:
	case LIRC_SET_SEND_MODE: case LIRC_SET_REC_MODE:
		val_set_enum(&in, NULL, x, lirc_modes);
		break;
	case LIRC_SET_TRANSMITTER_MASK:
		val_set_hex(&in, NULL, x);
		break;
	default:
		val_set_uint(&in, NULL, x);
		break;
	}
	val_set_boxed(io->c, v, v->name, &in);
	return IOC_DONE;
}
