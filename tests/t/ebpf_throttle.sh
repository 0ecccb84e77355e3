#!/bin/sh
# The eBPF recorder holds the command back instead of losing calls: the
# command runs in a cgroup of its own, frozen while a quarter of the ring buffer is
# unread (src/bpf/throttle.c).  A storm of 300,000 calls traced into a FIFO
# whose reader starts 2 s late (renacer blocks on its output, the 4 MiB ring
# fills) keeps every call; with RENACER_EBPF_THROTTLE=0 the same run loses
# calls (so the scenario does overflow the ring).  The cgroup is gone after
# the run, a process the command leaves running goes back to renacer's own
# cgroup and is not frozen, and a renacer killed with SIGKILL while the
# command is frozen leaves nothing frozen behind.
set -u
. "$TOP/tests/lib.sh"
cd "$TMPDIR" || exit 1
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$RENACER" --backend ebpf -f -e trace=none true 2> /dev/null ||
	skip "the eBPF recorder cannot run here (not root, or no BTF)"
E=$(need_prog engine)
"$RENACER" --backend ebpf -e trace=none -- cat /proc/self/cgroup > cg.txt 2>&1
grep -q '^0::/.*renacer-[0-9]*-[0-9a-f]*$' cg.txt ||
	skip "no cgroup v2 with a freezer here: $(grep '^0::' cg.txt)"
own=$(grep '^0::' /proc/self/cgroup | cut -d: -f3)
# the cgroup2 mount (the fields before " - " vary in number)
cgdir=$(sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup2 .*/\1/p' /proc/self/mountinfo | head -n 1)
[ -d "$cgdir" ] || skip "no cgroup2 mount found"
left() { ls -d "$cgdir${own%/}"/renacer-$1-* 2> /dev/null; }

n=300000
# storm THROTTLE: traces $E loop $n into a FIFO read 2 s late; sets got
storm() {
	rm -f fifo out.txt
	mkfifo fifo
	(exec < fifo; sleep 2; cat > out.txt) &    # opens it at once, reads late
	reader=$!
	RENACER_EBPF_RINGBUF=4194304 RENACER_EBPF_THROTTLE=$1 RENACER_EBPF_STATS=1 \
		"$RENACER" --backend ebpf -o fifo -- "$E" loop $n 2> err.txt
	rc=$?
	wait $reader
	got=$(grep -c '^getppid()' out.txt)
}
storm 1
[ $rc = 0 ] || bad "storm: exit $rc: $(cat err.txt)"
grep -q 'lost' err.txt && bad "storm held back: calls lost: $(grep lost err.txt)"
[ "$got" = $n ] || bad "storm held back: $got getppid lines, not $n"
grep -q 'the command was held back [1-9][0-9]* times' err.txt ||
	bad "storm: never held back: $(cat err.txt)"
held=$(grep -o 'held back [0-9]* times' err.txt)
storm 0
grep -q 'calls and signals were lost' err.txt ||
	bad "without the throttle the storm lost nothing ($got lines): the test proves nothing"
echo "throttled: $n of $n calls ($held); unthrottled: $got"

# the cgroup is gone; the command saw it
"$RENACER" --backend ebpf -e trace=none -- sh -c 'cat /proc/self/cgroup > cg2.txt' 2> /dev/null
grep -q "^0::${own%/}/renacer-[0-9]*-[0-9a-f]\{16\}$" cg2.txt || bad "not in a cgroup of its own: $(cat cg2.txt)"
pid=$(grep -o 'renacer-[0-9]*' cg2.txt | cut -d- -f2)
[ -z "$(left "$pid")" ] || bad "cgroup left behind: $(left "$pid")"

# the cgroup of a renacer that died with it is swept by the next run; a
# live renacer's is not
true & dead=$!
wait $dead
mkdir "$cgdir${own%/}/renacer-$dead-0000000000000000" "$cgdir${own%/}/renacer-$$-0000000000000000" ||
	bad "cannot make cgroups"
"$RENACER" --backend ebpf -e trace=none true 2> /dev/null
[ -z "$(left $dead)" ] || bad "a dead renacer's cgroup left: $(left $dead)"
[ -n "$(left $$)" ] || bad "a live renacer's cgroup removed"
rmdir "$cgdir${own%/}/renacer-$$-0000000000000000" 2> /dev/null
rmdir "$cgdir${own%/}/renacer-$dead-0000000000000000" 2> /dev/null

# a process left running (untraced, no -f) goes back to renacer's cgroup
"$RENACER" --backend ebpf -e trace=none -- sh -c 'sleep 30 & echo $! > bg.pid' 2> /dev/null
bg=$(cat bg.pid)
sleep 0.2
if kill -0 "$bg" 2> /dev/null; then
	grep -q "^0::$own\$" /proc/$bg/cgroup || bad "left-over process in $(grep '^0::' /proc/$bg/cgroup)"
	kill "$bg"
else
	bad "the left-over sleep is gone already"
fi

# renacer killed while the command is frozen: nothing stays frozen
for f in "" -f; do
	rm -f fifo2
	mkfifo fifo2
	RENACER_EBPF_RINGBUF=65536 "$RENACER" --backend ebpf $f -o fifo2 -- "$E" loop 100000000 \
		2> /dev/null &
	rpid=$!
	exec 3< fifo2          # opened, never read: renacer blocks, the command freezes
	i=0 cmd=
	while [ $i -lt 100 ]; do   # (up to 10 s on a busy machine)
		[ -n "$cmd" ] || cmd=$(pgrep -P $rpid -x engine | head -n 1)
		[ -n "$cmd" ] && grep -q 1 "$(left $rpid)/cgroup.freeze" 2> /dev/null && break
		sleep 0.1; i=$((i + 1))
	done
	[ -n "$cmd" ] && grep -q 1 "$(left $rpid)/cgroup.freeze" 2> /dev/null ||
		bad "renacer $f: the command (${cmd:-not found}) was not frozen"
	kill -9 $rpid
	wait $rpid 2> /dev/null
	exec 3<&-
	i=0
	# (a zombie is gone: its reaper may be slow)
	alive() { [ -n "$cmd" ] && grep -q '^State:[^Z]*$' /proc/$cmd/status 2> /dev/null; }
	while alive && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	if alive; then
		bad "renacer $f killed: the command still runs ($(grep State /proc/$cmd/status))"
		kill -9 "$cmd"
	fi
	i=0
	while [ -n "$(left $rpid)" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -z "$(left $rpid)" ] || bad "renacer $f killed: cgroup left behind: $(left $rpid)"
done

[ $fails = 0 ] || exit 1
echo ok
