/* nbd ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_nbd(struct ioc *io)
{
	return IOC_DEFAULT;
}
