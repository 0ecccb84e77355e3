/* Loop device ioctls ('L') with filled, short and bad arguments on a bad
 * descriptor, for tests/t/decode_ioctl_loop.sh. */
#include <linux/loop.h>

#include "ioctl_test.h"

int main(void)
{
	struct loop_info *li = TAIL(struct loop_info);
	struct loop_info64 *l64 = TAIL(struct loop_info64);
	struct loop_config *cf = TAIL(struct loop_config);

	fill(li, sizeof(*li), 0x20);
	li->lo_encrypt_type = LO_CRYPT_NONE;
	li->lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
	strcpy(li->lo_name, "loop-name");
	IOC(LOOP_SET_STATUS, li);
	IOC(LOOP_GET_STATUS, li);
	li->lo_encrypt_type = LO_CRYPT_XOR;
	li->lo_encrypt_key_size = 5;
	IOC(LOOP_SET_STATUS, li);
	li->lo_encrypt_type = 7;
	li->lo_encrypt_key_size = 100;
	li->lo_flags = 0x100;
	IOC(LOOP_SET_STATUS, li);
	IOC(LOOP_SET_STATUS, (char *)li + 1);
	fill(l64, sizeof(*l64), 0x30);
	l64->lo_encrypt_type = LO_CRYPT_NONE;
	l64->lo_flags = LO_FLAGS_PARTSCAN;
	IOC(LOOP_SET_STATUS64, l64);
	IOC(LOOP_GET_STATUS64, l64);
	l64->lo_encrypt_type = LO_CRYPT_CRYPTOAPI;
	l64->lo_encrypt_key_size = 3;
	IOC(LOOP_SET_STATUS64, l64);
	memset(cf, 0, sizeof(*cf));
	cf->fd = 1;
	cf->block_size = 512;
	memcpy(&cf->info, l64, sizeof(*l64));
	IOC(LOOP_CONFIGURE, cf);
	cf->__reserved[3] = 9;
	IOC(LOOP_CONFIGURE, cf);
	IOC(LOOP_CONFIGURE, NULL);
	IOC(LOOP_CLR_FD, 0);
	IOC(LOOP_SET_CAPACITY, 0);
	IOC(LOOP_CTL_GET_FREE, 0);
	IOC(LOOP_SET_FD, 0);
	IOC(LOOP_CHANGE_FD, 0xffffffffUL);
	IOC(LOOP_CTL_ADD, 3);
	IOC(LOOP_CTL_REMOVE, 0xfffffffe);
	IOC(LOOP_SET_DIRECT_IO, 1);
	IOC(LOOP_SET_BLOCK_SIZE, 0x1000);
	return 0;
}
