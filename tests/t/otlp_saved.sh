#!/bin/sh
# renacer export: a saved trace (JSON, JSON Lines, zstd) sent to a real
# receiver gives the same span tree as the live run, at the recorded times;
# exit statuses for a missing, unreadable and refused trace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/otlp/lib.sh"
prog=$(need_prog otlpprog)
cd "$TMPDIR" || exit 1

"$RENACER" -f --format json -o saved.json -- "$prog" >/dev/null 2>&1
[ $? = 3 ] || fail "tracing otlpprog failed"
"$RENACER" -f --format jsonl -o saved.jsonl -- "$prog" >/dev/null 2>&1
zstd -q -f saved.json -o saved.json.zst || fail "zstd"

otlp_serve grpc rx.zst
"$RENACER" export --otlp "http://127.0.0.1:$PORT" --otlp-protocol grpc saved.json.zst 2>err.zst ||
	fail "export of a zstd trace: exit $?: $(cat err.zst)"
otlp_unannounce err.zst
[ -s err.zst ] && fail "export printed: $(cat err.zst)"
otlp_check --spans rx.zst --json saved.json || fail "export of saved.json.zst"

otlp_serve http rx.json
OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$PORT" OTEL_EXPORTER_OTLP_PROTOCOL=http/json \
	"$RENACER" export saved.json 2>err.json || fail "export with the endpoint from the environment: $(cat err.json)"
otlp_check --spans rx.json --json saved.json || fail "export of saved.json over http/json"

# JSON Lines: the checker reads the JSON document of the same spans
otlp_serve http rx.jsonl
"$RENACER" export --otlp "http://127.0.0.1:$PORT" --otlp-file saved.otlp.jsonl saved.jsonl 2>err.jsonl ||
	fail "export of a jsonl trace: $(cat err.jsonl)"
"$PY" - <<'PYEOF' || fail "export of saved.jsonl"
import json
recs = [json.loads(l) for l in open("saved.jsonl")]
calls = [r for r in recs if r.get("type") == "syscall"]
spans = [s for l in open("rx.jsonl") for s in json.loads(l)["spans"]]
sys_spans = [s for s in spans if "syscall.name" in s["attrs"]]
assert len(sys_spans) == len(calls), (len(sys_spans), len(calls))
base = [r for r in recs if r.get("type") == "header"][0]["start_unix_ns"]
starts = sorted(base + round(c["ts_us"] * 1000) for c in calls)
assert starts == sorted(s["start"] for s in sys_spans)
file_spans = [s for l in open("saved.otlp.jsonl") for s in json.loads(l)["resourceSpans"][0]["scopeSpans"][0]["spans"]]
assert len(file_spans) == len(spans), (len(file_spans), len(spans))
PYEOF

# --otlp-file alone sends nothing and writes every span
"$RENACER" export --otlp-file only.jsonl saved.json 2>err.only || fail "export --otlp-file: $(cat err.only)"
"$PY" "$OTLPTEST" file only.jsonl >ff.only && otlp_check --spans ff.only --json saved.json >/dev/null ||
	fail "export --otlp-file"

# failures: refused (1, one warning), missing (2), unreadable (3), usage (1)
"$RENACER" export --otlp http://127.0.0.1:1 saved.json 2>err.down
[ $? = 1 ] || fail "export to a collector that is down: want exit 1"
otlp_unannounce err.down
[ "$(wc -l <err.down)" = 1 ] && grep -q "^renacer: warning: OTLP export to 'http://127.0.0.1:1' failed: " err.down ||
	fail "export to a collector that is down: $(cat err.down)"
"$RENACER" export --otlp http://127.0.0.1:1 nothere.json 2>err.missing
[ $? = 2 ] || fail "export of a missing trace: want exit 2"
grep -q "^renacer: cannot read trace 'nothere.json'" err.missing || fail "missing: $(cat err.missing)"
printf '{"format": "renacer-json-v1", "syscalls": [' >broken.json
"$RENACER" export --otlp http://127.0.0.1:1 broken.json 2>err.broken
[ $? = 3 ] || fail "export of a truncated trace: want exit 3"
"$RENACER" export 2>err.usage
[ $? = 1 ] && grep -q "^renacer: expected one TRACE" err.usage || fail "export without a trace: $(cat err.usage)"
"$RENACER" export --bogus x 2>err.usage2
[ $? = 1 ] && grep -q "^renacer: unknown option '--bogus'" err.usage2 || fail "export --bogus: $(cat err.usage2)"
echo ok
