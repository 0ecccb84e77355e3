#!/bin/sh
# Attaching (-f -p) to a busy process that exits, or whose non-leader thread
# execs, while renacer attaches: every run ends on its own within seconds,
# with exit 0 (or, when the process was gone before one thread could be
# seized, a one-line "cannot attach" error and exit 1), and the target's own
# exit status is untouched, and the trace ends with the process's exit;
# also when the exec starts in the middle of the attach.
# Repeated at moments spread over the attach.
set -u
. "$TOP/tests/lib.sh"
P=$(need_prog attachee)
fail=0
bad() { echo "FAIL: $*"; fail=1; }
runs=0 attached=0

# one MODE N MS: starts the target, attaches as soon as it is ready
one() {
	_mode=$1 _n=$2 _ms=$3
	_f=$TMPDIR/ready
	: > "$_f"
	if [ "$_mode" = exit ]; then
		"$P" busy "$_n" "$_ms" > "$_f" &
		_want=0
	elif [ "$_mode" = exec-on-attach ]; then
		"$P" exec-on-attach "$_n" 200 > "$_f" &
		_want=0
	else
		"$P" exec "$_n" 200 "$_ms" > "$_f" &
		_want=0   # the exec'ed image's exit status
	fi
	_apid=$!
	_i=0
	while ! grep -q ready "$_f" && [ $_i -lt 3000 ]; do sleep 0.005; _i=$((_i + 1)); done
	_s=$(date +%s)
	timeout -k 5 30 "$RENACER" -f -q -o "$TMPDIR/trace" -p "$_apid" 2>"$TMPDIR/err"
	_rc=$?
	_secs=$(( $(date +%s) - _s ))
	wait "$_apid"
	_arc=$?
	runs=$((runs + 1))
	if [ $_rc -eq 124 ] || [ $_rc -eq 137 ]; then
		bad "$_mode $_n threads at ${_ms}ms: renacer still running after 30s"
	elif [ $_secs -gt 10 ]; then
		bad "$_mode $_n threads at ${_ms}ms: renacer took ${_secs}s"
	elif [ $_rc -eq 0 ]; then
		attached=$((attached + 1))
		[ -s "$TMPDIR/err" ] && bad "$_mode at ${_ms}ms: messages: $(head -n 3 "$TMPDIR/err")"
		# the trace follows the process to its end: the last line is
		# the exit of a task of it (the leader's when renacer could
		# seize it before it was a zombie: it is reported last)
		tail -n 1 "$TMPDIR/trace" | grep -Eq "^[0-9]+ +\+\+\+ exited with 0 \+\+\+\$" ||
			bad "$_mode at ${_ms}ms: trace ends with '$(tail -n 1 "$TMPDIR/trace")'"
	elif [ $_rc -eq 1 ]; then
		grep -Eq "^renacer: cannot attach to process $_apid: " "$TMPDIR/err" &&
			[ "$(wc -l < "$TMPDIR/err")" -eq 1 ] ||
			bad "$_mode at ${_ms}ms: exit 1 with: $(head -n 3 "$TMPDIR/err")"
	else
		bad "$_mode $_n threads at ${_ms}ms: renacer exit $_rc: $(head -n 3 "$TMPDIR/err")"
	fi
	[ $_arc -eq $_want ] || bad "$_mode at ${_ms}ms: the target exited $_arc, want $_want"
}

for ms in 0 5 10 20 40 60 80 120 160 200; do
	one exit 100 $ms
	one exec 100 $ms
done
# the exec starts once renacer has seized the main thread, so it waits for
# renacer to reap the threads it killed while renacer seizes the exec'ing
# thread (the kernel's cred_guard_mutex): without the reaper, a deadlock
for i in 1 2 3 4 5 6; do
	one exec-on-attach 50 0
done
echo "$runs runs, $attached attached before the target ended"
# most runs must really attach, or the test proves nothing
[ $attached -ge $((runs / 2)) ] || bad "only $attached of $runs runs attached"
exit $fail
