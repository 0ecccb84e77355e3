/*
 * GPIO character device ioctls (type 0xb4, linux/gpio.h), v1 and v2, with
 * filled, short and bad arguments on a bad descriptor, for
 * tests/t/decode_ioctl_gpio.sh.
 */
#include <linux/gpio.h>

#include "ioctl_test.h"

int main(void)
{
	struct gpiochip_info *ci = TAIL(struct gpiochip_info);
	struct gpioline_info *li = TAIL(struct gpioline_info);
	struct gpiohandle_request *hr = TAIL(struct gpiohandle_request);
	struct gpioevent_request *er = TAIL(struct gpioevent_request);
	struct gpiohandle_data *hd = TAIL(struct gpiohandle_data);
	struct gpiohandle_config *hc = TAIL(struct gpiohandle_config);
	struct gpio_v2_line_info *li2 = TAIL(struct gpio_v2_line_info);
	struct gpio_v2_line_request *lr = TAIL(struct gpio_v2_line_request);
	struct gpio_v2_line_config *lc = TAIL(struct gpio_v2_line_config);
	struct gpio_v2_line_values *lv = TAIL(struct gpio_v2_line_values);
	uint32_t *off = TAIL(uint32_t);

	fill(ci, sizeof(*ci), 'a');
	ci->name[5] = 0;
	IOC(GPIO_GET_CHIPINFO_IOCTL, ci);
	IOC(GPIO_GET_CHIPINFO_IOCTL, NULL);
	fill(li, sizeof(*li), 'b');
	li->flags = GPIOLINE_FLAG_IS_OUT | GPIOLINE_FLAG_BIAS_DISABLE | 0x100;
	li->name[3] = 0;
	IOC(GPIO_GET_LINEINFO_IOCTL, li);
	IOC(GPIO_GET_LINEINFO_WATCH_IOCTL, li);
	IOC(GPIO_GET_LINEINFO_IOCTL, (char *)li + 1);
	*off = 7;
	IOC(GPIO_GET_LINEINFO_UNWATCH_IOCTL, off);
	IOC(GPIO_GET_LINEINFO_UNWATCH_IOCTL, (char *)off + 2);

	fill(hr, sizeof(*hr), 1);
	hr->lines = 3;
	hr->flags = GPIOHANDLE_REQUEST_OUTPUT | GPIOHANDLE_REQUEST_OPEN_DRAIN;
	strcpy(hr->consumer_label, "consumer");
	hr->fd = 1;
	IOC(GPIO_GET_LINEHANDLE_IOCTL, hr);
	hr->lines = 100;
	IOC(GPIO_GET_LINEHANDLE_IOCTL, hr);
	fill(er, sizeof(*er), 2);
	er->handleflags = GPIOHANDLE_REQUEST_INPUT;
	er->eventflags = GPIOEVENT_REQUEST_BOTH_EDGES;
	strcpy(er->consumer_label, "events");
	er->fd = 2;
	IOC(GPIO_GET_LINEEVENT_IOCTL, er);
	er->eventflags = 0x10;
	IOC(GPIO_GET_LINEEVENT_IOCTL, er);
	fill(hd, sizeof(*hd), 3);
	IOC(GPIOHANDLE_GET_LINE_VALUES_IOCTL, hd);
	IOC(GPIOHANDLE_SET_LINE_VALUES_IOCTL, hd);
	fill(hc, sizeof(*hc), 4);
	hc->flags = GPIOHANDLE_REQUEST_ACTIVE_LOW;
	IOC(GPIOHANDLE_SET_CONFIG_IOCTL, hc);
	IOC(GPIOHANDLE_SET_CONFIG_IOCTL, (char *)hc + 1);

	memset(li2, 0, sizeof(*li2));
	strcpy(li2->name, "line");
	strcpy(li2->consumer, "user");
	li2->offset = 3;
	li2->flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING;
	li2->num_attrs = 4;
	li2->attrs[0].id = GPIO_V2_LINE_ATTR_ID_FLAGS;
	li2->attrs[0].flags = GPIO_V2_LINE_FLAG_USED;
	li2->attrs[1].id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
	li2->attrs[1].values = 0xff;
	li2->attrs[2].id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
	li2->attrs[2].debounce_period_us = 1000;
	li2->attrs[3].id = 9;
	li2->attrs[3].padding = 1;
	IOC(GPIO_V2_GET_LINEINFO_IOCTL, li2);
	li2->padding[1] = 5;
	IOC(GPIO_V2_GET_LINEINFO_WATCH_IOCTL, li2);

	memset(lr, 0, sizeof(*lr));
	lr->num_lines = 2;
	lr->offsets[0] = 1;
	lr->offsets[1] = 2;
	strcpy(lr->consumer, "req");
	lr->config.flags = GPIO_V2_LINE_FLAG_OUTPUT;
	lr->config.num_attrs = 2;
	lr->config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
	lr->config.attrs[0].attr.values = 3;
	lr->config.attrs[0].mask = 3;
	lr->config.attrs[1].attr.id = 77;
	lr->config.attrs[1].mask = 1;
	lr->event_buffer_size = 16;
	lr->fd = 0;
	IOC(GPIO_V2_GET_LINE_IOCTL, lr);
	lr->padding[0] = 1;
	lr->num_lines = 1000;
	IOC(GPIO_V2_GET_LINE_IOCTL, lr);
	IOC(GPIO_V2_GET_LINE_IOCTL, (char *)lr + 1);
	memcpy(lc, &lr->config, sizeof(*lc));
	IOC(GPIO_V2_LINE_SET_CONFIG_IOCTL, lc);
	lc->num_attrs = 0;
	IOC(GPIO_V2_LINE_SET_CONFIG_IOCTL, lc);
	lv->bits = 0x5;
	lv->mask = 0xf;
	IOC(GPIO_V2_LINE_GET_VALUES_IOCTL, lv);
	IOC(GPIO_V2_LINE_SET_VALUES_IOCTL, lv);
	IOC(GPIO_V2_LINE_SET_VALUES_IOCTL, NULL);
	IOC(_IOR(0xb4, 0x55, int), off);
	return 0;
}
