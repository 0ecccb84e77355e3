#!/bin/sh
# Runs every test: the cmocka unit tests (build/tests/test_*) and the
# end-to-end scripts (tests/t/*.sh).  T=pattern runs only the tests whose
# name contains pattern.  Ends with one line "N passed, N failed".
#
# A script in tests/t/ gets RENACER (the binary), BUILD, PROGS (test
# programs), EXAMPLES, TOP (the source tree) and TMPDIR (a fresh directory)
# in its environment; it exits 0 to pass, 77 to skip (with a reason on
# stdout), anything else to fail.
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
pass=0 fail=0 skip=0 failed=""
T=${T:-}
logdir="$TOP/$BUILD/test-logs"
mkdir -p "$logdir" "$logdir/unit" "$logdir/t"

run_one() { # name cmd...
	name=$1; shift
	case "$name" in *"$T"*) ;; *) return ;; esac
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/renacer-test.XXXXXX")
	start=$(date +%s)
	TMPDIR="$tmp" timeout -k 10 300 "$@" > "$logdir/$name.log" 2>&1 < /dev/null
	rc=$?
	secs=$(( $(date +%s) - start ))
	rm -rf "$tmp"
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "ok    $name (${secs}s)"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "skip  $name: $(tail -n 1 "$logdir/$name.log")"
	else
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL  $name (exit $rc, ${secs}s); last lines of $BUILD/test-logs/$name.log:"
		tail -n 15 "$logdir/$name.log" | sed 's/^/      /'
	fi
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for t in tests/t/*.sh; do
	[ -f "$t" ] || continue
	run_one "t/$(basename "$t" .sh)" sh "$t"
done

[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
