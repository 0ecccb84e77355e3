#!/bin/sh
# -p PID: attach to a running process, trace it, and on SIGINT detach and
# leave it running (not stopped, not killed).  -p PID with a command, as
# strace: both are traced, the exit status is the command's, and the lines
# (pids named by role) are strace's.
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

# -p PID -- COMMAND: the attached process (it sleeps 1.5 s, then exits) and
# the started command (exit 7), in one trace; renacer ends when both have
both_run() { # tool out: the tool's trace of both, pids replaced by roles
	rm -f "$TMPDIR/bpid"
	"$PROGS/engine" sleep 1500 > "$TMPDIR/bpid" &
	bpid=$!
	i=0
	while [ ! -s "$TMPDIR/bpid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
	"$1" -p "$bpid" -e trace=exit_group -o "$2.raw" -- "$PROGS/engine" exit 7 2> "$2.err"
	echo $? > "$2.rc"
	wait $bpid 2>/dev/null
	# with -o FILE each line starts with its pid, as strace writes it
	sed -e "s/^$bpid /[attached] /" -e 's/^[0-9][0-9]* /[command] /' \
	    "$2.raw" | tr -s ' ' > "$2"
}
both_run "$RENACER" "$TMPDIR/both.r"
[ "$(cat "$TMPDIR/both.r.rc")" = 7 ] || bad "-p with a command: exit $(cat "$TMPDIR/both.r.rc"), want the command's 7: $(cat "$TMPDIR/both.r.err")"
# (-o FILE with a command is quiet about attaching, as strace is)
grep -q "Process $bpid attached" "$TMPDIR/both.r.err" && bad "-p with a command and -o: an attach message"
grep -qx '\[command\] exit_group(7) = ?' "$TMPDIR/both.r" || bad "-p with a command: no exit_group(7) of the command: $(cat "$TMPDIR/both.r")"
grep -q '^\[attached\] exit_group(0)' "$TMPDIR/both.r" || bad "-p with a command: the attached process's exit is missing: $(cat "$TMPDIR/both.r")"
if command -v strace > /dev/null 2>&1; then
	both_run strace "$TMPDIR/both.s"
	[ "$(cat "$TMPDIR/both.s.rc")" = 7 ] || bad "strace -p with a command: exit $(cat "$TMPDIR/both.s.rc")"
	diff "$TMPDIR/both.s" "$TMPDIR/both.r" > "$TMPDIR/both.diff" ||
		bad "-p with a command: not strace's lines: $(cat "$TMPDIR/both.diff")"
fi
exit $fail
