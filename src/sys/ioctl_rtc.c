/* rtc ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_rtc(struct ioc *io)
{
	return IOC_DEFAULT;
}
