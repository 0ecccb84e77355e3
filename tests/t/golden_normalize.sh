#!/bin/sh
# Normalization: random mkstemp names and getrandom bytes, descriptor
# numbers shifted by an inherited descriptor, environment size, a capture
# in another directory (the cwd prefix), user rules and ignore lists from
# renacer.toml.
# test: slow
. "$TOP/tests/golden_lib.sh"
gp_setup

# random temporary names and random bytes
run 0 "$RENACER" capture rnd -- "$GP" "$W/gp" --mkstemp --random
for i in 1 2 3; do
	run 0 "$RENACER" validate --golden golden_traces/rnd.json -- "$GP" "$W/gp" --mkstemp --random
done
$PY - golden_traces/rnd.json <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
names = [a[1] for s in d["syscalls"] if s["name"] == "openat" for a in s["args"] if "scratch" in a[1]]
assert names and all("scratchXXXXXX" not in n for n in names), names   # really random in the trace
PYEOF

# a descriptor inherited from the caller shifts every number: renumbered
run 0 "$RENACER" capture fds -- "$GP" "$W/gp"
exec 7< /dev/null
run 0 "$RENACER" validate --golden golden_traces/fds.json -- "$GP" "$W/gp"
exec 7<&-

# a bigger environment changes execve's "N vars" only
FILLER_A=1 FILLER_B=2 FILLER_C=3 run 0 "$RENACER" validate --golden golden_traces/fds.json -- "$GP" "$W/gp"

# the golden of a capture elsewhere: paths under the cwd compare as $CWD/...
mkdir -p elsewhere/gp
cp "$W/gp/input.txt" elsewhere/gp/
(cd elsewhere && "$RENACER" capture -q rel -- "$GP" gp) || fail "capture in elsewhere"
run 0 "$RENACER" validate --golden elsewhere/golden_traces/rel.json -- "$GP" gp

# a user rule: run-specific names made equal; without it they differ
mkdir -p run-1 run-2
cp "$W/gp/input.txt" run-1/
cp "$W/gp/input.txt" run-2/
run 0 "$RENACER" capture runs -- "$GP" "$W/run-1"
run 1 "$RENACER" validate --golden golden_traces/runs.json -- "$GP" "$W/run-2"
has out.txt "run-2/input.txt"
cat > renacer.toml <<'TOML'
[[golden_traces.normalize]]
pattern = "run-[0-9]+"
replace = "run-N"
TOML
run 0 "$RENACER" validate --golden golden_traces/runs.json -- "$GP" "$W/run-2"

# ignore lists: a syscall and a path
cat > renacer.toml <<'TOML'
[golden_traces]
ignore_syscalls = ["fsync"]
TOML
GP_PLANT=--no-fsync run 0 "$RENACER" validate --golden golden_traces/fds.json -- "$GP" "$W/gp"
GP_PLANT=--extra-open run 1 "$RENACER" validate --golden golden_traces/fds.json -- "$GP" "$W/gp"
cat > renacer.toml <<'TOML'
[golden_traces]
ignore_paths = ["*/gp/input.txt"]
ignore_syscalls = ["close"]
TOML
GP_PLANT=--extra-open run 0 "$RENACER" validate --golden golden_traces/fds.json -- "$GP" "$W/gp"

# per-syscall tolerance: doubling the writes passes at +-150% as a count,
# but the bytes written doubled too: that needs bytes_tolerance_pct
cat > renacer.toml <<'TOML'
[golden_traces.tolerances]
write = 150
TOML
GP_PLANT=--double run 1 "$RENACER" validate --golden golden_traces/fds.json -- "$GP" "$W/gp"
has out.txt "bytes written to regular files"
hasnt out.txt "write:"
cat > renacer.toml <<'TOML'
[golden_traces]
bytes_tolerance_pct = 150
[golden_traces.tolerances]
write = 150
TOML
GP_PLANT=--double run 0 "$RENACER" validate --golden golden_traces/fds.json -- "$GP" "$W/gp"
rm renacer.toml
GP_PLANT=--double run 0 "$RENACER" validate --tolerance 150 --golden golden_traces/fds.json -- "$GP" "$W/gp"
GP_PLANT=--double run 1 "$RENACER" validate --golden golden_traces/fds.json -- "$GP" "$W/gp"
has out.txt "write:"
echo ok
