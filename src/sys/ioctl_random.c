/* random ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_random(struct ioc *io)
{
	return IOC_DEFAULT;
}
