/* Counter character device ioctls ('>', linux/counter.h): watches. */
#include <linux/counter.h>

#include "sys/ioc.h"
#include "xlat/counter_ioctl_component_types.h"
#include "xlat/counter_ioctl_event_types.h"
#include "xlat/counter_ioctl_scopes.h"

#include "util/banned.h"

static int add_watch(struct ioc *io)
{
	struct dctx *c = io->c;
	struct counter_watch w;
	struct val *v = ioc_val(io), *f, *g;

	if (!ioc_read(io, v, io->arg, &w, sizeof(w)))
		return IOC_DONE;
	g = val_new_array(c, 4);
	val_set_enum(&g[0], "type", w.component.type, counter_ioctl_component_types);
	val_set_enum(&g[1], "scope", w.component.scope, counter_ioctl_scopes);
	FLD_U(&g[2], w.component, parent);
	FLD_U(&g[3], w.component, id);
	f = val_new_array(c, 3);
	val_set_struct(&f[0], "component", g, 4, false);
	val_set_enum(&f[1], "event", w.event, counter_ioctl_event_types);
	FLD_U(&f[2], w, channel);
	val_set_struct(v, v->name, f, 3, false);
	return IOC_DONE;
}

int ioctl_counter(struct ioc *io)
{
	switch (io->code) {
	case COUNTER_ADD_WATCH_IOCTL:
		return add_watch(io);
	case COUNTER_ENABLE_EVENTS_IOCTL: case COUNTER_DISABLE_EVENTS_IOCTL:
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
