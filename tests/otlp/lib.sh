# Shell functions of the OTLP tests (tests/t/otlp_*.sh); source after
# tests/lib.sh.  Receivers run on 127.0.0.1 only and stop with the test.
#
#   otlp_serve KIND OUT [SCRIPT [TLS_CERT TLS_KEY]]
#       starts tests/otlp/otlptest.py serve (KIND grpc or http), decoded
#       requests go to OUT; sets PORT; the receiver is killed at exit.
#       On port OTLP_PORT when set (returns 1 when that port is taken)
#   otlp_check ARGS...   otlptest.py check
#   otlp_unannounce FILE removes from FILE (renacer's stderr) the one line
#                        "renacer: OTLP export to 'URL' (...)" that every
#                        network export prints, so that what is left can be
#                        checked for silence
#   PY                   Debian's python3 (python3-protobuf, python3-grpcio)

PY=/usr/bin/python3
OTLPTEST="$TOP/tests/otlp/otlptest.py"
export OTLPTEST_CACHE="$TMPDIR/protos"
mkdir -p "$OTLPTEST_CACHE"
_otlp_pids=""
trap 'for p in $_otlp_pids; do kill "$p" 2>/dev/null; done' EXIT

[ -x "$PY" ] || skip "Debian's /usr/bin/python3 is missing (make deps)"
"$PY" -c 'import google.protobuf, grpc' 2>/dev/null || fail "python3-protobuf or python3-grpcio is missing (make deps)"
command -v protoc >/dev/null || fail "protoc is missing (make deps)"
[ -d "$TOP/tests/npm/otel/node_modules/@opentelemetry/otlp-grpc-exporter-base/build/protos" ] ||
	fail "tests/npm/otel is not installed (make deps)"

otlp_serve() {
	_kind=$1 _out=$2 _script=${3:-ok}
	shift 2
	[ $# -gt 0 ] && shift
	[ $# -ge 2 ] && set -- --tls "$1" "$2"
	_pf="$TMPDIR/port.$$.$(date +%s%N)"
	"$PY" "$OTLPTEST" serve --protocol "$_kind" --out "$_out" --port-file "$_pf" \
		--script "$_script" --port "${OTLP_PORT:-0}" --lifetime 200 "$@" 2> "$_pf.err" &
	_p=$!
	_otlp_pids="$_otlp_pids $_p"
	_i=0
	while [ ! -s "$_pf" ]; do
		if ! kill -0 $_p 2> /dev/null; then
			grep -q "cannot serve on port" "$_pf.err" && return 1
			cat "$_pf.err"
			fail "the test receiver did not start"
		fi
		_i=$((_i + 1))
		[ $_i -gt 400 ] && fail "the test receiver did not start"
		sleep 0.05
	done
	PORT=$(cat "$_pf")
}

otlp_unannounce() {
	sed -i "/^renacer: OTLP export to '[^']*' (/d" "$1"
}

otlp_check() {
	"$PY" "$OTLPTEST" check "$@"
}
