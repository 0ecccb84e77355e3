/* tee ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_tee(struct ioc *io)
{
	return IOC_DEFAULT;
}
