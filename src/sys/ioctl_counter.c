/* counter ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_counter(struct ioc *io)
{
	return IOC_DEFAULT;
}
