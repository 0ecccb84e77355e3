/* perf ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_perf(struct ioc *io)
{
	return IOC_DEFAULT;
}
