#!/bin/sh
# renacer init: writes a starter renacer.toml that loads without warnings,
# refuses to overwrite without --force, and exits 1 on I/O errors, 2 on bad
# usage.  A malformed renacer.toml gives exit 5 with file:line:col.
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$TMPDIR" || exit 1

# writes renacer.toml in the current directory
"$RENACER" init > out 2> err; rc=$?
[ $rc -eq 0 ] || bad "init: exit $rc, want 0; stderr: $(cat err)"
[ -f renacer.toml ] || bad "init did not write renacer.toml"
grep -q "Created renacer.toml" out || bad "init output: $(cat out)"
[ -s err ] && bad "init wrote to stderr: $(cat err)"
ls renacer.toml.tmp.* >/dev/null 2>&1 && bad "a temporary file was left behind"

# the file is valid TOML for another parser too
/usr/bin/python3 -c 'import sys, tomllib; d = tomllib.load(open(sys.argv[1], "rb"));
names = [a["name"] for a in d["assertion"]]
assert names == ["example_startup_latency", "max_syscall_budget", "memory_allocation_budget",
  "prevent_god_process", "detect_pcie_bottleneck", "ultra_strict_latency"], names
assert d["semantic_equivalence"]["min_confidence"] == 0.90
assert [a["enabled"] for a in d["assertion"]].count(True) == 5' renacer.toml ||
	bad "tomllib disagrees with the starter file"

# renacer itself loads it without a warning: evaluate it on a saved trace
if "$RENACER" -o trace.json --format json /bin/true > /dev/null 2>&1 && [ -s trace.json ]; then
	"$RENACER" assert --config renacer.toml trace.json > aout 2> aerr; rc=$?
	[ $rc -eq 0 ] || bad "assert with the starter file: exit $rc: $(cat aerr)"
	grep -q warning aerr && bad "the starter file gives warnings: $(cat aerr)"
	grep -q "max_syscall_budget" aout || bad "assert output lacks max_syscall_budget: $(cat aout)"
fi

# never overwrites without --force
echo "# mine" > renacer.toml
"$RENACER" init > out 2> err; rc=$?
[ $rc -eq 1 ] || bad "init over an existing file: exit $rc, want 1"
grep -q "'renacer.toml' already exists (use --force to overwrite it)" err ||
	bad "init over an existing file: $(cat err)"
[ "$(cat renacer.toml)" = "# mine" ] || bad "init changed an existing file"
"$RENACER" init --force > out 2> err; rc=$?
[ $rc -eq 0 ] || bad "init --force: exit $rc"
grep -q '^\[\[assertion\]\]' renacer.toml || bad "init --force did not rewrite the file"

# --path, and -p
"$RENACER" init --path sub.toml > /dev/null 2>&1 || bad "init --path: exit $?"
cmp -s sub.toml renacer.toml || bad "init --path wrote something else"
"$RENACER" init -p short.toml > /dev/null 2>&1 || bad "init -p: exit $?"
[ -f short.toml ] || bad "init -p did not write short.toml"

# I/O errors: exit 7 (an output that cannot be written), one message naming the file
"$RENACER" init --path no/such/dir/r.toml > out 2> err; rc=$?
[ $rc -eq 7 ] || bad "init into a missing directory: exit $rc, want 7"
grep -q "cannot create 'no/such/dir/r.toml': No such file or directory" err ||
	bad "init into a missing directory: $(cat err)"
mkdir d.toml
"$RENACER" init --path d.toml --force > out 2> err; rc=$?
[ $rc -eq 7 ] || bad "init over a directory: exit $rc, want 7"

# usage errors: exit 2
for args in "--bogus" "extra" "--path"; do
	# shellcheck disable=SC2086
	"$RENACER" init $args > out 2> err; rc=$?
	[ $rc -eq 2 ] || bad "init $args: exit $rc, want 2"
	grep -q "^renacer: init: " err || bad "init $args: $(head -n 1 err)"
done
"$RENACER" init --help > out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "usage: renacer init" out || bad "init --help: exit $rc: $(cat out)"

# a malformed renacer.toml: exit 5 and file:line:col
if [ -s trace.json ]; then
	printf '[[assertion]]\nname = "b"\ntype = "span_count"\nmax_span = 3\n' > bad.toml
	"$RENACER" assert --config bad.toml trace.json > out 2> err; rc=$?
	[ $rc -eq 5 ] || bad "assert with a bad config: exit $rc, want 5"
	grep -q "bad.toml:4:1: assertion 'b': unknown key 'max_span' (did you mean 'max_spans'?)" err ||
		bad "assert with a bad config: $(cat err)"
	printf 'x = [1,\n' > syntax.toml
	"$RENACER" assert --config syntax.toml trace.json > out 2> err; rc=$?
	[ $rc -eq 5 ] || bad "assert with a syntax error: exit $rc, want 5"
	grep -q "syntax.toml:1:5: unterminated array (missing ']')" err ||
		bad "assert with a syntax error: $(cat err)"
fi
exit $fail
