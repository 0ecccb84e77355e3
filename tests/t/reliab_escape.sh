#!/bin/sh
# Every message that quotes input escapes it, and reports are always
# well-formed: hostile assertion names (a forged "renacer: all good" line,
# ESC sequences, U+FFFE, a right-to-left override), a hostile trace (the
# same in syscall names, arguments, paths, an error name) and hostile file
# names go through assert, analyze, compare and validate in every format,
# report and --junit.  Text output and messages: no control character but
# the line ends, no forged line, the escapes visible; JSON parsed by
# Python's json, JUnit by xml.etree.
# test: slow
set -u
. "$TOP/tests/lib.sh"
cd "$TMPDIR" || exit 1
"$RENACER" --format json -o good.json -- /bin/ls / > /dev/null 2>&1 || fail "cannot trace ls"
/usr/bin/python3 - "$RENACER" <<'EOF'
import json, os, re, subprocess, sys
import xml.etree.ElementTree as ET

renacer = sys.argv[1]
EVIL = "evil\nrenacer: all good\x1b[2J\ufffe\u202ex\x07"
fails = []

def bad(msg):
    fails.append(msg)
    print("FAIL: " + msg)

def clean(label, text):
    """One item per line: no control characters, no forged lines."""
    for i, line in enumerate(text.split("\n")):
        if re.search(r"[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\ufffe\uffff\u202a-\u202e]",
                     line.replace("\x1b[m", "")):
            bad("%s: line %d has a control character: %r" % (label, i + 1, line[:120]))
            return
        if line.startswith("renacer: all good"):
            bad("%s: a forged line: %r" % (label, line))
            return

def run(label, args, fmt=None, expect=None):
    p = subprocess.run([renacer] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode("utf-8", "strict")
    err = p.stderr.decode("utf-8", "strict")
    clean(label + " (stderr)", err)
    if fmt in (None, "text", "markdown"):
        clean(label + " (stdout)", out)
    elif fmt == "json":
        try:
            json.loads(out)
        except ValueError as e:
            bad("%s: JSON does not parse: %s" % (label, e))
    elif fmt == "junit":
        try:
            ET.fromstring(p.stdout)
        except ET.ParseError as e:
            bad("%s: JUnit does not parse: %s" % (label, e))
    if expect is not None and p.returncode != expect:
        bad("%s: exit %d, want %d (%s)" % (label, p.returncode, expect, err.strip()[:200]))
    return out, err

# --- hostile assertion names ---
with open("evil.toml", "w") as f:
    f.write('[[assertion]]\nname = %s\ntype = "span_count"\nmax_spans = 1\n' %
            json.dumps(EVIL))
    f.write('[[assertion]]\nname = "ok"\ntype = "span_count"\nmax_spans = 1\n'
            'description = %s\n' % json.dumps(EVIL))
out, _ = run("assert text", ["assert", "--config", "evil.toml", "good.json"], "text", 1)
if "evil\\nrenacer: all good\\033[2J\\ufffe\\u202ex\\a" not in out:
    bad("assert text: the name is not shown escaped: %r" % out[:300])
out, _ = run("assert json", ["assert", "--config", "evil.toml", "--assert-format", "json",
                             "good.json"], "json", 1)
if json.loads(out)["results"][0]["name"] != EVIL:
    bad("assert json: the name does not round-trip")
run("assert junit", ["assert", "--config", "evil.toml", "--assert-format", "junit", "good.json"],
    "junit", 1)
# duplicate names quote it in a message
with open("dup.toml", "w") as f:
    for _ in range(2):
        f.write('[[assertion]]\nname = %s\ntype = "span_count"\nmax_spans = 1\n' %
                json.dumps(EVIL))
_, err = run("duplicate name", ["assert", "--config", "dup.toml", "good.json"], None, 5)
if "duplicate assertion name 'evil\\nrenacer: all good\\033[2J" not in err:
    bad("duplicate name: not escaped: %r" % err)

# --- a hostile trace ---
d = json.load(open("good.json"))
sc = d["syscalls"]
sc[3]["name"] = EVIL
sc[4]["args"] = [["buf", '"' + EVIL + '"', {"s": EVIL}], [EVIL, "1", {"i": 1}]]
for p in d["processes"]:
    for x in p["exec"]:
        x["path"] = "/tmp/" + EVIL
d["command"] = [EVIL]
json.dump(d, open("evil.json", "w"))
for fmt in ("text", "json", "junit", "markdown"):
    run("compare --format " + fmt, ["compare", "--no-color", "--format", fmt, "good.json",
                                    "evil.json"], fmt, 1)
    run("compare --format %s (reversed)" % fmt, ["compare", "--no-color", "--format", fmt,
                                                  "evil.json", "good.json"], fmt, 1)
run("compare --junit", ["compare", "--junit", "out.xml", "good.json", "evil.json"], "text", 1)
try:
    ET.parse("out.xml")
except ET.ParseError as e:
    bad("--junit file does not parse: %s" % e)
run("analyze", ["analyze", "evil.json"], "text", 0)
run("analyze json", ["analyze", "--format", "json", "evil.json"], "json", 0)
run("assert on the hostile trace", ["assert", "--config", "evil.toml", "evil.json"], "text", 1)

# an error message quoting file content
bad_errno = json.load(open("good.json"))
for s in bad_errno["syscalls"]:
    if "errno" in s:
        s["errno"] = EVIL
        break
json.dump(bad_errno, open("errno.json", "w"))
_, err = run("unknown errno", ["compare", "good.json", "errno.json"], None, 3)
if "unknown error 'evil\\nrenacer: all good\\033[2J" not in err:
    bad("unknown errno: not escaped: %r" % err)

# hostile file names
name = "x\nrenacer: all good\x1b[31m.json"
_, err = run("missing file", ["compare", name, "good.json"], None, 2)
if "x\\nrenacer: all good\\033[31m.json" not in err:
    bad("a file name is not shown escaped: %r" % err)
open(name, "w").write("{ nope")
run("corrupt file", ["compare", name, "good.json"], None, 3)
run("-e trace", ["-e", "trace=" + EVIL, "true"], None, 1)
run("unknown option", ["compare", "--" + EVIL], None, 5)
run("-o into a missing directory", ["-o", "no/" + EVIL, "true"], None, 1)

# a golden directory with a hostile trace name: validate and report
os.mkdir("g")
os.chdir("g")
run("capture", ["capture", "t", "--", "/bin/true"], "text", 0)
os.rename("golden_traces/t.json", "golden_traces/" + EVIL + ".json")
os.rename("golden_traces/t_summary.txt", "golden_traces/" + EVIL + "_summary.txt")
run("report", ["report", "-o", "-"], "markdown", 0)
for fmt in ("text", "json", "junit", "markdown"):
    run("validate --format " + fmt, ["validate", "--no-color", "--format", fmt, "--golden",
                                     "golden_traces/" + EVIL + ".json", "--", "/bin/ls", "/"],
        fmt, 1)
print("%d problems" % len(fails))
sys.exit(1 if fails else 0)
EOF
