#!/bin/sh
# The trust boundary of renacer.toml (issue 18 item 4, docs/ci.md): in a
# checked-out repository whose renacer.toml is hostile,
#  - golden directories, .new files, ANALYSIS.md and JUnit reports it names
#    outside the repository (../victim, absolute paths, a symbolic link in
#    the checkout) are refused before anything is written or deleted, by
#    capture, validate (--update, CI=1), accept and report; the command line
#    (--dir, --junit) can still name such places;
#  - [otlp] enabled = true with [otlp.headers] and its own endpoint does
#    not make a plain `renacer -o /dev/null cat secret.env` send anything:
#    a local listener receives no connection, and a warning says why; an
#    endpoint from the command line or the environment does get the spans,
#    and every export says where it goes in one line.
set -u
. "$TOP/tests/lib.sh"
PY=/usr/bin/python3
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
R=$RENACER
export LC_ALL=C
unset CI

# listen NAME: a TCP listener on 127.0.0.1 that answers every HTTP request
# with 200 and an empty body and logs what it got to NAME.log; sets PORT
listen() {
	rm -f "$TMPDIR/$1.port" "$TMPDIR/$1.log"
	"$PY" - "$TMPDIR/$1" <<'EOF' &
import socket, sys, threading, time
base = sys.argv[1]
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
log = open(base + ".log", "ab", buffering=0)
open(base + ".port.tmp", "w").write(str(s.getsockname()[1]))
import os
os.rename(base + ".port.tmp", base + ".port")
def serve(c):
    c.settimeout(5)
    data = b""
    try:
        while True:
            b = c.recv(65536)
            if not b:
                break
            data += b
            log.write(b)
            if b"\r\n\r\n" in data:
                head, _, body = data.partition(b"\r\n\r\n")
                n = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        n = int(line.split(b":")[1])
                if len(body) >= n:
                    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\n"
                              b"Content-Length: 0\r\n\r\n")
                    data = b""
    except Exception:
        pass
    c.close()
end = time.time() + 120
s.settimeout(1)
while time.time() < end:
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    log.write(b"\n--- connection\n")
    threading.Thread(target=serve, args=(c,), daemon=True).start()
EOF
	_pids="${_pids:-} $!"
	_i=0
	while [ ! -s "$TMPDIR/$1.port" ]; do
		_i=$((_i + 1)); [ $_i -lt 200 ] || fail "the listener did not start"; sleep 0.05
	done
	PORT=$(cat "$TMPDIR/$1.port")
}
trap 'for p in ${_pids:-}; do kill $p 2>/dev/null; done' EXIT

V="$TMPDIR/victim"
REPO="$TMPDIR/repo"
mkdir -p "$V" "$REPO" || exit 1
echo "do not touch" > "$V/junit.xml"
echo "do not touch" > "$V/t.json.new"
snapshot() { (cd "$V" && stat -c %y . && ls -lA --time-style=+%s.%N . && cat junit.xml t.json.new) > "$TMPDIR/victim.$1"; }
snapshot before
cd "$REPO" || exit 1
printf 'TOKEN=s3cr3t-abc\n' > secret.env
ln -s "$V" link

# expect WANT LABEL CMD...: runs CMD, checks its status and that stderr names the boundary
expect() {
	want=$1 label=$2; shift 2
	"$@" > out.txt 2> err.txt < /dev/null
	rc=$?
	[ "$rc" = "$want" ] || bad "$label: exit $rc, want $want: $(cat out.txt err.txt | head -c 400)"
	if [ "$want" = 5 ]; then
		grep -q "is outside '$REPO', the directory of the file: a renacer.toml may only name paths inside its own directory" err.txt ||
			bad "$label: no boundary message: $(cat err.txt)"
	fi
}

# --- paths ---
for dir in '../victim' "$V" 'link' 'link/sub' 'gt/../../victim'; do
	printf '[golden_traces]\ndir = "%s"\n' "$dir" > renacer.toml
	expect 5 "capture into dir '$dir'" "$R" capture --runs 1 t -- /bin/true
	expect 5 "validate --update with dir '$dir'" "$R" validate --update --golden "$V/t.json" -- /bin/true
	expect 5 "accept with dir '$dir'" "$R" accept --all
	expect 5 "report of dir '$dir'" "$R" report
done
# semantic_equivalence.baseline_dir names the golden directory too
printf '[semantic_equivalence]\nbaseline_dir = "../victim"\n' > renacer.toml
expect 5 "capture into baseline_dir '../victim'" "$R" capture --runs 1 t -- /bin/true
# the JUnit report, with and without CI set (with a golden to validate
# against, so that a report would be written)
printf '[golden_traces]\ndir = "gt"\n' > renacer.toml
expect 0 "capture into gt" "$R" capture --runs 1 t -- /bin/true
for jp in "$V/junit.xml" '../victim/junit.xml' 'link/junit.xml'; do
	printf '[ci]\njunit_path = "%s"\n' "$jp" > renacer.toml
	expect 5 "validate with junit_path '$jp'" "$R" validate --golden gt/t.json -- /bin/true
	CI=1 expect 5 "CI=1 validate with junit_path '$jp'" "$R" validate --golden gt/t.json -- /bin/true
done
snapshot after
cmp -s "$TMPDIR/victim.before" "$TMPDIR/victim.after" ||
	bad "the victim directory changed: $(diff "$TMPDIR/victim.before" "$TMPDIR/victim.after")"
# inside the repository all of it works
printf '[golden_traces]\ndir = "gt"\n[ci]\njunit_path = "reports/junit.xml"\n' > renacer.toml
mkdir -p reports
expect 0 "capture into gt" "$R" capture --runs 1 t -- /bin/true
expect 0 "validate with junit in reports/" "$R" validate --golden gt/t.json -- /bin/true
[ -s reports/junit.xml ] || bad "no JUnit report inside the repository"
expect 0 "report of gt" "$R" report
[ -s gt/ANALYSIS.md ] || bad "no ANALYSIS.md inside the repository"
# what the command line names is the user's choice
rm -f renacer.toml
mkdir -p "$TMPDIR/elsewhere"
expect 0 "capture --dir outside" "$R" capture --dir "$TMPDIR/elsewhere" --runs 1 t -- /bin/true
[ -s "$TMPDIR/elsewhere/t.json" ] || bad "capture --dir did not write there"
expect 0 "validate --junit outside" "$R" validate --junit "$TMPDIR/elsewhere/j.xml" --golden gt/t.json -- /bin/true
[ -s "$TMPDIR/elsewhere/j.xml" ] || bad "validate --junit did not write there"

# --- the network ---
listen evil
EVIL=$PORT
cat > renacer.toml <<EOF
[otlp]
enabled = true
endpoint = "http://127.0.0.1:$EVIL"
protocol = "http/json"
timeout_ms = 2000
[otlp.headers]
X-Leak = "from-the-checkout"
EOF
"$R" -o /dev/null cat secret.env > out.txt 2> err.txt; rc=$?
[ $rc = 0 ] || bad "plain trace in the checkout: exit $rc: $(cat err.txt)"
grep -q "^renacer: warning: ignoring \[otlp\] enabled = true of the renacer.toml found here" err.txt ||
	bad "no warning that [otlp] enabled was ignored: $(cat err.txt)"
grep -q "OTLP export to" err.txt && bad "an export was announced: $(cat err.txt)"
"$R" -f -o /dev/null sh -c 'cat secret.env' > /dev/null 2>&1
"$R" -c -o /dev/null cat secret.env > /dev/null 2>&1
"$R" --otlp-file spans.jsonl -o /dev/null cat secret.env > /dev/null 2> err.txt ||
	bad "--otlp-file in the checkout: $(cat err.txt)"
[ -s spans.jsonl ] || bad "--otlp-file wrote nothing"
sleep 0.5
[ -s "$TMPDIR/evil.log" ] && bad "the listener named by renacer.toml got: $(head -c 300 "$TMPDIR/evil.log")"

# the environment names the endpoint: the file's enabled counts, and the
# spans go there, announced
listen env
OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$PORT" "$R" -o /dev/null cat secret.env > /dev/null 2> err.txt ||
	bad "OTEL_EXPORTER_OTLP_ENDPOINT: $(cat err.txt)"
grep -q "^renacer: OTLP export to 'http://127.0.0.1:$PORT/v1/traces' (http/json, endpoint from OTEL_EXPORTER_OTLP_ENDPOINT)$" err.txt ||
	bad "no line saying where the spans go: $(cat err.txt)"
grep -q "POST /v1/traces" "$TMPDIR/env.log" || bad "the environment's endpoint got nothing"
# the command line: --otlp
listen cli
"$R" --otlp "http://127.0.0.1:$PORT" -o /dev/null true > /dev/null 2> err.txt || bad "--otlp: $(cat err.txt)"
grep -q "^renacer: OTLP export to 'http://127.0.0.1:$PORT/v1/traces' (http/json, endpoint from --otlp)$" err.txt ||
	bad "--otlp: no line saying where the spans go: $(cat err.txt)"
grep -q "POST /v1/traces" "$TMPDIR/cli.log" || bad "--otlp's endpoint got nothing"
# a renacer.toml named on the command line (--assert) is the user's: its
# [otlp] turns export on, and says so
"$R" --assert renacer.toml -o /dev/null true > /dev/null 2> err.txt
grep -q "^renacer: OTLP export to 'http://127.0.0.1:$EVIL/v1/traces' (http/json, endpoint from renacer.toml \[otlp\] endpoint)$" err.txt ||
	bad "--assert renacer.toml: no line saying where the spans go: $(cat err.txt)"
# renacer export asks for an export: to the file's endpoint, said in one line
"$R" --format json -o t.json true 2> /dev/null
"$R" export t.json > /dev/null 2> err.txt
grep -q "^renacer: OTLP export to 'http://127.0.0.1:$EVIL/v1/traces' (http/json, endpoint from renacer.toml \[otlp\] endpoint)$" err.txt ||
	bad "renacer export: no line saying where the spans go: $(cat err.txt)"

# --- [limits] can only be lowered by the checkout ---
printf '[limits]\nassertions = 99999999\n' > renacer.toml
"$R" validate --golden gt/t.json -- /bin/true > /dev/null 2> err.txt
grep -q "limits.assertions = 99999999 ignored: a renacer.toml can only lower renacer's limit of 10000" err.txt ||
	bad "[limits] raised by the checkout: $(cat err.txt)"

[ $fails = 0 ] || exit 1
echo "ok"
