/*
 * GPIO character device ioctls (type 0xb4, linux/gpio.h): chip and line
 * information, line handle and event requests (v1) and the v2 line
 * requests, configurations and values.
 */
#include <linux/gpio.h>

#include "sys/ioc.h"
#include "xlat/gpio_event_flags.h"
#include "xlat/gpio_handle_flags.h"
#include "xlat/gpio_line_flags.h"
#include "xlat/gpio_v2_line_flags.h"

#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define UPTO(n, a) ((n) < NELEM(a) ? (unsigned)(n) : (unsigned)NELEM(a))

static int chipinfo(struct ioc *io)
{
	struct gpiochip_info info;
	struct val *v, *f;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (ioc_read(io, v, io->arg, &info, sizeof(info))) {
		f = val_new_array(io->c, 3);
		ioc_set_cstring(io->c, &f[0], "name", info.name, sizeof(info.name));
		ioc_set_cstring(io->c, &f[1], "label", info.label, sizeof(info.label));
		FLD_U(&f[2], info, lines);
		val_set_struct(v, v->name, f, 3, false);
	}
	return IOC_DONE;
}

/* {line_offset=N} => {flags=..., name="...", consumer="..."} */
static bool lineinfo_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpioline_info *i = buf;
	struct val *f = val_new_array(io->c, 1);

	FLD_U(&f[0], *i, line_offset);
	val_set_struct(v, v->name, f, 1, false);
	return true;
}

static bool lineinfo_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpioline_info *i = buf;
	struct val *f = val_new_array(io->c, 3);

	val_set_flags(&f[0], "flags", i->flags, gpio_line_flags, NULL);
	ioc_set_cstring(io->c, &f[1], "name", i->name, sizeof(i->name));
	ioc_set_cstring(io->c, &f[2], "consumer", i->consumer, sizeof(i->consumer));
	val_set_struct(v, NULL, f, 3, false);
	return true;
}

static int unwatch(struct ioc *io)
{
	struct val *v = ioc_val(io), *f;
	uint32_t offset;

	if (ioc_read(io, v, io->arg, &offset, sizeof(offset))) {
		f = val_new_array(io->c, 1);
		val_set_uint(&f[0], "offset", offset);
		val_set_struct(v, v->name, f, 1, false);
	}
	return IOC_DONE;
}

/* {fd=N} at exit of the three requests that return a descriptor */
static bool fd_out(struct ioc *io, struct val *v, int fd)
{
	struct val *f = val_new_array(io->c, 1);

	val_set_fd(io->c, &f[0], "fd", fd);
	val_set_struct(v, NULL, f, 1, false);
	return true;
}

static bool handle_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpiohandle_request *h = buf;
	struct val *f = val_new_array(io->c, 5);

	FLD_U(&f[0], *h, lines);
	ioc_set_local_array(io, &f[1], "lineoffsets", h->lineoffsets,
			    UPTO(h->lines, h->lineoffsets), sizeof(h->lineoffsets[0]), NUM_U);
	val_set_flags(&f[2], "flags", h->flags, gpio_handle_flags, NULL);
	ioc_set_local_array(io, &f[3], "default_values", h->default_values,
			    UPTO(h->lines, h->default_values), sizeof(h->default_values[0]),
			    NUM_U);
	ioc_set_cstring(io->c, &f[4], "consumer_label", h->consumer_label,
			sizeof(h->consumer_label));
	val_set_struct(v, v->name, f, 5, false);
	return true;
}

static bool handle_out(struct ioc *io, struct val *v, const void *buf)
{
	return fd_out(io, v, ((const struct gpiohandle_request *)buf)->fd);
}

static bool event_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpioevent_request *e = buf;
	struct val *f = val_new_array(io->c, 4);

	FLD_U(&f[0], *e, lineoffset);
	val_set_flags(&f[1], "handleflags", e->handleflags, gpio_handle_flags, NULL);
	val_set_flags(&f[2], "eventflags", e->eventflags, gpio_event_flags, NULL);
	ioc_set_cstring(io->c, &f[3], "consumer_label", e->consumer_label,
			sizeof(e->consumer_label));
	val_set_struct(v, v->name, f, 4, false);
	return true;
}

static bool event_out(struct ioc *io, struct val *v, const void *buf)
{
	return fd_out(io, v, ((const struct gpioevent_request *)buf)->fd);
}

static void handle_data(struct ioc *io, struct val *v, const struct gpiohandle_data *d)
{
	struct val *f = val_new_array(io->c, 1);

	ioc_set_local_array(io, &f[0], "values", d->values, NELEM(d->values),
			    sizeof(d->values[0]), NUM_U);
	val_set_struct(v, v->name, f, 1, false);
}

static int handle_values(struct ioc *io, bool get)
{
	struct gpiohandle_data d;
	struct val *v;

	if (get && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (ioc_read(io, v, io->arg, &d, sizeof(d)))
		handle_data(io, v, &d);
	return IOC_DONE;
}

static int handle_config(struct ioc *io)
{
	struct gpiohandle_config hc;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &hc, sizeof(hc))) {
		f = val_new_array(io->c, 2);
		val_set_flags(&f[0], "flags", hc.flags, gpio_handle_flags, NULL);
		ioc_set_local_array(io, &f[1], "default_values", hc.default_values,
				    NELEM(hc.default_values), sizeof(hc.default_values[0]),
				    NUM_U);
		val_set_struct(v, v->name, f, 2, false);
	}
	return IOC_DONE;
}

/* ---- v2 -------------------------------------------------------------------- */

/* The attribute's fields (id/padding/data raw when the id is unknown or
 * the padding used); as_field: inside "attr={...}". */
static unsigned attribute(struct dctx *c, struct val *f, const struct gpio_v2_line_attribute *a,
			  bool *raw)
{
	unsigned n = 0;

	*raw = a->padding || a->id < GPIO_V2_LINE_ATTR_ID_FLAGS ||
	       a->id > GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
	if (*raw) {
		FLD_U(&f[n++], *a, id);
		if (a->padding)
			FLD_X(&f[n++], *a, padding);
		val_set_hex(&f[n++], "data", a->values);
		return n;
	}
	switch (a->id) {
	case GPIO_V2_LINE_ATTR_ID_FLAGS:
		val_set_flags(&f[n++], "flags", a->flags, gpio_v2_line_flags, NULL);
		break;
	case GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES:
		FLD_X(&f[n++], *a, values);
		break;
	default:
		FLD_U(&f[n++], *a, debounce_period_us);
		break;
	}
	return n;
}

static void set_attr_item(struct dctx *c, struct val *v, const struct gpio_v2_line_attribute *a)
{
	struct val *f = val_new_array(c, 3);
	bool raw;
	unsigned n = attribute(c, f, a, &raw);

	val_set_struct(v, NULL, f, n, false);
}

static void set_config_attr_item(struct dctx *c, struct val *v,
				 const struct gpio_v2_line_config_attribute *ca)
{
	struct val *f = val_new_array(c, 3), *g = val_new_array(c, 3);
	bool raw;
	unsigned n = attribute(c, g, &ca->attr, &raw);

	if (raw)
		val_set_struct(&f[0], "attr", g, n, false);
	else
		f[0] = g[0];   /* the union member appears as a field of its own */
	FLD_X(&f[1], *ca, mask);
	val_set_struct(v, NULL, f, 2, false);
}

/* An array field of the first upto elements, each set by fn. */
static void attr_array(struct ioc *io, struct val *v, const char *name, const void *base,
		       unsigned n, size_t elem_size, bool config)
{
	struct val *it = val_new_array(io->c, n);
	const unsigned char *b = base;

	for (unsigned i = 0; i < n; i++) {
		if (config)
			set_config_attr_item(io->c, &it[i],
					     (const void *)(b + (size_t)i * elem_size));
		else
			set_attr_item(io->c, &it[i], (const void *)(b + (size_t)i * elem_size));
	}
	val_set_local_array(io->c, v, name, it, n);
}

static void line_config(struct ioc *io, struct val *v, const char *name,
			const struct gpio_v2_line_config *lc)
{
	struct val *f = val_new_array(io->c, 4);
	unsigned n = 0;

	val_set_flags(&f[n++], "flags", lc->flags, gpio_v2_line_flags, NULL);
	FLD_U(&f[n++], *lc, num_attrs);
	if (!ioc_all_zero(lc->padding, sizeof(lc->padding)))
		ioc_set_int_array(io->c, &f[n++], "padding", lc->padding, NELEM(lc->padding),
				  sizeof(lc->padding[0]), NUM_X);
	if (lc->num_attrs)
		attr_array(io, &f[n++], "attrs", lc->attrs, UPTO(lc->num_attrs, lc->attrs),
			   sizeof(lc->attrs[0]), true);
	val_set_struct(v, name, f, n, false);
}

static bool v2_info_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpio_v2_line_info *li = buf;
	struct val *f = val_new_array(io->c, 1);

	FLD_U(&f[0], *li, offset);
	val_set_struct(v, v->name, f, 1, false);
	return true;
}

static bool v2_info_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpio_v2_line_info *li = buf;
	struct val *f = val_new_array(io->c, 6);
	unsigned n = 0;

	ioc_set_cstring(io->c, &f[n++], "name", li->name, sizeof(li->name));
	ioc_set_cstring(io->c, &f[n++], "consumer", li->consumer, sizeof(li->consumer));
	val_set_flags(&f[n++], "flags", li->flags, gpio_v2_line_flags, NULL);
	FLD_U(&f[n++], *li, num_attrs);
	if (li->num_attrs)
		attr_array(io, &f[n++], "attrs", li->attrs, UPTO(li->num_attrs, li->attrs),
			   sizeof(li->attrs[0]), false);
	if (!ioc_all_zero(li->padding, sizeof(li->padding)))
		ioc_set_int_array(io->c, &f[n++], "padding", li->padding, NELEM(li->padding),
				  sizeof(li->padding[0]), NUM_X);
	val_set_struct(v, NULL, f, n, false);
	return true;
}

static bool v2_req_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpio_v2_line_request *lr = buf;
	struct val *f = val_new_array(io->c, 6);
	unsigned n = 0;

	FLD_U(&f[n++], *lr, num_lines);
	ioc_set_local_array(io, &f[n++], "offsets", lr->offsets, UPTO(lr->num_lines, lr->offsets),
			    sizeof(lr->offsets[0]), NUM_U);
	ioc_set_cstring(io->c, &f[n++], "consumer", lr->consumer, sizeof(lr->consumer));
	line_config(io, &f[n++], "config", &lr->config);
	if (lr->event_buffer_size)
		FLD_U(&f[n++], *lr, event_buffer_size);
	if (!ioc_all_zero(lr->padding, sizeof(lr->padding)))
		ioc_set_int_array(io->c, &f[n++], "padding", lr->padding, NELEM(lr->padding),
				  sizeof(lr->padding[0]), NUM_X);
	val_set_struct(v, v->name, f, n, false);
	return true;
}

static bool v2_req_out(struct ioc *io, struct val *v, const void *buf)
{
	return fd_out(io, v, ((const struct gpio_v2_line_request *)buf)->fd);
}

static bool v2_get_in(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpio_v2_line_values *lv = buf;
	struct val *f = val_new_array(io->c, 1);

	FLD_X(&f[0], *lv, mask);
	val_set_struct(v, v->name, f, 1, false);
	return true;
}

static bool v2_get_out(struct ioc *io, struct val *v, const void *buf)
{
	const struct gpio_v2_line_values *lv = buf;
	struct val *f = val_new_array(io->c, 1);

	FLD_X(&f[0], *lv, bits);
	val_set_struct(v, NULL, f, 1, false);
	return true;
}

static int v2_set_values(struct ioc *io)
{
	struct gpio_v2_line_values lv;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &lv, sizeof(lv))) {
		f = val_new_array(io->c, 2);
		FLD_X(&f[0], lv, bits);
		FLD_X(&f[1], lv, mask);
		val_set_struct(v, v->name, f, 2, false);
	}
	return IOC_DONE;
}

static int v2_set_config(struct ioc *io)
{
	struct gpio_v2_line_config lc;
	struct val *v = ioc_val(io);

	if (ioc_read(io, v, io->arg, &lc, sizeof(lc)))
		line_config(io, v, v->name, &lc);
	return IOC_DONE;
}

int ioctl_gpio(struct ioc *io)
{
	switch (io->code) {
	case GPIO_GET_CHIPINFO_IOCTL:
		return chipinfo(io);
	case GPIO_GET_LINEINFO_UNWATCH_IOCTL:
		return unwatch(io);
	case GPIO_V2_GET_LINEINFO_IOCTL: case GPIO_V2_GET_LINEINFO_WATCH_IOCTL:
		return ioc_changed(io, sizeof(struct gpio_v2_line_info), v2_info_in, v2_info_out);
	case GPIO_V2_GET_LINE_IOCTL:
		return ioc_changed(io, sizeof(struct gpio_v2_line_request), v2_req_in, v2_req_out);
	case GPIO_V2_LINE_SET_CONFIG_IOCTL:
		return v2_set_config(io);
	case GPIO_V2_LINE_GET_VALUES_IOCTL:
		return ioc_changed(io, sizeof(struct gpio_v2_line_values), v2_get_in, v2_get_out);
	case GPIO_V2_LINE_SET_VALUES_IOCTL:
		return v2_set_values(io);
	case GPIO_GET_LINEINFO_IOCTL: case GPIO_GET_LINEINFO_WATCH_IOCTL:
		return ioc_changed(io, sizeof(struct gpioline_info), lineinfo_in, lineinfo_out);
	case GPIO_GET_LINEHANDLE_IOCTL:
		return ioc_changed(io, sizeof(struct gpiohandle_request), handle_in, handle_out);
	case GPIO_GET_LINEEVENT_IOCTL:
		return ioc_changed(io, sizeof(struct gpioevent_request), event_in, event_out);
	case GPIOHANDLE_GET_LINE_VALUES_IOCTL:
		return handle_values(io, true);
	case GPIOHANDLE_SET_LINE_VALUES_IOCTL:
		return handle_values(io, false);
	case GPIOHANDLE_SET_CONFIG_IOCTL:
		return handle_config(io);
	}
	return IOC_DEFAULT;
}
