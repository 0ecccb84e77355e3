/* mtd ioctls: not decoded yet. */
#include "sys/ioc.h"

int ioctl_mtd(struct ioc *io)
{
	return IOC_DEFAULT;
}
