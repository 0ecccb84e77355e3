/*
 * ATA disk ioctls (type 0x03, linux/hdreg.h) with filled, short and bad
 * arguments on a bad descriptor, for tests/t/decode_ioctl_hdio.sh.
 */
#include <linux/hdreg.h>

#include "ioctl_test.h"

int main(void)
{
	static const unsigned long get[] = {
		HDIO_GET_32BIT, HDIO_GET_ACOUSTIC, HDIO_GET_ADDRESS, HDIO_GET_DMA,
		HDIO_GET_KEEPSETTINGS, HDIO_GET_MULTCOUNT, HDIO_GET_NOWERR,
		HDIO_GET_UNMASKINTR, HDIO_GET_WCACHE, HDIO_GET_BUSSTATE, HDIO_GET_NICE,
	};
	static const unsigned long set[] = {
		HDIO_SET_32BIT, HDIO_SET_ACOUSTIC, HDIO_SET_ADDRESS, HDIO_SET_DMA,
		HDIO_SET_KEEPSETTINGS, HDIO_SET_MULTCOUNT, HDIO_SET_NOWERR,
		HDIO_SET_PIO_MODE, HDIO_SET_UNMASKINTR, HDIO_SET_WCACHE,
		HDIO_UNREGISTER_HWIF,
	};
	struct hd_geometry *geo = TAIL(struct hd_geometry);
	unsigned char *cmd = tail_alloc(4 + 512);
	unsigned char *cmd0 = tail_alloc(4);
	unsigned long *pl = TAIL(unsigned long);
	unsigned *arr = tail_alloc(12);
	char *ident = tail_alloc(512);

	fill(geo, sizeof(*geo), 0x10);
	IOC(HDIO_GETGEO, geo);
	IOC(HDIO_GETGEO, (char *)geo + 1);
	IOC(HDIO_GETGEO, NULL);
	fill(cmd, 4 + 512, 0x80);
	cmd[0] = 0xca;          /* ATA_CMD_WRITE */
	cmd[3] = 1;             /* one sector follows */
	IOC(HDIO_DRIVE_CMD, cmd);
	fill(cmd0, 4, 0x20);
	cmd0[3] = 0;
	IOC(HDIO_DRIVE_CMD, cmd0);
	cmd0[0] = 0x80;         /* no name */
	cmd0[3] = 2;            /* the sectors are not there */
	IOC(HDIO_DRIVE_CMD, cmd0);
	IOC(HDIO_DRIVE_CMD, cmd0 + 1);
	arr[0] = 0xdeadbeef;
	arr[1] = 1;
	arr[2] = 2;
	IOC(HDIO_DRIVE_RESET, arr);
	IOC(HDIO_SCAN_HWIF, arr + 1);
	IOC(HDIO_SCAN_HWIF, NULL);
	*pl = 0xfacefeed00000003UL;
	for (unsigned i = 0; i < sizeof(get) / sizeof(get[0]); i++) {
		IOC(get[i], pl);
		IOC(get[i], (char *)pl + 4);
	}
	*pl = 1;
	IOC(HDIO_GET_BUSSTATE, pl);
	*pl = 0x1b;
	IOC(HDIO_GET_NICE, pl);
	for (unsigned i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		IOC(set[i], 0xfacefeed00000003UL);
	IOC(HDIO_SET_BUSSTATE, 2);
	IOC(HDIO_SET_BUSSTATE, 7);
	IOC(HDIO_SET_NICE, 0x1f);
	IOC(HDIO_SET_NICE, 0x100);
	memset(ident, 'i', 512);
	IOC(HDIO_GET_IDENTITY, ident);
	IOC(HDIO_OBSOLETE_IDENTITY, ident);
	IOC(HDIO_GET_IDENTITY, ident + 1);
	IOC(HDIO_GET_QDMA, pl);
	IOC(HDIO_SET_XFER, 5);
	return 0;
}
