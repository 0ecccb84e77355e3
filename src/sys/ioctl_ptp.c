/* ptp ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_ptp(struct ioc *io)
{
	return IOC_DEFAULT;
}
