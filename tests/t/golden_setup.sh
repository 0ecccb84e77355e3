#!/bin/sh
# A renacer.toml trace's cwd and env, and the standard streams of the
# golden workflow, are the command's alone (src/core/setup.c, applied in
# its child): renacer itself keeps the user's directory and streams while
# every run (traced and untraced) goes on, relative paths given to renacer
# resolve against the user's directory, and the trace records what the
# command got.
. "$TOP/tests/golden_lib.sh"

mkdir -p sub || fail "setup"
printf 'user input\n' > user_in.txt
# each run appends what it sees: its parent's (renacer's) directory and
# fds 0 and 1, its own directory, variable and fds 0 and 1
cat > renacer.toml <<'TOML'
[[golden_traces.trace]]
name = "st"
command = ["sh", "-c", "echo \"$(readlink /proc/$PPID/cwd)|$(readlink /proc/$PPID/fd/0)|$(readlink /proc/$PPID/fd/1)|$(pwd)|$SETUP_VAR|$(readlink /proc/$$/fd/0)|$(readlink /proc/$$/fd/1)\" >> seen.txt"]
cwd = "sub"
env = { SETUP_VAR = "child" }
TOML
SETUP_VAR=mine run 0 "$RENACER" capture st < user_in.txt
has out.txt "Captured: golden_traces/st.json"
[ -f golden_traces/st.json ] || fail "the golden is not under the user's directory"
[ -s sub/seen.txt ] || fail "the command did not run in sub/"
n=$(wc -l < sub/seen.txt)
[ "$n" -ge 2 ] || fail "traced and untraced runs: $n lines"
W_REAL=$(cd "$W" && pwd -P)
# check_seen: every line of sub/seen.txt as it should be
check_seen() {
	[ -s sub/seen.txt ] || fail "no run of the command wrote sub/seen.txt"
	[ ! -e seen.txt ] || fail "a run of the command ran in renacer's directory"
	while IFS='|' read -r pcwd pin pout cwd var in out; do
		[ "$pcwd" = "$W_REAL" ] || fail "renacer's own directory during the run: '$pcwd', not '$W_REAL'"
		[ "$pin" = "$W_REAL/user_in.txt" ] || fail "renacer's own stdin during the run: '$pin'"
		[ "$pout" = "$W_REAL/out.txt" ] || fail "renacer's own stdout during the run: '$pout'"
		[ "$cwd" = "$W_REAL/sub" ] || fail "the command ran in '$cwd'"
		[ "$var" = child ] || fail "the command's SETUP_VAR is '$var'"
		[ "$in" = /dev/null ] || fail "the command's stdin is '$in'"
		case $out in "$W_REAL"/*) fail "the command's stdout is renacer's directory's '$out'";; esac
	done < sub/seen.txt
}
check_seen
# the trace records what the command got, not what renacer had
$PY - <<'PY' || fail "the golden's environment"
import json, os
e = json.load(open('golden_traces/st.json'))['environment']
assert e['cwd'] == os.path.realpath('sub'), e['cwd']
assert e['stdio'] == {'stdin': 'null', 'stdout': 'file', 'stderr': 'file'}, e['stdio']
PY
# validate the same way; a cwd that does not exist is said, before anything runs
rm -f sub/seen.txt
SETUP_VAR=mine run 0 "$RENACER" validate --no-color st < user_in.txt
has out.txt "st: equivalent"
grep -q "^$W_REAL|$W_REAL/user_in.txt|$W_REAL/out.txt|$W_REAL/sub|child|" sub/seen.txt ||
	fail "validate: $(cat sub/seen.txt)"
# recorded in the kernel (the eBPF engine starts the child), where it can be
if "$RENACER" --backend ebpf -c -o /dev/null -- true 2> /dev/null; then
	rm -f sub/seen.txt
	SETUP_VAR=mine RENACER_BACKEND=ebpf RENACER_EBPF_STATS=1 run 0 "$RENACER" capture st < user_in.txt
	has err.txt "eBPF recorder:"
	check_seen
fi
sed -i 's/^cwd = "sub"/cwd = "nosuch"/' renacer.toml
run 4 "$RENACER" capture st
has err.txt "cannot change to directory 'nosuch'"
echo ok
