/*
 * Block device ioctls (type 0x12) with filled, short and bad arguments on a
 * bad descriptor, for tests/t/decode_ioctl_block.sh.
 */
#include <linux/blkpg.h>
#include <linux/blktrace_api.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>

#include "ioctl_test.h"

int main(void)
{
	static const unsigned long in_int[] = { BLKROSET, BLKBSZSET };
	static const unsigned long out[] = {
		BLKSECTGET, BLKROTATIONAL, BLKROGET, BLKBSZGET, BLKSSZGET, BLKALIGNOFF,
		BLKPBSZGET, BLKIOMIN, BLKIOOPT, BLKDISCARDZEROES, BLKGETZONESZ,
		BLKGETNRZONES, BLKRAGET, BLKFRAGET, BLKGETSIZE, BLKGETSIZE64,
		BLKGETDISKSEQ,
	};
	static const unsigned long pair[] = { BLKDISCARD, BLKSECDISCARD, BLKZEROOUT };
	static const unsigned long none[] = {
		BLKRRPART, BLKFLSBUF, BLKTRACESTART, BLKTRACESTOP, BLKTRACETEARDOWN,
	};
	uint64_t *p64 = tail_alloc(16);
	int *pi = TAIL(int);
	struct blkpg_ioctl_arg *pg = TAIL(struct blkpg_ioctl_arg);
	struct blkpg_partition *part = TAIL(struct blkpg_partition);
	struct blk_user_trace_setup *buts = TAIL(struct blk_user_trace_setup);

	fill(p64, 16, 0x80);
	*pi = -42;
	IOC(BLKRASET, 0xdeadbeefUL);
	IOC(BLKFRASET, 42);
	for (unsigned i = 0; i < sizeof(in_int) / sizeof(in_int[0]); i++) {
		IOC(in_int[i], pi);
		IOC(in_int[i], NULL);
		IOC(in_int[i], (char *)pi + 1);
	}
	for (unsigned i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		IOC(out[i], p64);
		IOC(out[i], NULL);
	}
	for (unsigned i = 0; i < sizeof(pair) / sizeof(pair[0]); i++) {
		IOC(pair[i], p64);
		IOC(pair[i], (char *)p64 + 8);
	}
	for (unsigned i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		IOC(none[i], 0);

	fill(part, sizeof(*part), 'a');
	memcpy(part->devname, "sda1", 5);
	pg->op = BLKPG_ADD_PARTITION;
	pg->flags = 1;
	pg->datalen = sizeof(*part);
	pg->data = part;
	IOC(BLKPG, pg);
	part->devname[sizeof(part->devname) - 1] = 'z';  /* no NUL in volname */
	pg->op = 0xbad;
	IOC(BLKPG, pg);
	pg->data = BAD_PTR;
	IOC(BLKPG, pg);
	IOC(BLKPG, (char *)pg + 1);

	fill(buts, sizeof(*buts), 'A');
	buts->name[5] = 0;
	buts->pid = 1234;
	IOC(BLKTRACESETUP, buts);
	IOC(BLKTRACESETUP, NULL);
	IOC(_IO(0x12, 0xff), 0x1234);
	IOC(_IOR(0x12, 0xfe, int), pi);
	return 0;
}
