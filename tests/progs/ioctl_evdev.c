/*
 * Input device ioctls ('E', linux/input.h) with filled, short and bad
 * arguments on a bad descriptor, for tests/t/decode_ioctl_evdev.sh: the
 * parametrised names (EVIOCGBIT, EVIOCGABS, EVIOCSABS, unknown types),
 * bit sets, absinfo of every size, keycodes, force feedback effects, slots.
 */
#include <linux/input.h>

#include "ioctl_test.h"

int main(void)
{
	static const unsigned evs[] = {
		0, EV_KEY, EV_REL, EV_ABS, EV_MSC, EV_SW, EV_LED, EV_SND, EV_REP, EV_FF,
		EV_PWR, EV_FF_STATUS, 0x6, 0x1e,
	};
	static const unsigned long sized[] = {
		EVIOCGNAME(16), EVIOCGPHYS(16), EVIOCGUNIQ(16), EVIOCGPROP(16),
		EVIOCGKEY(16), EVIOCGLED(16), EVIOCGSND(16), EVIOCGSW(16),
	};
	static const uint16_t ff_types[] = { FF_CONSTANT, FF_RAMP, FF_PERIODIC, FF_RUMBLE, 0xff };
	unsigned char *bits = tail_alloc(128);
	struct input_absinfo *abs = tail_alloc(sizeof(*abs) + 8);
	struct input_id *id = TAIL(struct input_id);
	unsigned *kc = tail_alloc(8);
	struct input_keymap_entry *ke = TAIL(struct input_keymap_entry);
	struct ff_effect *ff = TAIL(struct ff_effect);
	int *slots = tail_alloc(16);
	int *pi = TAIL(int);

	memset(bits, 0, 128);
	bits[0] = 0x16;     /* 1 2 4 */
	bits[1] = 0x81;     /* 8 15 */
	bits[3] = 0x40;     /* 30 */
	bits[10] = 0x01;    /* 80 */
	bits[40] = 0x80;    /* 327 */
	strcpy((char *)bits + 64, "input device name");
	fill(abs, sizeof(*abs) + 8, 0x10);
	fill(id, sizeof(*id), 0x20);
	kc[0] = 30;
	kc[1] = KEY_ENTER;
	fill(ke, sizeof(*ke), 0x30);
	ke->keycode = BTN_LEFT;
	fill(ff, sizeof(*ff), 0x40);
	slots[0] = ABS_MT_POSITION_X;
	slots[1] = -1;
	slots[2] = 2;
	slots[3] = 3;
	*pi = 0x10001;

	IOC(EVIOCGVERSION, pi);
	IOC(EVIOCGEFFECTS, pi);
	IOC(EVIOCGID, id);
	IOC(EVIOCGID, (char *)id + 1);
	IOC(EVIOCGREP, kc);
	IOC(EVIOCSREP, kc);
	IOC(EVIOCGKEYCODE, kc);
	IOC(EVIOCSKEYCODE, kc);
	IOC(EVIOCSKEYCODE, (char *)kc + 1);
	IOC(EVIOCGKEYCODE_V2, ke);
	IOC(EVIOCSKEYCODE_V2, ke);
	for (unsigned i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		IOC(EVIOCGBIT(evs[i], 16), bits);
		IOC(EVIOCGBIT(evs[i], 16), NULL);
	}
	for (unsigned i = 0; i < sizeof(sized) / sizeof(sized[0]); i++)
		IOC(sized[i], sized[i] == EVIOCGNAME(16) ? bits + 64 : bits);
	IOC(EVIOCGMTSLOTS(16), slots);
	IOC(EVIOCGMTSLOTS(8), slots + 2);
	IOC(EVIOCGMTSLOTS(0), slots);
	IOC(EVIOCGMTSLOTS(32), slots);
	for (unsigned a = 0; a <= ABS_MAX; a += 7) {
		IOC(EVIOCGABS(a), abs);
		IOC(EVIOCSABS(a), abs);
	}
	for (unsigned sz = 16; sz <= sizeof(*abs) + 8; sz += 4) {
		IOC(_IOC(_IOC_READ, 'E', 0x41, sz), abs);
		IOC(_IOC(_IOC_WRITE, 'E', 0xc1, sz), abs);
	}
	IOC(EVIOCGABS(ABS_X), (char *)abs + 24);
	for (unsigned i = 0; i < sizeof(ff_types) / sizeof(ff_types[0]); i++) {
		ff->type = ff_types[i];
		IOC(EVIOCSFF, ff);
	}
	IOC(EVIOCSFF, (char *)ff + 1);
	IOC(EVIOCRMFF, 0xdeadbeef);
	IOC(EVIOCGRAB, 0x1234567890UL);
	IOC(EVIOCREVOKE, 0);
	IOC(EVIOCSCLOCKID, pi);
	IOC(_IOC(_IOC_READ, 'E', 0xfe, 8), pi);
	IOC(_IOC(_IOC_WRITE, 'E', 0x01, 8), pi);
	IOC(_IOC(_IOC_READ | _IOC_WRITE, 'E', 0x01, 8), pi);
	IOC(_IOC(_IOC_NONE, 'E', 0x01, 0), 0x42);
	return 0;
}
