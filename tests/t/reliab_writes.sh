#!/bin/sh
# A failed write of any output is exit 7 on every command, after the rest of
# the work is done: standard output on /dev/full for every command and
# format, standard error on /dev/full for the trace, output files that
# cannot be created (--junit, -o, ANALYSIS.md) -- and one line saying why.
set -u
. "$TOP/tests/lib.sh"
cd "$TMPDIR" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
[ -w /dev/full ] || skip "no /dev/full"

# want7 LABEL CMD...: runs CMD (its redirections given in CMD via sh -c)
want7() {
	_l=$1; shift
	sh -c "$*" > /dev/null 2> w.err
	rc=$?
	[ $rc = 7 ] || bad "$_l: exit $rc, want 7 ($(head -n 2 w.err))"
	[ "$(grep -c '^renacer: ' w.err)" -le 1 ] || bad "$_l: more than one message: $(cat w.err)"
}
R="'$RENACER'"
T=/bin/true

"$RENACER" --format json -o t.json true || fail "cannot trace true"
printf '[[assertion]]\nname = "few"\ntype = "span_count"\nmax_spans = 100000\n' > a.toml

# --- the trace command ---
want7 "--help" "$R --help > /dev/full"
want7 "--version" "$R --version > /dev/full"
want7 "-o -" "$R -o - true > /dev/full"
grep -q "cannot write to <[a-z]*>: No space left on device" w.err || bad "-o -: $(cat w.err)"
for f in json jsonl csv; do
	want7 "--format $f -o -" "$R --format $f -o - true > /dev/full"
done
want7 "-c -o -" "$R -c -o - true > /dev/full"
want7 "-o /dev/full" "$R -o /dev/full true"
want7 "trace on a full stderr" "$R true 2> /dev/full"
want7 "--assert report on a full stderr" "$R -o /dev/null --assert a.toml -- true 2> /dev/full"
want7 "--anti-patterns on a full stderr" "$R -o /dev/null --anti-patterns -- true 2> /dev/full"
# the command's own status stays when nothing failed: a full stdout that
# renacer never writes is the command's business
"$RENACER" -o /dev/null true > /dev/full; rc=$?
[ $rc = 0 ] || bad "renacer -o /dev/null true > /dev/full: exit $rc"
# -o into a directory that does not exist: nothing ran?  It ran: the file
# is opened first, so it is refused before the command starts (1)
"$RENACER" -o nodir/x.txt true 2> nodir.err; rc=$?
[ $rc = 1 ] || bad "-o nodir/x.txt: exit $rc, want 1"

# --- saved-trace commands ---
want7 "assert" "$R assert --config a.toml t.json > /dev/full"
grep -q "cannot write the report: No space left on device" w.err || bad "assert: $(cat w.err)"
for f in json junit; do
	want7 "assert --assert-format $f" "$R assert --config a.toml --assert-format $f t.json > /dev/full"
done
want7 "analyze" "$R analyze t.json > /dev/full"
want7 "analyze --format json" "$R analyze --format json t.json > /dev/full"
want7 "init" "$R init --path init.toml > /dev/full"
[ -s init.toml ] || bad "init: the file was not written before the message failed"
want7 "init --help" "$R init --help > /dev/full"

# --- golden commands ---
mkdir g && cd g || exit 1
want7 "capture" "$R capture t -- $T > /dev/full"
[ -s golden_traces/t.json ] && [ -s golden_traces/t_summary.txt ] ||
	bad "capture: the golden was not written before the message failed"
want7 "capture --help" "$R capture --help > /dev/full"
want7 "validate" "$R validate --golden golden_traces/t.json -- $T > /dev/full"
grep -q "cannot write to standard output: No space left on device" w.err || bad "validate: $(cat w.err)"
for f in json junit markdown; do
	want7 "validate --format $f" "$R validate --format $f --golden golden_traces/t.json -- $T > /dev/full"
	want7 "compare --format $f" "$R compare --format $f ../t.json ../t.json > /dev/full"
done
want7 "compare" "$R compare ../t.json ../t.json > /dev/full"
# --junit where nothing can be created (sysfs), the report itself fine
want7 "--junit on a read-only file system" "$R compare --junit /sys/renacer-junit.xml ../t.json ../t.json"
grep -q "cannot create '/sys/renacer-junit.xml'" w.err || bad "--junit: $(cat w.err)"
# a regression and a failed --junit: 7 (the report is lost), not 1
"$RENACER" validate --junit /sys/renacer-junit.xml --golden golden_traces/t.json -- /bin/echo x > /dev/null 2>&1
rc=$?
[ $rc = 7 ] || bad "regression with a failed --junit: exit $rc, want 7"
# accept: a pending .new from that regression
[ -f golden_traces/t.json.new ] || bad "no t.json.new to accept"
want7 "accept" "$R accept t > /dev/full"
[ ! -f golden_traces/t.json.new ] || bad "accept did not accept before the message failed"
want7 "report" "$R report > /dev/full"
[ -s golden_traces/ANALYSIS.md ] || bad "report: ANALYSIS.md not written"
want7 "report -o -" "$R report -o - > /dev/full"
want7 "report -o on sysfs" "$R report -o /sys/renacer-analysis.md"
exit $fail
