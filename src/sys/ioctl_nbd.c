/* Network block device ioctls (type 0xab, linux/nbd.h). */
#include <linux/nbd.h>

#include "sys/ioc.h"
#include "xlat/nbd_ioctl_flags.h"

#include "util/banned.h"

int ioctl_nbd(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case NBD_DISCONNECT: case NBD_CLEAR_SOCK: case NBD_DO_IT: case NBD_CLEAR_QUE:
	case NBD_PRINT_DEBUG:
		return ioc_none(io);
	case NBD_SET_SOCK:
		v = ioc_val(io);
		val_set_fd(io->c, v, v->name, (int)io->arg);
		return IOC_DONE;
	case NBD_SET_BLKSIZE: case NBD_SET_SIZE: case NBD_SET_SIZE_BLOCKS:
	case NBD_SET_TIMEOUT:
		return ioc_arg_val(io, NUM_U);
	case NBD_SET_FLAGS:
		v = ioc_val(io);
		val_set_flags(v, v->name, (unsigned int)io->arg, nbd_ioctl_flags, NULL);
		return IOC_DONE;
	}
	return IOC_DEFAULT;
}
