#!/bin/sh
# perf_event ioctls (tests/progs/ioctl_perf): flags, periods, filters,
# ids, BPF queries, modified attributes, with -v, -X raw/verbose,
# failing calls and injected successes, against strace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_perf) || exit 1
ioctl_compare "$prog"
