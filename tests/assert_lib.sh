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
#   seeds_shape OUT N           OUT holds the seeds' renacer.toml report (six
#                               blocks in file order, summary) for a run of N
#                               syscalls (N < 0: unknown); records a failure

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

# seeds_shape OUT N: the seeds' blocks in file order for a run of N syscalls
# (N < 0: not known)
seeds_shape() {
	$PY - "$1" "$2" <<'PY' || bad "$(basename "${ex:-?}"): report shape: $(cat "$1")"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
n = int(sys.argv[2])
heads = [l for l in lines if not l.startswith("   ") and l.strip()]
names = ["example_startup_latency", "max_syscall_budget", "memory_allocation_budget",
         "prevent_god_process", "detect_pcie_bottleneck", "ultra_strict_latency"]
for name, h in zip(names, heads):
    assert ("'%s'" % name) in h, (name, h)
    assert re.match(r"^(✅ Assertion '[a-z_]+' passed \(.+\)|❌ Assertion '[a-z_]+' FAILED|"
                    r"⚠️ Assertion '[a-z_]+' WARNING \(fail_on_violation = false\)|"
                    r"⏭️ Assertion '[a-z_]+' skipped \(disabled\))$", h), h
assert heads[5] == "⏭️ Assertion 'ultra_strict_latency' skipped (disabled)", heads[5]
if heads[1].startswith("✅") and n >= 0:
    assert heads[1] == "✅ Assertion 'max_syscall_budget' passed (%d / 500 calls)" % n, heads[1]
m = re.match(r"^✅ Assertion 'example_startup_latency' passed \(([0-9.]+)ms / 100ms\)$", heads[0])
assert m or heads[0].startswith("❌"), heads[0]
assert re.match(r"^✅ Assertion 'memory_allocation_budget' passed \([0-9.]+(B|KB|MB) / 100MB committed\)$", heads[2]) \
    or heads[2].startswith("❌"), heads[2]
assert re.match(r"^6 assertions: \d passed, \d failed, \d warnings?, 1 skipped$", heads[6]), heads[6]
PY
}
