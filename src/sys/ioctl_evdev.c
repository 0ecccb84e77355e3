/* evdev ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_evdev(struct ioc *io)
{
	return IOC_DEFAULT;
}

bool ioctl_evdev_name(struct ioc *io, struct val *v, const char *more)
{
	return false;
}
