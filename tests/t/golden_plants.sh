#!/bin/sh
# Regressions planted into a small program (tests/progs/plant.c), single-
# and multi-threaded, are each caught and named in the findings: a sleep 3x
# longer, an fsync made slow (a sleep before it; waiting on a FIFO), 8 more
# mmap/munmap, writes 8x larger, a fork added (named as a new process with
# its command line, even among threads), an rss budget broken; and kept when
# nothing changed.  The plants come from PLANT, so the command line and the
# binary stay the same: only the behaviour differs.
# test: serial
. "$TOP/tests/golden_lib.sh"
P="$PROGS/plant"
mkdir -p "$W/d" && printf 'hello plant\n' > "$W/d/in.txt" && mkfifo "$W/d/sync.fifo" ||
	fail "setup"

for mode in single threaded; do
	case $mode in
	single) set -- "$P" "$W/d" --sleep 100 --fifo ;;
	threaded) set -- "$P" "$W/d" --threads 4 --sleep 100 --fifo ;;
	esac
	run 0 "$RENACER" capture -q "$mode" -- "$@"
	if [ $mode = threaded ]; then
		# a multi-threaded command is run several times to measure what varies
		runs=$($PY -c "import json; print(json.load(open('golden_traces/$mode.json'))['timing']['variation']['runs'])")
		[ "$runs" -ge 5 ] || fail "threaded capture measured $runs runs"
	fi
	v() { # rc plants...: validate with PLANT set
		want=$1
		shift
		PLANT="$*" run "$want" "$RENACER" validate --no-color --golden "golden_traces/$mode.json" -- \
			"$P" "$W/d" $([ $mode = threaded ] && echo --threads 4) --sleep 100 --fifo
		cp out.txt "out.$mode.${*:-none}.txt"
	}
	# finding RE WHAT: a finding line of out.txt matches RE, else fail showing it
	finding() {
		grep -E '^   (✗|note)' out.txt | grep -qE -- "$1" && return 0
		echo "FAIL: $mode: $2"; cat out.txt; exit 1
	}

	v 0
	has out.txt "$mode: equivalent"

	# a sleep 3x longer: slower, and the time went into clock_nanosleep
	v 1 sleep3
	finding "✗ timing: net time [0-9.]+ms is [0-9.]+x the golden's" "sleep3: not slower"
	has out.txt "the slowdown is time spent waiting"
	finding "time in clock_nanosleep: " "sleep3: clock_nanosleep not named"

	# an fsync made slow: a sleep around it, and a wait on a FIFO before it
	v 1 slow-fsync
	finding "✗ timing: net time [0-9.]+ms is [0-9.]+x the golden's" "slow-fsync: not slower"
	finding "time in clock_nanosleep: " "slow-fsync: not named"
	v 1 fifo-slow
	finding "✗ time: \[1\] time in read: " "fifo-slow: the FIFO read not named"

	# 8 more mmap/munmap pairs: counted per process, threads included
	v 1 more-mmap
	finding "✗ count: \[1\] mmap: [0-9-]* -> [0-9]* calls" "more-mmap: mmap not named"
	finding "✗ count: \[1\] munmap: " "more-mmap: munmap not named"
	g=$(sed -n 's/.*\[1\] mmap: \([0-9]*\)[-0-9]* -> \([0-9]*\) calls.*/\1 \2/p' out.txt)
	set -- $g
	[ $(( $2 - $1 )) -ge 8 ] || fail "$mode more-mmap: mmap grew by $(( $2 - $1 )), expected at least 8"

	# writes 8x larger: the same calls, 8x the bytes
	v 1 big-writes
	finding "✗ io: \[1\] bytes written to regular files: .* \(8.0x" "big-writes: bytes not named"
	hasnt out.txt "✗ count:"

	# a fork: a new process with its command line, never "new thread"
	v 1 fork
	finding "✗ process: \[1.1\] new process 1.1, a fork of 1 \($P " \
		"fork: the new process not named with its command line"
	hasnt out.txt "thread 1"
	hasnt out.txt "vanished"
done

# an rss budget: kept by the unchanged program in capture, validate and
# renacer assert of the saved golden, broken by one that allocates 4x more
cat > renacer.toml <<'TOML'
[[assertion]]
name = "rss_budget"
type = "memory_usage"
max_bytes = 41943040
tracking_mode = "rss"
TOML
for mode in single threaded; do
	set -- "$P" "$W/d" --alloc 16
	[ $mode = threaded ] && set -- "$@" --threads 4
	run 0 "$RENACER" capture "rss_$mode" -- "$@"
	hasnt err.txt "rss_budget"
	$PY - "golden_traces/rss_$mode.json" <<'EOF' || fail "$mode: the golden records no RSS"
import json, sys
d = json.load(open(sys.argv[1]))
assert max(p.get("max_rss_kb", 0) for p in d["processes"]) > 16 * 1024
EOF
	run 0 "$RENACER" assert "golden_traces/rss_$mode.json"
	has out.txt "rss_budget' passed"
	run 0 "$RENACER" validate --no-color --golden "golden_traces/rss_$mode.json" -- "$@"
	PLANT=alloc4 run 1 "$RENACER" validate --no-color --golden "golden_traces/rss_$mode.json" -- "$@"
	has out.txt "✗ assertion: assertion 'rss_budget' (memory_usage) failed"
	PLANT=alloc4 run 0 "$RENACER" capture "rss4_$mode" -- "$@"
	has err.txt "assertion 'rss_budget' (memory_usage) fails on the captured run"
	run 1 "$RENACER" assert "golden_traces/rss4_$mode.json"
done
rm renacer.toml
echo ok
