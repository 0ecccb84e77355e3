#!/bin/sh
# --format json / jsonl / csv on real commands, checked with Python's json
# and csv modules: every file parses, has the documented fields, agrees with
# itself (summary against records) and with strace -c (calls and errors per
# syscall), and bytes that are not UTF-8 still give valid JSON.
set -u
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "no $PY"; exit 77; }
[ -x "$RENACER" ] || { echo "no $RENACER"; exit 77; }
command -v strace >/dev/null 2>&1 || { echo "strace not installed"; exit 77; }
export LC_ALL=C LANG=C
fail=0
cd "$TMPDIR" || exit 1

cmd="ls -la /usr /nonexistent"

"$RENACER" -f --format json -o t.json -- $cmd > /dev/null 2>&1
"$RENACER" -f --format jsonl -o t.jsonl -- $cmd > /dev/null 2>&1
"$RENACER" -f --format csv -o t.csv -- $cmd > /dev/null 2>&1
strace -f -c -o strace.txt $cmd > /dev/null 2>&1
awk 'NR > 2 && !/^-/ && $NF != "total" {
	if (NF == 6) print $6, $4, $5; else print $5, $4, 0 }' strace.txt | sort > strace.rows

$PY - t.json t.jsonl t.csv strace.rows <<'EOF' || fail=1
import csv, json, sys

json_path, jsonl_path, csv_path, rows_path = sys.argv[1:5]
bad = []

def check(cond, what):
    if not cond:
        bad.append(what)

TYPED_KINDS = {"i", "u", "o", "x", "p", "s", "bytes", "flags", "enum", "fd", "struct",
               "array", "sigset", "comment", "text", "op"}
SYS_FIELDS = {"name": str, "args": list, "pid": int, "tid": int, "nr": int,
              "ts_us": (int, float), "duration_us": (int, float), "lamport": int}

def check_syscall(sc, where):
    for k, t in SYS_FIELDS.items():
        check(isinstance(sc.get(k), t), "%s: %r lacks %s" % (where, sc.get("name"), k))
    for a in sc.get("args", []):
        check(isinstance(a, list) and len(a) == 3 and isinstance(a[1], str) and
              (a[2] is None or (isinstance(a[2], dict) and len(a[2]) >= 1)),
              "%s: bad arg %r" % (where, a))
        if len(a) == 3 and isinstance(a[2], dict):
            check(list(a[2])[0] in TYPED_KINDS, "%s: unknown typed value %r" % (where, a[2]))
    # a descriptor argument of a call that uses one says what it refers to
    if sc.get("name") in ("read", "write", "close", "fstat"):
        fd = [a for a in sc["args"] if a[0] == "fd"]
        check(fd and isinstance(fd[0][2], dict) and "fd" in fd[0][2] and "ref" in fd[0][2],
              "%s: %s fd without what it refers to: %r" % (where, sc["name"], fd))
    if sc.get("unfinished"):
        check(sc.get("result") is None, "%s: unfinished with a result" % where)
    else:
        check(isinstance(sc.get("result"), int), "%s: %s result not an int" % (where, sc["name"]))
    if "errno" in sc:
        check(sc["errno"].startswith("E") and sc["result"] < 0, "%s: bad errno %r" % (where, sc))

doc = json.load(open(json_path))
check(doc.get("format") == "renacer-json-v2", "json: format")
check(isinstance(doc.get("version"), str), "json: version")
check(doc.get("command") == ["ls", "-la", "/usr", "/nonexistent"], "json: command %r" % doc.get("command"))
scs = doc["syscalls"]
for sc in scs:
    check_syscall(sc, "json")
summ = doc["summary"]
check(summ["total_syscalls"] == len(scs), "json: total_syscalls %d != %d" % (summ["total_syscalls"], len(scs)))
check(summ["total_errors"] == sum(1 for s in scs if "errno" in s), "json: total_errors")
check(summ["exit_code"] == 2, "json: exit_code %r (ls of a missing path exits 2)" % summ["exit_code"])
check(sum(v["calls"] for v in summ["by_syscall"].values()) == len(scs), "json: by_syscall calls")
check(len(doc["processes"]) >= 1 and doc["processes"][0]["exit_code"] == 2, "json: processes %r" % doc["processes"][:1])
check(any(e["path"].endswith("/ls") for e in doc["processes"][0]["exec"]), "json: exec of ls")
names = [s["name"] for s in scs]
check(names[0] == "execve", "json: first syscall %r" % names[:1])
check(any(s["name"] == "openat" and s.get("errno") == "ENOENT" for s in scs) or
      any(s.get("errno") == "ENOENT" for s in scs), "json: an ENOENT")

# strace -c: completed calls and errors per syscall
counted = {}
for s in scs:
    if s.get("unfinished"):
        continue
    c = counted.setdefault(s["name"], [0, 0])
    c[0] += 1
    c[1] += "errno" in s
mine = sorted("%s %d %d" % (k, v[0], v[1]) for k, v in counted.items())
theirs = sorted(l.strip() for l in open(rows_path) if l.strip())
if mine != theirs:
    bad.append("json vs strace -c: < strace, > renacer\n" +
               "\n".join("  < " + r for r in theirs if r not in mine) + "\n" +
               "\n".join("  > " + r for r in mine if r not in theirs))

lines = open(jsonl_path).read().splitlines()
recs = [json.loads(l) for l in lines]
check(recs[0].get("type") == "header" and recs[0].get("format") == "renacer-jsonl-v2", "jsonl: header")
check(recs[-1].get("type") == "summary", "jsonl: summary last")
lsys = [r for r in recs if r.get("type") == "syscall"]
for r in lsys:
    check_syscall(r, "jsonl")
check([r["name"] for r in lsys] == names, "jsonl: not the same syscalls as json")
check(recs[-1]["total_syscalls"] == len(lsys), "jsonl: total_syscalls")
check(all("type" in r for r in recs), "jsonl: a record without type")
check(any(r["type"] == "process_start" for r in recs), "jsonl: no process_start")
check(any(r["type"] == "process_exit" for r in recs), "jsonl: no process_exit")

rows = list(csv.reader(open(csv_path, newline="")))
check(rows[0] == "ts_us,pid,tid,name,nr,args,result,errno,duration_us".split(","), "csv: header %r" % rows[0])
check(all(len(r) == 9 for r in rows), "csv: a row without 9 fields")
check([r[3] for r in rows[1:]] == names, "csv: not the same syscalls as json")
# two runs: addresses and random bytes differ, the rest must not
import re
def mask(t):
    return re.sub(r"0x[0-9a-f]+|(\\x[0-9a-f]{2})+", "X", t)
for r, s in zip(rows[1:], scs):
    check(mask(r[5]) == mask(", ".join(a[1] for a in s["args"])),
          "csv: args %r vs %r" % (r[5], s["args"]))
    check(r[7] == s.get("errno", ""), "csv: errno")

for b in bad:
    print(b)
print("%d syscalls checked in json, jsonl and csv" % len(scs))
sys.exit(1 if bad else 0)
EOF

# a program path that is not UTF-8: the exec record carries raw bytes
ln -sf /bin/true "$(printf 'true\377\376')"
"$RENACER" --format json -o u.json -- "./$(printf 'true\377\376')" > /dev/null 2>&1
"$RENACER" --format jsonl -o u.jsonl -- "./$(printf 'true\377\376')" > /dev/null 2>&1
$PY - u.json u.jsonl <<'EOF' || fail=1
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
for l in open(sys.argv[2], encoding="utf-8"):
    json.loads(l)
cmd = doc["command"][0]
ok = cmd == "./true\u00ff\u00fe"
print("non-UTF-8 argv parses:", repr(cmd))
sys.exit(0 if ok else 1)
EOF

# streamed to stdout (no -o): the same document
"$RENACER" --format json -- true > s.json 2> s.err || true
if ! $PY -c 'import json,sys; json.load(open(sys.argv[1]))' s.json 2>/dev/null &&
   ! $PY -c 'import json,sys; json.load(open(sys.argv[1]))' s.err 2>/dev/null; then
	echo "--format json without -o wrote no parsable document"; fail=1
fi
exit $fail
