#!/bin/sh
# Corrupt goldens never crash compare or validate: truncated, empty,
# non-JSON, wrong-format, huge-number and deeply nested files each give exit
# 3 and one line naming the file and the position; a missing golden gives 2.
. "$TOP/tests/golden_lib.sh"
gp_setup

run 0 "$RENACER" capture gp -- "$GP" "$W/gp"
good=golden_traces/gp.json
mkdir bad
size=$(wc -c < "$good")
head -c $((size / 2)) "$good" > bad/truncated.json
: > bad/empty.json
printf 'this is not json\n' > bad/notjson.json
printf '{"format": "something-else-v9", "syscalls": []}\n' > bad/wrongformat.json
$PY - "$good" <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[1]).read()
# a result no 64-bit integer holds
i = text.index('"result": ') + len('"result": ')
j = i
while text[j] in "-0123456789":
    j += 1
open("bad/hugenumber.json", "w").write(text[:i] + "1" + "0" * 40 + text[j:])
# arguments nested 100000 deep
k = text.index('"args": ') + len('"args": ')
open("bad/nested.json", "w").write(text[:k] + "[" * 100000 + "]" * 100000 + ", " + text[k:].split(", ", 1)[1] if False else text[:k] + "[" * 100000 + "]" * 100000 + text[text.index("]]", k) + 2:])
PYEOF
zstd -q -c bad/truncated.json > bad/truncated.json.zst

for f in bad/truncated.json bad/empty.json bad/notjson.json bad/wrongformat.json \
	 bad/hugenumber.json bad/nested.json bad/truncated.json.zst; do
	run 3 "$RENACER" compare "$f" "$good"
	lines=$(wc -l < err.txt)
	[ "$lines" -eq 1 ] || { cat err.txt; fail "$f: $lines lines of message, want 1"; }
	has err.txt "'$f'"
	grep -Eq "line [0-9]+|position|offset|column [0-9]+" err.txt || { cat err.txt; fail "$f: no position in the message"; }
	# as the current trace too
	run 3 "$RENACER" compare "$good" "$f"
	has err.txt "'$f'"
	# validate reads the golden before running anything
	run 3 "$RENACER" validate --golden "$f" -- "$GP" "$W/gp"
	has err.txt "'$f'"
done

# missing: 2, with the file named
run 2 "$RENACER" compare golden_traces/nosuch.json "$good"
has err.txt "golden_traces/nosuch.json"
run 2 "$RENACER" validate --golden golden_traces/nosuch.json -- "$GP" "$W/gp"
has err.txt "golden_traces/nosuch.json"
# JSON output still parses for a broken golden
run 3 "$RENACER" compare --format json bad/notjson.json "$good"
$PY -c "import json,sys; d=json.load(open('out.txt')); assert d['traces'][0]['status']==3, d" || fail "json for a broken golden"
echo ok
