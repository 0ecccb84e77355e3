/*
 * Loop device ioctls ('L', linux/loop.h): loop_info, loop_info64,
 * loop_config and the descriptor and number arguments.
 */
#include <linux/loop.h>

#include "sys/ioc.h"
#include "xlat/loop_crypt_type_options.h"
#include "xlat/loop_flags_options.h"

#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void key(struct dctx *c, struct val *v, const unsigned char *k, int size)
{
	unsigned n = (unsigned)size < LO_KEY_SIZE ? (unsigned)size : LO_KEY_SIZE;

	val_set_str(c, v, "lo_encrypt_key", (const char *)k, n, false);
}

static int info(struct ioc *io)
{
	struct dctx *c = io->c;
	struct val *v = ioc_val(io), *f;
	struct loop_info i;
	bool crypt;
	unsigned n = 0;

	if (!ioc_read(io, v, io->arg, &i, sizeof(i)))
		return IOC_DONE;
	crypt = !ioc_abbrev(io) || i.lo_encrypt_type != LO_CRYPT_NONE;
	f = val_new_array(c, 14);
	FLD_D(&f[n++], i, lo_number);
	if (!ioc_abbrev(io)) {
		ioc_set_dev(c, &f[n++], "lo_device", i.lo_device);
		FLD_U(&f[n++], i, lo_inode);
		ioc_set_dev(c, &f[n++], "lo_rdevice", i.lo_rdevice);
	}
	FLD_X(&f[n++], i, lo_offset);
	if (crypt) {
		val_set_enum(&f[n++], "lo_encrypt_type", (unsigned)i.lo_encrypt_type,
			     loop_crypt_type_options);
		val_set_uint(&f[n++], "lo_encrypt_key_size", (unsigned)i.lo_encrypt_key_size);
	}
	val_set_flags(&f[n++], "lo_flags", (unsigned)i.lo_flags, loop_flags_options, NULL);
	ioc_set_cstring(c, &f[n++], "lo_name", i.lo_name, sizeof(i.lo_name));
	if (crypt)
		key(c, &f[n++], i.lo_encrypt_key, i.lo_encrypt_key_size);
	if (!ioc_abbrev(io)) {
		ioc_set_int_array(c, &f[n++], "lo_init", i.lo_init, NELEM(i.lo_init),
				  sizeof(i.lo_init[0]), NUM_X);
		ioc_set_int_array(c, &f[n++], "reserved", i.reserved, NELEM(i.reserved),
				  sizeof(i.reserved[0]), NUM_X);
	}
	val_set_struct(v, v->name, f, n, ioc_abbrev(io));
	return IOC_DONE;
}

static void info64(struct ioc *io, struct val *v, const char *name, const struct loop_info64 *i)
{
	struct dctx *c = io->c;
	bool crypt = !ioc_abbrev(io) || i->lo_encrypt_type != LO_CRYPT_NONE;
	struct val *f = val_new_array(c, 14);
	unsigned n = 0;

	if (!ioc_abbrev(io)) {
		ioc_set_dev(c, &f[n++], "lo_device", i->lo_device);
		FLD_U(&f[n++], *i, lo_inode);
		ioc_set_dev(c, &f[n++], "lo_rdevice", i->lo_rdevice);
		FLD_X(&f[n++], *i, lo_offset);
		FLD_U(&f[n++], *i, lo_sizelimit);
		FLD_U(&f[n++], *i, lo_number);
	} else {
		FLD_X(&f[n++], *i, lo_offset);
		FLD_U(&f[n++], *i, lo_number);
	}
	if (crypt) {
		val_set_enum(&f[n++], "lo_encrypt_type", i->lo_encrypt_type,
			     loop_crypt_type_options);
		FLD_U(&f[n++], *i, lo_encrypt_key_size);
	}
	val_set_flags(&f[n++], "lo_flags", i->lo_flags, loop_flags_options, NULL);
	ioc_set_cstring(c, &f[n++], "lo_file_name", i->lo_file_name, sizeof(i->lo_file_name));
	if (crypt) {
		ioc_set_cstring(c, &f[n++], "lo_crypt_name", i->lo_crypt_name,
				sizeof(i->lo_crypt_name));
		key(c, &f[n++], i->lo_encrypt_key, (int)i->lo_encrypt_key_size);
	}
	if (!ioc_abbrev(io))
		ioc_set_int_array(c, &f[n++], "lo_init", i->lo_init, NELEM(i->lo_init),
				  sizeof(i->lo_init[0]), NUM_X);
	val_set_struct(v, name, f, n, ioc_abbrev(io));
}

static int info64_arg(struct ioc *io)
{
	struct val *v = ioc_val(io);
	struct loop_info64 i;

	if (ioc_read(io, v, io->arg, &i, sizeof(i)))
		info64(io, v, v->name, &i);
	return IOC_DONE;
}

static int config(struct ioc *io)
{
	struct dctx *c = io->c;
	struct val *v = ioc_val(io), *f;
	struct loop_config cf;
	unsigned n = 0;

	if (!ioc_read(io, v, io->arg, &cf, sizeof(cf)))
		return IOC_DONE;
	f = val_new_array(c, 4);
	val_set_fd(c, &f[n++], "fd", (int)cf.fd);
	FLD_U(&f[n++], cf, block_size);
	info64(io, &f[n++], "info", &cf.info);
	if (!ioc_all_zero(cf.__reserved, sizeof(cf.__reserved)))
		ioc_set_int_array(c, &f[n++], "__reserved", cf.__reserved, NELEM(cf.__reserved),
				  sizeof(cf.__reserved[0]), NUM_X);
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

int ioctl_loop(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case LOOP_GET_STATUS:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case LOOP_SET_STATUS:
		return info(io);
	case LOOP_GET_STATUS64:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case LOOP_SET_STATUS64:
		return info64_arg(io);
	case LOOP_CONFIGURE:
		return config(io);
	case LOOP_CLR_FD: case LOOP_SET_CAPACITY: case LOOP_CTL_GET_FREE:
		return ioc_none(io);
	case LOOP_SET_FD: case LOOP_CHANGE_FD:
		v = ioc_val(io);
		val_set_fd(io->c, v, v->name, (int)io->arg);
		return IOC_DONE;
	case LOOP_CTL_ADD: case LOOP_CTL_REMOVE:
		v = ioc_val(io);
		val_set_int(v, v->name, (int)io->arg);
		return IOC_DONE;
	case LOOP_SET_DIRECT_IO: case LOOP_SET_BLOCK_SIZE:
		return ioc_arg_val(io, NUM_U);
	}
	return IOC_DEFAULT;
}
