/* inotify ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_inotify(struct ioc *io)
{
	return IOC_DEFAULT;
}
