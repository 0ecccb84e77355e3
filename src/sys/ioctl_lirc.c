/* lirc ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_lirc(struct ioc *io)
{
	return IOC_DEFAULT;
}
