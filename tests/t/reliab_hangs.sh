#!/bin/sh
# Watchdog (issue 18 item 1): every hostile program of tests/progs/hostile.c
# ends under renacer, under both back ends, with the exit status strace's
# run gives, and leaves no process behind.  A clone(CLONE_PTRACE) child of
# an untraced parent (no -f) is let go at its first stop; before, it stayed
# in ptrace_stop and renacer waited for ever.
set -u
. "$TOP/tests/lib.sh"
need_strace
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# a copy under a name of its own, so that leftovers are found by name
H="$TMPDIR/hostile-$$"
cp "$(need_prog hostile)" "$H" || fail "cannot copy the test program"
LIMIT=60
# whether the child's SIGCHLD comes before or after the parent's wait4 is
# the scheduler's choice
MASK_EXTRA='/^--- SIGCHLD /d'

"$RENACER" --backend ebpf -c -o /dev/null true > /dev/null 2>&1
have_ebpf=$?

# run LABEL WANT OPTS...: renacer OPTS -o FILE H MODE under a timeout
run() {
	label=$1 want=$2; shift 2
	out="$TMPDIR/out.$n"
	n=$((n + 1))
	timeout -k 5 $LIMIT "$RENACER" "$@" -o "$out" "$H" "$mode" \
		> /dev/null 2> "$out.err" < /dev/null
	rc=$?
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		rc=hang
		bad "$label: renacer $* $mode did not end in ${LIMIT}s"
	elif [ "$rc" != "$want" ]; then
		bad "$label: renacer $* $mode: exit $rc, want $want (strace's); stderr: $(head -c 300 "$out.err")"
	fi
	left=$(pgrep -f "$H" | tr '\n' ' ')
	if [ -n "$left" ]; then
		bad "$label: $mode: processes left behind: $left"
		pkill -KILL -f "$H"
	fi
}

n=0
for mode in clone-ptrace vfork-ptrace traceme-signal traceme-child; do
	# the oracle: strace's exit status (traceme-signal stops for good
	# under a parent that is not its tracer, so nothing else can say)
	timeout -k 5 $LIMIT strace -o "$TMPDIR/strace.$mode" "$H" "$mode" \
		> /dev/null 2>&1 < /dev/null
	want=$?
	case $want in 124|137) fail "strace hangs on $mode" ;; esac

	run "ptrace" "$want" --backend ptrace
	# the debugger modes' signal lines interleave by timing
	case $mode in *-ptrace) ;; *) false ;; esac &&
		[ "$rc" = "$want" ] && ! compare_traces "$TMPDIR/strace.$mode" "$out" "$mode" &&
		bad "$mode: the trace differs from strace's"
	run "ptrace -c" "$want" --backend ptrace -c
	run "ptrace -e trace=none" "$want" --backend ptrace -e trace=none
	run "ptrace -e trace=clone" "$want" --backend ptrace -e trace=clone
	run "ptrace -f" "$want" --backend ptrace -f
	run "ptrace -f -c" "$want" --backend ptrace -f -c
	[ "$have_ebpf" = 0 ] || continue
	for opts in "-c" "-f -c"; do
		# shellcheck disable=SC2086
		run "ebpf $opts" "$want" --backend ebpf $opts
	done
done
# attached (-p) with and without -f: the CLONE_PTRACE child of a process
# renacer attached to is let go too (without -f) or followed (with -f)
for opts in "" "-f"; do
	"$H" late-clone-ptrace 1000 > /dev/null 2>&1 &
	hp=$!
	sleep 0.2
	# shellcheck disable=SC2086
	timeout -k 5 $LIMIT "$RENACER" $opts -p $hp -o "$TMPDIR/attach$opts.txt" > /dev/null 2>&1
	rc=$?
	case $rc in 124|137) bad "-p $opts late-clone-ptrace: renacer did not end in ${LIMIT}s" ;; esac
	wait $hp
	hrc=$?
	[ $hrc = 32 ] || bad "-p $opts late-clone-ptrace: the program exited $hrc, want 32"
	grep -q 'clone(.*CLONE_PTRACE' "$TMPDIR/attach$opts.txt" ||
		bad "-p $opts late-clone-ptrace: no clone line: $(tail -n 5 "$TMPDIR/attach$opts.txt")"
	left=$(pgrep -f "$H" | tr '\n' ' ')
	[ -z "$left" ] || { bad "-p $opts: processes left behind: $left"; pkill -KILL -f "$H"; }
done
for f in "$TMPDIR"/out.*; do
	case $f in *.err) continue ;; esac
	[ -s "$f" ] || bad "$f: no trace written"
done
[ "$have_ebpf" = 0 ] || echo "note: eBPF back end unavailable here; ptrace only"
[ $fails = 0 ] || exit 1
echo "all hostile programs ended"
