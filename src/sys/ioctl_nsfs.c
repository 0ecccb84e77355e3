/*
 * Namespace file ioctls (type 0xb7, linux/nsfs.h): the descriptors they
 * return, the namespace type as a comment on the result, the owner uid.
 */
#include <linux/nsfs.h>

#include "sys/ioc.h"
#include "xlat/setns_types.h"

#include "util/banned.h"

int ioctl_nsfs(struct ioc *io)
{
	struct val *v, in;
	unsigned int uid;

	switch (io->code) {
	case NS_GET_USERNS: case NS_GET_PARENT:
		ioc_none(io);
		if (!io->exiting)
			return IOC_EXIT;
		ret_set_fd(io->c, io->ev);
		return IOC_DONE;
	case NS_GET_NSTYPE:
		ioc_none(io);
		if (!io->exiting)
			return IOC_EXIT;
		if (!io->ev->err) {
			const char *name = xlat_name(setns_types, (uint64_t)io->ev->retval);

			if (name) {
				struct val *aux = val_new_array(io->c, 1);

				val_set_text(io->c, aux, NULL, name);
				io->ev->ret_aux = aux;
			}
		}
		return IOC_DONE;
	case NS_GET_OWNER_UID:
		if (!io->exiting)
			return IOC_EXIT;
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &uid, sizeof(uid))) {
			if (uid == (unsigned int)-1)
				val_set_int(&in, NULL, -1);
			else
				val_set_uint(&in, NULL, uid);
			val_set_boxed(io->c, v, v->name, &in);
		}
		return IOC_DONE;
	}
	return IOC_DEFAULT;
}
