/* dm ioctls: not decoded yet. */
#include "sys/ioc.h"

int ioctl_dm(struct ioc *io)
{
	return IOC_DEFAULT;
}
