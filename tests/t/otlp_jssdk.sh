#!/bin/sh
# The official OpenTelemetry JS SDK (npm, tests/npm/otel) as a reference
# sender: the receiver of the OTLP tests accepts what it sends in every
# protocol (so the receiver is not tuned to renacer); and a program
# instrumented with it, run under renacer, puts its span into renacer's
# trace under its own process span, through TRACEPARENT.
. "$TOP/tests/lib.sh"
. "$TOP/tests/otlp/lib.sh"
command -v node >/dev/null 2>&1 || fail "node is missing (make deps)"
JS="$TOP/tests/otlp/jssender.js"
cd "$TMPDIR" || exit 1

jscheck() { # FILE [TRACE-ID PARENT-SPAN-ID]
	"$PY" - "$@" <<'PYEOF'
import json, sys
spans = [s for l in open(sys.argv[1]) for s in json.loads(l)["spans"]]
js = [s for s in spans if s["name"] == "js-work"]
assert len(js) == 1, "want one js-work span, got %r" % [s["name"] for s in spans]
s = js[0]
assert s["resource"]["service.name"] == "js-reference", s["resource"]
assert s["attrs"] == {"js.answer": 42}, s["attrs"]
assert s["kind"] == 1 and len(s["trace_id"]) == 32 and len(s["span_id"]) == 16, s
assert s["end"] >= s["start"] > 0, s
if len(sys.argv) > 2:
    assert s["trace_id"] == sys.argv[2], "js-work is in trace %s, not renacer's %s" % (s["trace_id"], sys.argv[2])
    assert s["parent"] == sys.argv[3], "js-work's parent is %s, not the node process span %s" % (s["parent"], sys.argv[3])
PYEOF
}

# 1. the reference sender, alone, in every protocol
for proto in grpc http/protobuf http/json; do
	kind=http
	[ $proto = grpc ] && kind=grpc
	n=$(echo $proto | tr / _)
	otlp_serve $kind "rx.$n"
	url="http://127.0.0.1:$PORT"
	[ $kind = http ] && url="$url/v1/traces"
	env -u TRACEPARENT timeout 60 node "$JS" $proto "$url" >"out.$n" 2>&1 ||
		fail "the JS SDK could not send over $proto: $(cat "out.$n")"
	jscheck "rx.$n" || fail "$proto: what the JS SDK sent was not received as sent"
done

# 2. under renacer: its trace (gRPC) and the program's own span (HTTP) join
otlp_serve grpc rx.renacer
rport=$PORT
otlp_serve http rx.node
env -u TRACEPARENT "$RENACER" -f --format json -o t.json --otlp "http://127.0.0.1:$rport" \
	--otlp-protocol grpc -- node "$JS" http/protobuf "http://127.0.0.1:$PORT/v1/traces" >out.run 2>err.run ||
	fail "node under renacer failed: $(cat out.run err.run)"
otlp_unannounce err.run
[ -s err.run ] && fail "renacer printed: $(cat err.run)"
otlp_check --spans rx.renacer --json t.json || fail "the span tree of node under renacer"
ids=$("$PY" - <<'PYEOF'
import json
spans = [s for l in open("rx.renacer") for s in json.loads(l)["spans"]]
root = [s for s in spans if not s["parent"]]
assert len(root) == 1 and root[0]["name"] == "node", [s["name"] for s in root]
print(root[0]["trace_id"], root[0]["span_id"])
PYEOF
) || fail "no node process span"
# shellcheck disable=SC2086
jscheck rx.node $ids || fail "the instrumented program's span did not join renacer's trace"
echo ok
