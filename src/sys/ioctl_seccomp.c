/* seccomp ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_seccomp(struct ioc *io)
{
	return IOC_DEFAULT;
}
