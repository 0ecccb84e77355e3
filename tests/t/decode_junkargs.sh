#!/bin/sh
# Arguments as the kernel saw them (tests/progs/junkargs): every syscall of
# the generated table that has an int, unsigned int, pid_t, umode_t, ...
# argument is called with junk in the register bits above that width (all
# ones below them, zeros, or meaningful values: F_SETLK, 022, O_CLOEXEC), and
# renacer must print each line exactly as strace does.  The lines after the
# program's sched_yield() marker are compared without masking: junk that
# leaks into a hex value would otherwise hide behind the address mask.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog junkargs) || exit 1

cut_trace() { # file: the lines from the marker on
	sed -n '/^sched_yield() /,$p' "$1" >"$1.cut"
}

rc=0
for mode in ones zeros values exit exit_group; do
	run_both -- "$prog" "$mode"
	if [ "$STRACE_RC" != "$RENACER_RC" ]; then
		echo "junkargs $mode: exit status: strace run $STRACE_RC, renacer run $RENACER_RC"
		rc=1
	fi
	[ -f "$RENACER_OUT" ] || { rc=1; continue; }
	cut_trace "$STRACE_OUT"
	cut_trace "$RENACER_OUT"
	[ -s "$STRACE_OUT.cut" ] || fail "junkargs $mode: no marker in strace's trace"
	if ! cmp -s "$STRACE_OUT.cut" "$RENACER_OUT.cut"; then
		echo "junkargs $mode: differs from strace (- strace, + renacer):"
		diff -u "$STRACE_OUT.cut" "$RENACER_OUT.cut" | sed -n '3,80p'
		rc=1
	fi
	[ "$mode" = ones ] && ones_trace=$STRACE_OUT
done

# Every syscall with a narrow argument is called, or skipped with a reason.
"$prog" list >"$TMPDIR/list" || fail "junkargs list failed"
called=$(grep -c ' called$' "$TMPDIR/list")
[ "$called" -ge 200 ] || fail "junkargs calls only $called syscalls"
grep -v ' called$' "$TMPDIR/list" | grep -Ev '^[a-z_0-9]+ +[a-z]' &&
	fail "a skipped syscall without a reason"
# strace saw each call: marker, the calls, exit_group, "+++ exited"
seen=$(($(sed -n '/^sched_yield() /,$p' "$ones_trace" | wc -l) - 3))
[ "$seen" = "$called" ] || fail "junkargs ones: $called calls made, strace shows $seen"

# Decoders read ev->karg; a read of ev->raw must say why ("raw:").
if grep -n 'ev->raw\[' "$TOP"/src/sys/*.c | grep -v 'raw:'; then
	fail "decoders above read ev->raw without a 'raw:' reason"
fi
exit $rc
