#!/bin/sh
# The verdict benchmark's fast subset (scripts/verdict.sh --fast; docs/
# benchmarks.md, "Verdict benchmark"): the cases of tests/verdict/manifest.toml
# marked fast (planted changes of the small programs caught and named, harmless
# ones passing) and 30 validations of the unchanged small programs beside a
# CPU hog, none flagged.  Fails when any of them fails.  First, the driver
# itself: a plant whose expected name is wrong and a "harmless" change that is
# a real one must both be reported as failing (exit 1, a FAIL line each).
# test: serial
. "$TOP/tests/lib.sh"
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
V="$TOP/scripts/verdict.sh"

cat > "$TMPDIR/self.toml" <<'EOF'
[program.seedlike]
source = "progs/seedlike.c"
cflags = "-O2 -g"
files = ["matrix.in:bytes:512"]
command = ["@bin"]
unchanged = 0

[[case]]
id = "wrong-name"
program = "seedlike"
kind = "plant"
change = "an fsync, expected to be named as something else"
defines = ["-DFSYNC"]
names = "no-such-name"

[[case]]
id = "not-harmless"
program = "seedlike"
kind = "harmless"
change = "a forked helper, declared harmless"
defines = ["-DFORK"]
EOF
BUILD=$BUILD sh "$V" --manifest "$TMPDIR/self.toml" --reps 1 --unchanged 0 --out "$TMPDIR/self" \
	> "$TMPDIR/self.out" 2> "$TMPDIR/self.err"
rc=$?
cat "$TMPDIR/self.out"
[ $rc -eq 1 ] || { cat "$TMPDIR/self.err"; fail "the self-check exited $rc, expected 1"; }
grep -q '^FAIL plant    wrong-name .*failed without naming /no-such-name/' "$TMPDIR/self.out" ||
	fail "a misnamed plant is not reported"
grep -q '^FAIL harmless not-harmless .*failed' "$TMPDIR/self.out" ||
	fail "a flagged harmless change is not reported"
grep -q '^recall (caught and named): 0/1 plants' "$TMPDIR/self.out" || fail "no recall line"

BUILD=$BUILD sh "$V" --fast --out "$TMPDIR/fast" > "$TMPDIR/fast.out" 2> "$TMPDIR/fast.err"
rc=$?
cat "$TMPDIR/fast.out"
[ $rc -eq 0 ] || { tail -n 20 "$TMPDIR/fast.err"; grep '^FAIL' "$TMPDIR/fast.out"
	fail "the fast subset failed (exit $rc)"; }
grep -q '^false alarms: 0/30 ' "$TMPDIR/fast.out" || fail "not 30 unchanged validations"
echo ok
