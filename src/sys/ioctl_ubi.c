/* ubi ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_ubi(struct ioc *io)
{
	return IOC_DEFAULT;
}
