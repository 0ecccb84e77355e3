#!/bin/sh
# Golden traces with source correlation: `capture -s` keeps each call's
# line in NAME.json and every stack in NAME_source.json; validate traces
# the same way and its findings (text, JSON, markdown, JUnit) name the lines
# the added, new and newly failing calls come from; accept takes the
# stacks along; a golden captured without -s names no line.
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"
unset CI RENACER_UPDATE_GOLDEN
gcc -g -O2 -o srcgold src/srcgold.c || fail "cannot build srcgold"
ROWS=$(mark_line srcgold.c flush_rows)
LOAD=$(mark_line srcgold.c load_plugins)

"$RENACER" capture -s gold -- "$W/srcgold" >cap.out 2>cap.err || fail "capture -s failed: $(cat cap.err)"
for f in gold.json gold_source.json gold_summary.txt; do
	[ -f "golden_traces/$f" ] || fail "capture -s did not write $f: $(ls golden_traces)"
done
grep -qF "golden_traces/gold_source.json" cap.out || fail "capture -s did not say where the stacks are: $(cat cap.out)"
$PY - golden_traces/gold.json golden_traces/gold_source.json "$ROWS" <<'PYEOF' || exit 1
import json, sys
g, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = {"file": "src/srcgold.c", "line": int(sys.argv[3]), "function": "flush_rows"}
writes = [c for c in g["syscalls"] if c["name"] == "write"]
if len(writes) != 5 or any(c.get("source") != want for c in writes):
    sys.exit("FAIL: the golden's writes: %r" % [c.get("source") for c in writes])
if any("stack" in c for c in g["syscalls"]):
    sys.exit("FAIL: the golden carries stacks (they belong in NAME_source.json)")
sw = [c for c in s["syscalls"] if c["name"] == "write"]
if len(sw) != 5 or not all(c.get("stack") and c.get("source") == want for c in sw):
    sys.exit("FAIL: gold_source.json's writes lack their stacks")
if not any(f["function"] == "main" for f in sw[0]["stack"]):
    sys.exit("FAIL: the stack of a write does not reach main: %r" % sw[0]["stack"])
if "timing" not in s:
    sys.exit("FAIL: gold_source.json has no timing")
PYEOF

# more rows and a new file: the lines they come from
PLANT=more "$RENACER" validate --golden golden_traces/gold.json -- "$W/srcgold" >val.txt 2>val.err
[ $? = 1 ] || fail "validate of a changed run did not fail: $(cat val.txt val.err)"
grep -qF "+20 write from src/srcgold.c:$ROWS in flush_rows" val.txt ||
	fail "validate does not name flush_rows: $(cat val.txt)"
grep -qF "new file opened: \"/etc/hostname\", from src/srcgold.c:$LOAD in load_plugins" val.txt ||
	fail "validate does not name load_plugins for the new file: $(cat val.txt)"
grep -qF "+1 openat from src/srcgold.c:$LOAD in load_plugins" val.txt ||
	fail "validate does not name load_plugins for openat: $(cat val.txt)"
[ -f golden_traces/gold_source.json.new ] || fail "no gold_source.json.new beside gold.json.new"
for fmt in json markdown junit; do
	PLANT=more "$RENACER" validate --format $fmt --golden golden_traces/gold.json -- "$W/srcgold" \
		>val.$fmt 2>/dev/null
	grep -qF "+20 write from src/srcgold.c:$ROWS in flush_rows" val.$fmt ||
		fail "the $fmt output does not name flush_rows: $(head -c 2000 val.$fmt)"
done
$PY - val.json "$ROWS" <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
found = []
def walk(o):
    if isinstance(o, dict):
        for f in o.get("findings", []):
            if f.get("subject") == "write" and f["kind"] == "count":
                found.append(f)
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(d)
if len(found) != 1 or found[0].get("sources") != [
        {"where": "src/srcgold.c:%s in flush_rows" % sys.argv[2], "golden": 5.0, "current": 25.0}]:
    sys.exit("FAIL: the write finding's sources: %r" % found)
PYEOF

# a new failure, from its line
PLANT=fail "$RENACER" validate --golden golden_traces/gold.json -- "$W/srcgold" >fail.txt 2>&1
grep -q "now fails with ENOENT (1 time, golden 0), from src/srcgold.c:$LOAD in load_plugins\$" fail.txt ||
	fail "the new failure does not name load_plugins: $(cat fail.txt)"

# accept takes the stacks along
PLANT=more "$RENACER" validate --golden golden_traces/gold.json -- "$W/srcgold" >/dev/null 2>&1
"$RENACER" accept gold >acc.out 2>&1 || fail "accept failed: $(cat acc.out)"
[ ! -f golden_traces/gold_source.json.new ] || fail "accept left gold_source.json.new"
[ "$(grep -c '"name": "write"' golden_traces/gold_source.json)" = 25 ] ||
	fail "accept did not take the new stacks: $(grep -c '"name": "write"' golden_traces/gold_source.json) writes"
"$RENACER" accept --all >/dev/null 2>&1
"$RENACER" report >/dev/null 2>&1 || true
[ ! -f golden_traces/gold_source.json.new ] || fail "gold_source.json.new left pending"

# a golden without sources: the run is compared, and no line is named
"$RENACER" capture plain -- "$W/srcgold" >/dev/null 2>&1 || fail "capture failed"
PLANT=more "$RENACER" validate -s --golden golden_traces/plain.json -- "$W/srcgold" >plain.txt 2>&1
grep -q "write: 5 -> 25" plain.txt || fail "validate of the plain golden: $(cat plain.txt)"
grep -F "write from" plain.txt && fail "a golden without sources got a per-line count"
grep -qF "new file opened: \"/etc/hostname\", from src/srcgold.c:$LOAD in load_plugins" plain.txt ||
	fail "validate -s does not name the new file's line: $(cat plain.txt)"
exit 0
