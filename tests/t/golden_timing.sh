#!/bin/sh
# Time judged on untraced runs (docs/golden.md, "How time is measured"): a
# millisecond program made twice as slow, CPU-bound and waiting, is caught;
# the unchanged one passes beside a CPU hog; a validate's header shows the
# golden's median as capture printed it; two single traces compared are
# inconclusive, a regression with timing = "strict"; a golden of an older
# renacer is judged on its traced timing and says so; critical_path is the
# untraced median net of waits for a CPU; callgrind counts where valgrind is.
# scripts/timing_trials.sh measures the same at scale (issue 16's targets).
# test: serial
. "$TOP/tests/golden_lib.sh"
TW="$PROGS/timework"
US=300

# median_net GOLDEN: its untraced runs' median net time, us
median_net() {
	$PY -c 'import json,statistics,sys; print(statistics.median(json.load(open(sys.argv[1]))["timing"]["untraced"]["net_us"]))' "$1"
}

# the work factor that makes the whole run twice as long, start-up included
# (start-up is most of a millisecond program here, and drifts with the
# machine's load: the runs with and without work are interleaved, and the
# factor has a 10% margin).  Computing scales with the work; a sleep costs
# its length plus a fixed wake-up (timer slack, scheduling), so a waiting
# program's extra time is the extra sleep alone: the linear rule that fits
# the CPU-bound one made it only 1.4x slower in CI.
for kind in cpu wait; do
	bs= fs=
	for i in 1 2 3; do
		TIMEWORK=0 "$RENACER" capture -q "floor_$kind" -- "$TW" $kind $US > /dev/null ||
			fail "floor $kind"
		run 0 "$RENACER" capture -q "$kind" -- "$TW" $kind $US
		bs="$bs,$(median_net "golden_traces/$kind.json")"
		fs="$fs,$(median_net "golden_traces/floor_$kind.json")"
	done
	fac=$($PY -c "import statistics as s; b=s.median([0$bs][1:]); f=s.median([0$fs][1:]); print('%.3f' % (1.1 * max(1.5, (2*b-f)/max(b-f,1) if '$kind' == 'cpu' else 1 + b/$US)))")
	eval "fac_$kind=$fac"
	echo "$kind: ${bs#,}us, no work ${fs#,}us, TIMEWORK=$fac"
done

# twice as slow: caught, and said how (CPU-bound; waiting)
for kind in cpu wait; do
	eval "fac=\$fac_$kind"
	for i in 1 2 3; do
		TIMEWORK=$fac "$RENACER" validate --no-color --golden "golden_traces/$kind.json" \
			-- "$TW" $kind $US > out.txt 2>&1
		rc=$?
		[ $rc -eq 1 ] || { cat out.txt; fail "$kind 2x slower, trial $i: exit $rc"; }
		# the time says it, or (a CPU-bound one whose time a loaded
		# machine left inconclusive) the automatic instruction count
		grep -qE "✗ timing: ((net|CPU) time [0-9.]+ms is [0-9.]+x the golden's|instructions under callgrind: [0-9]+ -> [0-9]+ \(\+[0-9.]+%\): the program computes more)" out.txt ||
			{ cat out.txt; fail "$kind 2x slower, trial $i: no slower time"; }
	done
	case $kind in
	cpu) grep -qE "the slowdown is CPU-bound|a CPU-bound slowdown" out.txt ||
		{ cat out.txt; fail "cpu 2x slower: not said CPU-bound"; } ;;
	wait) has out.txt "the slowdown is time spent waiting, not computing" ;;
	esac
	has out.txt "runtime, untraced (medians of"
	# the .new keeps every untraced run, those made a pause later marked
	$PY - "golden_traces/$kind.json.new" <<'PYEOF' || exit 1
import json, sys
u = json.load(open(sys.argv[1]))["timing"].get("untraced")
if not u or u["runs"] < 10 or len(u["net_us"]) != u["runs"] or not u.get("later"):
    sys.exit("FAIL: the .new's untraced runs: %r" % u)
PYEOF
done

# unchanged, beside a CPU hog: never slower (inconclusive would say so, exit 0)
sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
for kind in cpu wait; do
	for i in 1 2 3 4 5; do
		"$RENACER" validate --no-color --golden "golden_traces/$kind.json" -- "$TW" $kind $US \
			> out.txt 2>&1 || { cat out.txt; fail "$kind unchanged beside a hog, run $i: exit $?"; }
		hasnt out.txt "✗ timing"
	done
done
kill $hog
trap - EXIT

# the header shows the median capture printed (net of waits for a CPU)
run 0 "$RENACER" capture hdr -- "$TW" cpu $US
cap=$(sed -n 's/^✅ Captured: [^ ]* (\([0-9.]*\)ms,.*/\1/p' out.txt)
run 0 "$RENACER" validate --no-color --golden golden_traces/hdr.json -- "$TW" cpu $US
has out.txt "golden ${cap}ms)"
$PY - golden_traces/hdr.json <<'PYEOF' || exit 1
import json, statistics, sys
u = json.load(open(sys.argv[1]))["timing"]["untraced"]
# each run came with a reference exec: the machine's speed then
if len(u.get("reference_net_us", [])) != u["runs"]:
    sys.exit("FAIL: reference runs %r" % u.get("reference_net_us"))
PYEOF

# two single traces: one run against one run is no verdict on time
"$RENACER" --format json -o a.json -- "$TW" cpu $US 2> /dev/null || fail "trace a"
TIMEWORK=3 "$RENACER" --format json -o b.json -- "$TW" cpu $US 2> /dev/null || fail "trace b"
run 0 "$RENACER" compare --no-color a.json b.json
has out.txt "timing inconclusive"
has out.txt "one run against one run"
printf '[golden_traces]\ntiming = "strict"\n' > renacer.toml
run 1 "$RENACER" compare --no-color a.json b.json
has out.txt "✗ timing: timing inconclusive"
has out.txt 'timing = "strict": a regression'
rm renacer.toml

# a golden of an older renacer (no untraced runs): traced timing, said so
$PY - golden_traces/cpu.json old.json <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
del d["timing"]["untraced"]
d.pop("golden_id", None)
json.dump(d, open(sys.argv[2], "w"))
PYEOF
run 0 "$RENACER" validate --no-color --golden old.json -- "$TW" cpu $US
has out.txt "the golden has no untraced timing runs"

# too few golden runs to decide: inconclusive, exit 0; strict: a regression
$PY - golden_traces/cpu.json one.json <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
u = d["timing"]["untraced"]
for k, v in list(u.items()):
    if isinstance(v, list):
        u[k] = v[:1]
u["runs"] = 1
d.pop("golden_id", None)
json.dump(d, open(sys.argv[2], "w"))
PYEOF
run 0 "$RENACER" validate --no-color --golden one.json -- "$TW" cpu $US
has out.txt "timing inconclusive"
has out.txt "too few to decide"
printf '[golden_traces]\ntiming = "strict"\n' > renacer.toml
run 1 "$RENACER" validate --no-color --golden one.json -- "$TW" cpu $US
has out.txt "✗ timing: timing inconclusive"
rm renacer.toml

# critical_path: the untraced median net of waits for a CPU, beside a hog
cat > renacer.toml <<'TOML'
[[assertion]]
name = "startup"
type = "critical_path"
max_duration_ms = 100

[[assertion]]
name = "impossible"
type = "critical_path"
max_duration_ms = 0.01
fail_on_violation = false
TOML
sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
run 0 "$RENACER" capture cp -- "$TW" wait $US
has err.txt "assertion 'impossible' (critical_path) warns on the captured run"
hasnt err.txt "assertion 'startup'"
run 0 "$RENACER" validate --no-color --golden golden_traces/cp.json -- "$TW" wait $US
kill $hog
trap - EXIT
"$RENACER" validate --no-color --format json --golden golden_traces/cp.json -- "$TW" wait $US \
	> cp.json 2> err.txt || { cat cp.json err.txt; fail "critical_path validate"; }
$PY - cp.json <<'PYEOF' || exit 1
import json, sys
t = json.load(open(sys.argv[1]))["traces"][0]
rt = t["runtime"]
f = [f for f in t["findings"] if f["kind"] == "assertion" and f["subject"] == "impossible"]
if len(f) != 1 or f[0]["regression"]:
    sys.exit("FAIL: the warning of 'impossible': %r" % f)
# the budget's measure is the median of the untraced runs' net times
want = rt["current_net_ms"]
if abs(f[0]["current"] - want) > 0.01 * want + 0.01:
    sys.exit("FAIL: critical_path measured %r, untraced median %r" % (f[0]["current"], want))
PYEOF
rm renacer.toml

# callgrind: exact instruction counts (scripts/deps.sh installs valgrind)
command -v valgrind > /dev/null || fail "valgrind is missing (make deps installs it)"
{
	printf '[golden_traces]\ncallgrind = true\n' > renacer.toml
	run 0 "$RENACER" capture cg -- "$TW" cpu $US
	has out.txt "instructions under callgrind"
	run 0 "$RENACER" validate --no-color --golden golden_traces/cg.json -- "$TW" cpu $US
	TIMEWORK=2 "$RENACER" validate --no-color --golden golden_traces/cg.json -- "$TW" cpu $US \
		> out.txt 2>&1
	[ $? -eq 1 ] || { cat out.txt; fail "callgrind: twice the work passed"; }
	grep -qE "✗ timing: instructions under callgrind: [0-9]+ -> [0-9]+ \(\+[0-9.]+%, tolerance ±1.0%\)" \
		out.txt || { cat out.txt; fail "callgrind: no instruction count finding"; }
	rm renacer.toml
}
# automatic (callgrind not set): a short program's capture counts its
# instructions, marked automatic (validate counts again to settle an
# inconclusive time: unit test test_callgrind_arbiter, or every time for a
# one-task command under 10 ms: below); callgrind = false: none
$PY - golden_traces/cpu.json <<'PYEOF' || exit 1
import json, sys
u = json.load(open(sys.argv[1]))["timing"]["untraced"]
if not (u.get("callgrind_instructions", 0) > 0 and u.get("callgrind_automatic") is True):
    sys.exit("FAIL: a short program's capture counted no instructions automatically: %r" %
             {k: u.get(k) for k in ("callgrind_instructions", "callgrind_automatic")})
PYEOF
printf '[golden_traces]\ncallgrind = false\n' > renacer.toml
run 0 "$RENACER" capture nocg -- "$TW" cpu $US
$PY - golden_traces/nocg.json <<'PYEOF' || exit 1
import json, sys
u = json.load(open(sys.argv[1]))["timing"]["untraced"]
if "callgrind_instructions" in u:
    sys.exit("FAIL: callgrind = false, and the capture counted instructions")
PYEOF
rm renacer.toml
# a one-task command of a millisecond is counted unless its time rules out +10%: its
# computation doubled (a quarter of its time) is caught on the count
# whatever its time said, and the unchanged one passes
run 0 "$RENACER" validate --no-color --golden golden_traces/cpu.json -- "$TW" cpu $US
has out.txt "$(printf '\342\234\205') cpu: equivalent"
TIMEWORK=2 "$RENACER" validate --no-color --golden golden_traces/cpu.json -- "$TW" cpu $US \
	> out.txt 2>&1
[ $? -eq 1 ] || { cat out.txt; fail "callgrind automatic: twice the computing passed"; }
grep -qE "✗ timing: instructions under callgrind: [0-9]+ -> [0-9]+ \(\+[0-9.]+%\): the program computes more" \
	out.txt || { cat out.txt; fail "callgrind automatic: no instruction count finding"; }
echo "ok"
