/* Counter character device ioctls ('>') on a bad descriptor, for
 * tests/t/decode_ioctl_small.sh. */
#include <linux/counter.h>

#include "ioctl_test.h"

int main(void)
{
	struct counter_watch *w = TAIL(struct counter_watch);

	w->component.type = COUNTER_COMPONENT_COUNT;
	w->component.scope = COUNTER_SCOPE_SIGNAL;
	w->component.parent = 1;
	w->component.id = 2;
	w->event = COUNTER_EVENT_OVERFLOW;
	w->channel = 3;
	IOC(COUNTER_ADD_WATCH_IOCTL, w);
	w->component.type = 0xee;
	w->component.scope = 0xdd;
	w->event = 0xcc;
	IOC(COUNTER_ADD_WATCH_IOCTL, w);
	IOC(COUNTER_ADD_WATCH_IOCTL, (char *)w + 1);
	IOC(COUNTER_ENABLE_EVENTS_IOCTL, 0);
	IOC(COUNTER_DISABLE_EVENTS_IOCTL, 0);
	return 0;
}
