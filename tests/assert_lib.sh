# Shell helpers for the assertion and anti-pattern tests (tests/t/assert_*.sh,
# tests/t/ap_*.sh), POSIX sh.  Source after tests/lib.sh.
#
#   bad MSG...                  record a failure (the test goes on; see finish)
#   finish                      exit 1 when a failure was recorded, else 0
#   capture OUT PROG ARGS...    trace PROG (following children) into OUT as
#                               renacer-json-v1; fails the test when it cannot
#   nsyscalls FILE              number of syscall records in a JSON trace
#   cfg <<EOF ... EOF           write $TMPDIR/cfg.toml from stdin
#   run_assert TRACE [FMT]      renacer assert --config $TMPDIR/cfg.toml
#                               --assert-format FMT (json by default) TRACE;
#                               sets RC, output in $TMPDIR/res, stderr in
#                               $TMPDIR/err
#   result N KEY                KEY of result N of the JSON in $TMPDIR/res
#   analyze TRACE               renacer analyze --format json TRACE into
#                               $TMPDIR/ap.json (fails the test on error)
#   finding PATTERN KEY         KEY of PATTERN's finding in $TMPDIR/ap.json

PY=/usr/bin/python3
failed=0
bad() { echo "FAIL: $*"; failed=1; }
finish() { [ $failed -eq 0 ] || exit 1; exit 0; }

capture() { # out prog args...
	out=$1; shift
	"$RENACER" -f --format json -o "$out" -- "$@" >/dev/null 2>"$TMPDIR/capture.err" ||
		fail "capture of '$*' failed: $(cat "$TMPDIR/capture.err")"
}

nsyscalls() {
	$PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["syscalls"]))' "$1"
}

cfg() { cat > "$TMPDIR/cfg.toml"; }

run_assert() { # trace [fmt]
	"$RENACER" assert --config "$TMPDIR/cfg.toml" --assert-format "${2:-json}" "$1" \
		> "$TMPDIR/res" 2> "$TMPDIR/err"
	RC=$?
}

result() { # n key
	$PY -c 'import json,os,sys
r = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])][sys.argv[3]]
try:
    print("\n".join(r) if isinstance(r, list) else r)
    sys.stdout.flush()
except BrokenPipeError:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)' "$TMPDIR/res" "$1" "$2"
}

analyze() {
	"$RENACER" analyze --format json "$1" > "$TMPDIR/ap.json" 2> "$TMPDIR/err" ||
		fail "analyze $1 failed: $(cat "$TMPDIR/err")"
}

finding() { # pattern key
	$PY -c 'import json,os,sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["pattern"] == sys.argv[2]:
        r = f[sys.argv[3]]
        try:
            print("\n".join(r) if isinstance(r, list) else r)
            sys.stdout.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)' "$TMPDIR/ap.json" "$1" "$2"
}

# ge A B: A >= B for decimal numbers
ge() { $PY -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)' "$1" "$2"; }
