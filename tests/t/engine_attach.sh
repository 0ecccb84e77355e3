#!/bin/sh
# -p PID: attach to a running process, trace it, and on SIGINT detach and
# leave it running (not stopped, not killed).
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$PROGS/engine" sleep 30000 > "$TMPDIR/pid" &
spid=$!
i=0
while [ ! -s "$TMPDIR/pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
"$RENACER" -p "$spid" -o "$TMPDIR/trace" 2>"$TMPDIR/err" &
rpid=$!
i=0
while ! grep -q attached "$TMPDIR/err" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
sleep 0.2
kill -INT $rpid
wait $rpid; rc=$?
grep -q "Process $spid attached" "$TMPDIR/err" || bad "no attach message: $(cat "$TMPDIR/err")"
grep -q "Process $spid detached" "$TMPDIR/err" || bad "no detach message: $(cat "$TMPDIR/err")"
kill -0 $spid 2>/dev/null || bad "the attached process died"
st=$(ps -o stat= -p $spid | cut -c1)
[ "$st" = "S" ] || [ "$st" = "R" ] || bad "the attached process is in state '$st' after detach"
grep -q 'restart_syscall\|nanosleep\|clock_nanosleep' "$TMPDIR/trace" || bad "trace has no sleep call: $(cat "$TMPDIR/trace")"
[ $rc -eq 130 ] || bad "renacer exit $rc, want 130 (killed by its SIGINT, as strace)"
kill $spid; wait $spid 2>/dev/null
exit $fail
