#!/bin/sh
# Traces and goldens written before arguments were saved typed
# (renacer-json-v1 and -jsonl-v1, tests/data/v1/: made by renacer 0.9.0 from
# examples/file_io.c and fork_wait.c) still read, validate and compare equal
# with today's renacer-json-v2; and every v2 trace of a range of real
# programs compares equal with its own text-only (v1) form, both ways.
. "$TOP/tests/lib.sh"

cd "$TMPDIR" || exit 1
cp "$EXAMPLES/file_io" "$EXAMPLES/fork_wait" .
mkdir golden_traces
cp "$TOP/tests/data/v1/file_io.json" "$TOP/tests/data/v1/file_io_summary.txt" \
   "$TOP/tests/data/v1/fork_wait.json" "$TOP/tests/data/v1/fork_wait_summary.txt" golden_traces/

# the v1 goldens validate against today's runs (timing aside: the machine differs)
for p in file_io fork_wait; do
	CI=1 "$RENACER" validate --no-color --no-timing --golden "golden_traces/$p.json" -- "./$p" . \
		> "val_$p.txt" 2>&1 || fail "v1 golden $p does not validate: $(cat val_$p.txt)"
	grep -q "equivalent" "val_$p.txt" || fail "v1 golden $p: $(cat val_$p.txt)"
done

# a v1 jsonl trace against a v2 trace of the same program, both ways
"$RENACER" --format jsonl -o now.jsonl -- ./fork_wait . > /dev/null 2>&1 || fail "trace fork_wait"
head -c 200 now.jsonl | grep -q '"format": "renacer-jsonl-v2"' || fail "not v2: $(head -c 200 now.jsonl)"
for pair in "$TOP/tests/data/v1/fork_wait.jsonl now.jsonl" "now.jsonl $TOP/tests/data/v1/fork_wait.jsonl"; do
	# shellcheck disable=SC2086
	"$RENACER" compare --no-timing $pair > cmp.txt 2>&1 || fail "v1 and v2 traces differ: $(cat cmp.txt)"
done

# v2 against its own text-only form, on real programs
v1_of() { # v2.json v1.json: the same trace without typed values, as v1 wrote it
	/usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "renacer-json-v2", d["format"]
d["format"] = "renacer-json-v1"
for s in d["syscalls"]:
    s["args"] = [a[:2] for a in s["args"]]
    if "ret_aux" in s:
        s["ret_aux"] = s["ret_aux"][:2]
    s.pop("endpoint", None)
    s.pop("ret_ref", None)
json.dump(d, open(sys.argv[2], "w"))
PY
}
n=0
for cmd in "ls -la /usr" "sh -c 'ls / | wc -l; sleep 0.01 & wait'" "git --version" \
	   "find /usr/share/doc -maxdepth 2 -name copyright" "./fork_wait ." \
	   "python3 -c 'import os, socket; s = socket.socket(); os.pipe()'"; do
	n=$((n + 1))
	sh -c "\"$RENACER\" --format json -o t$n.json -- $cmd" > /dev/null 2>&1
	[ -s "t$n.json" ] || fail "no trace of $cmd"
	v1_of "t$n.json" "t${n}_v1.json" || fail "cannot strip $cmd"
	"$RENACER" compare --no-timing "t${n}_v1.json" "t$n.json" > c1.txt 2>&1 ||
		fail "v1 form of '$cmd' differs from its v2: $(head -30 c1.txt)"
	"$RENACER" compare --no-timing "t$n.json" "t${n}_v1.json" > c2.txt 2>&1 ||
		fail "v2 of '$cmd' differs from its v1 form: $(head -30 c2.txt)"
done
exit 0
