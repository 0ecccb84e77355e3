#!/bin/sh
# Functions that end in a tail call (at -O2, `write(...)` as the last
# statement is a jump) leave no frame; renacer rebuilds them from DWARF
# call-site information, as gdb does, when exactly one chain of tail calls
# leads to the next frame: -s names the line of the function that made the
# call (same file, a chain of two, another file, a shared library), -k
# shows the frame with " (tail call)", the JSON frame has "tail_call": true
# and is read back.  Oracles: the MARK lines of the sources, gdb's bt and
# "info frame" ("tail call frame") on a core of the same program,
# strace -k (which knows no tail calls) against --stack-trace=symbol.
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"
need_strace
for t in gdb gcore setarch readelf clang; do
	command -v $t >/dev/null 2>&1 || fail "$t is missing (make deps installs gdb, util-linux, binutils, clang)"
done
gcc -g -O2 -fPIC -shared -o libsrctail.so src/srctaillib.c &&
gcc -g -O2 -o srctail src/srctail.c src/srctail2.c -L. -lsrctail -Wl,-rpath,"$W" ||
	fail "cannot build srctail"
# the compiler did make them tail calls, and described them (else this
# test would test nothing)
n=$(readelf --debug-dump=info srctail libsrctail.so 2>/dev/null | grep -c 'DW_AT_call_tail_call')
[ "$n" -ge 8 ] || fail "srctail has $n tail calls described in DWARF, want at least 8"

# --- -s: the line in the function that made the call --------------------
"$RENACER" -s -e trace=write -o s.txt -- "$W/srctail" >/dev/null || fail "renacer -s failed"
check_source s.txt 'write(1, "say\n"' srctail.c tail_say say
check_source s.txt 'write(1, "relay\n"' srctail.c tail_say say
check_source s.txt 'write(1, "other\n"' srctail2.c tail_other other_say
check_source s.txt 'write(1, "lib\n"' srctaillib.c tail_lib lib_say
# two chains could lead to this write: nothing is rebuilt, the caller is named
check_source s.txt 'write(1, "either b\n"' srctail.c tail_main_either main
# clang's forms: DW_TAG_GNU_call_site with DW_AT_GNU_tail_call (DWARF 4),
# DW_TAG_call_site with only DW_AT_call_pc for tail calls (DWARF 5).
# (-gdwarf-aranges: the libdw of Debian 12 finds no CU without the table)
for v in 4 5; do
	clang -gdwarf-$v -gdwarf-aranges -O2 -o srctail_clang$v src/srctail.c src/srctail2.c \
		-L. -lsrctail -Wl,-rpath,"$W" || fail "cannot build srctail with clang -gdwarf-$v"
	"$RENACER" -s -e trace=write -o clang$v.txt -- "$W/srctail_clang$v" >/dev/null ||
		fail "renacer -s failed on the clang build"
	check_source clang$v.txt 'write(1, "relay\n"' srctail.c tail_say say
	check_source clang$v.txt 'write(1, "other\n"' srctail2.c tail_other other_say
	check_source clang$v.txt 'write(1, "either b\n"' srctail.c tail_main_either main
done
# the same unfiltered (every call unwound, the tail calls of the C library's
# start-up and exit too)
"$RENACER" -s -o s_all.txt -- "$W/srctail" >/dev/null || fail "renacer -s (all calls) failed"
check_source s_all.txt 'write(1, "relay\n"' srctail.c tail_say say

# --- -k and JSON: the rebuilt frames, marked ----------------------------
"$RENACER" -k -e trace=write -o k.txt -- "$W/srctail" >/dev/null || fail "renacer -k failed"
"$RENACER" -k -s --format json -e trace=write -o k.json -- "$W/srctail" >/dev/null ||
	fail "renacer -k --format json failed"
$PY - k.txt k.json "$W/" \
	"$(mark_line srctail.c tail_say)" "$(mark_line srctail.c tail_relay)" \
	"$(mark_line srctail.c tail_main_relay)" "$(mark_line srctail.c tail_main_either)" <<'PYEOF' || exit 1
import json, re, sys
ktxt, kjson, own, say, relay, main_relay, main_either = sys.argv[1:8]
frame_re = re.compile(r"^ > (\S+)\((?:(.+)\+0x[0-9a-f]+)?\) \[0x[0-9a-f]+\]( (\S+):(\d+))?( \(tail call\))?$")
stacks, cur = {}, None
for line in open(ktxt):
    line = line.rstrip("\n")
    if line.startswith(" > "):
        m = frame_re.match(line)
        if not m:
            sys.exit("FAIL: -k line %r" % line)
        if m.group(1).startswith(own):
            stacks[cur].append((m.group(2), m.group(4), int(m.group(5) or 0), bool(m.group(6))))
        elif m.group(6):
            pass     # the C library's own tail calls (with libc6-dbg)
        continue
    cur = line.split(" = ")[0].rstrip()
    stacks[cur] = []
want = [("say", "src/srctail.c", int(say), True),
        ("relay", "src/srctail.c", int(relay), True),
        ("main", "src/srctail.c", int(main_relay), False)]
got = stacks.get('write(1, "relay\\n", 6)')
if got is None or got[:3] != want:
    sys.exit("FAIL: -k frames of the relay write:\n %r\nwant\n %r" % (got, want))
got = stacks.get('write(1, "either b\\n", 9)')
if not got or got[0] != ("main", "src/srctail.c", int(main_either), False):
    sys.exit("FAIL: -k frames of the ambiguous write: %r" % got)

d = json.load(open(kjson))
seen = 0
for s in d["syscalls"]:
    if s["name"] != "write" or s["args"][1][1] != '"relay\\n"':
        continue
    seen += 1
    st = [f for f in s["stack"] if f["module"] and f["module"].startswith(own)]
    got = [(f["function"], f["file"], f["line"], f.get("tail_call", False)) for f in st[:3]]
    if got != want:
        sys.exit("FAIL: JSON frames %r, want %r" % (got, want))
    if any("tail_call" in f and f["tail_call"] is not True for f in s["stack"]):
        sys.exit("FAIL: tail_call other than true: %r" % s["stack"])
    if s["source"] != {"file": "src/srctail.c", "line": int(say), "function": "say"}:
        sys.exit("FAIL: JSON source %r" % s["source"])
if seen != 1:
    sys.exit("FAIL: %d relay writes in the JSON trace" % seen)
PYEOF
# read back: the member is known to the reader (a wrong type is refused)
"$RENACER" compare k.json k.json >/dev/null || fail "compare cannot read a trace with tail_call frames"
sed 's/"tail_call": true/"tail_call": 1/' k.json >bad.json
"$RENACER" compare bad.json bad.json >bad.out 2>&1 && fail "a tail_call that is not a boolean was read"
grep -q "tail_call" bad.out || fail "the reader's error does not name tail_call: $(cat bad.out)"

# --- strace -k: --stack-trace=symbol prints exactly its frames -----------
strace -k -o st.txt -e trace=write -- "$W/srctail" >/dev/null 2>&1 || fail "strace -k failed"
"$RENACER" --stack-trace=symbol -e trace=write -o sym.txt -- "$W/srctail" >/dev/null ||
	fail "renacer --stack-trace=symbol failed"
grep -q 'tail call' sym.txt && fail "--stack-trace=symbol shows tail-call frames: $(cat sym.txt)"
norm() { sed -E -e 's/^ > (\S+)\(([^)+]*)\+0x[0-9a-f]+\)/ > \1(\2)/' -e 's/0x[0-9a-f]{6,}/0xADDR/g' "$1"; }
norm st.txt | grep -v '^+++' >st.norm
norm sym.txt | grep -v '^+++' >sym.norm
# strace names a C library symbol by another of its aliases at times: compare modules and offsets
sed -E 's/\(([^)]*)\)//' st.norm >st.cmp
sed -E 's/\(([^)]*)\)//' sym.norm >sym.cmp
diff st.cmp sym.cmp >/dev/null || fail "--stack-trace=symbol differs from strace -k: $(diff st.cmp sym.cmp | head -20)"

# --- gdb on a core of the same call: its tail call frames are ours ------
# (both runs without address randomization: the same addresses)
mkfifo fifo || fail "mkfifo"
setarch -R "$W/srctail" block <fifo >/dev/null &
pid=$!
exec 7>fifo
i=0
until grep -q '^State:.*S (sleeping)' /proc/$pid/status 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 50 ] || fail "srctail block does not block"; sleep 0.1
done
gcore -o core $pid >gcore.out 2>&1 || fail "gcore failed: $(cat gcore.out)"
exec 7>&-
wait $pid
gdb -batch -ex bt -ex 'frame 1' -ex 'info frame' -ex 'frame 2' -ex 'info frame' \
	-ex 'frame 3' -ex 'info frame' "$W/srctail" core.$pid >gdb.txt 2>/dev/null || fail "gdb failed"
setarch -R "$RENACER" -k --format json -e trace=read -o block.json -- "$W/srctail" block </dev/null ||
	fail "renacer -k (block) failed"
$PY - block.json gdb.txt <<'PYEOF' || exit 1
import json, re, sys
d = json.load(open(sys.argv[1]))
reads = [s for s in d["syscalls"] if s["name"] == "read" and s["args"][0][1] == "0"]
if len(reads) != 1:
    sys.exit("FAIL: %d reads" % len(reads))
stack = [f for f in reads[0]["stack"] if not f.get("inlined")]
text = open(sys.argv[2]).read()
g = {}
for line in text.splitlines():
    m = re.match(r"#(\d+)\s+(?:0x([0-9a-f]+) in )?(\S+) \(.*\) at (\S+):(\d+)$", line.strip())
    if m:
        g[int(m.group(1))] = (int(m.group(2), 16) if m.group(2) else None, m.group(3),
                              m.group(4).split("/")[-1], int(m.group(5)))
tail = set()
for part in text.split("Stack level ")[1:]:
    if "tail call frame" in part:
        tail.add(int(part.split(",")[0]))
if sorted(g)[:4] != [0, 1, 2, 3] or g[3][1] != "main" or tail != {1, 2}:
    sys.exit("FAIL: gdb's backtrace (tail call frames %s):\n%s" % (sorted(tail), text))
for lvl in (1, 2, 3):
    f = stack[lvl]
    ours = (int(f["pc"], 16), f["function"], f["file"].split("/")[-1], f["line"])
    if ours != g[lvl]:
        sys.exit("FAIL: frame %d: ours %s, gdb %s" % (lvl, ours, g[lvl]))
    if bool(f.get("tail_call")) != (lvl in tail):
        sys.exit("FAIL: frame %d: tail_call %s, gdb says %s" % (lvl, f.get("tail_call"), lvl in tail))
print("3 frames agree with gdb, 2 of them tail call frames")
PYEOF
exit 0
