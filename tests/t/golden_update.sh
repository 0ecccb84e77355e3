#!/bin/sh
# Updating goldens: .new beside the golden on a mismatch with how to accept
# it, renacer accept (and its list of pending and stale .new files),
# validate --update and RENACER_UPDATE_GOLDEN=1, declared traces, and a
# missing golden (2; captured with --update).
. "$TOP/tests/golden_lib.sh"
gp_setup
cat > renacer.toml <<TOML
[[golden_traces.trace]]
name = "gp"
command = ["$GP", "$W/gp"]

[[golden_traces.trace]]
name = "other"
command = ["$GP", "$W/gp"]
TOML

# missing golden: 2, nothing written, says how to capture
run 2 "$RENACER" validate gp
has err.txt "golden_traces/gp.json"
has out.txt "renacer capture gp"
[ ! -e golden_traces/gp.json ] || fail "a golden appeared"
# --update captures a missing golden
run 0 "$RENACER" validate --update gp
has out.txt "golden created: golden_traces/gp.json"
[ -f golden_traces/gp.json ] || fail "--update did not capture gp"
run 0 "$RENACER" capture other

# a mismatch writes gp.json.new and says how to accept it; the golden stays
cp golden_traces/gp.json golden.before
GP_PLANT=--double run 1 "$RENACER" validate gp
has out.txt "the new trace is golden_traces/gp.json.new; accept it with: renacer accept gp"
[ -f golden_traces/gp.json.new ] || fail "no gp.json.new"
cmp -s golden.before golden_traces/gp.json || fail "validate changed the golden"
$PY -c "import json; d=json.load(open('golden_traces/gp.json.new')); assert d['format']=='renacer-json-v2' and d['timing']['runs']>=1" \
	|| fail "gp.json.new is not a golden"

# accept with no name lists what is pending
run 0 "$RENACER" accept
has out.txt "pending: golden_traces/gp.json.new (accept with: renacer accept gp)"
# accept gp: the .new becomes the golden, then validate with the doubled writes passes
run 0 "$RENACER" accept gp
has out.txt "Accepted: golden_traces/gp.json"
[ ! -e golden_traces/gp.json.new ] || fail "gp.json.new still there"
GP_PLANT=--double run 0 "$RENACER" validate gp
# accepting a name with nothing pending: 2
run 2 "$RENACER" accept other
has err.txt "no new trace for 'other'"

# a stale .new (older than its golden) is removed by accept
GP_PLANT=--no-fsync run 1 "$RENACER" validate other
[ -f golden_traces/other.json.new ] || fail "no other.json.new"
touch -d '+1 minute' golden_traces/other.json
run 0 "$RENACER" accept
has out.txt "removed stale golden_traces/other.json.new"
[ ! -e golden_traces/other.json.new ] || fail "stale other.json.new kept"

# --update rewrites a golden that differs
GP_PLANT=--fork run 0 "$RENACER" validate --update other
has out.txt "golden updated: golden_traces/other.json"
GP_PLANT=--fork run 0 "$RENACER" validate other
# and RENACER_UPDATE_GOLDEN=1 does the same
RENACER_UPDATE_GOLDEN=1 run 0 "$RENACER" validate other
run 0 "$RENACER" validate other

# several traces: the highest status wins; a summary line closes the text
GP_PLANT=--no-fsync run 1 "$RENACER" validate
has out.txt "of 2 golden traces equivalent"
# an unknown declared name is a configuration error
run 5 "$RENACER" validate nosuch
# a bad renacer.toml: 5, with the position
printf '[golden_traces\n' > bad.toml
run 5 "$RENACER" validate --config bad.toml
has err.txt "bad.toml:1:"
echo ok
