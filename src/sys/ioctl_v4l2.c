/* v4l2 ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_v4l2(struct ioc *io)
{
	return IOC_DEFAULT;
}
