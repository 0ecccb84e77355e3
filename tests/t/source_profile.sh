#!/bin/sh
# --function-time, --flamegraph (folded, to a file and through the seeds'
# pipe into flamegraph.pl), --flamegraph-svg (opened in headless Chromium)
# and --speedscope (checked against speedscope's own schema), each checked
# against the trace of the same run.
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"
FLAMEGRAPH=/usr/share/perl5/Devel/NYTProf/flamegraph.pl
SCHEMA="$TOP/tests/npm/speedscope/node_modules/speedscope/dist/release/file-format-schema.json"
[ -f "$FLAMEGRAPH" ] || fail "flamegraph.pl is missing (make deps installs libdevel-nytprof-perl)"
[ -f "$SCHEMA" ] || fail "speedscope's schema is missing (make deps runs npm ci in tests/npm/speedscope)"
command -v chromium >/dev/null 2>&1 || fail "chromium is missing (make deps installs it)"
build_c O2 -O2 -fomit-frame-pointer
P="$W/O2/srcmain"
A="$W/O2/srcplug.so $W/O2/srcexec"

# one run, every output: the trace (JSON) is the oracle of the others
# shellcheck disable=SC2086
"$RENACER" -f --function-time --format json -o t.json --flamegraph f.folded \
	--flamegraph-weight count --flamegraph-svg f.svg --speedscope f.speedscope.json \
	-- $P $A >prog.out 2>table.txt || fail "renacer with every profile output failed: $(cat table.txt)"
$PY - t.json table.txt f.folded f.speedscope.json "$SCHEMA" <<'PYEOF' || exit 1
import collections, json, re, sys
import jsonschema
d = json.load(open(sys.argv[1]))
calls = d["syscalls"]
n = len(calls)
io_names = {"read", "write", "pread64", "pwrite64", "readv", "writev", "sendto", "recvfrom"}

def fn_of(s):
    src = s.get("source")
    return (src["function"], src["file"]) if src else None

# --- the function_profile object and the table on stderr
fp = d["function_profile"]
if fp["total_syscalls"] != n:
    sys.exit("FAIL: function_profile counts %d calls, the trace has %d" % (fp["total_syscalls"], n))
if sum(f["calls"] for f in fp["functions"]) != n:
    sys.exit("FAIL: the functions' calls do not add up to the trace's")
by_fn = collections.Counter(fn_of(s) for s in calls if fn_of(s))
io_fn = collections.Counter(fn_of(s) for s in calls if fn_of(s) and s["name"] in io_names)
rows = {(f["function"], f["file"]): f for f in fp["functions"]}
for key, c in by_fn.items():
    r = rows.get(key)
    if not r or r["calls"] != c or r["io_calls"] != io_fn[key]:
        sys.exit("FAIL: function %s: %r, the trace says %d calls, %d I/O" % (key, r, c, io_fn[key]))
table = open(sys.argv[2]).read()
for key in [("plugin_write", "src/srcplug.c"), ("lib_write", "src/srclib.c"), ("thread_main", "src/srcmain.c")]:
    r = rows[key]
    if not re.search(r"^ +[0-9.]+ +%d +[0-9.]+ +%d +%d  %s \(%s\)$" % (r["calls"], r["io_calls"], r["slow_io_calls"], key[0], re.escape(key[1])), table, re.M):
        sys.exit("FAIL: the table has no row for %s:\n%s" % (key, table))
for line in ("main -> plugin_write", "main -> lib_write"):
    if line not in table:
        sys.exit("FAIL: %r not in the table:\n%s" % (line, table))
# hot paths: the top stacks by time, the same in the table and the JSON
hot = [" > ".join(h["stack"]) for h in fp["hot_paths"]]
shown = re.findall(r"^ +[0-9.]+% +[0-9.]+ +\d+  (.*)$", table, re.M)
if not hot or shown != hot:
    sys.exit("FAIL: hot paths: table %r, JSON %r" % (shown, hot))
us = [h["total_us"] for h in fp["hot_paths"]]
if us != sorted(us, reverse=True) or abs(sum(h["share"] for h in fp["hot_paths"]) -
                                         sum(us) / fp["total_us"]) > 0.01:
    sys.exit("FAIL: hot paths not by time, or shares wrong: %r" % fp["hot_paths"])
edges = {(e["caller"], e["callee"]): e for e in fp["edges"]}
if edges.get(("main", "plugin_write"), {}).get("calls") != 1:
    sys.exit("FAIL: edges %r" % fp["edges"])

# --- folded stacks (weight: calls): every call counted once, per syscall
folded = collections.Counter()
total = 0
for line in open(sys.argv[3]):
    stack, w = line.rsplit(" ", 1)
    total += int(w)
    folded[stack.split(";")[-1]] += int(w)
if total != n:
    sys.exit("FAIL: folded weights add up to %d, the trace has %d calls" % (total, n))
for name, c in collections.Counter(s["name"] for s in calls).items():
    if folded["[%s]" % name] != c:
        sys.exit("FAIL: folded [%s]: %d, the trace %d" % (name, folded["[%s]" % name], c))
if "main;plugin_write;[write] 1\n" not in open(sys.argv[3]).read():
    sys.exit("FAIL: no main;plugin_write;[write] 1 in the folded stacks")

# --- speedscope: the schema, then what an importer relies on
ss = json.load(open(sys.argv[4]))
jsonschema.validate(ss, json.load(open(sys.argv[5])))
frames = ss["shared"]["frames"]
opened = 0
per_tid = collections.Counter(s["tid"] for s in calls)
if len(ss["profiles"]) != len(per_tid):
    sys.exit("FAIL: %d speedscope profiles for %d threads" % (len(ss["profiles"]), len(per_tid)))
for prof in ss["profiles"]:
    stack, last, leaves = [], prof["startValue"], 0
    for ev in prof["events"]:
        if not 0 <= ev["frame"] < len(frames) or ev["at"] < last or ev["at"] > prof["endValue"]:
            sys.exit("FAIL: speedscope event %r out of order or range" % ev)
        last = ev["at"]
        if ev["type"] == "O":
            stack.append(ev["frame"])
            if frames[ev["frame"]]["name"].startswith("[") and frames[ev["frame"]]["name"][1:-1] in {s["name"] for s in calls}:
                pass
        else:
            if not stack or stack.pop() != ev["frame"]:
                sys.exit("FAIL: speedscope closes a frame it did not open last")
            if not stack:
                leaves += 1
    if stack:
        sys.exit("FAIL: speedscope frames left open")
    tid = int(re.search(r"(?:thread|pid) (\d+)(?: \(|$)", prof["name"]).group(1))
    if leaves != per_tid[tid]:
        sys.exit("FAIL: profile %r has %d calls, the trace %d" % (prof["name"], leaves, per_tid[tid]))
    opened += leaves
if opened != n:
    sys.exit("FAIL: speedscope has %d calls, the trace %d" % (opened, n))
print("function_profile, table, folded stacks and speedscope agree with the %d calls" % n)
PYEOF

# --- JSON Lines: a function_profile line just before the summary, read back
# shellcheck disable=SC2086
"$RENACER" -f --function-time --format jsonl -o t.jsonl -- $P $A >/dev/null 2>&1 ||
	fail "renacer --function-time --format jsonl failed"
$PY - t.jsonl <<'PYEOF' || exit 1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
kinds = [l["type"] for l in lines]
if kinds[-2:] != ["function_profile", "summary"]:
    sys.exit("FAIL: the last lines are %r" % kinds[-2:])
n = sum(1 for l in lines if l["type"] == "syscall")
if lines[-2]["total_syscalls"] != n or sum(f["calls"] for f in lines[-2]["functions"]) != n:
    sys.exit("FAIL: the function_profile line counts %r calls, the trace %d" % (lines[-2]["total_syscalls"], n))
PYEOF
"$RENACER" compare t.jsonl t.jsonl >/dev/null || fail "a JSON Lines trace with a function_profile does not read back"

# --- the seeds' pipe: folded stacks on stdout into flamegraph.pl, time weights
# shellcheck disable=SC2086
"$RENACER" -f --function-time --source --flamegraph - --format json -o t2.json -- $P $A \
	2>pipe.err | perl "$FLAMEGRAPH" >pipe.svg || fail "the pipe into flamegraph.pl failed"
grep -q '<svg' pipe.svg && grep -q 'plugin_write' pipe.svg || fail "flamegraph.pl drew nothing: $(head -c 300 pipe.svg)"
grep -qx 'plugin' pipe.err || fail "the command's stdout did not go to stderr: $(cat pipe.err)"
grep -q 'Function profile:' pipe.err || fail "no --function-time table on stderr"
"$RENACER" -f --flamegraph f2.folded --format json -o t3.json -- $P $A >/dev/null ||
	fail "renacer --flamegraph FILE failed"
$PY - f2.folded t3.json <<'PYEOF' || exit 1
import json, sys
lines = [l.rsplit(" ", 1) for l in open(sys.argv[1])]
d = json.load(open(sys.argv[2]))
us = sum(s["duration_us"] for s in d["syscalls"])
w = sum(int(x) for _, x in lines)
# microseconds, rounded per stack (and at least 1): within a microsecond a line
if abs(w - us) > len(lines) + 1:
    sys.exit("FAIL: folded time weights add up to %d us, the trace's calls to %.3f us" % (w, us))
PYEOF

# --- the SVG, in headless Chromium
$PY -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' f.svg || fail "f.svg is not well-formed XML"
grep -q 'http' f.svg && grep 'http' f.svg | grep -v 'xmlns="http://www.w3.org/2000/svg"' | grep -q . &&
	fail "f.svg refers to something outside itself: $(grep http f.svg | head -n 3)"
chrome() { # OUT-FLAG URL
	rm -rf "$W/chr"
	timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$W/chr" --hide-scrollbars --force-device-scale-factor=1 \
		--window-size=1200,"$((H + 200))" "$1" "$2" 2>/dev/null
}
H=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' f.svg)
[ -n "$H" ] || fail "no height in f.svg"
# hover and zoom run the SVG's own script (the #hover= and #zoom= links);
# the window is taller than the drawing (headless Chromium keeps some of
# its height for itself)
chrome --dump-dom "file://$W/f.svg#hover=plugin_write" >hover.html || fail "chromium --dump-dom failed"
chrome --dump-dom "file://$W/f.svg#zoom=plugin_write" >zoom.html || fail "chromium --dump-dom failed"
chrome --screenshot="$W/zoom.png" "file://$W/f.svg#zoom=plugin_write" >/dev/null || fail "chromium --screenshot failed"
$PY - t.json hover.html zoom.html f.svg zoom.png "$W" <<'PYEOF' || exit 1
import json, re, subprocess, sys
from PIL import Image
d = json.load(open(sys.argv[1]))
n = len(d["syscalls"])
hover, zoom = open(sys.argv[2]).read(), open(sys.argv[3]).read()
m = re.search(r'<text id="details"[^>]*>([^<]*)</text>', hover)
want = "plugin_write (1 calls, %.2f%% of all)" % (100.0 / n)
if not m or m.group(1) != want:
    sys.exit("FAIL: hovering plugin_write shows %r, want %r" % (m and m.group(1), want))
if 'data-zoomed="plugin_write"' not in zoom:
    sys.exit("FAIL: #zoom=plugin_write did not zoom")
g = re.search(r'<g class="f" [^>]*data-n="plugin_write"[^>]*>.*?<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)" rx="2" fill="([^"]+)"/><text x="([0-9.]+)" y="([0-9.]+)">([^<]*)</text>', zoom)
if not g or abs(float(g.group(1)) - 10) > 0.01 or abs(float(g.group(3)) - 1180) > 0.01 or g.group(8) != "plugin_write":
    sys.exit("FAIL: zoomed, plugin_write does not span the width with its name: %r" % (g and g.groups()))
hidden = re.search(r'<g class="f hide" [^>]*data-n="lib_write"', zoom)
if not hidden:
    sys.exit("FAIL: zoomed into plugin_write, lib_write is still shown")
# the screenshot shows the name: the frame's pixels are exactly those of a
# page that draws only that rectangle and the text "plugin_write" there
x, y, w, h, fill, tx, ty = (g.group(i) for i in range(1, 8))
H = re.search(r'<svg [^>]*height="(\d+)"', open(sys.argv[4]).read()).group(1)
ref = ('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="%s"><style>text { font-family: monospace; font-size: 12px; fill: #000; }</style>'
       '<rect x="0" y="0" width="1200" height="%s" fill="#f8f8f4"/>'
       '<rect x="%s" y="%s" width="%s" height="%s" rx="2" fill="%s"/><text x="%s" y="%s">%%s</text></svg>') % (H, H, x, y, w, h, fill, tx, ty)
for name, label in (("ref", "plugin_write"), ("other", "plugin_wrote")):
    open("%s/%s.svg" % (sys.argv[6], name), "w").write(ref % label)
    subprocess.run(["timeout", "60", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--user-data-dir=%s/chr2" % sys.argv[6], "--hide-scrollbars", "--force-device-scale-factor=1",
                    "--window-size=1200,%d" % (int(H) + 200), "--screenshot=%s/%s.png" % (sys.argv[6], name),
                    "file://%s/%s.svg" % (sys.argv[6], name)], capture_output=True, check=True)
box = (int(float(x)) + 1, int(float(y)) + 1, int(float(x) + 300), int(float(y) + float(h)) - 1)
shot = Image.open(sys.argv[5]).convert("RGB").crop(box)
refimg = Image.open("%s/ref.png" % sys.argv[6]).convert("RGB").crop(box)
other = Image.open("%s/other.png" % sys.argv[6]).convert("RGB").crop(box)
if list(shot.getdata()) != list(refimg.getdata()):
    sys.exit("FAIL: the screenshot's plugin_write frame differs from the reference drawing of the name")
if list(other.getdata()) == list(refimg.getdata()):
    sys.exit("FAIL: the check cannot tell 'plugin_write' from 'plugin_wrote'")
colors = set(shot.getdata())
if len(colors) < 3:
    sys.exit("FAIL: the frame shows no text (%d colours)" % len(colors))
print("Chromium shows plugin_write zoomed, its share on hover, and its name")
PYEOF
exit 0
