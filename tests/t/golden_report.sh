#!/bin/sh
# renacer report DIR writes DIR/ANALYSIS.md: a row per trace with its
# runtime and syscall count (checked against the golden JSON), a section
# per trace, and the patterns (families, failed calls, processes).
. "$TOP/tests/golden_lib.sh"
gp_setup
run 0 "$RENACER" capture plain -- "$GP" "$W/gp"
GP_PLANT=--fork run 0 "$RENACER" capture forked -- "$GP" "$W/gp"
run 0 "$RENACER" capture threads -- "$EXAMPLES/threads"
run 0 "$RENACER" report golden_traces
has out.txt "Report: golden_traces/ANALYSIS.md (3 traces)"
md=golden_traces/ANALYSIS.md
has "$md" "# Golden Trace Analysis Report"
has "$md" "| Trace | Runtime | Syscalls | Errors | Processes | Threads |"
$PY - "$md" <<'PYEOF' || exit 1
import json, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
for name in ("plain", "forked", "threads"):
    d = json.load(open("golden_traces/%s.json" % name))
    n = len(d["syscalls"])
    errs = sum(1 for s in d["syscalls"] if s.get("errno"))
    ms = d["timing"]["wall_us"]["median"] / 1000
    procs = sum(1 for p in d["processes"] if not p["is_thread"])
    threads = sum(1 for p in d["processes"] if p["is_thread"])
    row = "| `%s` | %.2fms | %d | %d | %d | %d | " % (name, ms, n, errs, procs, threads)
    if row not in md:
        sys.exit("FAIL: row %r not in report" % row)
    if "\n### %s\n" % name not in md:
        sys.exit("FAIL: no section for %s" % name)
if "Spawned 1 process and 0 threads" not in md:
    sys.exit("FAIL: forked: no 'Spawned 1 process'")
if "Spawned 0 processes and 4 threads" not in md:
    sys.exit("FAIL: threads: no 'Spawned 0 processes and 4 threads'")
if "Dominant syscall family:" not in md or "Failed calls:" not in md:
    sys.exit("FAIL: patterns missing")
PYEOF
# default DIR and -o
run 0 "$RENACER" report -o other.md
has other.md "\`plain\`"
# no traces: 2; a broken one: 3
mkdir empty
run 2 "$RENACER" report empty
printf 'nope' > golden_traces/broken.json
run 3 "$RENACER" report golden_traces
has err.txt "golden_traces/broken.json"
echo ok
