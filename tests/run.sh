#!/bin/sh
# Runs every test: the cmocka unit tests (build/tests/test_*) and the
# end-to-end scripts (tests/t/*.sh).  T=pattern runs only the tests whose
# name contains pattern.  Ends with one line "N passed, N failed, N skipped
# in Ns (...)".
#
# A script in tests/t/ gets RENACER (the binary), BUILD, PROGS (test
# programs), EXAMPLES, TOP (the source tree) and TMPDIR (a fresh directory)
# in its environment; it exits 0 to pass, 77 to skip (with a reason on
# stdout), anything else to fail.
#
# Tests run TEST_JOBS at a time (default: the CPUs, at most 4), each in its
# own TMPDIR.  A script whose first lines hold "# test: serial" runs alone,
# after the others: the verdict's timing tests, which judge an unchanged
# program beside a CPU hog of their own, and the ones that listen on a
# fixed port.  "# test: slow" starts a script first, so that a long one does
# not end the run alone.
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
export BUILD TOP
export RENACER="$TOP/$BUILD/renacer" PROGS="$TOP/$BUILD/progs" EXAMPLES="$TOP/$BUILD/examples"
export LC_ALL=C LANG=C
unset DEBUGINFOD_URLS
# The environment of a CI job or a user's shell must not change what the
# tests see: CI=true makes capture/accept refuse (golden_ci.sh sets it where
# it is the subject), NO_COLOR and OTEL_* change output and export.
unset CI RENACER_UPDATE_GOLDEN NO_COLOR TRACEPARENT TRACESTATE
for v in $(env | sed -n 's/^\(OTEL_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
# Tracees inherit this; leak checks cannot run under ptrace (FACTS.md).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
T=${T:-}
logdir="$TOP/$BUILD/test-logs"
mkdir -p "$logdir" "$logdir/unit" "$logdir/t"
jobs=${TEST_JOBS:-$(nproc 2> /dev/null || echo 1)}
case "$jobs" in '' | *[!0-9]*) jobs=1 ;; esac
[ "$jobs" -ge 1 ] || jobs=1
[ -n "${TEST_JOBS:-}" ] || [ "$jobs" -le 4 ] || jobs=4

# The run's bookkeeping: the queue (one "name path" a line), its cursor,
# the results ("ok|fail|skip name" a line) and a lock for both and for the
# terminal.
state=$(mktemp -d "${TMPDIR:-/tmp}/renacer-tests.XXXXXX") || exit 1
trap 'rm -rf "$state"' EXIT
trap 'exit 130' INT TERM
began=$(date +%s)
queue="$state/queue" serial="$state/serial" results="$state/results"
: > "$queue"; : > "$serial"; : > "$results"; echo 0 > "$queue.n"

# tag PATH: "serial", "slow" or nothing, from the script's first lines
tag() {
	sed -n '1,40s/^# test: \(serial\|slow\)$/\1/p' "$1" | head -n 1
}

slow="$state/slow" rest="$state/rest"
: > "$slow"; : > "$rest"
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	name="unit/$(basename "$t")"
	case "$name" in *"$T"*) echo "$name $t" >> "$rest" ;; esac
done
for t in tests/t/*.sh; do
	[ -f "$t" ] || continue
	name="t/$(basename "$t" .sh)"
	case "$name" in *"$T"*) ;; *) continue ;; esac
	case $(tag "$t") in
	serial) echo "$name $t" >> "$serial" ;;
	slow) echo "$name $t" >> "$slow" ;;
	*) echo "$name $t" >> "$rest" ;;
	esac
done
cat "$slow" "$rest" > "$queue"

run_one() { # name path
	name=$1 path=$2
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/renacer-test.XXXXXX")
	start=$(date +%s)
	case "$path" in
	*.sh) TMPDIR="$tmp" timeout -k 10 300 sh "$path" > "$logdir/$name.log" 2>&1 < /dev/null ;;
	*) TMPDIR="$tmp" timeout -k 10 300 "$path" > "$logdir/$name.log" 2>&1 < /dev/null ;;
	esac
	rc=$?
	secs=$(( $(date +%s) - start ))
	rm -rf "$tmp"
	out="$state/out.$(basename "$name")"
	if [ $rc -eq 0 ]; then
		st=ok; echo "ok    $name (${secs}s)" > "$out"
	elif [ $rc -eq 77 ]; then
		st=skip; echo "skip  $name: $(tail -n 1 "$logdir/$name.log")" > "$out"
	else
		st=fail
		{
			echo "FAIL  $name (exit $rc, ${secs}s); last lines of $BUILD/test-logs/$name.log:"
			tail -n 15 "$logdir/$name.log" | sed 's/^/      /'
		} > "$out"
	fi
	(
		flock 9
		cat "$out"
		echo "$st $name" >> "$results"
	) 9> "$state/lock"
	rm -f "$out"
}

# next: the queue's next line, or nothing when it is empty
next() {
	(
		flock 9
		n=$(( $(cat "$queue.n") + 1 ))
		echo $n > "$queue.n"
		sed -n "${n}p" "$queue"
	) 9> "$state/lock"
}

worker() {
	while :; do
		line=$(next)
		[ -n "$line" ] || return 0
		run_one ${line%% *} ${line#* }
	done
}

i=0 pids=
while [ $i -lt "$jobs" ]; do
	worker &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do wait "$p"; done
while read -r name path; do
	run_one "$name" "$path"
done < "$serial"

pass=$(grep -c '^ok ' "$results")
fail=$(grep -c '^fail ' "$results")
skip=$(grep -c '^skip ' "$results")
failed=$(sed -n 's/^fail //p' "$results" | tr '\n' ' ')
[ -n "$failed" ] && echo "failed: ${failed% }"
echo "$pass passed, $fail failed, $skip skipped in $(( $(date +%s) - began ))s ($jobs at a time, then $(grep -c . "$serial") alone)"
[ "$fail" -eq 0 ]
