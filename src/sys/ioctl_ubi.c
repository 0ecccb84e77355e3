/* ubi ioctls: not decoded yet. */
#include "sys/ioc.h"

int ioctl_ubi(struct ioc *io)
{
	return IOC_DEFAULT;
}
