/*
 * Device mapper ioctls (0xfd, linux/dm-ioctl.h) on a bad descriptor, for
 * tests/t/decode_ioctl_dm.sh: the struct dm_ioctl header of each request
 * with the payload it carries after data_start (target specs, a message,
 * a new name) and the one the kernel would return (dependencies, device
 * names, target versions, status specs), shown when the call is made to
 * succeed; bad versions and sizes, misplaced payloads, short and bad
 * pointers.
 */
#include <stdbool.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include <linux/dm-ioctl.h>

#include "ioctl_test.h"

#define BUF_SIZE 1024

static struct dm_ioctl *hdr(char *buf, uint32_t data_size)
{
	struct dm_ioctl *d = (struct dm_ioctl *)buf;

	memset(buf, 0, BUF_SIZE);
	d->version[0] = DM_VERSION_MAJOR;
	d->version[1] = 1;
	d->version[2] = 2;
	d->data_size = data_size;
	d->data_start = sizeof(*d);
	return d;
}

/* two target specs with parameters after data_start */
static uint32_t specs(struct dm_ioctl *d, bool out)
{
	char *base = (char *)d + d->data_start;
	struct dm_target_spec *s = (struct dm_target_spec *)base;
	uint32_t second = sizeof(*s) + 16;

	s->sector_start = 0x10;
	s->length = 0x20;
	s->status = out ? -5 : 0;
	s->next = out ? d->data_start + second : second;
	strcpy(s->target_type, "linear");
	strcpy(base + sizeof(*s), "/dev/sda 0");
	s = (struct dm_target_spec *)(base + second);
	s->sector_start = 0x30;
	s->length = 0x40;
	s->next = 0;
	memcpy(s->target_type, "0123456789abcdef", 16);   /* no NUL */
	strcpy(base + second + sizeof(*s), "params");
	d->target_count = 2;
	return second + sizeof(*s) + 8;
}

int main(void)
{
	char *buf = tail_alloc(BUF_SIZE);
	struct dm_ioctl *d;
	char *data;

	d = hdr(buf, sizeof(*d));
	IOC(DM_VERSION, d);
	d->version[0] = 3;
	IOC(DM_VERSION, d);
	d = hdr(buf, 8);
	IOC(DM_VERSION, d);
	IOC(DM_VERSION, NULL);
	IOC(DM_VERSION, BAD_PTR);
	IOC(DM_VERSION, buf + BUF_SIZE - 8);
	IOC(DM_VERSION, buf + BUF_SIZE - sizeof(*d) + 4);

	d = hdr(buf, sizeof(*d));
	d->flags = DM_READONLY_FLAG | DM_PERSISTENT_DEV_FLAG | 0x80000000;
	IOC(DM_REMOVE_ALL, d);
	d->flags = 0;
	strcpy(d->name, "dmname");
	strcpy(d->uuid, "dm-uuid");
	d->dev = makedev(8, 1);
	IOC(DM_DEV_CREATE, d);
	d->event_nr = 5;
	IOC(DM_DEV_REMOVE, d);
	IOC(DM_DEV_STATUS, d);
	IOC(DM_DEV_WAIT, d);
	IOC(DM_TABLE_CLEAR, d);
	IOC(DM_DEV_ARM_POLL, d);
	IOC(DM_DEV_SUSPEND, d);
	d->flags = DM_SUSPEND_FLAG | DM_NOFLUSH_FLAG;
	IOC(DM_DEV_SUSPEND, d);
	memset(d->name, 'n', sizeof(d->name));       /* no NUL */
	IOC(DM_DEV_STATUS, d);

	/* a new name, a new uuid, geometry: strings after data_start */
	d = hdr(buf, sizeof(*d) + 32);
	strcpy(d->name, "old");
	strcpy((char *)d + d->data_start, "new-name");
	IOC(DM_DEV_RENAME, d);
	d->flags = DM_UUID_FLAG;
	IOC(DM_DEV_RENAME, d);
	strcpy((char *)d + d->data_start, "16 4 63 0");
	IOC(DM_DEV_SET_GEOMETRY, d);
	d->data_size = sizeof(*d) + 4;               /* no NUL inside */
	IOC(DM_DEV_SET_GEOMETRY, d);
	d->data_start = 8;                           /* inside the header */
	IOC(DM_DEV_RENAME, d);
	d->data_size = BUF_SIZE + 64;                /* past the mapping */
	d->data_start = sizeof(*d);
	IOC(DM_DEV_RENAME, d);

	/* target specs in (load) and out (status, wait) */
	d = hdr(buf, BUF_SIZE);
	d->data_size = sizeof(*d) + specs(d, false);
	IOC(DM_TABLE_LOAD, d);
	d->target_count = 3;                         /* one more than there is */
	IOC(DM_TABLE_LOAD, d);
	d = hdr(buf, BUF_SIZE);
	d->flags = DM_STATUS_TABLE_FLAG;
	d->data_size = sizeof(*d) + specs(d, true);
	IOC(DM_TABLE_STATUS, d);
	IOC(DM_DEV_WAIT, d);
	d->data_start = BUF_SIZE;                    /* misplaced */
	IOC(DM_TABLE_STATUS, d);

	/* dependencies */
	d = hdr(buf, sizeof(*d) + sizeof(struct dm_target_deps) + 3 * 8);
	{
		struct dm_target_deps *t = (void *)((char *)d + d->data_start);

		t->count = 3;
		t->dev[0] = makedev(8, 0);
		t->dev[1] = makedev(253, 1);
		t->dev[2] = 0;
	}
	IOC(DM_TABLE_DEPS, d);
	((struct dm_target_deps *)((char *)d + d->data_start))->count = 100;
	IOC(DM_TABLE_DEPS, d);

	/* device names */
	d = hdr(buf, BUF_SIZE);
	data = (char *)d + d->data_start;
	{
		struct dm_name_list *nl = (void *)data;

		nl->dev = makedev(253, 0);
		nl->next = 32;
		strcpy(nl->name, "first");
		nl = (void *)(data + 32);
		nl->dev = makedev(253, 1);
		nl->next = 0;
		strcpy(nl->name, "second");
	}
	d->data_size = sizeof(*d) + 64;
	IOC(DM_LIST_DEVICES, d);
	((struct dm_name_list *)data)->next = 2000;  /* beyond data_size */
	IOC(DM_LIST_DEVICES, d);
	memset(data, 0, 32);                         /* no devices */
	IOC(DM_LIST_DEVICES, d);

	/* target versions */
	d = hdr(buf, BUF_SIZE);
	data = (char *)d + d->data_start;
	{
		struct dm_target_versions *tv = (void *)data;

		tv->next = 32;
		tv->version[0] = 1;
		tv->version[1] = 2;
		tv->version[2] = 3;
		strcpy(tv->name, "striped");
		tv = (void *)(data + 32);
		tv->next = 0;
		tv->version[0] = 4;
		strcpy(tv->name, "zero");
	}
	d->data_size = sizeof(*d) + 64;
	IOC(DM_LIST_VERSIONS, d);

	/* a message */
	d = hdr(buf, sizeof(*d) + sizeof(struct dm_target_msg) + 16);
	{
		struct dm_target_msg *m = (void *)((char *)d + d->data_start);

		m->sector = 0x1234;
		strcpy(m->message, "@cancel_deferred");
	}
	IOC(DM_TARGET_MSG, d);
	d->data_size = sizeof(*d) + 4;               /* too small for it */
	IOC(DM_TARGET_MSG, d);

	IOC(_IOWR(DM_IOCTL, 0x7f, struct dm_ioctl), d);
	return 0;
}
