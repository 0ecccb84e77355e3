/*
 * The ioctl request names generated from the kernel's uapi headers
 * (scripts/gen_ioctlent.pl into $(BUILD)/gen/ioctlent.c), in header order;
 * src/sys/desc_ioctl.c sorts them by number.
 */
#ifndef RENACER_IOCTLENT_H
#define RENACER_IOCTLENT_H

#include <stddef.h>
#include <stdint.h>

struct ioctlent {
	uint32_t code;      /* the request number */
	const char *name;   /* its macro name */
};

extern const struct ioctlent ioctlent_gen[];
extern const size_t ioctlent_gen_count;

#endif
