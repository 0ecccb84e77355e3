/* inotify's INOTIFY_IOC_SETNEXTWD and an unknown 'I' request on a bad
 * descriptor, for tests/t/decode_ioctl_small.sh. */
#include <linux/inotify.h>

#include "ioctl_test.h"

int main(void)
{
	IOC(INOTIFY_IOC_SETNEXTWD, 0xffffffff00000007UL);
	IOC(INOTIFY_IOC_SETNEXTWD, -1L);
	IOC(_IOW('I', 1, int), 5);
	return 0;
}
