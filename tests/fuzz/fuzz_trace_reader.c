/*
 * libFuzzer target for the trace reader (src/replay/reader.c, jv.c and
 * compat.c, which reads the text-only arguments of format v1): any bytes,
 * as a plain or zstd file, must give 0 or -1 with one message, never a
 * crash, a hang or a leak.  Accepted traces are written back through the
 * json and jsonl sinks.  The seeds hold traces of both formats (v1: the
 * goldens and traces of renacer 0.9 kept in tests/data/v1).
 * seeds: tests/data/traces tests/data/v1
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "replay/reader.h"
#include "sink/sinks.h"
#include "util/error.h"

static int nmsg;

static void quiet(const char *kind, const char *msg)
{
	nmsg++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static FILE *devnull;
	char path[64];
	struct sink_list l = SINK_LIST_INIT;
	struct trace_meta meta;
	int missing, r;

	if (fd < 0) {
		fd = memfd_create("trace", 0);
		devnull = fopen("/dev/null", "w");
		if (fd < 0 || !devnull)
			abort();
		error_set_hook(quiet);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	sink_list_add(&l, json_sink_new(devnull, NULL, NULL));
	sink_list_add(&l, jsonl_sink_new(devnull, NULL, NULL));
	nmsg = 0;
	r = trace_read(path, &l, &meta, &missing);
	if (r == 0)
		trace_meta_release(&meta);
	/* a failure says so exactly once; a success says nothing */
	if ((r < 0 && nmsg != 1) || (r == 0 && nmsg != 0) || missing)
		abort();
	sink_list_release(&l);
	return 0;
}
