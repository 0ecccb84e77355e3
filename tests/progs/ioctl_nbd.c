/* Network block device ioctls (type 0xab) on a bad descriptor, for
 * tests/t/decode_ioctl_small.sh. */
#include <linux/nbd.h>

#include "ioctl_test.h"

int main(void)
{
	IOC(NBD_DISCONNECT, 0);
	IOC(NBD_CLEAR_SOCK, 0);
	IOC(NBD_DO_IT, 0);
	IOC(NBD_CLEAR_QUE, 0);
	IOC(NBD_PRINT_DEBUG, 0);
	IOC(NBD_SET_SOCK, 0);
	IOC(NBD_SET_SOCK, 0xffffffffUL);
	IOC(NBD_SET_BLKSIZE, 4096);
	IOC(NBD_SET_SIZE, 0x123456789UL);
	IOC(NBD_SET_SIZE_BLOCKS, 1);
	IOC(NBD_SET_TIMEOUT, 30);
	IOC(NBD_SET_FLAGS, NBD_FLAG_HAS_FLAGS | NBD_FLAG_READ_ONLY | (1 << 4) | (1 << 10));
	IOC(NBD_SET_FLAGS, 0x80000);
	IOC(NBD_SET_FLAGS, 0);
	return 0;
}
