/* /dev/random ioctls ('R', linux/random.h): entropy counts and pools. */
#include <stddef.h>
#include <linux/random.h>

#include "sys/ioc.h"

#include "util/banned.h"

int ioctl_random(struct ioc *io)
{
	struct rand_pool_info info;
	struct val *v, *f;

	switch (io->code) {
	case RNDGETENTCNT:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case RNDADDTOENTCNT:
		return ioc_arg_num(io, sizeof(int), NUM_D);
	case RNDADDENTROPY:
		v = ioc_val(io);
		if (ioc_read(io, v, io->arg, &info, sizeof(info))) {
			f = val_new_array(io->c, 3);
			FLD_D(&f[0], info, entropy_count);
			FLD_D(&f[1], info, buf_size);
			val_read_buf(io->c, &f[2], "buf",
				     io->arg + offsetof(struct rand_pool_info, buf),
				     (uint64_t)(int64_t)info.buf_size);
			val_set_struct(v, v->name, f, 3, false);
		}
		return IOC_DONE;
	case RNDZAPENTCNT: case RNDCLEARPOOL: case RNDRESEEDCRNG:
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
