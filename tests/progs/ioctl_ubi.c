/* UBI ioctls ('o', 'O', 'o'+0x80 of mtd/ubi-user.h) with filled, short and
 * bad arguments on a bad descriptor, for tests/t/decode_ioctl_flash.sh. */
#include <mtd/ubi-user.h>

#include "ioctl_test.h"

#define THREE(req, p) do { IOC(req, p); IOC(req, (char *)(p) + 1); IOC(req, NULL); } while (0)

int main(void)
{
	struct ubi_attach_req *at = TAIL(struct ubi_attach_req);
	struct ubi_mkvol_req *mk = TAIL(struct ubi_mkvol_req);
	struct ubi_rsvol_req *rs = TAIL(struct ubi_rsvol_req);
	struct ubi_rnvol_req *rn = TAIL(struct ubi_rnvol_req);
	struct ubi_leb_change_req *lc = TAIL(struct ubi_leb_change_req);
	struct ubi_map_req *mp = TAIL(struct ubi_map_req);
	struct ubi_set_vol_prop_req *sp = TAIL(struct ubi_set_vol_prop_req);
	struct ubi_blkcreate_req *bc = TAIL(struct ubi_blkcreate_req);
	int32_t *i32 = TAIL(int32_t);
	int64_t *i64 = TAIL(int64_t);

	fill(at, sizeof(*at), 1);
	THREE(UBI_IOCATT, at);
	fill(mk, sizeof(*mk), 0x41);
	mk->vol_type = UBI_DYNAMIC_VOLUME;
	mk->flags = UBI_VOL_SKIP_CRC_CHECK_FLG;
	mk->name_len = 5;
	IOC(UBI_IOCMKVOL, mk);
	mk->vol_type = 9;
	mk->flags = 0x82;
	mk->name_len = UBI_MAX_VOLUME_NAME + 10;
	THREE(UBI_IOCMKVOL, mk);
	memcpy(mk->name, "vol", 4);
	mk->name_len = -1;
	IOC(UBI_IOCMKVOL, mk);
	fill(rs, sizeof(*rs), 0x11);
	THREE(UBI_IOCRSVOL, rs);
	memset(rn, 0, sizeof(*rn));
	rn->count = 2;
	rn->ents[0].vol_id = 3;
	rn->ents[0].name_len = 4;
	memcpy(rn->ents[0].name, "abcdefgh", 8);
	rn->ents[1].vol_id = -1;
	rn->ents[1].name_len = 300;
	fill(rn->ents[1].name, sizeof(rn->ents[1].name), 'a');
	THREE(UBI_IOCRNVOL, rn);
	rn->count = UBI_MAX_RNVOL + 5;
	IOC(UBI_IOCRNVOL, rn);
	fill(lc, sizeof(*lc), 0x21);
	lc->dtype = 3;
	THREE(UBI_IOCEBCH, lc);
	fill(mp, sizeof(*mp), 0x31);
	mp->dtype = 1;
	THREE(UBI_IOCEBMAP, mp);
	fill(sp, sizeof(*sp), 0x51);
	sp->property = UBI_VOL_PROP_DIRECT_WRITE;
	THREE(UBI_IOCSETVOLPROP, sp);
	sp->property = 7;
	IOC(UBI_IOCSETVOLPROP, sp);
	*i64 = 0x123456789LL;
	IOC(UBI_IOCVOLUP, i64);
	IOC(UBI_IOCVOLUP, BAD_PTR);
	*i32 = -5;
	IOC(UBI_IOCDET, i32);
	IOC(UBI_IOCEBER, i32);
	IOC(UBI_IOCEBISMAP, i32);
	IOC(UBI_IOCEBUNMAP, i32);
	IOC(UBI_IOCRMVOL, i32);
	IOC(UBI_IOCRPEB, i32);
	IOC(UBI_IOCSPEB, BAD_PTR);
	fill(bc, sizeof(*bc), 0x61);
	IOC(UBI_IOCVOLCRBLK, bc);
	IOC(UBI_IOCVOLRMBLK, 0);
	return 0;
}
