#!/bin/sh
# PCIeBottleneck on synthetic GPU traces (tests/data/ap_pcie_*.json, written
# by tests/data/ap_pcie_gen.py; no GPU on the test machines): GPU device
# calls taking 90% of the run are detected with the seeds' evidence, 10% is
# not, a /dev/dri render node counts too; the seeds' renacer.toml warns
# without failing, a fail_on_violation assertion fails.
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/assert_lib.sh"
D=$TOP/tests/data

analyze "$D/ap_pcie_bottleneck.json"
[ "$(finding PCIeBottleneck detected)" = True ] || bad "bottleneck not detected: $(finding PCIeBottleneck confidence)"
ge "$(finding PCIeBottleneck confidence)" 0.85 || bad "bottleneck confidence $(finding PCIeBottleneck confidence)"
ev=$(finding PCIeBottleneck evidence)
echo "$ev" | grep -qx 'GPU transfers: 45ms (90% of total time)' || bad "evidence: $ev"
echo "$ev" | grep -qx 'Compute time: 5ms (10% of total time)' || bad "evidence: $ev"
# per device: calls, ioctls, reads and writes with their bytes (computed from the trace)
$PY - "$D/ap_pcie_bottleneck.json" "$ev" <<'PY' || bad "device counts: $ev"
import json, sys
d = json.load(open(sys.argv[1]))
ev = sys.argv[2]
fds = {}
for s in d["syscalls"]:
    if s["name"] == "openat" and s["result"] >= 0:
        fds[s["result"]] = json.loads(s["args"][1][1])
dev = {}
for s in d["syscalls"]:
    if s["name"] in ("ioctl", "read", "write", "mmap"):
        fd = int(s["args"][4 if s["name"] == "mmap" else 0][1])
        if fd in fds:
            c = dev.setdefault(fds[fd], {"ioctl": 0, "read": 0, "write": 0, "mmap": 0, "calls": 0})
            c[s["name"]] += 1
            c["calls"] += 1
for path, c in dev.items():
    line = "%s: %d calls (%d ioctl, %d read " % (path, c["calls"], c["ioctl"], c["read"])
    assert any(l.startswith(line) for l in ev.splitlines()), line
    assert ("%d write " % c["write"]) in ev and ("%d mmap " % c["mmap"]) in ev
PY
[ -n "$(finding PCIeBottleneck recommendation)" ] || bad "no recommendation"

analyze "$D/ap_pcie_compute.json"
[ "$(finding PCIeBottleneck detected)" = False ] || bad "compute-bound run flagged"
finding PCIeBottleneck evidence | grep -qx 'GPU transfers: 5ms (10% of total time)' ||
	bad "compute evidence: $(finding PCIeBottleneck evidence)"
analyze "$D/ap_pcie_dri.json"
[ "$(finding PCIeBottleneck detected)" = True ] || bad "render node not detected"
finding PCIeBottleneck evidence | grep -q '^/dev/dri/renderD128: ' || bad "dri evidence: $(finding PCIeBottleneck evidence)"

# the seeds' config: a warning (fail_on_violation = false), exit 0
"$RENACER" assert --config "$D/seeds-renacer.toml" "$D/ap_pcie_bottleneck.json" > "$TMPDIR/out" 2>/dev/null
rc=$?
[ $rc -eq 0 ] || bad "seeds config on the GPU trace: exit $rc: $(cat "$TMPDIR/out")"
awk '/^⚠️ Assertion .detect_pcie_bottleneck. WARNING/ { w = NR }
     w && NR == w + 1 && /^   PCIe Bottleneck detected \(confidence: [0-9]+%\)$/ { h = 1 }
     w && NR == w + 2 && /^   Threshold: 70%$/ { t = 1 }
     w && /^   GPU transfers: 45ms \(90% of total time\)$/ { g = 1 }
     w && /^   Recommendation: / { r = 1 }
     END { exit !(w && h && t && g && r) }' "$TMPDIR/out" || bad "warning block: $(cat "$TMPDIR/out")"
"$RENACER" assert --config "$D/seeds-renacer.toml" "$D/ap_pcie_compute.json" > "$TMPDIR/out" 2>/dev/null
grep -q "^✅ Assertion 'detect_pcie_bottleneck' passed (PCIeBottleneck confidence 10% < 70%)$" "$TMPDIR/out" ||
	bad "compute run: $(cat "$TMPDIR/out")"

# fail_on_violation = true stops the build
cfg <<E
[[assertion]]
name = "gpu"
type = "anti_pattern"
pattern = "PCIeBottleneck"
threshold = 0.7
E
run_assert "$D/ap_pcie_bottleneck.json"
[ $RC -eq 1 ] || bad "fail_on_violation PCIe: exit $RC"
[ "$(result 0 status)" = failed ] || bad "fail_on_violation PCIe: $(result 0 status)"
run_assert "$D/ap_pcie_compute.json"
[ $RC -eq 0 ] || bad "compute run failed the PCIe assertion"
finish
