/* sock ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_sock(struct ioc *io)
{
	return IOC_DEFAULT;
}
