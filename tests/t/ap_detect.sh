#!/bin/sh
# Every anti-pattern detector fires on a program built to show it and stays
# quiet on a similar program that must not trigger it (false positives are
# bugs too), through `renacer analyze` on the saved traces.
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/assert_lib.sh"
P=$PROGS

# expect TRACE PATTERN yes|no: PATTERN detected (confidence >= 0.5) or not
expect() {
	analyze "$1"
	d=$(finding "$2" detected)
	c=$(finding "$2" confidence)
	want=$([ "$3" = yes ] && echo True || echo False)
	[ "$d" = "$want" ] || bad "$2 on $(basename "$1"): detected=$d (confidence $c), want $want: $(finding "$2" evidence)"
}
# quiet TRACE: no detector fires at all
quiet() {
	analyze "$1"
	n=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["detected"])' "$TMPDIR/ap.json")
	[ "$n" = 0 ] || bad "$(basename "$1"): $n detectors fired on a clean program: $(cat "$TMPDIR/ap.json")"
}

# TightLoop: one call repeated, a two-call cycle, versus calls that move data
capture "$TMPDIR/busy.json" "$P/ap_tightloop" busy 2000
expect "$TMPDIR/busy.json" TightLoop yes
finding TightLoop evidence | grep -q 'newfstatat repeated 2000 times' ||
	bad "TightLoop evidence: $(finding TightLoop evidence)"
capture "$TMPDIR/busy2.json" "$P/ap_tightloop" busy2 1000
expect "$TMPDIR/busy2.json" TightLoop yes
finding TightLoop evidence | grep -q 'cycle newfstatat → read repeated 1000 times' ||
	bad "TightLoop cycle evidence: $(finding TightLoop evidence)"
capture "$TMPDIR/ok.json" "$P/ap_tightloop" ok 2000
quiet "$TMPDIR/ok.json"

# GodProcess: one of four workers does everything, versus four even workers
capture "$TMPDIR/god.json" "$P/ap_god" god 3000
expect "$TMPDIR/god.json" GodProcess yes
finding GodProcess evidence | grep -q '^threads of process [0-9]* (ap_god): thread [0-9]* made 300[0-9] of' ||
	bad "GodProcess evidence: $(finding GodProcess evidence)"
capture "$TMPDIR/even.json" "$P/ap_god" even 3000
quiet "$TMPDIR/even.json"
# a parent and the child it waits for are not a god process
capture "$TMPDIR/fork.json" "$P/assert_sleep" wait 10
quiet "$TMPDIR/fork.json"

# UnbufferedIO: byte-at-a-time writes and reads, versus stdio buffering
capture "$TMPDIR/tiny.json" "$P/ap_unbuffered" tiny "$TMPDIR/data.txt" 2000
expect "$TMPDIR/tiny.json" UnbufferedIO yes
finding UnbufferedIO evidence | grep -q "^fd [0-9]* ($TMPDIR/data.txt) in process [0-9]* (ap_unbuffered): 2000 \(writes\|reads\) averaging 1.0 bytes" ||
	bad "UnbufferedIO evidence: $(finding UnbufferedIO evidence)"
capture "$TMPDIR/buffered.json" "$P/ap_unbuffered" buffered "$TMPDIR/data.txt" 20000
quiet "$TMPDIR/buffered.json"

# RedundantFileAccess: the same file re-read 100 times, versus once
printf 'key = value\n' > "$TMPDIR/app.conf"
capture "$TMPDIR/rep.json" "$P/ap_redundant" repeat "$TMPDIR/app.conf" 100
expect "$TMPDIR/rep.json" RedundantFileAccess yes
finding RedundantFileAccess evidence | grep -q "^$TMPDIR/app.conf: opened 100 times, stat-ed 100 times, read 100 times" ||
	bad "RedundantFileAccess evidence: $(finding RedundantFileAccess evidence)"
capture "$TMPDIR/once.json" "$P/ap_redundant" once "$TMPDIR/app.conf" 100
quiet "$TMPDIR/once.json"

# PCIeBottleneck never fires without GPU device files
expect "$TMPDIR/god.json" PCIeBottleneck no

# real programs nobody here wrote
capture "$TMPDIR/ls.json" /bin/ls -l /usr/bin
quiet "$TMPDIR/ls.json"
capture "$TMPDIR/sh.json" /bin/sh -c 'echo a | cat > /dev/null; true'
quiet "$TMPDIR/sh.json"

# the text report: one block per detector, a closing count
"$RENACER" analyze "$TMPDIR/busy.json" > "$TMPDIR/a.txt" || bad "analyze text failed"
for l in "⚠️ Tight loop detected (confidence: " "✅ God process not detected (confidence: 0%)" \
	 "✅ PCIe Bottleneck not detected (confidence: 0%)" "   Recommendation: "; do
	grep -q "^$l" "$TMPDIR/a.txt" || bad "analyze text lacks '$l': $(cat "$TMPDIR/a.txt")"
done
tail -n 1 "$TMPDIR/a.txt" | grep -qx '[0-9] anti-patterns\? detected' || bad "analyze text: no closing count"
"$RENACER" analyze "$TMPDIR/nonexistent.json" >/dev/null 2>&1
[ $? -eq 2 ] || bad "analyze of a missing trace: want exit 2"
finish
