/*
 * libFuzzer target for the differential flame graph's inputs
 * (src/report/flamediff.c, runview.c): any bytes, read as folded stacks or
 * as a trace, must give 0 or -1 with exactly one message, never a crash, a
 * hang or a leak; stacks read are compared with themselves, which must
 * colour no frame, and written as folded diff lines and SVG.
 * seeds: tests/fuzz/seeds/flamediff tests/data/traces
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report/flamediff.h"
#include "util/error.h"
#include "util/strbuf.h"

static int nmsg;

static void quiet(const char *kind, const char *msg)
{
	nmsg++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	struct profile *p = NULL;
	struct fdiff *d;
	struct strbuf sb = STRBUF_INIT;
	size_t k[FD_NKINDS];
	int missing, r;

	if (fd < 0) {
		fd = memfd_create("stacks", 0);
		if (fd < 0)
			abort();
		error_set_hook(quiet);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nmsg = 0;
	r = fdiff_load(path, NULL, &p, &missing);
	if ((r < 0 && nmsg != 1) || (r == 0 && nmsg != 0) || missing || (r == 0) != (p != NULL))
		abort();
	if (r < 0)
		return 0;
	d = fdiff_new(p, p, NULL);
	for (int w = 0; w < 2; w++) {
		struct fdiff_svg so = { 0 };

		fdiff_counts(d, (enum fdiff_weight)w, k);
		if (k[FD_GREW] || k[FD_SHRANK] || k[FD_NEW] || k[FD_GONE])
			abort();
		so.weight = (enum fdiff_weight)w;
		fdiff_folded(d, so.weight, &sb);
		fdiff_svg(d, &so, &sb);
		strbuf_reset(&sb);
	}
	fdiff_free(d);
	profile_free(p);
	strbuf_release(&sb);
	return 0;
}
