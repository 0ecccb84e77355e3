/* Watchdog ioctls ('W', linux/watchdog.h): the ints they take and return. */
#include <linux/watchdog.h>

#include "sys/ioc.h"

#include "util/banned.h"

int ioctl_watchdog(struct ioc *io)
{
	switch (io->code) {
	case WDIOC_GETSTATUS: case WDIOC_GETBOOTSTATUS: case WDIOC_GETTEMP:
	case WDIOC_GETTIMEOUT: case WDIOC_GETPRETIMEOUT: case WDIOC_GETTIMELEFT:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case WDIOC_SETTIMEOUT: case WDIOC_SETPRETIMEOUT:
		return ioc_arg_num(io, sizeof(int), NUM_D);
	case WDIOC_KEEPALIVE:
		/* linux/watchdog.h says an int, the kernel ignores it */
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
