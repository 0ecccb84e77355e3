/* scsi ioctls: not decoded yet. */
#include "sys/ioc.h"

int ioctl_scsi(struct ioc *io)
{
	return IOC_DEFAULT;
}
