/* hdio ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_hdio(struct ioc *io)
{
	return IOC_DEFAULT;
}
