/* kvm ioctls: not decoded yet. */
#include "sys/ioc.h"

int ioctl_kvm(struct ioc *io)
{
	return IOC_DEFAULT;
}
