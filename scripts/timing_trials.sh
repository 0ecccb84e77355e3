#!/bin/sh
# The time verdict's two numbers (issue 16), measured:
#   detection  a 2x slowdown of a millisecond program, CPU-bound and
#              waiting, validated against its golden: caught in how many
#              of D trials each (target: 99 of 100);
#   false      the unchanged programs validated F times in all beside two
#              CPU hogs: how many false regressions (target: 0 in 1,000).
# The program is tests/progs/timework (`timework cpu|wait US`); its work
# factor comes from TIMEWORK, so the slow build has the same command line
# and syscalls.  The factor that doubles the whole run (start-up included)
# is measured first: (2 base - floor) / (base - floor), floor being the
# run with no work.  Goldens are captured with the hogs stopped and
# recaptured every 100 validations; every validation runs beside the hogs.
#
#   scripts/timing_trials.sh [-d D] [-f F] [-u US] [-k DIR]
#     -d D    detection trials per kind (default 100)
#     -f F    unchanged validations in all, half per kind (default 1000)
#     -u US   the programs' work in microseconds (default 300: about
#             1-1.5 ms a run on this project's 2-vCPU machines)
#     -k DIR  keep every output in DIR
#
# Prints one line per measure and what else loaded the machine; exits 0
# when both targets hold.  Needs build/renacer and build/progs/timework
# (make progs); RENACER and TIMEWORK_PROG override them.
set -u
D=100 F=1000 US=300 KEEP=
while getopts d:f:u:k: o; do
	case $o in
	d) D=$OPTARG ;;
	f) F=$OPTARG ;;
	u) US=$OPTARG ;;
	k) KEEP=$OPTARG ;;
	*) echo "usage: $0 [-d D] [-f F] [-u US] [-k DIR]" >&2; exit 2 ;;
	esac
done
TOP=$(cd "$(dirname "$0")/.." && pwd)
RENACER=${RENACER:-$TOP/build/renacer}
PROG=${TIMEWORK_PROG:-$TOP/build/progs/timework}
PY=/usr/bin/python3
[ -x "$RENACER" ] && [ -x "$PROG" ] || { echo "$0: build renacer and its test programs first (make progs)" >&2; exit 2; }
W=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/timing-trials.XXXXXX")}
mkdir -p "$W" && cd "$W" || exit 2
unset CI RENACER_UPDATE_GOLDEN TIMEWORK
export LC_ALL=C

hogs=
hogs_start() {
	sh -c 'while :; do :; done' & hogs="$hogs $!"
	sh -c 'while :; do :; done' & hogs="$hogs $!"
}
hogs_pause() { for h in $hogs; do kill -STOP "$h"; done; }
hogs_resume() { for h in $hogs; do kill -CONT "$h"; done; }
cleanup() { for h in $hogs; do kill -CONT "$h" 2>/dev/null; kill "$h" 2>/dev/null; done; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# median_net FILE: the median untraced net time of a golden, us
median_net() {
	$PY -c 'import json,statistics,sys; print(statistics.median(json.load(open(sys.argv[1]))["timing"]["untraced"]["net_us"]))' "$1"
}

machine() { # what else runs: load and the busiest processes
	echo "  load: $(cut -d' ' -f1-3 /proc/loadavg); busiest processes:"
	ps -eo pcpu=,comm= --sort=-pcpu | head -n 6 | sed 's/^/    /'
}

echo "timing trials in $W: $D detection trials per kind, $F unchanged validations, work ${US}us"
echo "machine at the start:"
machine
hogs_start
hogs_pause

# the factor that doubles each program's whole run: start-up is most of a
# millisecond program and drifts with the machine's load, so the runs with
# and without work are captured in turns, 5 times, and their medians taken;
# then the slow build is timed against the base the same way
medians() { # KIND ENV1 ENV2: median net of the goldens of the two, in turns
	k=$1 a= b=
	for i in 1 2 3 4 5; do
		env $2 "$RENACER" capture -q "c1_$k" -- "$PROG" $k "$US" > /dev/null || exit 1
		env $3 "$RENACER" capture -q "c2_$k" -- "$PROG" $k "$US" > /dev/null || exit 1
		a="$a,$(median_net "golden_traces/c1_$k.json")"
		b="$b,$(median_net "golden_traces/c2_$k.json")"
	done
	$PY -c "import statistics as s; print(s.median([0$a][1:]), s.median([0$b][1:]))"
}
for kind in cpu wait; do
	set -- $(medians $kind TIMEWORK=1 TIMEWORK=0)
	b=$1 f=$2
	# computing scales with the work; a sleep costs its length plus a
	# fixed wake-up, so the extra time of a waiting one is the extra sleep
	fac=$($PY -c "b,f=$b,$f; print('%.3f' % max(1.5, (2*b-f)/max(b-f,1) if '$kind' == 'cpu' else 1 + b/$US))")
	set -- $(medians $kind TIMEWORK=1 TIMEWORK=$fac)
	eval "fac_$kind=$fac"
	$PY -c "b,f,b2,s=$b,$f,$1,$2; print('%s: base %.2fms (no work %.2fms), TIMEWORK=$fac runs %.2fms against %.2fms: %.2fx' % ('$kind', b/1000, f/1000, s/1000, b2/1000, s/b2))"
done

# validate KIND N OUT FACTOR: N validations of the program against fresh
# goldens (one per 100), beside the hogs; each output in OUT.I.json
validate() {
	kind=$1 n=$2 out=$3 fac=$4 i=0
	start=$(date +%s)
	while [ $i -lt "$n" ]; do
		if [ $((i % 100)) -eq 0 ]; then
			hogs_pause
			"$RENACER" capture -q "g_$kind" -- "$PROG" $kind "$US" > /dev/null || exit 1
			hogs_resume
		fi
		i=$((i + 1))
		TIMEWORK=$fac "$RENACER" validate --format json --golden "golden_traces/g_$kind.json" \
			-- "$PROG" $kind "$US" > "$out.$i.json" 2> "$out.$i.err"
		echo $? > "$out.$i.rc"
	done
	echo $(( $(date +%s) - start )) > "$out.secs"
}

# tally PREFIX N: counts of outcomes
tally() {
	$PY - "$1" "$2" <<'PYEOF'
import json, sys
pre, n = sys.argv[1], int(sys.argv[2])
c = {"regression": 0, "timing slower": 0, "inconclusive": 0, "same": 0, "other": 0}
kinds = {}
for i in range(1, n + 1):
    rc = int(open("%s.%d.rc" % (pre, i)).read())
    try:
        t = json.load(open("%s.%d.json" % (pre, i)))["traces"][0]
    except Exception:
        c["other"] += 1
        continue
    v = t.get("runtime", {}).get("verdict", "?")
    if rc == 1:
        c["regression"] += 1
        for f in t["findings"]:
            if f["regression"]:
                kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
    elif rc != 0:
        c["other"] += 1
    c["timing slower" if v == "slower" else v if v in c else "other"] += 1
secs = int(open(pre + ".secs").read())
print("%d validations in %ds (%.2fs each): exit 1 in %d (findings: %s); verdict slower %d, "
      "inconclusive %d, same %d, other %d" % (n, secs, secs / max(n, 1), c["regression"],
      ", ".join("%s %d" % kv for kv in sorted(kinds.items())) or "none", c["timing slower"],
      c["inconclusive"], c["same"], c["other"]))
print("RESULT %d %d" % (c["regression"], c["timing slower"]))
PYEOF
}

hogs_resume
ok=0
for kind in cpu wait; do
	eval "fac=\$fac_$kind"
	validate $kind "$D" "det_$kind" "$fac"
	line=$(tally "det_$kind" "$D")
	echo "detection, $kind, 2x slower:"
	echo "$line" | sed -n '1s/^/  /p'
	caught=$(echo "$line" | sed -n 's/^RESULT \([0-9]*\) .*/\1/p')
	[ "$caught" -ge $((D * 99 / 100)) ] || ok=1
done
half=$((F / 2))
for kind in cpu wait; do
	validate $kind "$half" "same_$kind" 1
	line=$(tally "same_$kind" "$half")
	echo "unchanged, $kind, beside two CPU hogs:"
	echo "$line" | sed -n '1s/^/  /p'
	bad=$(echo "$line" | sed -n 's/^RESULT \([0-9]*\) .*/\1/p')
	[ "$bad" -eq 0 ] || ok=1
done
echo "machine at the end (the two hogs are renacer's own):"
machine
[ -n "$KEEP" ] || rm -rf "$W"
exit $ok
