#!/bin/sh
# OTLP export end to end: a real receiver (the official .proto files,
# protoc, python3-protobuf, python3-grpcio) decodes what renacer sends in
# every protocol; the span tree, names, attributes and times are checked
# against the JSON trace of the same run; --otlp-file, batching,
# --otlp-min-duration, trace context propagation, the OTEL_* environment
# and renacer.toml's [otlp].
. "$TOP/tests/lib.sh"
. "$TOP/tests/otlp/lib.sh"
prog=$(need_prog otlpprog)
cd "$TMPDIR" || exit 1

# run NAME RENACER-ARGS...: traces otlpprog with a JSON trace t.NAME.json and
# the command's TRACEPARENT in env.NAME; fails on another exit status than
# the command's (3) or on anything renacer prints
run() {
	_n=$1
	shift
	"$RENACER" -f --format json -o "t.$_n.json" "$@" -- "$prog" "env.$_n" >"out.$_n" 2>"err.$_n"
	_rc=$?
	[ $_rc = 3 ] || fail "$_n: exit status $_rc, want the command's 3; stderr: $(cat "err.$_n")"
	otlp_unannounce "err.$_n"
	[ -s "err.$_n" ] && fail "$_n: renacer printed: $(cat "err.$_n")"
	return 0
}

# 1. every protocol, and the OTLP JSON file of the same run
for proto in grpc http/protobuf http/json; do
	kind=http
	[ $proto = grpc ] && kind=grpc
	n=$(echo $proto | tr / _)
	otlp_serve $kind "rx.$n"
	run "$n" --otlp "http://127.0.0.1:$PORT" --otlp-protocol $proto --otlp-file "f.$n.jsonl"
	otlp_check --spans "rx.$n" --json "t.$n.json" --env "env.$n" || fail "$proto: spans"
	"$PY" "$OTLPTEST" file "f.$n.jsonl" >"ff.$n" || fail "--otlp-file: not OTLP JSON"
	otlp_check --spans "ff.$n" --json "t.$n.json" --env "env.$n" || fail "$proto: --otlp-file"
	# bodies are gzip-compressed: Content-Encoding, or grpc-encoding
	"$PY" - "rx.$n" $kind <<'PYEOF' || fail "$proto: request headers"
import json, sys
for line in open(sys.argv[1]):
    h = json.loads(line)["headers"]
    if sys.argv[2] == "http":
        assert h.get("content-encoding") == "gzip", h
        assert h.get("content-type") in ("application/x-protobuf", "application/json"), h
    else:
        assert "te" not in h and h.get("user-agent", "").startswith("renacer/"), h
PYEOF
done

# 2. batches: at most N spans a request, none lost
for kind in http grpc; do
	otlp_serve $kind "rx.batch$kind"
	run "batch$kind" --otlp "http://127.0.0.1:$PORT" --otlp-protocol $( [ $kind = grpc ] && echo grpc || echo http/protobuf) --otlp-batch-size 7
	otlp_check --spans "rx.batch$kind" --json "t.batch$kind.json" --env "env.batch$kind" || fail "$kind batch size 7: spans"
	"$PY" -c '
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
sizes = [len(r["spans"]) for r in reqs]
assert len(reqs) > 5 and max(sizes) <= 7, sizes
' "rx.batch$kind" || fail "--otlp-batch-size 7: requests of more than 7 spans"
done

# 2b. batches leave while the command runs: a shell that makes its calls,
# then sleeps 2 s; the first requests arrive well before its process ends
otlp_serve http rx.live
"$RENACER" -f -o /dev/null --otlp "http://127.0.0.1:$PORT" --otlp-batch-size 8 -- sh -c 'sleep 2' ||
	fail "sh -c 'sleep 2' failed"
"$PY" -c '
import json
reqs = [json.loads(l) for l in open("rx.live")]
spans = [s for r in reqs for s in r["spans"]]
root = [s for s in spans if not s["parent"]][0]
first = min(r["t"] for r in reqs)
assert len(reqs) > 2 and first < root["end"] / 1e9 - 1.0, (len(reqs), first, root["end"] / 1e9)
' || fail "no batch was sent while the command ran"

# 3. --otlp-min-duration: only slower calls become spans; totals stay
otlp_serve grpc rx.min
run min --otlp "http://127.0.0.1:$PORT" --otlp-protocol grpc --otlp-min-duration 20
otlp_check --spans rx.min --json t.min.json --env env.min --min-duration-us 20 ||
	fail "--otlp-min-duration 20"

# 3b. -s: code.file.path, code.line.number, code.function.name as the JSON
# trace's "source" of the same call
otlp_serve http rx.src
run src -s --otlp "http://127.0.0.1:$PORT"
otlp_check --spans rx.src --json t.src.json --env env.src --want-source || fail "-s: code.* attributes"

# 4. a parent: --trace-parent, then TRACEPARENT; --no-propagate
tp=00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01
otlp_serve http rx.tp
run tp --otlp "http://127.0.0.1:$PORT" --trace-parent $tp
otlp_check --spans rx.tp --json t.tp.json --env env.tp --parent $tp || fail "--trace-parent"
otlp_serve http rx.env
TRACEPARENT=$tp run env --otlp "http://127.0.0.1:$PORT"
otlp_check --spans rx.env --json t.env.json --env env.env --parent $tp || fail "TRACEPARENT"
otlp_serve http rx.noprop
TRACEPARENT=$tp run noprop --otlp "http://127.0.0.1:$PORT" --no-propagate
otlp_check --spans rx.noprop --json t.noprop.json --env env.noprop --parent $tp --no-propagate ||
	fail "--no-propagate"
# without a parent the command gets its own process span (checked by --env above);
# a bad TRACEPARENT is ignored with a warning, a bad --trace-parent is an error
"$RENACER" --otlp-file /dev/null --trace-parent 00-xyz -- true 2>err.bad
[ $? = 1 ] || fail "a bad --trace-parent was accepted"
grep -q "^renacer: invalid trace parent '00-xyz'" err.bad || fail "bad --trace-parent: $(cat err.bad)"
TRACEPARENT=garbage "$RENACER" --otlp-file /dev/null -- true 2>err.badenv || fail "a bad TRACEPARENT failed the run"
grep -q "^renacer: warning: ignoring TRACEPARENT='garbage'" err.badenv || fail "bad TRACEPARENT: $(cat err.badenv)"

# 5. the environment: endpoint, service name, resource, headers
otlp_serve http rx.otel
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="http://127.0.0.1:$PORT/v1/traces" \
OTEL_SERVICE_NAME=checkout OTEL_RESOURCE_ATTRIBUTES='deployment.environment=ci,team=perf%20lab' \
OTEL_EXPORTER_OTLP_HEADERS='X-Api-Key=s3cret' \
	run otel --otlp-file /dev/null --otlp-protocol http/json
# --otlp-file alone does not send: nothing may arrive
[ -s rx.otel ] && fail "spans were sent without --otlp or [otlp] enabled"
printf '[otlp]\nenabled = true\nendpoint = "http://127.0.0.1:1"\nprotocol = "http/protobuf"\n[otlp.headers]\nX-From-File = "yes"\n' >renacer.toml
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="http://127.0.0.1:$PORT/v1/traces" \
OTEL_SERVICE_NAME=checkout OTEL_RESOURCE_ATTRIBUTES='deployment.environment=ci,team=perf%20lab' \
OTEL_EXPORTER_OTLP_HEADERS='X-Api-Key=s3cret' \
	run otel
otlp_check --spans rx.otel --json t.otel.json --env env.otel --service checkout \
	--resource deployment.environment=ci --resource 'team=perf lab' || fail "OTEL_* environment"
"$PY" -c '
import json
h = json.loads(open("rx.otel").readline())["headers"]
assert h.get("x-api-key") == "s3cret" and h.get("x-from-file") == "yes", h
' || fail "headers from OTEL_EXPORTER_OTLP_HEADERS and [otlp.headers]"

# 6. renacer.toml alone: enabled, endpoint and protocol (grpc) from the
# file, when the command line names the file (--assert); one found in the
# working directory cannot turn export on by itself (docs/ci.md)
otlp_serve grpc rx.toml
printf '[otlp]\nenabled = true\nendpoint = "http://127.0.0.1:%s"\nprotocol = "grpc"\nservice_name = "from-toml"\n' "$PORT" >renacer.toml
"$RENACER" -f -o /dev/null -- "$prog" env.found >/dev/null 2>err.found
grep -q "^renacer: warning: ignoring \[otlp\] enabled = true of the renacer.toml found here" err.found ||
	fail "a renacer.toml found here turned export on: $(cat err.found)"
# (--assert reports its zero assertions on stderr: not run's silence)
"$RENACER" -f --format json -o t.toml.json --assert renacer.toml -- "$prog" env.toml >out.toml 2>err.toml
rc=$?
[ $rc = 3 ] || fail "toml: exit status $rc: $(cat err.toml)"
otlp_check --spans rx.toml --json t.toml.json --env env.toml --service from-toml || fail "[otlp] in renacer.toml"
rm -f renacer.toml
echo "ok"
