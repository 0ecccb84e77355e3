#!/bin/sh
# The engine never hangs, never leaves a tracee stopped and never swallows a
# signal: orphans, 1000 children, exec from a thread, vfork, blocked and
# ignored signals, unreadable memory, death by signal, SIGKILL mid-call.
set -u
P=$PROGS/engine
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# a child that outlives its parent is still traced to its end
out=$("$RENACER" -f -o "$TMPDIR/orphan" "$P" orphan); rc=$?
[ $rc -eq 3 ] || bad "orphan: exit $rc, want the parent's 3"
[ "$out" = "child done" ] || bad "orphan: child output '$out'"
grep -q '+++ exited with 7 +++' "$TMPDIR/orphan" || bad "orphan: child's exit line missing"

# 1000 short-lived children: every one seen to exit
"$RENACER" -f -o "$TMPDIR/many" "$P" many 1000 >/dev/null; rc=$?
[ $rc -eq 0 ] || bad "many: exit $rc"
n=$(grep -c '+++ exited with' "$TMPDIR/many")
[ "$n" -eq 1001 ] || bad "many: $n exit lines, want 1001"

# a non-leader thread calls execve
out=$("$RENACER" -f -o "$TMPDIR/texec" "$P" thread-exec "$P"); rc=$?
[ $rc -eq 5 ] || bad "thread-exec: exit $rc, want 5 (exit of the exec'ed image)"
[ "$out" = "exec ok" ] || bad "thread-exec: output '$out'"

# vfork + exec
"$RENACER" -f -o "$TMPDIR/vfork" "$P" vfork; rc=$?
[ $rc -eq 0 ] || bad "vfork: exit $rc"
grep -q 'vfork' "$TMPDIR/vfork" || bad "vfork: no vfork line"

# blocked, ignored and handled signals all reach the tracee; renacer dies
# like it (SIGTERM once unblocked)
out=$("$RENACER" -o "$TMPDIR/sig" "$P" signals); rc=$?
[ $rc -eq 143 ] || bad "signals: exit $rc, want 143 (killed by SIGTERM)"
[ "$out" = "usr2 5" ] || bad "signals: handler ran '$out', want 'usr2 5'"
n=$(grep -c '^--- SIGUSR2 ' "$TMPDIR/sig")
[ "$n" -eq 5 ] || bad "signals: $n SIGUSR2 lines, want 5"
grep -q '^+++ killed by SIGTERM +++' "$TMPDIR/sig" || bad "signals: no killed line"

# unreadable tracee memory: the address is shown, the call still fails
out=$("$RENACER" -o "$TMPDIR/badmem" "$P" badmem); rc=$?
[ $rc -eq 0 ] || bad "badmem: exit $rc"
grep -Eq '^open(at)?\(.*0x1, .*= -1 EFAULT \(Bad address\)' "$TMPDIR/badmem" || bad "badmem: no EFAULT open line"
grep -Eq '^write\(1, 0x10, 8\) += -1 EFAULT' "$TMPDIR/badmem" || bad "badmem: no EFAULT write line"

# death by a signal: renacer ends the same way
"$RENACER" -o "$TMPDIR/segv" "$P" segv; rc=$?
[ $rc -eq 139 ] || bad "segv: exit $rc, want 139"
grep -q '^+++ killed by SIGSEGV' "$TMPDIR/segv" || bad "segv: no killed line"

# SIGKILL while blocked in read: the call shows unfinished, no hang
mkfifo "$TMPDIR/fifo"
( exec 3<>"$TMPDIR/fifo"; exec "$RENACER" -o "$TMPDIR/kill" "$P" block <&3 >"$TMPDIR/kill.out" ) &
rpid=$!
i=0
while ! grep -q ready "$TMPDIR/kill.out" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
tpid=$(pgrep -f "engine block" | grep -v "^$rpid\$" | head -n 1)
[ -n "$tpid" ] || bad "kill: tracee not found"
kill -KILL "$tpid" 2>/dev/null
wait $rpid; rc=$?
[ $rc -eq 137 ] || bad "kill: renacer exit $rc, want 137"
grep -q '^read(0, <unfinished ...>) *= ?' "$TMPDIR/kill" || grep -q '^read(0, .*unfinished' "$TMPDIR/kill" || bad "kill: no unfinished read line: $(tail -n 2 "$TMPDIR/kill")"
grep -q '^+++ killed by SIGKILL +++' "$TMPDIR/kill" || bad "kill: no killed line"

# job control: SIGSTOP shows as a stop, the tracee stays stopped until
# SIGCONT and then finishes normally
"$RENACER" -o "$TMPDIR/stop" "$P" sleep 600 > "$TMPDIR/stop.out" &
rpid=$!
i=0
while [ ! -s "$TMPDIR/stop.out" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
tpid=$(head -n 1 "$TMPDIR/stop.out")
kill -STOP "$tpid"
sleep 0.2
st=$(ps -o stat= -p "$tpid" | cut -c1)
[ "$st" = "T" ] || [ "$st" = "t" ] || bad "stop: tracee in state '$st' after SIGSTOP"
kill -CONT "$tpid"
wait $rpid; rc=$?
[ $rc -eq 0 ] || bad "stop: exit $rc"
grep -q '^--- SIGSTOP {si_signo=SIGSTOP, si_code=SI_USER' "$TMPDIR/stop" || bad "stop: no SIGSTOP line"
grep -q '^--- stopped by SIGSTOP ---' "$TMPDIR/stop" || bad "stop: no 'stopped by' line"
grep -q '^--- SIGCONT {si_signo=SIGCONT' "$TMPDIR/stop" || bad "stop: no SIGCONT line"

# nothing of ours is left stopped
if ps -eo stat,args | grep -v grep | grep -E '^T' | grep -q "$P"; then
	bad "a tracee is left stopped"
fi
exit $fail
