/* loop ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_loop(struct ioc *io)
{
	return IOC_DEFAULT;
}
