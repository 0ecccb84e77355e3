#!/bin/sh
# renacer's own SIGINT/SIGTERM/SIGHUP while it runs a command: the command
# gets the same signal (as a shell's process group would), is traced to its
# end, and renacer ends as killed by its signal (128+N), not by the SIGKILL
# it may have used (issue 8).  A command that ignores the signal is killed
# after the grace period (2 s), or at once on a second signal.
set -u
. "$TOP/tests/lib.sh"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# run SIG SECONDS_BEFORE CMD...: starts renacer -f on CMD, sends SIG after
# a while; sets rc and secs (from the signal to renacer's end)
run() {
	_sig=$1 _d=$2
	shift 2
	# (a background job of sh ignores SIGINT, and so would its command)
	env --default-signal=INT "$RENACER" -f -o "$TMPDIR/trace" "$@" &
	_r=$!
	sleep "$_d"
	kill -"$_sig" $_r
	_s=$(date +%s.%N)
	wait $_r
	rc=$?
	secs=$(echo "$_s $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
}

for s in INT:130 TERM:143 HUP:129; do
	sig=${s%:*} want=${s#*:}
	run "$sig" 0.3 sleep 30
	[ $rc -eq "$want" ] || bad "SIG$sig: exit $rc, want $want"
	grep -q "^[0-9]* *+++ killed by SIG$sig +++" "$TMPDIR/trace" ||
		bad "SIG$sig: the command was not killed by SIG$sig: $(tail -n 1 "$TMPDIR/trace")"
	awk -v s="$secs" 'BEGIN { exit !(s < 1.5) }' || bad "SIG$sig: took ${secs}s"
done

# a command that handles the signal ends its own way; renacer still 143
run TERM 0.3 sh -c 'trap "exit 3" TERM; while :; do sleep 0.05; done'
[ $rc -eq 143 ] || bad "trapped TERM: exit $rc, want 143"
grep -q "+++ exited with 3 +++" "$TMPDIR/trace" || bad "trapped TERM: the handler did not run: $(tail -n 2 "$TMPDIR/trace")"

# every process of the command gets it: the shell and its child
run TERM 0.3 sh -c 'sleep 30; echo never'
[ $rc -eq 143 ] || bad "children: exit $rc, want 143"
n=$(grep -c '+++ killed by SIGTERM +++' "$TMPDIR/trace")
[ "$n" -eq 2 ] || bad "children: $n processes killed by SIGTERM, want 2"

# ignored: killed after the grace period
run INT 0.3 sh -c 'trap "" INT; sleep 30'
[ $rc -eq 130 ] || bad "ignored INT: exit $rc, want 130"
awk -v s="$secs" 'BEGIN { exit !(s >= 1.5 && s < 8) }' || bad "ignored INT: ended after ${secs}s, want the 2 s grace"
grep -q '+++ killed by SIGKILL +++' "$TMPDIR/trace" || bad "ignored INT: not killed"

# a second signal does not wait
env --default-signal=INT "$RENACER" -f -o "$TMPDIR/trace" sh -c 'trap "" INT; sleep 30' &
r=$!
sleep 0.3
kill -INT $r
sleep 0.2
s0=$(date +%s.%N)
kill -INT $r
wait $r
rc=$?
secs=$(echo "$s0 $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
[ $rc -eq 130 ] || bad "second INT: exit $rc, want 130"
awk -v s="$secs" 'BEGIN { exit !(s < 1.5) }' || bad "second INT: took ${secs}s"

# renacer's own handlers and its blocked SIGCHLD are not the command's: it
# starts with the dispositions and mask renacer was started with (here
# SIGINT and SIGHUP ignored, SIGUSR1 blocked), as it would untraced
want=$(/usr/bin/python3 -c 'import signal, os, sys
signal.signal(signal.SIGINT, signal.SIG_IGN); signal.signal(signal.SIGHUP, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
os.execv(sys.argv[1], sys.argv[1:])' /bin/grep -E '^Sig(Ign|Blk)' /proc/self/status)
got=$(/usr/bin/python3 -c 'import signal, os, sys
signal.signal(signal.SIGINT, signal.SIG_IGN); signal.signal(signal.SIGHUP, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
os.execv(sys.argv[1], sys.argv[1:])' "$RENACER" -o /dev/null /bin/grep -E '^Sig(Ign|Blk)' /proc/self/status)
[ -n "$want" ] && [ "$got" = "$want" ] || bad "signal state of the command: '$got', untraced '$want'"

# nothing of ours is left behind
sleep 0.1
if pgrep -f 'trap "" INT; sleep 30' > /dev/null; then
	bad "a process of the command outlived renacer"
fi
exit $fail
