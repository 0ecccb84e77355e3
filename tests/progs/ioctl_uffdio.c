/* userfaultfd ioctls (type 0xaa) with filled, short and bad arguments on a
 * bad descriptor, for tests/t/decode_ioctl_uffdio.sh. */
#include <linux/userfaultfd.h>

#include "ioctl_test.h"

int main(void)
{
	struct uffdio_api *api = TAIL(struct uffdio_api);
	struct uffdio_copy *cp = TAIL(struct uffdio_copy);
	struct uffdio_register *rg = TAIL(struct uffdio_register);
	struct uffdio_range *rn = TAIL(struct uffdio_range);
	struct uffdio_zeropage *zp = TAIL(struct uffdio_zeropage);

	api->api = UFFD_API;
	api->features = UFFD_FEATURE_EVENT_FORK | 0x80000000;
	api->ioctls = (1ULL << _UFFDIO_API) | (1ULL << _UFFDIO_REGISTER);
	IOC(UFFDIO_API, api);
	fill(cp, sizeof(*cp), 1);
	cp->mode = UFFDIO_COPY_MODE_DONTWAKE | 0x10;
	IOC(UFFDIO_COPY, cp);
	IOC(UFFDIO_COPY, (char *)cp + 1);
	fill(rg, sizeof(*rg), 2);
	rg->mode = UFFDIO_REGISTER_MODE_MISSING;
	rg->ioctls = (1ULL << _UFFDIO_WAKE) | (1ULL << _UFFDIO_COPY) | 0x100000;
	IOC(UFFDIO_REGISTER, rg);
	rn->start = 0x1000;
	rn->len = 0x2000;
	IOC(UFFDIO_UNREGISTER, rn);
	IOC(UFFDIO_WAKE, rn);
	IOC(UFFDIO_WAKE, NULL);
	fill(zp, sizeof(*zp), 3);
	zp->mode = UFFDIO_ZEROPAGE_MODE_DONTWAKE;
	IOC(UFFDIO_ZEROPAGE, zp);
	IOC(UFFDIO_ZEROPAGE, NULL);
	return 0;
}
