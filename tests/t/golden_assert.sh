#!/bin/sh
# validate evaluates the assertions of renacer.toml on the run: a failing
# one with fail_on_violation is a regression (exit 1, named, no .new since
# the trace matches its golden); a warning one is a note.
. "$TOP/tests/golden_lib.sh"
gp_setup
cat > renacer.toml <<TOML
[[assertion]]
name = "tiny_budget"
type = "span_count"
max_spans = 5
fail_on_violation = true

[[assertion]]
name = "soft_budget"
type = "span_count"
max_spans = 6
fail_on_violation = false

[[golden_traces.trace]]
name = "gp"
command = ["$GP", "$W/gp"]
TOML
run 0 "$RENACER" capture gp
run 1 "$RENACER" validate --no-color gp
has out.txt "assertion: assertion 'tiny_budget' (span_count) failed"
has out.txt "assertion 'soft_budget' (span_count) warns"
has out.txt "the run matches its golden"
[ ! -e golden_traces/gp.json.new ] || fail ".new written for an assertion failure"
# without the failing assertion: equivalent
sed -i 's/max_spans = 5/max_spans = 100000/' renacer.toml
run 0 "$RENACER" validate --no-color gp
echo ok
