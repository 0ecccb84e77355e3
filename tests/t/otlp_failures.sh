#!/bin/sh
# OTLP delivery failures: a collector that is down, answers 503 then
# success, 429 with Retry-After (and gRPC RESOURCE_EXHAUSTED with
# RetryInfo), 400, is slower than the timeout, accepts only part of a batch,
# or serves https with a certificate renacer cannot verify.  None changes
# renacer's exit status or its local outputs; each gives at most one
# warning line; the run is never held up longer than the timeout.
# test: slow
. "$TOP/tests/lib.sh"
. "$TOP/tests/otlp/lib.sh"
prog=$(need_prog otlpprog)
cd "$TMPDIR" || exit 1

# run NAME RENACER-ARGS...: traces otlpprog with the JSON trace and the OTLP
# file as local outputs; checks the exit status (the command's 3), that the
# local outputs are whole, and that stderr has at most one line (in err.NAME)
run() {
	_n=$1
	shift
	_t0=$(date +%s%N)
	"$RENACER" -f --format json -o "t.$_n.json" --otlp-file "f.$_n.jsonl" "$@" -- "$prog" "env.$_n" \
		>"out.$_n" 2>"err.$_n"
	_rc=$?
	ELAPSED_MS=$(( ($(date +%s%N) - _t0) / 1000000 ))
	[ $_rc = 3 ] || fail "$_n: exit status $_rc, want the command's 3; stderr: $(cat "err.$_n")"
	otlp_unannounce "err.$_n"
	[ "$(wc -l <"err.$_n")" -le 1 ] || fail "$_n: more than one line on stderr: $(cat "err.$_n")"
	grep -q '^thread 1$' "out.$_n" || fail "$_n: the command's output is incomplete"
	"$PY" "$OTLPTEST" file "f.$_n.jsonl" >"ff.$_n" || fail "$_n: --otlp-file is not OTLP JSON"
	otlp_check --spans "ff.$_n" --json "t.$_n.json" --env "env.$_n" >/dev/null ||
		fail "$_n: the local outputs (JSON trace, OTLP file) are not whole"
	return 0
}

# expect_warning NAME REGEX
expect_warning() {
	grep -Eq "^renacer: warning: $2" "err.$1" || fail "$1: want a warning matching '$2', got: $(cat "err.$1")"
}
requests() { grep -c . "$1" 2>/dev/null || echo 0; }

# collector down
run down --otlp http://127.0.0.1:1 --otlp-protocol http/protobuf
expect_warning down "OTLP export to 'http://127.0.0.1:1' failed: .*(refused|connect).*; [0-9]+ of [0-9]+ spans not exported$"
run down_grpc --otlp http://127.0.0.1:1 --otlp-protocol grpc
expect_warning down_grpc "OTLP export to 'http://127.0.0.1:1' failed: .*; [0-9]+ of [0-9]+ spans not exported$"

# 503, then success: retried, nothing lost, nothing said
otlp_serve http rx.503 503,ok
run 503 --otlp "http://127.0.0.1:$PORT"
[ -s err.503 ] && fail "503 then 200: warning: $(cat err.503)"
[ "$(requests rx.503)" = 2 ] || fail "503 then 200: $(requests rx.503) requests, want 2"
otlp_check --spans rx.503 --json t.503.json --env env.503 >/dev/null || fail "503 then 200: spans lost"

# gRPC UNAVAILABLE, then OK
otlp_serve grpc rx.unavail unavailable,ok
run unavail --otlp "http://127.0.0.1:$PORT" --otlp-protocol grpc
[ -s err.unavail ] && fail "UNAVAILABLE then OK: warning: $(cat err.unavail)"
[ "$(requests rx.unavail)" = 2 ] || fail "UNAVAILABLE then OK: $(requests rx.unavail) requests, want 2"
otlp_check --spans rx.unavail --json t.unavail.json --env env.unavail >/dev/null || fail "UNAVAILABLE then OK: spans lost"

# 429 with Retry-After: 1, and RESOURCE_EXHAUSTED with RetryInfo 1s: the
# retry waits the second asked for (a plain backoff retries within 0.3 s)
gap() {
	"$PY" -c '
import json, sys
t = [json.loads(l)["t"] for l in open(sys.argv[1])]
print(int((t[1] - t[0]) * 1000) if len(t) == 2 else -1)' "$1"
}
otlp_serve http rx.429 429:ra=1,ok
run 429 --otlp "http://127.0.0.1:$PORT" --otlp-protocol http/json
[ -s err.429 ] && fail "429: warning: $(cat err.429)"
g=$(gap rx.429)
[ "$g" -ge 950 ] || fail "429 with Retry-After: 1: retried after $g ms"
otlp_check --spans rx.429 --json t.429.json --env env.429 >/dev/null || fail "429: spans lost"
otlp_serve grpc rx.exh exhausted:ra=1,ok
run exh --otlp "http://127.0.0.1:$PORT" --otlp-protocol grpc
[ -s err.exh ] && fail "RESOURCE_EXHAUSTED: warning: $(cat err.exh)"
g=$(gap rx.exh)
[ "$g" -ge 950 ] || fail "RESOURCE_EXHAUSTED with RetryInfo 1s: retried after $g ms"
# a Retry-After past the timeout is not waited for
otlp_serve http rx.ra30 429:ra=30
OTEL_EXPORTER_OTLP_TIMEOUT=2000 run ra30 --otlp "http://127.0.0.1:$PORT"
expect_warning ra30 "OTLP export to '.*' failed: HTTP 429: test collector says 429 \\(the collector asked to retry after 30000 ms, past the 2000 ms timeout\\); [0-9]+ of [0-9]+ spans not exported$"
[ $ELAPSED_MS -lt 2000 ] || fail "Retry-After past the timeout held the run up $ELAPSED_MS ms"

# 400: not retried
otlp_serve http rx.400 400
run 400 --otlp "http://127.0.0.1:$PORT"
expect_warning 400 "OTLP export to '.*' failed: HTTP 400: test collector says 400; [0-9]+ of [0-9]+ spans not exported$"
[ "$(requests rx.400)" = 1 ] || fail "400: $(requests rx.400) requests, want 1 (no retry)"
otlp_serve grpc rx.inval invalid
run inval --otlp "http://127.0.0.1:$PORT" --otlp-protocol grpc
expect_warning inval "OTLP export to '.*' failed: gRPC status INVALID_ARGUMENT \\(3\\): test collector says invalid; "
[ "$(requests rx.inval)" = 1 ] || fail "INVALID_ARGUMENT: $(requests rx.inval) requests, want 1"

# a collector slower than the timeout: the run is held up at most the timeout
otlp_serve http rx.slow slow=20
OTEL_EXPORTER_OTLP_TIMEOUT=1000 run slow --otlp "http://127.0.0.1:$PORT"
expect_warning slow "OTLP export to '.*' failed: no answer within the 1000 ms timeout"
[ $ELAPSED_MS -lt 2500 ] || fail "a collector slower than the 1000 ms timeout held the run up: $ELAPSED_MS ms"
otlp_serve grpc rx.slowg slow=20
OTEL_EXPORTER_OTLP_TIMEOUT=1000 run slowg --otlp "http://127.0.0.1:$PORT" --otlp-protocol grpc
expect_warning slowg "OTLP export to '.*' failed: "
[ $ELAPSED_MS -lt 2500 ] || fail "a gRPC collector slower than the timeout held the run up: $ELAPSED_MS ms"

# partial success: reported, in protobuf, JSON and gRPC
for p in http/protobuf http/json grpc; do
	kind=http
	[ $p = grpc ] && kind=grpc
	n=partial_$(echo $p | tr / _)
	otlp_serve $kind "rx.$n" "partial=5:spans too old"
	run "$n" --otlp "http://127.0.0.1:$PORT" --otlp-protocol $p
	expect_warning "$n" "OTLP collector at '.*' rejected 5 of [0-9]+ spans: spans too old$"
done

# https: a certificate renacer cannot verify fails; with
# OTEL_EXPORTER_OTLP_CERTIFICATE naming its CA it works (HTTP and gRPC)
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 ||
	fail "openssl cannot make a test certificate"
otlp_serve http rx.tls ok cert.pem key.pem
run tlsbad --otlp "https://127.0.0.1:$PORT"
expect_warning tlsbad "OTLP export to 'https://127.0.0.1:$PORT' failed: .*certificate"
[ -s rx.tls ] && fail "spans were accepted over an unverified https connection"
OTEL_EXPORTER_OTLP_CERTIFICATE=cert.pem run tlsok --otlp "https://127.0.0.1:$PORT"
[ -s err.tlsok ] && fail "https with the CA given: $(cat err.tlsok)"
otlp_check --spans rx.tls --json t.tlsok.json --env env.tlsok >/dev/null || fail "https: spans"
otlp_serve grpc rx.tlsg ok cert.pem key.pem
OTEL_EXPORTER_OTLP_CERTIFICATE=cert.pem run tlsg --otlp "https://127.0.0.1:$PORT" --otlp-protocol grpc
[ -s err.tlsg ] && fail "gRPC over TLS: $(cat err.tlsg)"
otlp_check --spans rx.tlsg --json t.tlsg.json --env env.tlsg >/dev/null || fail "gRPC over TLS: spans"
echo ok
