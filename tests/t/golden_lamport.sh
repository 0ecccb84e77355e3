#!/bin/sh
# Lamport clocks in traces (and so in goldens): they grow along every task
# and respect happens-before across processes: a child's first event after
# the parent's fork, a parent's wait4 after the exit of the child it reaps,
# a read of a pipe after the write that filled it.
. "$TOP/tests/golden_lib.sh"

check() { # trace.json
	$PY - "$1" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
sc = d["syscalls"]
bad = []
last, first, final = {}, {}, {}
for s in sc:
    t = s["tid"]
    if s["lamport"] <= last.get(t, 0):
        bad.append("clock of tid %d does not grow at %s" % (t, s["name"]))
    last[t] = s["lamport"]
    first.setdefault(t, s)
for p in d["processes"]:
    pass
for s in sc:
    r = s.get("result") or 0
    if s["name"] in ("clone", "clone3", "fork", "vfork") and r > 0 and r in first:
        if first[r]["lamport"] <= s["lamport"]:
            bad.append("child %d's first event (%d) is not after the fork (%d)" % (r, first[r]["lamport"], s["lamport"]))
    if s["name"] == "wait4" and r > 0 and r in last:
        if last[r] >= s["lamport"]:
            bad.append("wait4 reaping %d (%d) is not after its last event (%d)" % (r, s["lamport"], last[r]))
# pipes: the reader's first read of data comes after the writer's first write
execs = {p["tid"]: [e["path"] for e in p["exec"]] for p in d["processes"]}
writer = [t for t, e in execs.items() if any("/python3" in x for x in e)]
reader = [t for t, e in execs.items() if any(x.endswith("/cat") for x in e)]
if writer and reader:
    def fd(s):
        return s["args"][0][1] if s["args"] else None
    w = [s["lamport"] for s in sc if s["tid"] == writer[0] and s["name"] == "write" and fd(s) == "1" and (s.get("result") or 0) > 0]
    r = [s["lamport"] for s in sc if s["tid"] == reader[0] and s["name"] == "read" and fd(s) == "0" and (s.get("result") or 0) > 0]
    if not w or not r:
        bad.append("no pipe write/read seen")
    elif r[0] <= w[0]:
        bad.append("cat's first read (%d) is not after python's write (%d)" % (r[0], w[0]))
else:
    bad.append("python3 | cat processes not found: %r" % execs)
if bad:
    print("FAIL:", "\n".join(bad[:10]))
    sys.exit(1)
PYEOF
}

# python3 makes hundreds of calls before it writes; cat reads at once: only
# the pipe edge puts cat's read after python's write
run 0 "$RENACER" capture pipe -- sh -c '/usr/bin/python3 -c "print(12345)" | cat; /bin/true'
check golden_traces/pipe.json || exit 1
run 0 "$RENACER" capture forks -- "$EXAMPLES/fork_wait"
$PY - golden_traces/forks.json <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
assert sum(1 for p in d["processes"] if not p["is_thread"]) == 3, d["processes"]
PYEOF
check golden_traces/forks.json > out.txt
grep -q "does not grow\|not after the fork\|wait4 reaping" out.txt && { cat out.txt; exit 1; }
echo ok
