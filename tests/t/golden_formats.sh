#!/bin/sh
# Output formats of compare and validate: JUnit XML (parsed with
# xml.etree), JSON (json module), Markdown, and text coloured only on
# request or on a terminal.
. "$TOP/tests/golden_lib.sh"
gp_setup
cat > renacer.toml <<TOML
[[golden_traces.trace]]
name = "same"
command = ["$GP", "$W/gp"]

[[golden_traces.trace]]
name = "changed"
command = ["$GP", "$W/gp"]

[[golden_traces.trace]]
name = "absent"
command = ["$GP", "$W/gp"]
TOML
run 0 "$RENACER" capture same
GP_PLANT=--no-fsync run 0 "$RENACER" capture changed

# junit: three testcases, one failure, one error (missing)
run 2 "$RENACER" validate --format junit
cp out.txt report.xml
$PY - report.xml <<'PYEOF' || exit 1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
cases = root.findall(".//testcase")
names = sorted(c.get("name") for c in cases)
assert names == ["absent", "changed", "same"], names
by = {c.get("name"): c for c in cases}
assert by["same"].find("failure") is None and by["same"].find("error") is None
f = by["changed"].find("failure")
assert f is not None and "fsync" in f.get("message") + (f.text or ""), ET.tostring(by["changed"])
assert by["absent"].find("error") is not None
assert root.get("tests") == "3" and root.get("failures") == "1" and root.get("errors") == "1", root.attrib
PYEOF

# --junit FILE beside another format
run 2 "$RENACER" validate --format json --junit junit2.xml
$PY -c "import xml.etree.ElementTree as ET; ET.parse('junit2.xml')" || fail "--junit file does not parse"
$PY - out.txt <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "renacer-golden-result-v1"
t = {x["name"]: x for x in d["traces"]}
assert t["same"]["status"] == 0 and t["same"]["pass"] is True
assert t["changed"]["status"] == 1 and t["changed"]["pass"] is False
assert any(f["kind"] == "appeared" and f["subject"] == "fsync" for f in t["changed"]["findings"]), t["changed"]["findings"]
assert t["absent"]["status"] == 2
assert 0 <= t["same"]["confidence"] <= 1
assert set(t["same"]["confidence_parts"]) == {"sequence", "counts", "resources"}
assert d["summary"] == {"total": 3, "passed": 1, "failed": 2, "status": 2}, d["summary"]
# the per-process unified diff of the changed trace names the call
assert any("+fsync(" in p["diff"] for p in t["changed"]["processes"]), t["changed"]["processes"]
PYEOF

# markdown: a table row per trace, a section for each failing one
run 2 "$RENACER" validate --format markdown
has out.txt "| Trace | Result | What changed |"
has out.txt "| same | "
has out.txt "### "
has out.txt '```diff'

# compare: json of two files
run 1 "$RENACER" compare --format json golden_traces/changed.json golden_traces/same.json
$PY -c "import json; d=json.load(open('out.txt')); assert d['traces'][0]['status']==1" || fail "compare json"
run 1 "$RENACER" compare --format junit golden_traces/changed.json golden_traces/same.json
$PY -c "import xml.etree.ElementTree as ET; ET.parse('out.txt')" || fail "compare junit"

# text: no colour into a pipe, colour with --color=always, like git diff
run 1 "$RENACER" compare golden_traces/same.json golden_traces/changed.json
esc=$(printf '\033')
if grep -q "$esc" out.txt; then fail "colour escapes in piped output"; fi
has out.txt "-fsync("
run 1 "$RENACER" compare --color=always golden_traces/same.json golden_traces/changed.json
grep -q "$esc\[31m-fsync(" out.txt || fail "no red '-' line with --color=always"
run 5 "$RENACER" compare --format yaml golden_traces/changed.json golden_traces/same.json
has err.txt "unknown format 'yaml'"
echo ok
