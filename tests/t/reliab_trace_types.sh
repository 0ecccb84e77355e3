#!/bin/sh
# Every member of a trace is checked against its type in
# docs/trace-format.md: from a real trace (a shell with a child, a failing
# call, a signal; json and jsonl), each documented member of each kind of
# record is given each JSON type the format does not allow, and every such
# trace must be refused with exit 3 and a message naming the member.  The
# mutations are made here, at run time, from the schema below (the tables
# of docs/trace-format.md).  Also: a zstd file that starts with a skippable
# frame reads as the same trace; long strings are kept cut with their length.
set -u
. "$TOP/tests/lib.sh"
cd "$TMPDIR" || exit 1
PY=/usr/bin/python3
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for fmt in json jsonl; do
	"$RENACER" -f -y --format $fmt -o real.$fmt -- sh -c \
		'trap : USR1; kill -USR1 $$; ls /nonexistent-renacer >/dev/null 2>&1; exit 0' ||
		fail "cannot trace the shell ($fmt)"
done

$PY - "$RENACER" <<'EOF' || fail=1
import copy, json, subprocess, sys, os

renacer = sys.argv[1]
INT, REAL, STR, NULL, BOOL, ARR, OBJ = "int", "real", "str", "null", "bool", "arr", "obj"
NUM = (INT, REAL)
samples = {NULL: None, BOOL: True, INT: 7, REAL: 1.5, STR: "x", ARR: [], OBJ: {}}

def kind(v):
    if v is None: return NULL
    if isinstance(v, bool): return BOOL
    if isinstance(v, int): return INT
    if isinstance(v, float): return REAL
    if isinstance(v, str): return STR
    if isinstance(v, list): return ARR
    return OBJ

# the schema of docs/trace-format.md: member -> allowed kinds (and, for
# containers, what is inside)
# an argument: [name, text, typed value] (renacer-json-v2)
PAIR = ("pair", (STR, NULL), (STR,), ("obj", {}, True))
FRAME = {"pc": (STR,), "module": (STR, NULL), "offset": (STR,), "symbol": (STR, NULL),
         "symbol_offset": (STR,), "function": (STR, NULL), "file": (STR, NULL),
         "line": (INT, NULL), "inlined": (BOOL,), "own": (BOOL,)}
SYSCALL = {"name": (STR,), "args": ("list", PAIR), "result": (INT, NULL), "errno": (STR,),
           "pid": (INT,), "tid": (INT,), "nr": (INT,), "ts_us": NUM, "duration_us": NUM,
           "lamport": (INT,), "unfinished": (BOOL,), "rv_fmt": (STR,), "ret_aux": PAIR,
           "ret_path": (STR,), "endpoint": (STR,), "ret_ref": ("list", ("obj", {}, False)), "source": ("obj", {"file": (STR, NULL), "line": (INT, NULL),
           "function": (STR, NULL)}, False), "stack": ("list", ("obj", FRAME, False)),
           "stack_error": (STR,)}
EXEC = {"path": (STR, NULL), "ts_us": NUM}
PROCESS = {"pid": (INT,), "tid": (INT,), "ppid": (INT,), "is_thread": (BOOL,),
           "start_us": NUM + (NULL,), "end_us": NUM + (NULL,), "exit_code": (INT,),
           "signal": (STR, INT), "core_dumped": (BOOL,), "detached": (BOOL,),
           "max_rss_kb": (INT,), "exec": ("list", ("obj", EXEC, False))}
SIGNAL = {"pid": (INT,), "tid": (INT,), "signal": (STR, INT), "signo": (INT,), "ts_us": NUM,
          "lamport": (INT,), "siginfo": (STR, NULL)}
ROW = {"calls": (INT,), "errors": (INT,), "unfinished": (INT,), "total_us": NUM}
SUMMARY = {"total_syscalls": (INT,), "total_errors": (INT,), "total_unfinished": (INT,),
           "total_time_us": NUM, "wall_time_us": NUM, "exit_code": (INT,),
           "signal": (STR, INT), "detached": (BOOL,), "by_syscall": ("map", ("obj", ROW, False))}
ENV = {"cwd": (STR, NULL), "stdio": ("obj", {"stdin": (STR,), "stdout": (STR,),
                                              "stderr": (STR,)}, False),
       "variables": ("map", (STR, NULL))}
HEADER = {"version": (STR,), "format": (STR,), "command": ("list", (STR,), True),
          "follow": (BOOL,), "start_unix_ns": (INT,), "environment": ("obj", ENV, False)}
JSONL = {"process_start": {"pid": (INT,), "tid": (INT,), "ts_us": NUM, "lamport": (INT,),
                           "ppid": (INT,), "is_thread": (BOOL,)},
         "exec": {"pid": (INT,), "tid": (INT,), "ts_us": NUM, "lamport": (INT,),
                  "path": (STR, NULL)},
         "process_exit": {"pid": (INT,), "tid": (INT,), "ts_us": NUM, "lamport": (INT,),
                          "exit_code": (INT,), "signal": (STR, INT), "core_dumped": (BOOL,),
                          "max_rss_kb": (INT,)},
         "detach": {"pid": (INT,), "tid": (INT,), "ts_us": NUM, "lamport": (INT,)},
         "syscall": SYSCALL, "signal": SIGNAL, "summary": SUMMARY, "header": HEADER}

def allowed(spec):
    """The kinds a value of spec may have."""
    if spec[0] == "pair" or spec[0] == "list":
        return (ARR, NULL) if len(spec) > 2 and spec[2] is True else (ARR,)
    if spec[0] == "obj":
        return (OBJ, NULL) if spec[2] else (OBJ,)
    if spec[0] == "map":
        return (OBJ,)
    return spec

def mutations(value, spec, path, key):
    """(path, new value, key to name) for every wrong kind here and inside."""
    for k, v in samples.items():
        if k not in allowed(spec) and not (k == INT and REAL in allowed(spec)):
            yield path, v, key
    if value is None or not isinstance(spec[0], str) or spec[0] not in ("pair", "list", "obj", "map"):
        return
    if spec[0] == "pair" and isinstance(value, list) and len(value) == len(spec) - 1:
        for i in range(len(value)):
            yield from mutations(value[i], spec[1 + i], path + [i], key)
    elif spec[0] == "list" and isinstance(value, list) and value:
        yield from mutations(value[0], spec[1], path + [0], key)
    elif spec[0] == "obj" and isinstance(value, dict):
        yield from members(value, spec[1], path, key)
    elif spec[0] == "map" and isinstance(value, dict) and value:
        k0 = sorted(value)[0]
        yield from mutations(value[k0], spec[1], path + [k0], key)

def members(obj, schema, path, parent=None):
    for k, spec in schema.items():
        if k in obj:
            yield from mutations(obj[k], spec, path + [k], k)

def put(doc, path, v):
    d = copy.deepcopy(doc)
    t = d
    for p in path[:-1]:
        t = t[p]
    t[path[-1]] = v
    return d

def extras(rec):
    """Members the real run did not make, added valid, so that they are checked too."""
    rec = dict(rec)
    rec.setdefault("ret_aux", ["flags", "O_RDWR", {"flags": 2, "names": "O_RDWR"}])
    rec.setdefault("endpoint", "inet:127.0.0.1:80")
    rec.setdefault("ret_ref", [{"kind": "file", "path": "/dev/null"}])
    rec.setdefault("ret_path", "/dev/null")
    rec.setdefault("rv_fmt", "hex")
    rec["source"] = {"file": "a.c", "line": 3, "function": "main"}
    rec["stack"] = [{"pc": "0x401000", "module": "/bin/sh", "offset": "0x1000",
                     "symbol": "main", "symbol_offset": "0x10", "function": "main",
                     "file": "a.c", "line": 3, "inlined": True, "own": True}]
    rec["stack_error"] = "too many stack frames"
    return rec

def run(text, name):
    with open(name, "w") as f:
        f.write(text)
    p = subprocess.run([renacer, "analyze", name],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stderr

count = failed = 0
def check(text, name, what, key):
    global count, failed
    count += 1
    rc, err = run(text, name)
    if rc != 3 or "'" + str(key) not in err and "." + str(key) not in err:
        failed += 1
        if failed <= 20:
            print("FAIL: %s: exit %d, %s" % (what, rc, err.strip()[:200]))

# renacer-json-v1
doc = json.load(open("real.json"))
doc["syscalls"][0] = extras(doc["syscalls"][0])
for i, sc in enumerate(doc["syscalls"]):
    if "errno" in sc:
        doc["syscalls"][0]["errno"] = sc["errno"]
        doc["syscalls"][0]["result"] = sc["result"]
        break
# a few syscalls are enough (each mutant is read by a renacer of its own)
doc["syscalls"] = doc["syscalls"][:8]
assert doc["signals"], "the real trace has no signal"
assert any(p["exec"] for p in doc["processes"]), "no exec in the real trace"
rc, err = run(json.dumps(doc), "valid.json")
if rc != 0:
    print("FAIL: the valid document with every member is refused: %d %s" % (rc, err))
    sys.exit(1)
muts = list(members(doc, HEADER, []))
muts += list(members(doc["syscalls"][0], SYSCALL, ["syscalls", 0]))
muts += [(p, v, k) for p, v, k in members(doc["processes"][0], PROCESS, ["processes", 0])]
muts += list(members(doc["signals"][0], SIGNAL, ["signals", 0]))
muts += list(members(doc["summary"], SUMMARY, ["summary"]))
for key in ("processes", "signals", "syscalls"):
    muts += [([key, 0], v, key) for k, v in samples.items() if k != OBJ]
    muts += [([key], v, key) for k, v in samples.items() if k not in (ARR,)]
muts += [(["summary"], v, "summary") for k, v in samples.items() if k != OBJ]
proc_exec = next(i for i, p in enumerate(doc["processes"]) if p["exec"])
muts += list(mutations(doc["processes"][proc_exec]["exec"], PROCESS["exec"],
                       ["processes", proc_exec, "exec"], "exec"))
n_json = 0
for path, v, key in muts:
    if path == ["syscalls"] and v is None:
        continue
    check(json.dumps(put(doc, path, v)), "mut.json", "json %s = %r" % (path, v),
          key)
    n_json += 1

# renacer-jsonl-v1
lines = [json.loads(l) for l in open("real.jsonl")]
keep, seen = [], set()
for rec in lines:
    if rec["type"] != "syscall" or len([1 for r in keep if r["type"] == "syscall"]) < 8:
        keep.append(rec)
lines = keep
first = {}
for i, rec in enumerate(lines):
    if rec["type"] == "syscall" and "syscall" not in first:
        lines[i] = extras(rec)
    first.setdefault(rec["type"], i)
for t in ("header", "syscall", "signal", "process_start", "exec", "process_exit", "summary"):
    assert t in first, "no %s record in the real jsonl trace" % t
rc, err = run("\n".join(json.dumps(l) for l in lines) + "\n", "valid.jsonl")
if rc != 0:
    print("FAIL: the valid jsonl trace is refused: %d %s" % (rc, err))
    sys.exit(1)
n_jsonl = 0
for t, i in sorted(first.items()):
    for path, v, key in members(lines[i], JSONL[t], []):
        m = list(lines)
        m[i] = put(lines[i], path, v)
        check("\n".join(json.dumps(l) for l in m) + "\n", "mut.jsonl",
              "jsonl %s %s = %r" % (t, path, v), key)
        n_jsonl += 1

print("%d mutations (%d json, %d jsonl), %d not refused with exit 3 naming the member" % (count, n_json, n_jsonl, failed))
sys.exit(1 if failed or count < 300 else 0)
EOF

# a skippable frame before the zstd data
if command -v zstd > /dev/null 2>&1; then
	zstd -q -f real.json -o real.zst
	$PY -c '
import struct, sys
d = open("real.zst", "rb").read()
open("skip.zst", "wb").write(struct.pack("<II", 0x184D2A5A, 9) + b"metadata!" + d)'
	"$RENACER" compare skip.zst real.json > skip.out 2>&1 || bad "skippable frame: $(cat skip.out)"
fi

# a long string is kept cut, with its true length
$PY - <<'EOF'
import json
d = json.load(open("real.json"))
d["syscalls"][0]["args"] = [["buf", '"' + "A" * (3 << 20) + '"', {"s": "A" * (3 << 20)}]]
open("long.json", "w").write(json.dumps(d))
EOF
"$RENACER" compare --format json long.json long.json > long.out 2> long.err ||
	bad "a 3 MB string: $(cat long.err)"
printf '[limits]\nstring_bytes = 100\n' > renacer.toml
"$RENACER" --format json -o /dev/null true
"$RENACER" compare long.json real.json > cut.out 2>&1
grep -q 'AAAA\.\.\.<3145728 bytes, cut to 100>' cut.out || bad "no cut string with its length in: $(head -c 600 cut.out)"
rm renacer.toml
exit $fail
