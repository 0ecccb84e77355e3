#!/bin/sh
# The seeds' own renacer.toml (tests/data/seeds-renacer.toml: five enabled
# assertions, one disabled) evaluated on the saved trace of every shipped
# example, with the seeds' output shape (the live runs: assert_live.sh).
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/assert_lib.sh"
SEEDS=$TOP/tests/data/seeds-renacer.toml
ls "$EXAMPLES"/* >/dev/null 2>&1 || fail "no examples built in $EXAMPLES"

for ex in "$EXAMPLES"/*; do
	[ -x "$ex" ] || continue
	name=$(basename "$ex")
	capture "$TMPDIR/$name.json" "$ex"
	n=$(nsyscalls "$TMPDIR/$name.json")
	"$RENACER" assert --config "$SEEDS" "$TMPDIR/$name.json" > "$TMPDIR/out" 2>"$TMPDIR/err"
	rc=$?
	seeds_shape "$TMPDIR/out" "$n"
	"$RENACER" assert --config "$SEEDS" --assert-format json "$TMPDIR/$name.json" > "$TMPDIR/res" 2>/dev/null
	want=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["exit_status"])' "$TMPDIR/res")
	[ "$rc" = "$want" ] || bad "$name: exit $rc, report says $want"
	[ "$(result 1 actual)" = "$n" ] || bad "$name: max_syscall_budget actual $(result 1 actual), trace has $n"
	for i in 0 1 2 3 4; do
		[ "$(result $i status)" = skipped ] && bad "$name: enabled assertion $i skipped"
		[ "$(result $i measured)" = True ] || bad "$name: assertion $i not measured"
	done
	[ "$(result 5 status)" = skipped ] || bad "$name: disabled assertion evaluated"
	# the shipped examples are small and quick: every budget holds
	[ $rc -eq 0 ] || bad "$name: seeds' budgets broken: $(cat "$TMPDIR/out")"

done
finish
