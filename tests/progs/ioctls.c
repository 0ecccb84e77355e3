/*
 * Calls ioctl on a bad descriptor with many request codes (the terminal 'T'
 * range, file, block and fs requests, and unknown ones of every direction)
 * so a test can compare the request names and _IOC(...) forms with strace.
 * Every call fails with EBADF; prints nothing, exits 0.
 */
#include <stddef.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

int main(void)
{
	static const unsigned long extra[] = {
		FIBMAP, FIGETBSZ, FIFREEZE, FITHAW, FITRIM, FICLONE, FICLONERANGE,
		FIDEDUPERANGE, FS_IOC_GETFLAGS, FS_IOC_SETFLAGS, FS_IOC_GETVERSION,
		FS_IOC_SETVERSION, FS_IOC32_GETFLAGS, FS_IOC32_SETFLAGS, FS_IOC_FIEMAP,
		FS_IOC_FSGETXATTR, FS_IOC_FSSETXATTR, BLKROSET, BLKROGET, BLKRRPART,
		BLKGETSIZE, BLKFLSBUF, BLKRASET, BLKRAGET, BLKSSZGET, BLKBSZGET,
		BLKBSZSET, BLKGETSIZE64, BLKDISCARD, BLKIOMIN, BLKIOOPT, BLKALIGNOFF,
		BLKPBSZGET, BLKDISCARDZEROES, BLKZEROOUT,
		_IO('z', 1), _IOR('z', 2, int), _IOW('z', 3, long), _IOWR('z', 4, char[100]),
		0x5499, 0xdeadbeef,
	};

	for (unsigned long c = 0x5400; c < 0x5470; c++)
		ioctl(-1, c, 0);
	for (unsigned i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		ioctl(-1, extra[i], 0);
	return 0;
}
