#!/bin/sh
# scripts/ci-validate.sh, the plain-shell CI of docs/ci.md, against the
# shipped examples: passes on unchanged programs, fails (1) on a changed
# one with the new trace in the reports, never touches the golden directory.
. "$TOP/tests/golden_lib.sh"
for e in file_io fork_wait threads; do
	[ -x "$EXAMPLES/$e" ] || { echo "no example $e"; exit 77; }
done
mkdir bin
ln -s "$RENACER" bin/renacer
PATH="$W/bin:$PATH"
cat > renacer.toml <<TOML
[golden_traces]
dir = "golden_traces"

[[golden_traces.trace]]
name = "file_io"
command = ["$EXAMPLES/file_io"]

[[golden_traces.trace]]
name = "fork_wait"
command = ["$EXAMPLES/fork_wait"]

[[golden_traces.trace]]
name = "threads"
command = ["$EXAMPLES/threads"]
TOML
run 0 renacer capture
ls -la --time-style=full-iso golden_traces | sed 1d | grep -v ' \.\.$' > before.txt

run 0 sh "$TOP/scripts/ci-validate.sh" --reports reports
has out.txt "3 passed, 0 failed"
$PY -c "
import xml.etree.ElementTree as ET
r = ET.parse('reports/junit.xml').getroot()
assert r.get('tests') == '3' and r.get('failures') == '0', r.attrib
" || fail "junit.xml"
has reports/ANALYSIS.md "# Golden Trace Analysis Report"
has reports/report.md "| file_io |"

# a changed program: the golden of threads now belongs to fork_wait (a
# golden and its summary go together: one without the other is refused)
cp golden_traces/fork_wait.json saved.json
cp golden_traces/fork_wait_summary.txt saved_summary.txt
cp golden_traces/threads.json golden_traces/fork_wait.json
cp golden_traces/threads_summary.txt golden_traces/fork_wait_summary.txt
ls -la --time-style=full-iso golden_traces | sed 1d | grep -v ' \.\.$' > before.txt
run 1 sh "$TOP/scripts/ci-validate.sh" --reports reports2
has out.txt "fork_wait"
[ -f reports2/new/fork_wait.json.new ] || fail "no new trace in the reports"
$PY -c "
import xml.etree.ElementTree as ET
r = ET.parse('reports2/junit.xml').getroot()
assert r.get('failures') == '1', r.attrib
" || fail "junit.xml of the failing run: $(cat out.txt)"
ls -la --time-style=full-iso golden_traces | sed 1d | grep -v ' \.\.$' > after.txt
cmp -s before.txt after.txt || fail "ci-validate.sh changed the golden directory"
cp saved.json golden_traces/fork_wait.json
cp saved_summary.txt golden_traces/fork_wait_summary.txt

# usage errors: 5
run 5 sh "$TOP/scripts/ci-validate.sh" --config nosuch.toml
echo ok
