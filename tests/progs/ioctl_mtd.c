/* MTD ioctls ('M', mtd/mtd-abi.h) with filled, short and bad arguments on
 * a bad descriptor, for tests/t/decode_ioctl_flash.sh. */
#include <mtd/mtd-abi.h>

#include "ioctl_test.h"

/* The request at the structure, one byte in (short), and NULL. */
#define THREE(req, p) do { IOC(req, p); IOC(req, (char *)(p) + 1); IOC(req, NULL); } while (0)

int main(void)
{
	struct erase_info_user *ei = TAIL(struct erase_info_user);
	struct erase_info_user64 *ei64 = TAIL(struct erase_info_user64);
	struct mtd_oob_buf *ob = TAIL(struct mtd_oob_buf);
	struct mtd_oob_buf64 *ob64 = TAIL(struct mtd_oob_buf64);
	struct mtd_write_req *wr = TAIL(struct mtd_write_req);
	struct otp_info *oi = TAIL(struct otp_info);
	struct mtd_info_user *mi = TAIL(struct mtd_info_user);
	struct region_info_user *ri = TAIL(struct region_info_user);
	struct nand_oobinfo *no = TAIL(struct nand_oobinfo);
	struct nand_ecclayout_user *el = TAIL(struct nand_ecclayout_user);
	struct mtd_ecc_stats *es = TAIL(struct mtd_ecc_stats);
	unsigned int *u = TAIL(unsigned int);
	int64_t *l = TAIL(int64_t);

	fill(ei, sizeof(*ei), 1);
	THREE(MEMERASE, ei);
	IOC(MEMLOCK, ei);
	IOC(MEMUNLOCK, ei);
	IOC(MEMISLOCKED, ei);
	fill(ei64, sizeof(*ei64), 0x11);
	THREE(MEMERASE64, ei64);
	fill(ob, sizeof(*ob), 0x21);
	THREE(MEMWRITEOOB, ob);
	IOC(MEMREADOOB, ob);
	fill(ob64, sizeof(*ob64), 0x31);
	THREE(MEMWRITEOOB64, ob64);
	IOC(MEMREADOOB64, ob64);
	fill(wr, sizeof(*wr), 0x41);
	wr->mode = MTD_OPS_RAW;
	THREE(MEMWRITE, wr);
	wr->mode = 0x7f;
	IOC(MEMWRITE, wr);
	fill(oi, sizeof(*oi), 0x51);
	THREE(OTPGETREGIONINFO, oi);
	THREE(OTPLOCK, oi);
	*u = MTD_OTP_USER;
	IOC(OTPSELECT, u);
	*u = 0x10;
	IOC(OTPSELECT, u);
	IOC(OTPSELECT, NULL);
	IOC(MTDFILEMODE, MTD_FILE_MODE_RAW);
	IOC(MTDFILEMODE, 0x55);
	*l = 0x1234567890LL;
	IOC(MEMGETBADBLOCK, l);
	IOC(MEMSETBADBLOCK, l);
	IOC(MEMSETBADBLOCK, BAD_PTR);
	fill(mi, sizeof(*mi), 0x61);
	mi->type = MTD_NANDFLASH;
	mi->flags = MTD_WRITEABLE | MTD_NO_ERASE | 1;
	THREE(MEMGETINFO, mi);
	fill(no, sizeof(*no), 0x71);
	THREE(MEMGETOOBSEL, no);
	fill(el, sizeof(*el), 0x81);
	THREE(ECCGETLAYOUT, el);
	fill(es, sizeof(*es), 0x91);
	THREE(ECCGETSTATS, es);
	*u = 7;
	IOC(OTPGETREGIONCOUNT, u);
	IOC(MEMGETREGIONCOUNT, u);
	IOC(MEMGETREGIONCOUNT, BAD_PTR);
	fill(ri, sizeof(*ri), 0xa1);
	THREE(MEMGETREGIONINFO, ri);
	IOC(_IO('M', 0x7f), 0);
	return 0;
}
