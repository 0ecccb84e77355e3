/* tee ioctls: not decoded yet. */
#include "sys/ioc.h"

int ioctl_tee(struct ioc *io)
{
	return IOC_DEFAULT;
}
