#!/bin/sh
# Golden compare at scale (make bench): generates two renacer-jsonl-v1
# traces of N syscalls each (default one million; the second with about 1%
# of its calls changed, added or removed, scattered), times
# `renacer compare` on them with /usr/bin/time -v, and says whether it stays
# under 5 s and 500 MB.  BUILD selects the build directory, N the size,
# CHANGE the fraction of changed calls, KEEP=1 keeps the traces.
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
N=${N:-1000000}
CHANGE=${CHANGE:-0.01}
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/renacer-bench-golden.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$T"' EXIT
export LC_ALL=C LANG=C

[ -x "$R" ] || { echo "bench_golden: no $R (run make first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_golden: /usr/bin/time missing (package 'time')" >&2; exit 1; }

echo "== golden compare: two traces of $N syscalls, ${CHANGE} of the calls changed"
start=$(date +%s.%N)
$PY - "$T/golden.jsonl" "$T/current.jsonl" "$N" "$CHANGE" <<'PYEOF'
import random, sys
gpath, cpath, n, change = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])

def program(rng, mutate):
    """A file-processing loop: open, read a few blocks, write, fsync now and
    then, close; a child process every 50000 calls; getrandom and mmap."""
    calls = []
    files = ["/data/input-%03d.dat" % i for i in range(400)]
    i = 0
    while len(calls) < n:
        f = files[i % len(files)]
        block = [("openat", [["dfd", "AT_FDCWD"], ["filename", '"%s"' % f], ["flags", "O_RDONLY|O_CLOEXEC"]], 3, "fd")]
        for _ in range(3 + i % 4):
            block.append(("read", [["fd", "3"], ["buf", '"..."'], ["count", "4096"]], 4096, None))
        block.append(("write", [["fd", "1"], ["buf", '"result %d\\n"' % i], ["count", "12"]], 12, None))
        if i % 17 == 0:
            block.append(("fsync", [["fd", "1"]], 0, None))
        if i % 29 == 0:
            block.append(("getrandom", [["buf", '"\\x01\\x02"'], ["buflen", "16"], ["flags", "0"]], 16, None))
        if i % 11 == 0:
            block.append(("mmap", [["addr", "NULL"], ["length", "65536"], ["prot", "PROT_READ|PROT_WRITE"], ["flags", "MAP_PRIVATE|MAP_ANONYMOUS"], ["fd", "-1"], ["offset", "0"]], 0x7f0000000000 + i * 4096, "hex"))
        block.append(("close", [["fd", "3"]], 0, None))
        if mutate:
            out = []
            for c in block:
                r = rng.random()
                if r < change / 3:
                    continue                                  # removed
                if r < 2 * change / 3:
                    out.append(c)                             # doubled
                    out.append(c)
                    continue
                if r < change and c[0] == "openat":           # another file
                    c = (c[0], [c[1][0], ["filename", '"/data/other-%d.dat"' % rng.randrange(1000)], c[1][2]], c[2], c[3])
                out.append(c)
            block = out
        calls.extend(block)
        i += 1
    return calls[:n]

def write(path, calls):
    nr = {"openat": 257, "read": 0, "write": 1, "close": 3, "fsync": 74, "getrandom": 318, "mmap": 9}
    with open(path, "w") as f:
        f.write('{"type": "header", "format": "renacer-jsonl-v1", "version": "0.9.0", "command": ["bench"], "follow": true, "start_unix_ns": 0}\n')
        f.write('{"type": "process_start", "pid": 1000, "tid": 1000, "ts_us": 0.0, "lamport": 1, "ppid": 1, "is_thread": false}\n')
        ts, lam = 1.0, 1
        for k, (name, args, res, rv) in enumerate(calls):
            lam += 1
            ts += 2.0
            line = '{"type": "syscall", "name": "%s", "args": [%s], "result": %d, "pid": 1000, "tid": 1000, "nr": %d, "ts_us": %.3f, "duration_us": 1.250, "lamport": %d%s}\n' % (
                name, ", ".join('["%s", "%s"]' % (a, v.replace('\\', '\\\\').replace('"', '\\"')) for a, v in args), res, nr[name], ts, lam,
                ', "rv_fmt": "%s"' % rv if rv else "")
            f.write(line)
        f.write('{"type": "process_exit", "pid": 1000, "tid": 1000, "ts_us": %.3f, "lamport": %d, "exit_code": 0, "max_rss_kb": 0}\n' % (ts + 1, lam + 1))
        f.write('{"type": "summary", "total_syscalls": %d, "wall_time_us": %.3f, "exit_code": 0}\n' % (len(calls), ts + 2))

write(gpath, program(random.Random(1), False))
write(cpath, program(random.Random(2), True))
PYEOF
gen=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
ls -l "$T/golden.jsonl" "$T/current.jsonl" | awk '{printf "  %s: %.0f MB\n", $NF, $5 / 1048576}'
echo "  generated in ${gen}s"

# the comparison itself (a regression is expected: exit 1)
/usr/bin/time -v "$R" compare --no-timing --format json "$T/golden.jsonl" "$T/current.jsonl" \
	> "$T/result.json" 2> "$T/time.txt"
rc=$?
if [ $rc -gt 1 ]; then
	grep "renacer" "$T/time.txt"
	echo "bench_golden: renacer compare failed (exit $rc)" >&2
	exit 1
fi
secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + a[i]; print s}' "$T/time.txt")
rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$T/time.txt")
cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$T/time.txt")
$PY - "$T/result.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))["traces"][0]
p = d["processes"][0]
print("  result: %s, confidence %.3f; process 1: %d vs %d calls compared, %d added, %d removed, exact alignment: %s"
      % (d["result"], d["confidence"], p["golden_calls"], p["current_calls"], p["added"], p["removed"], p["exact"]))
PYEOF
echo "  renacer compare: exit $rc, ${secs}s wall, ${cpu}s CPU, max RSS $((rss / 1024)) MB"
ok=1
awk -v s="$secs" 'BEGIN { exit !(s < 5) }' || ok=0
[ "$rss" -lt 512000 ] || ok=0
if [ $ok = 1 ]; then
	echo "  under 5 s and 500 MB: yes"
else
	echo "  under 5 s and 500 MB: NO"
fi
