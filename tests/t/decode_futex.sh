#!/bin/sh
# futex decoder against strace: tests/progs/futexops makes every futex
# operation (names with _PRIVATE and FUTEX_CLOCK_REALTIME, the arguments each
# one uses, FUTEX_BITSET_MATCH_ANY, FUTEX_WAKE_OP's encoded val3, unknown
# operations) with deterministic results.  The absolute timeout read from
# the clock is masked.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog futexops) || exit 1

MASK_EXTRA='s/tv_sec=[0-9]{3,}, tv_nsec=[0-9]+/tv_sec=N, tv_nsec=N/g'
export MASK_EXTRA

rc=0
compare_with_strace -e trace=futex -- "$prog" || rc=1
compare_with_strace -- "$prog" || rc=1
[ "$(grep -c '^futex(' "$STRACE_OUT")" -ge 25 ] || fail "expected futex calls in strace's trace"
# -X raw and -X verbose: every value in strace's other two styles
for x in "-X raw" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=futex -- "$prog" || rc=1
done
exit $rc
