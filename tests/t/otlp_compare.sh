#!/bin/sh
# renacer compare on span exports: Jaeger query-API JSON and OTLP JSON
# (--otlp-file) compared per operation: the same run in both formats is
# equivalent, the counts match an independent count, a planted extra
# process and a planted slowdown are regressions; usage errors.
. "$TOP/tests/lib.sh"
. "$TOP/tests/otlp/lib.sh"
prog=$(need_prog otlpprog)
cd "$TMPDIR" || exit 1

"$RENACER" -f --otlp-file a.jsonl -o /dev/null -- "$prog" child >/dev/null 2>&1 || fail "run a"
"$RENACER" -f --otlp-file b.jsonl -o /dev/null -- "$prog" child >/dev/null 2>&1 || fail "run b"
"$RENACER" -f --otlp-file c.jsonl -o /dev/null -- "$prog" >/dev/null 2>&1

# a Jaeger /api/traces export of run a, made from its decoded spans
"$PY" "$OTLPTEST" file a.jsonl >a.spans || fail "a.jsonl is not OTLP JSON"
"$PY" - <<'PYEOF' || fail "cannot make the Jaeger export"
import json
spans = [s for l in open("a.spans") for s in json.loads(l)["spans"]]
def jaeger(scale=None):
    out = {"data": [{"traceID": spans[0]["trace_id"], "spans": [], "processes": {
        "p1": {"serviceName": spans[0]["resource"]["service.name"], "tags": []}}, "warnings": None}],
        "total": 0, "limit": 0, "offset": 0, "errors": None}
    for s in spans:
        d = (s["end"] - s["start"]) // 1000
        if scale and s["name"] == scale[0]:
            d = d * scale[1] + 50000
        out["data"][0]["spans"].append({
            "traceID": s["trace_id"], "spanID": s["span_id"], "operationName": s["name"],
            "references": [{"refType": "CHILD_OF", "traceID": s["trace_id"], "spanID": s["parent"]}] if s["parent"] else [],
            "startTime": s["start"] // 1000, "duration": d, "tags": [], "logs": [],
            "processID": "p1", "warnings": None, "flags": 1})
    return out
json.dump(jaeger(), open("a.jaeger.json", "w"), indent=2)
json.dump(jaeger(("wait4", 3)), open("slow.jaeger.json", "w"))
counts = {}
for s in spans:
    counts[s["name"]] = counts.get(s["name"], 0) + 1
json.dump(counts, open("a.counts", "w"))
PYEOF

# the same run, Jaeger against OTLP: equivalent; the counts are right
"$RENACER" compare --format json a.jaeger.json a.jsonl >same.json
rc=$?
[ $rc = 0 ] || fail "one run as Jaeger and as OTLP: exit $rc, want 0: $(cat same.json)"
"$PY" - <<'PYEOF' || fail "span counts of the comparison"
import json
r = json.load(open("same.json"))
counts = json.load(open("a.counts"))
assert r["status"] == "equivalent" and r["before"]["kind"] == "jaeger" and r["after"]["kind"] == "otlp", r
got = {o["name"]: o["spans_per_trace"] for o in r["operations"]}
assert {k: v[0] for k, v in got.items()} == counts, (got, counts)
assert {k: v[1] for k, v in got.items()} == counts, (got, counts)
PYEOF

# the eBPF recorder names the processes as the ptrace engine does: the
# child that runs execl("/proc/self/exe") is otlpprog, not renacer (whose
# own /proc/self that would be, resolved afterwards)
if "$RENACER" --backend ebpf -o /dev/null true 2>/dev/null; then
	"$RENACER" --backend ptrace -f --otlp-file cp.jsonl -o /dev/null -- "$prog" >/dev/null 2>&1
	"$RENACER" --backend ebpf -f --otlp-file ce.jsonl -o /dev/null -- "$prog" >/dev/null 2>&1
	for f in cp ce; do
		"$PY" "$OTLPTEST" file $f.jsonl >$f.spans || fail "$f.jsonl is not OTLP JSON"
		"$PY" -c '
import json, sys
print(sorted(s["name"] for l in open(sys.argv[1]) for s in json.loads(l)["spans"]
             if s["name"] in ("otlpprog", "renacer", "process", "exe", "thread")))' $f.spans >$f.names
	done
	cmp -s cp.names ce.names ||
		fail "process spans: ptrace $(cat cp.names), eBPF $(cat ce.names)"
fi

# two runs of the same program: equivalent in counts (text output; their
# times vary with the machine's load, so --no-timing)
"$RENACER" compare --no-timing a.jsonl b.jsonl >ab.txt
rc=$?
[ $rc = 0 ] || fail "two runs of the same program: exit $rc: $(cat ab.txt)"
grep -q '^EQUIVALENT: ' ab.txt || fail "no EQUIVALENT line: $(cat ab.txt)"

# a planted change: the parent now starts threads and another process
"$RENACER" compare --no-timing a.jsonl c.jsonl >ac.txt
rc=$?
[ $rc = 1 ] || fail "more processes and threads: exit $rc, want 1"
grep -q '^regression: thread: new operation' ac.txt || fail "the new thread spans are not reported: $(cat ac.txt)"
grep -q '^regression: otlpprog: 2 -> 3 spans a trace' ac.txt || fail "the extra process is not reported: $(cat ac.txt)"
grep -q '^REGRESSION: ' ac.txt || fail "no REGRESSION line"

# a planted slowdown of wait4 (3x, +50 ms a call) in a Jaeger export
"$RENACER" compare a.jaeger.json slow.jaeger.json >slow.txt
rc=$?
[ $rc = 1 ] || fail "a slower wait4: exit $rc, want 1: $(cat slow.txt)"
grep -Eq '^regression: wait4: [0-9.]+ -> [0-9.]+ ms a trace' slow.txt || fail "the slow wait4 is not reported: $(cat slow.txt)"
"$RENACER" compare --no-timing a.jaeger.json slow.jaeger.json >/dev/null ||
	fail "--no-timing still compares durations"
"$RENACER" compare --format markdown a.jaeger.json slow.jaeger.json | grep -q '^| wait4 |' ||
	fail "--format markdown"

# usage: a span export against a renacer trace, a missing file
"$RENACER" -f --format json -o t.json -- "$prog" child >/dev/null 2>&1
"$RENACER" compare a.jsonl t.json 2>err.mixed
[ $? = 5 ] || fail "a span export against a renacer trace: want exit 5"
grep -q "^renacer: cannot compare 'a.jsonl' (OTLP JSON) with 't.json' (not spans)" err.mixed ||
	fail "mixed: $(cat err.mixed)"
"$RENACER" compare a.jsonl nothere.json 2>err.missing
[ $? = 2 ] || fail "a missing file: want exit 2"
printf '{"data": [{"spans": [{"traceID": "x"}]}]}' >bad.jaeger.json
"$RENACER" compare bad.jaeger.json a.jaeger.json 2>err.bad
[ $? = 3 ] || fail "a broken Jaeger export: want exit 3"
grep -q "^renacer: cannot read Jaeger export 'bad.jaeger.json': a span lacks" err.bad || fail "broken: $(cat err.bad)"
echo ok
