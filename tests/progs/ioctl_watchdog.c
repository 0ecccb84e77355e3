/* Watchdog ioctls ('W') on a bad descriptor, for tests/t/decode_ioctl_small.sh. */
#include <linux/watchdog.h>

#include "ioctl_test.h"

int main(void)
{
	static const unsigned long reqs[] = {
		WDIOC_GETSTATUS, WDIOC_GETBOOTSTATUS, WDIOC_GETTEMP, WDIOC_GETTIMEOUT,
		WDIOC_GETPRETIMEOUT, WDIOC_GETTIMELEFT, WDIOC_SETTIMEOUT, WDIOC_SETPRETIMEOUT,
	};
	int *pi = TAIL(int);

	*pi = -3;
	for (unsigned i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		IOC(reqs[i], pi);
		IOC(reqs[i], (char *)pi + 1);
	}
	IOC(WDIOC_KEEPALIVE, 0);
	IOC(WDIOC_GETSUPPORT, pi);
	return 0;
}
