/* nsfs ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_nsfs(struct ioc *io)
{
	return IOC_DEFAULT;
}
