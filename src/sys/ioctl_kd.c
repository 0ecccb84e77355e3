/* kd ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_kd(struct ioc *io)
{
	return IOC_DEFAULT;
}
