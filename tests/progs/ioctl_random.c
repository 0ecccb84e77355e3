/* /dev/random ioctls ('R') on a bad descriptor, for
 * tests/t/decode_ioctl_small.sh. */
#include <linux/random.h>

#include "ioctl_test.h"

int main(void)
{
	int *pi = TAIL(int);
	struct rand_pool_info *info = tail_alloc(sizeof(*info) + 8);

	*pi = 42;
	IOC(RNDGETENTCNT, pi);
	IOC(RNDADDTOENTCNT, pi);
	IOC(RNDADDTOENTCNT, NULL);
	info->entropy_count = 8;
	info->buf_size = 8;
	memcpy(info->buf, "entropy!", 8);
	IOC(RNDADDENTROPY, info);
	info->buf_size = 64;   /* more than there is */
	IOC(RNDADDENTROPY, info);
	IOC(RNDADDENTROPY, (char *)info + 4);
	IOC(RNDZAPENTCNT, 0);
	IOC(RNDCLEARPOOL, 0);
	IOC(RNDRESEEDCRNG, 0);
	return 0;
}
