#!/bin/sh
# memory_usage measures committed memory ("allocations") or the resident
# set ("rss") as docs/assertions.md says: the starter budget of `renacer
# init` passes a program whose threads each reserve a 64 MB malloc arena
# (counted by strace), a touched 64 MB leak fails a budget with room for
# the program in both modes, an untouched one only in "allocations"; the
# same numbers live and from the saved trace; a 1-byte overage reads as one.
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/assert_lib.sh"
P=$PROGS
MB=1048576
# thread stacks are committed at their full size: the default 8 MB (glibc
# makes them 32 MB when the limit is unlimited)
ulimit -s 8192 2>/dev/null

# the starter's memory budget, as `renacer init` writes it
"$RENACER" init --path "$TMPDIR/starter.toml" > /dev/null 2>&1 || fail "renacer init failed"
$PY - "$TMPDIR/starter.toml" > "$TMPDIR/cfg.toml" <<'PY' || fail "no memory_usage in the starter"
import sys, tomllib
for a in tomllib.load(open(sys.argv[1], "rb"))["assertion"]:
    if a["type"] == "memory_usage":
        print('[[assertion]]\nname = "%s"\ntype = "memory_usage"\nmax_bytes = %d\ntracking_mode = "%s"'
              % (a["name"], a["max_bytes"], a.get("tracking_mode", "allocations")))
        break
else:
    sys.exit(1)
PY
starter=$($PY -c 'import sys,tomllib; print(tomllib.load(open(sys.argv[1],"rb"))["assertion"][0]["max_bytes"])' "$TMPDIR/cfg.toml")

# jq-less JSON: field KEY of result N of the report in FILE
res() { $PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])][sys.argv[3]])' "$@"; }
# the bytes reserved without write access that the evidence of result N names
reserved() {
	$PY - "$1" "$2" <<'PY'
import json, re, sys
u = {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}
for e in json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["evidence"]:
    m = re.match(r"not counted: ([0-9.]+)(B|KB|MB|GB) reserved", e)
    if m:
        print(int(float(m.group(1)) * u[m.group(2)]))
        break
else:
    print(0)
PY
}

# ---- threads with arena reservations: the starter budget passes ----
threads=8
strace -f -qq -e trace=mmap -o "$TMPDIR/strace.out" "$P/assert_mem" $threads 0 ||
	fail "assert_mem under strace failed"
arenas=$(grep -c 'PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE' "$TMPDIR/strace.out")
[ "$arenas" -ge 2 ] || fail "strace saw $arenas arena reservations (want several)"
capture "$TMPDIR/threads.json" "$P/assert_mem" $threads 0
run_assert "$TMPDIR/threads.json"
actual=$(res "$TMPDIR/res" 0 actual)
[ "$(res "$TMPDIR/res" 0 status)" = passed ] ||
	bad "$threads threads: $actual bytes committed over the starter's $starter: $(cat "$TMPDIR/res")"
stack_kb=$(ulimit -s)
[ "$stack_kb" = unlimited ] || ge "$actual" $((threads * stack_kb * 1024)) ||
	bad "$threads threads: $actual bytes committed, less than their stacks ($stack_kb KB each)"
# the reservations are there, named and not counted (the old "mapped"
# measure counted them: over 64MB an arena)
ge "$(reserved "$TMPDIR/res" 0)" $((arenas * 60 * MB)) ||
	bad "$threads threads: $(reserved "$TMPDIR/res" 0) bytes named reserved, $arenas arenas of 64MB"

# ---- leaks, touched and not, against a budget with room for the program ----
budgets() { # alloc_bytes rss_bytes
	cfg <<E
[[assertion]]
name = "alloc"
type = "memory_usage"
max_bytes = $1
tracking_mode = "allocations"

[[assertion]]
name = "rss"
type = "memory_usage"
max_bytes = $2
tracking_mode = "rss"
E
}
# the unchanged program's numbers, live (rss needs the live run)
budgets $((1 << 40)) $((1 << 40))
live_assert() { # out-trace args...: live --assert json report in $TMPDIR/res
	out=$1; shift
	"$RENACER" -f --format json -o "$out" --assert "$TMPDIR/cfg.toml" --assert-format json \
		-- "$@" > /dev/null 2> "$TMPDIR/live.err"
	sed -n '/^{/,$p' "$TMPDIR/live.err" > "$TMPDIR/res"
}
live_assert "$TMPDIR/base.json" "$P/assert_mem" 0 0
base_alloc=$(res "$TMPDIR/res" 0 actual)
base_rss=$(res "$TMPDIR/res" 1 actual)
ge "$base_rss" 1 || fail "no rss measured: $(cat "$TMPDIR/res")"
budgets $(($(printf %.0f "$base_alloc") + 32 * MB)) $(($(printf %.0f "$base_rss") + 32 * MB))
for leak in touch untouched; do
	live_assert "$TMPDIR/leak.json" "$P/assert_mem" 0 64 $leak
	[ "$(res "$TMPDIR/res" 0 status)" = failed ] ||
		bad "64MB leak ($leak): allocations $(res "$TMPDIR/res" 0 actual) passed over $base_alloc + 32MB"
	if [ $leak = touch ]; then want=failed; else want=passed; fi
	[ "$(res "$TMPDIR/res" 1 status)" = $want ] ||
		bad "64MB leak ($leak): rss $(res "$TMPDIR/res" 1 actual) $(res "$TMPDIR/res" 1 status), want $want"
	# the saved trace gives the same numbers as the live run
	cp "$TMPDIR/res" "$TMPDIR/live.res"
	run_assert "$TMPDIR/leak.json"
	for i in 0 1; do
		[ "$(res "$TMPDIR/res" $i actual)" = "$(res "$TMPDIR/live.res" $i actual)" ] ||
			bad "64MB leak ($leak): result $i live $(res "$TMPDIR/live.res" $i actual), from the trace $(res "$TMPDIR/res" $i actual)"
	done
done

# ---- a threaded program: an unchanged build passes a budget measured from
# it with 25% headroom, a touched 64MB leak fails it ----
budgets $((1 << 40)) $((1 << 40))
live_assert "$TMPDIR/t.json" "$P/assert_mem" $threads 0
talloc=$(printf %.0f "$(res "$TMPDIR/res" 0 actual)")
trss=$(printf %.0f "$(res "$TMPDIR/res" 1 actual)")
budgets $((talloc * 5 / 4)) $((trss * 5 / 4 + 16 * MB))
live_assert "$TMPDIR/t.json" "$P/assert_mem" $threads 0
[ "$(res "$TMPDIR/res" 0 status)" = passed ] || bad "unchanged threads: $(cat "$TMPDIR/res")"
[ "$(res "$TMPDIR/res" 1 status)" = passed ] || bad "unchanged threads (rss): $(cat "$TMPDIR/res")"
live_assert "$TMPDIR/t.json" "$P/assert_mem" $threads 64 touch
[ "$(res "$TMPDIR/res" 0 status)" = failed ] || bad "threads + leak: $(cat "$TMPDIR/res")"
[ "$(res "$TMPDIR/res" 1 status)" = failed ] || bad "threads + leak (rss): $(cat "$TMPDIR/res")"

# ---- a 1-byte overage reads as one ----
cfg <<E
[[assertion]]
name = "exact"
type = "memory_usage"
max_bytes = $(($(printf %.0f "$base_alloc") - 1))
E
"$RENACER" assert --config "$TMPDIR/cfg.toml" "$TMPDIR/base.json" > "$TMPDIR/out" 2>&1
grep -qx "   Actual: .* ($(printf %.0f "$base_alloc") bytes)" "$TMPDIR/out" || bad "1 byte over, actual: $(cat "$TMPDIR/out")"
grep -qx "   Budget: .* ($(($(printf %.0f "$base_alloc") - 1)) bytes)" "$TMPDIR/out" || bad "1 byte over, budget: $(cat "$TMPDIR/out")"
grep -qx '   Regression: +0\.0*[1-9][0-9]% (+1B)' "$TMPDIR/out" || bad "1 byte over: $(cat "$TMPDIR/out")"
finish
