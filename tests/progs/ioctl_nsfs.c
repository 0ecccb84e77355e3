/*
 * Namespace ioctls (type 0xb7) on a real namespace file (the results: a
 * descriptor, the type, the owner) and on a bad descriptor, for
 * tests/t/decode_ioctl_small.sh.
 */
#include <fcntl.h>
#include <linux/nsfs.h>

#include "ioctl_test.h"

int main(void)
{
	unsigned *uid = TAIL(unsigned);
	int fd = open("/proc/self/ns/uts", O_RDONLY);

	/* the failing NS_GET_NSTYPE first: strace 6.1 shows the comment of
	 * a successful one again after a later failing one (a stale
	 * auxstr); renacer does not */
	IOC(NS_GET_NSTYPE, 0);
	ioctl(fd, NS_GET_NSTYPE);
	ioctl(fd, NS_GET_USERNS);
	ioctl(fd, NS_GET_OWNER_UID, uid);
	ioctl(fd, NS_GET_PARENT);
	IOC(NS_GET_USERNS, 0);
	IOC(NS_GET_OWNER_UID, uid);
	IOC(NS_GET_OWNER_UID, NULL);
	IOC(_IO(0xb7, 0x55), 0);
	return 0;
}
