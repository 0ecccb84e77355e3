#!/bin/sh
# make demo: the whole loop on the shipped examples (examples/*.c):
# trace with a summary, capture golden traces, validate them, evaluate the
# renacer.toml budgets, and write the report.  Run from the repository root.
set -eu
BUILD=${1:-build}
R="$BUILD/renacer"
CFG=examples/renacer.toml
if [ "$BUILD" != build ]; then
	mkdir -p "$BUILD/demo"
	sed "s#build/#$BUILD/#g" examples/renacer.toml > "$BUILD/demo/renacer.toml"
	CFG="$BUILD/demo/renacer.toml"
fi
DIR="$BUILD/demo/golden_traces"
mkdir -p "$DIR"
export LC_ALL=C LANG=C

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "1. strace-style summary of each example (renacer -f -c)"
for e in file_io fork_wait threads; do
	echo "-- $e"
	"$R" -f -c -o "$BUILD/demo/$e.summary" "$BUILD/examples/$e" "$BUILD/demo" > /dev/null
	cat "$BUILD/demo/$e.summary"
done

step "2. capture golden traces (renacer capture, declared in $CFG)"
# a fresh capture each demo run: the goldens live under $BUILD/demo
env -u CI "$R" capture --config "$CFG" --dir "$DIR"

step "3. validate: a second run of the unchanged programs (renacer validate)"
env -u CI "$R" validate --config "$CFG" --dir "$DIR" --no-color

step "4. performance assertions (renacer --assert $CFG)"
for e in file_io fork_wait threads; do
	echo "-- $e"
	"$R" --assert "$CFG" -o "$BUILD/demo/$e.trace" "$BUILD/examples/$e" "$BUILD/demo" > /dev/null
done

step "5. report (renacer report $DIR)"
"$R" report "$DIR"
echo "wrote $DIR/ANALYSIS.md; traces in $DIR:"
ls -l "$DIR"

step "6. OpenTelemetry: the runs as traces, sent to a local OTLP receiver"
# the test collector (tests/otlp/otlptest.py: the official .proto files,
# python3-protobuf, python3-grpcio) stands in for Jaeger or Tempo here;
# docs/otlp.md says how to start those
PY=/usr/bin/python3
OT=tests/otlp/otlptest.py
export OTLPTEST_CACHE="$BUILD/demo/otlp-protos"
mkdir -p "$OTLPTEST_CACHE"
rpids=""
trap 'for p in $rpids; do kill "$p" 2>/dev/null; done' EXIT
for proto in grpc http/protobuf http/json; do
	kind=http
	[ "$proto" = grpc ] && kind=grpc
	n=$(echo "$proto" | tr / _)
	rx="$BUILD/demo/otlp-$n.received"
	pf="$BUILD/demo/otlp-$n.port"
	rm -f "$rx" "$pf"
	"$PY" "$OT" serve --protocol "$kind" --out "$rx" --port-file "$pf" --lifetime 120 &
	rpids="$rpids $!"
	i=0
	while [ ! -s "$pf" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	port=$(cat "$pf")
	echo "-- renacer -f --otlp http://127.0.0.1:$port --otlp-protocol $proto -- fork_wait"
	OTEL_SERVICE_NAME=renacer-demo "$R" -f --otlp "http://127.0.0.1:$port" --otlp-protocol "$proto" \
		-o /dev/null "$BUILD/examples/fork_wait" "$BUILD/demo" > /dev/null
	"$PY" "$OT" tree "$rx"
done
echo "-- a collector that is down: one warning, the command's exit status kept"
"$R" -f --otlp http://127.0.0.1:1 -o /dev/null "$BUILD/examples/threads" "$BUILD/demo" > /dev/null &&
	echo "(exit status 0, as the command's)"
echo "-- renacer export: the fork_wait golden of step 2 sent again, as it was recorded"
for g in "$DIR"/fork_wait.json "$DIR"/fork_wait.json.zst; do
	[ -f "$g" ] || continue
	rx="$BUILD/demo/otlp-export.received"
	rm -f "$rx"
	"$PY" "$OT" serve --protocol http --out "$rx" --port-file "$BUILD/demo/otlp-export.port" --lifetime 60 &
	rpids="$rpids $!"
	i=0
	while [ ! -s "$BUILD/demo/otlp-export.port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	"$R" export --otlp "http://127.0.0.1:$(cat "$BUILD/demo/otlp-export.port")" "$g"
	"$PY" "$OT" tree "$rx"
	rm -f "$BUILD/demo/otlp-export.port"
	break
done
echo "-- --otlp-file of two runs, compared per operation (renacer compare --no-timing:"
echo "   span counts only, as run times vary with the machine's load)"
"$R" -f --otlp-file "$BUILD/demo/a.otlp.jsonl" -o /dev/null "$BUILD/examples/fork_wait" "$BUILD/demo" > /dev/null
"$R" -f --otlp-file "$BUILD/demo/b.otlp.jsonl" -o /dev/null "$BUILD/examples/fork_wait" "$BUILD/demo" > /dev/null
"$R" compare --no-timing "$BUILD/demo/a.otlp.jsonl" "$BUILD/demo/b.otlp.jsonl" | tail -n 1 || true
