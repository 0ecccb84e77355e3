#!/bin/sh
# Never stop for what is not asked (issue 11), counted with RENACER_STOPS:
# - -f -e trace=openat: the seccomp filter is in place from the command's
#   first instruction, so a process, its thread and its child making N
#   getppid calls stop as often for N = 200 as for N = 20000;
# - --assert with only span_count budgets (and no trace output): each call
#   stops once, at its entry (about half the stops of a full trace), and
#   the budget counts what a full trace counts; with span_name_pattern only
#   the matching calls stop at all.
set -u
. "$TOP/tests/lib.sh"
# ptrace stops, counted: that engine, whatever RENACER_BACKEND asks of auto
export RENACER_BACKEND=ptrace
E=$(need_prog engine)
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# stops ARGS...: the number of ptrace stops of renacer ARGS
stops() {
	RENACER_STOPS=1 "$RENACER" "$@" 2>&1 >/dev/null | sed -n 's/^renacer: \([0-9]*\) ptrace stops$/\1/p'
}

a=$(stops -f -e trace=openat -o /dev/null "$E" calls 200)
b=$(stops -f -e trace=openat -o /dev/null "$E" calls 20000)
full=$(stops -f -o /dev/null "$E" calls 200)
echo "filtered: $a stops (200 calls each), $b (20000); unfiltered: $full"
[ -n "$a" ] && [ -n "$b" ] && [ -n "$full" ] || fail "no stop count"
[ "$b" -le $((a + 5)) ] || bad "filtered: $b stops for 20000 calls a task, $a for 200: untraced calls stop"
[ "$full" -gt $((a + 1000)) ] || bad "unfiltered run stopped only $full times"

cat > "$TMPDIR/all.toml" <<'EOF'
[[assertion]]
name = "calls"
type = "span_count"
max_spans = 100000
EOF
cat > "$TMPDIR/pat.toml" <<'EOF'
[[assertion]]
name = "getppids"
type = "span_count"
max_spans = 100000
span_name_pattern = "^getppid$"
EOF
n=5000
entry=$(stops --backend ptrace --assert "$TMPDIR/all.toml" "$E" loop $n)
both=$(stops --backend ptrace --assert "$TMPDIR/all.toml" -o "$TMPDIR/t" "$E" loop $n)
pat=$(stops --backend ptrace --assert "$TMPDIR/pat.toml" "$E" loop $n)
echo "count-only: $entry stops; with a trace: $both; pattern: $pat"
[ "$entry" -ge $n ] && [ "$entry" -le $((n + 100)) ] || bad "count-only: $entry stops for $n calls, want one each"
[ "$both" -ge $((2 * n)) ] || bad "with a trace: $both stops for $n calls, want two each"
[ "$pat" -ge $n ] && [ "$pat" -le $((n + 20)) ] || bad "pattern: $pat stops for $n matching calls"
# the same counts as the full trace
c1=$("$RENACER" --backend ptrace --assert "$TMPDIR/all.toml" --assert-format json "$E" loop $n 2>&1 >/dev/null |
	/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print([a["actual"] for a in d["results"]])')
c2=$("$RENACER" --backend ptrace --assert "$TMPDIR/all.toml" --assert-format json -o "$TMPDIR/t" "$E" loop $n 2>&1 >/dev/null |
	/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print([a["actual"] for a in d["results"]])')
[ -n "$c1" ] && [ "$c1" = "$c2" ] || bad "count-only counted $c1, the full trace $c2"
exit $fail
