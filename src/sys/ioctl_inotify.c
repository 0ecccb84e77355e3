/* inotify's one ioctl ('I', linux/inotify.h): INOTIFY_IOC_SETNEXTWD. */
#include <linux/inotify.h>

#include "sys/ioc.h"

#include "util/banned.h"

int ioctl_inotify(struct ioc *io)
{
	struct val *v;

	if (io->code != INOTIFY_IOC_SETNEXTWD)
		return IOC_DEFAULT;
	v = ioc_val(io);
	val_set_int(v, v->name, (int)io->arg);
	return IOC_DONE;
}
