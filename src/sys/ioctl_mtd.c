/* mtd ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_mtd(struct ioc *io)
{
	return IOC_DEFAULT;
}
