/*
 * PCIeBottleneck on a real GPU (tests/t/ap_pcie_cuda.sh): through the CUDA
 * driver API, loaded with dlopen so that it builds everywhere.
 * `ap_cuda transfer N` makes N small host-to-device and device-to-host
 * copies, each synchronized: the run is driver calls and transfers.
 * `ap_cuda compute MS` sets up the same context, makes one copy, then
 * computes on the CPU for MS milliseconds without a syscall.
 * Exits 77 when there is no CUDA driver or device.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*init_fn)(unsigned);
typedef int (*devget_fn)(int *, int);
typedef int (*ctxcreate_fn)(void **, unsigned, int);
typedef int (*memalloc_fn)(unsigned long long *, size_t);
typedef int (*htod_fn)(unsigned long long, const void *, size_t);
typedef int (*dtoh_fn)(void *, unsigned long long, size_t);
typedef int (*sync_fn)(void);

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long n = atol(argv[2]);
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h)
		return 77;
	init_fn init = (init_fn)dlsym(h, "cuInit");
	devget_fn devget = (devget_fn)dlsym(h, "cuDeviceGet");
	ctxcreate_fn ctxcreate = (ctxcreate_fn)dlsym(h, "cuCtxCreate_v2");
	memalloc_fn memalloc = (memalloc_fn)dlsym(h, "cuMemAlloc_v2");
	htod_fn htod = (htod_fn)dlsym(h, "cuMemcpyHtoD_v2");
	dtoh_fn dtoh = (dtoh_fn)dlsym(h, "cuMemcpyDtoH_v2");
	sync_fn sync = (sync_fn)dlsym(h, "cuCtxSynchronize");
	if (!init || !devget || !ctxcreate || !memalloc || !htod || !dtoh || !sync)
		return 77;
	int dev;
	void *ctx;
	unsigned long long d;
	static char buf[1 << 16];
	if (init(0) || devget(&dev, 0) || ctxcreate(&ctx, 0, dev) || memalloc(&d, sizeof(buf)))
		return 77;
	if (!strcmp(argv[1], "transfer")) {
		for (long i = 0; i < n; i++) {
			buf[0] = (char)i;
			if (htod(d, buf, sizeof(buf)) || sync() || dtoh(buf, d, sizeof(buf)))
				return 1;
		}
		return 0;
	}
	if (htod(d, buf, sizeof(buf)) || sync())
		return 1;
	/* CPU work, no syscalls (clock_gettime is in the vDSO) */
	volatile double x = 0;
	double end = now_ms() + (double)n;
	while (now_ms() < end)
		for (int i = 0; i < 100000; i++)
			x += i * 0.5;
	return 0;
}
