/* gpio ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_gpio(struct ioc *io)
{
	return IOC_DEFAULT;
}
