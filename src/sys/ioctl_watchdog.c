/* watchdog ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_watchdog(struct ioc *io)
{
	return IOC_DEFAULT;
}
