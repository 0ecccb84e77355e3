/* dm ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_dm(struct ioc *io)
{
	return IOC_DEFAULT;
}
