#!/bin/sh
# Our stacks against the oracles, frame by frame:
#  - strace -k: the same frames (module, offset; symbol+offset in the
#    program's own modules) for every call of a program with a shared
#    library, a dlopen-ed one, a thread and a child (--stack-trace=symbol is
#    strace 6.1's format; -k adds file:line);
#  - eu-stack (elfutils) and gdb's bt on a core (gcore), on the same process
#    blocked in read(): renacer -k -p attaches to it and reports that read.
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"
need_strace
for t in eu-stack gdb gcore; do
	command -v $t >/dev/null 2>&1 || fail "$t is missing (make deps installs elfutils and gdb)"
done
build_c O2 -O2 -fomit-frame-pointer
P="$W/O2/srcmain"

# --- strace -k ----------------------------------------------------------
strace -f -k -o st.txt -e trace=write,openat -- $P "$W/O2/srcplug.so" "$W/O2/srcexec" >/dev/null 2>&1
"$RENACER" -f --stack-trace=symbol -o rn.txt -e trace=write,openat -- \
	$P "$W/O2/srcplug.so" "$W/O2/srcexec" >/dev/null || fail "renacer --stack-trace=symbol failed"
"$RENACER" -f -k -o rnk.txt -e trace=write,openat -- \
	$P "$W/O2/srcplug.so" "$W/O2/srcexec" >/dev/null || fail "renacer -k failed"
$PY - st.txt rn.txt rnk.txt "$W/O2/" <<'PYEOF' || exit 1
import re, sys
own_prefix = sys.argv[4]
frame_re = re.compile(r"^ > (\S+)\((?:(.+)\+0x([0-9a-f]+))?\) \[0x([0-9a-f]+)\]( .*)?$")

def stacks(path):
    """call text (pid and addresses masked) -> list of frame tuples"""
    out, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith(" > "):
            if cur is None:
                continue
            m = frame_re.match(line)
            if not m:
                out[cur].append(("ERROR", line))
                continue
            out[cur].append((m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)))
            continue
        line = re.sub(r"^(\[pid +\d+\] |\d+ +)", "", line)
        if " = " not in line or "resumed>" in line or "<unfinished" in line:
            cur = None
            continue
        key = re.sub(r"0x[0-9a-f]{6,}", "0xADDR", line.split(" = ")[0].rstrip())
        cur = key if key not in out else None     # the first call of its kind
        if cur:
            out[cur] = []
    return out

st, rn, rk = stacks(sys.argv[1]), stacks(sys.argv[2]), stacks(sys.argv[3])
compared = 0
for call, sframes in st.items():
    if not sframes or call not in rn:
        continue
    rframes = [f for f in rn[call] if f[0] != "ERROR"]
    sframes = [f for f in sframes if f[0] != "ERROR"]
    if len(rframes) != len(sframes):
        sys.exit("FAIL: %s: %d frames, strace has %d:\n%s\n%s" % (call, len(rframes), len(sframes), rframes, sframes))
    for s, r in zip(sframes, rframes):
        if (s[0], s[3]) != (r[0], r[3]):
            sys.exit("FAIL: %s: frame %s [0x%s], strace %s [0x%s]" % (call, r[0], r[3], s[0], s[3]))
        if s[0].startswith(own_prefix) and (s[1], s[2]) != (r[1], r[2]):
            sys.exit("FAIL: %s: %s+0x%s, strace %s+0x%s" % (call, r[1], r[2], s[1], s[2]))
        if r[4]:
            sys.exit("FAIL: --stack-trace=symbol printed %r" % r[4])
    # -k: the same frames, with file:line in the program's own modules, and
    # the frames rebuilt from tail calls (C library's fopen), which strace
    # does not know (tests/t/source_tailcall.sh checks them)
    kframes = [f for f in rk.get(call, []) if f[0] != "ERROR" and
               not (f[4] or "").endswith(" (tail call)")]
    if [(f[0], f[3]) for f in kframes] != [(f[0], f[3]) for f in rframes]:
        sys.exit("FAIL: %s: -k frames differ from --stack-trace=symbol" % call)
    for f in kframes:
        # (crt1.o's _start has no debug information)
        if f[0].startswith(own_prefix) and f[1] != "_start" and \
                not re.fullmatch(r" src/src\w+\.c:\d+", f[4] or ""):
            sys.exit("FAIL: %s: -k frame without its line: %r" % (call, f))
    compared += 1
if compared < 8:
    sys.exit("FAIL: only %d calls compared with strace -k" % compared)
print("%d stacks agree with strace -k" % compared)
PYEOF

# --- eu-stack and gdb on one process blocked in read() --------------------
gcc -g -O2 -fomit-frame-pointer -o srcblock src/srcblock.c || fail "cannot build srcblock"
mkfifo fifo || fail "mkfifo"
./srcblock <fifo >/dev/null &
pid=$!
exec 7>fifo
sleep 0.3
i=0
until grep -q '^State:.*S (sleeping)' /proc/$pid/status 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 50 ] || fail "srcblock does not block"; sleep 0.1
done
eu-stack -p $pid >eu.txt 2>eu.err || fail "eu-stack failed: $(cat eu.err)"
eu-stack -i -p $pid >eui.txt 2>>eu.err || fail "eu-stack -i failed: $(cat eu.err)"
gcore -o core $pid >gcore.out 2>&1 || fail "gcore failed: $(cat gcore.out)"
"$RENACER" -k -s --format json -p $pid -e trace=read -o rk.json 2>rk.err &
rpid=$!
i=0
until grep -q "attached" rk.err 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 100 ] || fail "renacer did not attach: $(cat rk.err)"; sleep 0.1
done
printf xy >&7
exec 7>&-
wait $rpid || fail "renacer -p failed: $(cat rk.err)"
wait $pid
gdb -batch -ex bt ./srcblock core.$pid >gdb.txt 2>/dev/null || fail "gdb failed"
$PY - rk.json eu.txt eui.txt gdb.txt "$(mark_line srcblock.c block_read)" <<'PYEOF' || exit 1
import json, re, sys
d = json.load(open(sys.argv[1]))
# the read in progress at attach time may be reported (restarted) or not;
# the second one always is, from the same call: its stack is the one
reads = [s for s in d["syscalls"] if s["name"] == "read"]
if not reads:
    sys.exit("FAIL: no read call reported")
reads = reads[-1:]
stack = reads[0]["stack"]
phys = [f for f in stack if not f.get("inlined")]

def eu(path):
    fr = []
    for line in open(path):
        m = re.match(r"#(\d+)\s+0x([0-9a-f]+) (\S+)", line)
        if m:
            fr.append((int(m.group(2), 16), re.sub(r"@.*", "", m.group(3))))
    return fr

# eu-stack: physical frames, pc and symbol
e = eu(sys.argv[2])
ours = [(int(f["pc"], 16), f["symbol"]) for f in phys]
if ours != e:
    sys.exit("FAIL: eu-stack frames differ:\n ours %s\n eu   %s" % (ours, e))
# eu-stack -i: inlined frames too, with the functions' names
ei = eu(sys.argv[3])
oursi = [(int(f["pc"], 16), f["function"] or f["symbol"]) for f in stack]
if [p for p, _ in oursi] != [p for p, _ in ei]:
    sys.exit("FAIL: eu-stack -i pcs differ:\n ours %s\n eu   %s" % (oursi, ei))
for (p, a), (_, b) in zip(oursi, ei):
    if a != b:
        sys.exit("FAIL: eu-stack -i names differ at 0x%x: ours %s, eu-stack %s" % (p, a, b))
# gdb's bt on the core: up to main (gdb stops there), inlined frames included
g = []
for line in open(sys.argv[4]):
    m = re.match(r"#(\d+)\s+(?:0x([0-9a-f]+) in )?(\S+) \(.*\) at (\S+):(\d+)$", line.strip())
    if m:
        if m.group(1) == "0":
            g = []      # gdb shows frame #0 on loading the core, then bt
        g.append((int(m.group(2), 16) if m.group(2) else None, m.group(3),
                  m.group(4).split("/")[-1], int(m.group(5))))
if not g or g[-1][1] != "main":
    sys.exit("FAIL: gdb's backtrace: %s" % open(sys.argv[4]).read())
oursg = [(int(f["pc"], 16), f["function"], (f["file"] or "").split("/")[-1], f["line"])
         for f in stack[:len(g)]]
for o, gg in zip(oursg, g):
    if gg[0] is not None and gg[0] != o[0] or gg[1:] != o[1:]:
        sys.exit("FAIL: gdb frame %s, ours %s" % (gg, o))
src = reads[0]["source"]
if src != {"file": "src/srcblock.c", "line": int(sys.argv[5]), "function": "wait_byte"}:
    sys.exit("FAIL: source %r" % src)
print("%d frames agree with eu-stack, %d with eu-stack -i, %d with gdb" % (len(e), len(ei), len(g)))
PYEOF
exit 0
