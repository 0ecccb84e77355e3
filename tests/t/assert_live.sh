#!/bin/sh
# `renacer --assert FILE -- COMMAND` and `renacer --anti-patterns -- COMMAND`:
# assertions measured on the live run (rss too, from the kernel's VmHWM),
# the report after the trace (on stderr, the trace itself in -o FILE), and
# the exit status: the command's own failure first, then 1 for a failed
# assertion, 5 for a bad configuration (the command never runs).
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/assert_lib.sh"
P=$PROGS

live() { # args... (after --assert/--anti-patterns options): sets RC, report in $TMPDIR/rep
	"$RENACER" -o "$TMPDIR/trace.txt" "$@" > "$TMPDIR/stdout" 2> "$TMPDIR/rep"
	RC=$?
}

# the seeds' config on every example, live
for ex in "$EXAMPLES"/*; do
	[ -x "$ex" ] || continue
	live --assert "$TOP/tests/data/seeds-renacer.toml" -- "$ex"
	[ $RC -eq 0 ] || bad "$(basename "$ex") live: exit $RC: $(cat "$TMPDIR/rep")"
	grep -v '^renacer: warning: ' "$TMPDIR/rep" > "$TMPDIR/rep2"
	seeds_shape "$TMPDIR/rep2" -1
	[ -s "$TMPDIR/trace.txt" ] || bad "$(basename "$ex") live: no trace written with --assert"
done

cfg <<E
[[assertion]]
name = "latency"
type = "critical_path"
max_duration_ms = 150

[[assertion]]
name = "calls"
type = "span_count"
max_spans = 500

[[assertion]]
name = "mapped"
type = "memory_usage"
max_bytes = 33554432
tracking_mode = "allocations"

[[assertion]]
name = "resident"
type = "memory_usage"
max_bytes = 33554432
tracking_mode = "rss"
E
J="--assert $TMPDIR/cfg.toml --assert-format json"

# nothing broken
live $J -- "$P/assert_loop" 10
[ $RC -eq 0 ] || bad "clean run: exit $RC: $(cat "$TMPDIR/rep")"
cp "$TMPDIR/rep" "$TMPDIR/res"
for i in 0 1 2 3; do
	[ "$(result $i status)" = passed ] || bad "clean run: assertion $i $(result $i status): $(cat "$TMPDIR/rep")"
done
[ "$(result 3 measured)" = True ] || bad "rss not measured live"

# each type broken on its own
live $J -- "$P/assert_sleep" wait 300
[ $RC -eq 1 ] || bad "sleep: exit $RC"
cp "$TMPDIR/rep" "$TMPDIR/res"
[ "$(result 0 status)" = failed ] || bad "critical_path live: $(result 0 status) $(result 0 actual)"
ge "$(result 0 actual)" 300 || bad "critical_path live: $(result 0 actual)ms"
live $J -- "$P/assert_sleep" detach 300
cp "$TMPDIR/rep" "$TMPDIR/res"
[ "$(result 0 status)" = passed ] || bad "detached child counted live: $(result 0 actual)ms"
live $J -- "$P/assert_loop" 1000
cp "$TMPDIR/rep" "$TMPDIR/res"
[ $RC -eq 1 ] || bad "loop: exit $RC"
[ "$(result 1 status)" = failed ] || bad "span_count live: $(result 1 actual)"
if command -v strace >/dev/null 2>&1; then
	strace -f -o "$TMPDIR/s.txt" "$P/assert_loop" 1000 >/dev/null 2>&1
	sn=$(grep -vc -e '^[0-9]* *+++' -e '^[0-9]* *---' -e 'resumed>' "$TMPDIR/s.txt")
	[ "$(result 1 actual)" = "$sn" ] || bad "span_count live $(result 1 actual), strace saw $sn calls"
fi
live $J -- "$P/assert_alloc" 64
cp "$TMPDIR/rep" "$TMPDIR/res"
[ $RC -eq 1 ] || bad "alloc: exit $RC"
[ "$(result 2 status)" = failed ] || bad "allocations live: $(result 2 actual)"
[ "$(result 3 status)" = failed ] || bad "rss live: $(result 3 actual)"
ge "$(result 3 actual)" 67108864 || bad "rss live: $(result 3 actual) bytes for 64MiB touched"
live $J -- "$P/assert_alloc" 64 child
cp "$TMPDIR/rep" "$TMPDIR/res"
[ "$(result 3 status)" = failed ] || bad "rss of a child live: $(result 3 actual)"

# the command's own failure takes precedence
live --assert "$TMPDIR/cfg.toml" -- /bin/sh -c 'exit 3'
[ $RC -eq 3 ] || bad "command exit 3 with assertions passing: exit $RC"
live --assert "$TMPDIR/cfg.toml" -- /bin/sh -c "$P/assert_loop 1000; exit 4"
[ $RC -eq 4 ] || bad "command exit 4 with an assertion failing: exit $RC"
grep -q "FAILED" "$TMPDIR/rep" || bad "the report is still printed when the command fails"

# a bad configuration: exit 5 and the command never runs
printf '[[assertion]]\nname = "x"\ntype = "span_count"\nmax_spans = -1\n' | cfg
live --assert "$TMPDIR/cfg.toml" -- /bin/sh -c "touch $TMPDIR/ran"
[ $RC -eq 5 ] || bad "bad config live: exit $RC"
[ -e "$TMPDIR/ran" ] && bad "the command ran with a bad configuration"
grep -q "cfg.toml:4:" "$TMPDIR/rep" || bad "bad config live: message $(cat "$TMPDIR/rep")"

# --anti-patterns: every detector, exit status untouched
live --anti-patterns -- "$P/ap_tightloop" busy 2000
[ $RC -eq 0 ] || bad "--anti-patterns: exit $RC"
grep -q '^⚠️ Tight loop detected (confidence: ' "$TMPDIR/rep" || bad "--anti-patterns: $(cat "$TMPDIR/rep")"
grep -q '^✅ God process not detected' "$TMPDIR/rep" || bad "--anti-patterns: $(cat "$TMPDIR/rep")"
live --anti-patterns -- "$P/ap_god" god 3000
grep -q '^⚠️ God process detected (confidence: ' "$TMPDIR/rep" || bad "--anti-patterns god: $(cat "$TMPDIR/rep")"
live --anti-patterns -- "$P/ap_tightloop" ok 200
grep -q ' 0 anti-patterns detected$\|^0 anti-patterns detected$' "$TMPDIR/rep" || bad "--anti-patterns on a clean run: $(cat "$TMPDIR/rep")"
finish
