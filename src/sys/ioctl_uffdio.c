/* uffdio ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_uffdio(struct ioc *io)
{
	return IOC_DEFAULT;
}
