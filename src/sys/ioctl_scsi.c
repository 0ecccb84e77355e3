/* scsi ioctls: not decoded yet. */
#include "sys/ioctl.h"

int ioctl_scsi(struct ioc *io)
{
	return IOC_DEFAULT;
}
