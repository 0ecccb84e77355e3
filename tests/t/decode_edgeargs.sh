#!/bin/sh
# Edge values of every syscall family (tests/progs/edgeargs): invalid flag
# bits, zero flag words, NULL and unmapped pointers, structures and arrays
# that end on an unmapped page, unterminated and long strings, huge sizes,
# times with their comments, EFAULT and ENOSYS results.  renacer must print
# each line as strace does, with the default string limit, with -s 4 -y and
# with -s 0 -v.  The program's buffers sit at a fixed address, so the lines
# after its sched_yield() marker are compared without masking.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog edgeargs) || exit 1

sections="file desc io mem proc sig time net poll ipc admin new"
rc=0
for opts in "" "-s 4 -y" "-s 0 -v"; do
	for s in $sections; do
		# shellcheck disable=SC2086
		run_both $opts -- "$prog" "$s"
		if [ "$STRACE_RC" != 0 ] || [ "$RENACER_RC" != 0 ]; then
			echo "edgeargs $s ($opts): exit status: strace run $STRACE_RC, renacer run $RENACER_RC"
			head -n 3 "$(dirname "$STRACE_OUT")/strace.stderr"
			rc=1
			continue
		fi
		sed -n '/^sched_yield() /,$p' "$STRACE_OUT" >"$STRACE_OUT.cut"
		sed -n '/^sched_yield() /,$p' "$RENACER_OUT" >"$RENACER_OUT.cut"
		[ "$(wc -l <"$STRACE_OUT.cut")" -gt 10 ] ||
			fail "edgeargs $s: too few lines in strace's trace"
		if ! cmp -s "$STRACE_OUT.cut" "$RENACER_OUT.cut"; then
			echo "edgeargs $s ($opts): differs from strace (- strace, + renacer):"
			diff -u "$STRACE_OUT.cut" "$RENACER_OUT.cut" | sed -n '3,40p'
			rc=1
		fi
	done
done
exit $rc
