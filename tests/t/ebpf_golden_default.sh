#!/bin/sh
# Goldens are recorded in the kernel by default where the recorder can run
# (root, BTF): the traced run of a capture is not stopped by ptrace
# (TracerPid 0 in every run the command made), RENACER_BACKEND=ptrace puts
# it under ptrace (t/ebpf_golden: goldens of either engine validate with the other).
# A recording that loses calls (RENACER_EBPF_RINGBUF made tiny) runs again
# under ptrace and says so once, the runs after it go under ptrace too, and
# the golden holds every call; with RENACER_BACKEND=ebpf the recorder tries a
# ring buffer 4 and 16 times larger, then fails.  Where the recorder cannot
# run, a capture says why in one line and runs under ptrace.
set -u
. "$TOP/tests/lib.sh"
cd "$TMPDIR" || exit 1
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# (the default's choice, whatever RENACER_BACKEND the tests run with)
unset RENACER_BACKEND

"$RENACER" --backend ebpf -c -o /dev/null true 2> /dev/null ||
	{ echo "the eBPF recorder cannot run here (not root, or no BTF)"; exit 77; }

# tracers ARGS...: the TracerPids that every run of the command saw
# (capture's traced run, its untraced timing runs), one a line
tracers() {
	rm -f tp.txt
	env -u CI "$@" -- sh -c 'grep TracerPid /proc/$$/status >> "$0"' "$TMPDIR/tp.txt" \
		> out.txt 2> err.txt
	echo "exit $?" >> err.txt
	awk '{print $2}' tp.txt 2> /dev/null
}

# by default: no run under ptrace
t=$(tracers "$RENACER" capture -q --runs 1 g)
grep -q "^exit 0$" err.txt || bad "capture: $(cat err.txt)"
[ -n "$t" ] && ! printf '%s\n' $t | grep -qv '^0$' ||
	bad "capture by default: a run under ptrace (TracerPids: $t)"
# RENACER_BACKEND=ptrace: the traced run is
t=$(tracers env RENACER_BACKEND=ptrace "$RENACER" capture -q --runs 1 p)
grep -q "^exit 0$" err.txt || bad "capture under ptrace: $(cat err.txt)"
[ -n "$t" ] && printf '%s\n' $t | grep -qv '^0$' ||
	bad "RENACER_BACKEND=ptrace: no run under ptrace (TracerPids: $t)"
# where the recorder cannot run (RENACER_NO_EBPF stands for no root or no
# BTF): under ptrace, saying why in one line for all the runs of a capture
t=$(tracers env RENACER_NO_EBPF=1 "$RENACER" capture -q --runs 3 n)
grep -q "^exit 0$" err.txt || bad "capture without the recorder: $(cat err.txt)"
[ -n "$t" ] && printf '%s\n' $t | grep -qv '^0$' ||
	bad "RENACER_NO_EBPF: no run under ptrace (TracerPids: $t)"
[ "$(grep -c 'eBPF back end unavailable (disabled by RENACER_NO_EBPF): recording with ptrace$' err.txt)" = 1 ] ||
	bad "RENACER_NO_EBPF: not one line saying why: $(cat err.txt)"
E="$PROGS/engine"
[ -x "$E" ] || { echo "no $E"; exit 77; }

# lost calls: the ring buffer is 4 KiB (64 KiB at most when forced), a
# storm of 200,000 calls overflows it
n=200000
# (the assertions see the run that is kept, not the lossy one as well)
cat > renacer.toml <<EOF
[[assertion]]
name = "all_kept"
type = "span_count"
span_name_pattern = "^getppid\$"
max_spans = $((n + 100))
fail_on_violation = true

[[assertion]]
name = "one_less"
type = "span_count"
span_name_pattern = "^getppid\$"
max_spans = $((n - 1))
fail_on_violation = true
EOF
env -u CI RENACER_EBPF_RINGBUF=4096 "$RENACER" capture -q --runs 2 --no-timing storm -- \
	"$E" loop $n > out.txt 2> err.txt
rc=$?
[ $rc = 0 ] || bad "a storm that overflows the ring buffer: exit $rc: $(cat err.txt)"
grep -q "^renacer: warning: the recording lost [0-9]* calls (a storm of calls filled its ring buffer): the runs go under ptrace$" err.txt ||
	bad "no warning of the run under ptrace: $(cat err.txt)"
[ "$(grep -c "the recording lost" err.txt)" = 1 ] ||
	bad "two runs, not one warning: the second run tried the recorder again: $(cat err.txt)"
grep -q "assertion 'one_less'" err.txt || bad "the assertions were not evaluated: $(cat err.txt)"
grep -q "assertion 'all_kept'" err.txt && bad "the lossy run counted too: $(grep all_kept err.txt)"
rm renacer.toml
got=$(/usr/bin/python3 -c 'import json,sys
print(json.load(open(sys.argv[1]))["summary"]["by_syscall"]["getppid"]["calls"])' golden_traces/storm.json)
[ "$got" = $n ] || bad "the storm's golden holds ${got:-no} getppid calls, not $n"
# (no back-pressure: with it the 16 and 64 KiB rings of the retries may
# well keep up with the storm on a busy machine)
env -u CI RENACER_EBPF_RINGBUF=4096 RENACER_EBPF_THROTTLE=0 RENACER_BACKEND=ebpf "$RENACER" capture -q --runs 1 \
	--no-timing storm2 -- "$E" loop $n > out.txt 2> err.txt
rc=$?
[ $rc != 0 ] && grep -q "the recording lost [0-9]* calls even with a ring buffer 16 times larger: the golden would miss them" err.txt ||
	bad "RENACER_BACKEND=ebpf and lost calls: exit $rc: $(cat err.txt)"
[ ! -e golden_traces/storm2.json ] || bad "a golden written after lost calls"

[ $fails = 0 ] || exit 1
echo ok
