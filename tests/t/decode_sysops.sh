#!/bin/sh
# capget/capset, personality, mount/umount2, membarrier, preadv2/pwritev2,
# splice/tee/vmsplice, readahead, sync_file_range and eventfd against
# strace (tests/progs/sysops), plain, with -y and with a small string limit.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog sysops) || exit 1
calls=capget,capset,personality,mount,umount2,membarrier,preadv2,pwritev2
calls=$calls,splice,tee,vmsplice,readahead,sync_file_range,eventfd
rc=0
compare_with_strace -e trace=$calls -- "$prog" || rc=1
[ "$(grep -c '^capget({version=' "$RENACER_OUT")" -ge 3 ] ||
	{ echo "capget headers not decoded"; rc=1; }
compare_with_strace -y -e trace=$calls -- "$prog" || rc=1
compare_with_strace -s 2 -e trace=$calls -- "$prog" || rc=1
# -X raw and -X verbose: every value in strace's other two styles
for x in "-X raw" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=$calls -- "$prog" || rc=1
done
exit $rc
