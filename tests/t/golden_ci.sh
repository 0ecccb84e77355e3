#!/bin/sh
# With CI set nothing is ever written into the golden directory: a missing
# golden fails (2), a mismatch writes no .new (unless --new-dir), --update
# and RENACER_UPDATE_GOLDEN are ignored, capture and accept refuse (5), and
# report goes to stdout.
. "$TOP/tests/golden_lib.sh"
gp_setup
cat > renacer.toml <<TOML
[[golden_traces.trace]]
name = "gp"
command = ["$GP", "$W/gp"]

[[golden_traces.trace]]
name = "missing"
command = ["$GP", "$W/gp"]
TOML
run 0 "$RENACER" capture gp
snapshot() { ls -la --time-style=full-iso golden_traces | sed 1d | grep -v ' \.\.$'; }
snapshot > before.txt

CI=true run 2 "$RENACER" validate missing
has err.txt "golden_traces/missing.json"
CI=true run 2 "$RENACER" validate --update missing
CI=true RENACER_UPDATE_GOLDEN=1 run 2 "$RENACER" validate missing
CI=true run 0 "$RENACER" validate gp
GP_PLANT=--double CI=true run 1 "$RENACER" validate gp
GP_PLANT=--double CI=true run 1 "$RENACER" validate --update gp
GP_PLANT=--double CI=1 RENACER_UPDATE_GOLDEN=1 run 1 "$RENACER" validate gp
CI=true run 5 "$RENACER" capture gp
has err.txt "CI"
CI=true run 5 "$RENACER" accept gp
CI=true run 0 "$RENACER" report
has out.txt "# Golden Trace Analysis Report"
snapshot > after.txt
cmp -s before.txt after.txt || { diff before.txt after.txt; fail "the golden directory changed under CI"; }

# --new-dir: the new traces go elsewhere, for the CI artifacts
GP_PLANT=--double CI=true run 1 "$RENACER" validate --new-dir artifacts gp
[ -f artifacts/gp.json.new ] || fail "no artifacts/gp.json.new"
snapshot > after2.txt
cmp -s before.txt after2.txt || fail "the golden directory changed with --new-dir"
# CI=false is not CI
GP_PLANT=--double CI=false run 1 "$RENACER" validate gp
[ -f golden_traces/gp.json.new ] || fail "CI=false behaved as CI"
echo ok
