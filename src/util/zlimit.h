/*
 * How far renacer unpacks zstd data (a trace, a golden): a stream may give
 * at most ZLIMIT_RATIO bytes per compressed byte read so far, plus
 * ZLIMIT_SLACK.  Traces compress 12-30 times (timestamps differ from call
 * to call); a "zstd bomb" of 1.7 MB that unpacks to 50 GB is stopped after
 * some 64 MB instead of being read for minutes.  docs/trace-format.md.
 */
#ifndef RENACER_ZLIMIT_H
#define RENACER_ZLIMIT_H

#include <stdbool.h>
#include <stdint.h>

#define ZLIMIT_RATIO 1000u
#define ZLIMIT_SLACK (64ull << 20)

/* The message of a stream stopped by the limit. */
#define ZLIMIT_MESSAGE "zstd data unpacks to more than 1000 times its size (64 MiB allowed beyond that): refused"

/* True while out bytes unpacked from in compressed bytes are within the limit. */
static inline bool zlimit_ok(uint64_t in, uint64_t out)
{
	return out <= ZLIMIT_SLACK || out - ZLIMIT_SLACK <= in * ZLIMIT_RATIO;
}

#endif
