#!/bin/sh
# renacer flamegraph-diff: a golden against itself colours no frame; a
# call site made 8x more frequent and a new call site are coloured at
# exactly those frames (traces with -s, with -k, and folded stacks); the
# folded diff lines are difffolded.pl's, checked against a Python oracle
# and drawn by flamegraph.pl; errors have their statuses.
. "$TOP/tests/golden_lib.sh"
FS="$PROGS/flame_sites"
[ -x "$FS" ] || fail "test program $FS is missing (make progs)"
FLAMEGRAPH=/usr/share/perl5/Devel/NYTProf/flamegraph.pl
[ -f "$FLAMEGRAPH" ] || fail "flamegraph.pl is missing (make deps installs libdevel-nytprof-perl)"

# the same program three ways: -s (source line only), -k (whole stacks),
# and the live profile's folded stacks (weight: calls)
for opt in s k; do
	run 0 "$RENACER" -f -$opt --format json -o g$opt.json -- "$FS" 10
	run 0 "$RENACER" -f -$opt --format json -o s$opt.json -- "$FS" 10
	run 0 "$RENACER" -f -$opt --format json -o c$opt.json -- "$FS" 80 new
done
run 0 "$RENACER" -f -k -o /dev/null --flamegraph g.folded --flamegraph-weight count -- "$FS" 10
run 0 "$RENACER" -f -k -o /dev/null --flamegraph c.folded --flamegraph-weight count -- "$FS" 80 new

# check_svg SVG MODE: every frame's data-k and fill against what MODE wants
#   same:    no frame coloured
#   planted: exactly [write] under write_lines grew, exactly new_site and
#            the frames above it new
check_svg() {
	$PY - "$1" "$2" <<'PYEOF' || exit 1
import re, sys, xml.etree.ElementTree as ET
svg, mode = sys.argv[1], sys.argv[2]
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()
frames = []
def walk(g, path):
    for f in g.iter(NS + "g"):
        if f.get("class", "").split()[:1] == ["f"]:
            frames.append(f)
walk(root, [])
if not frames:
    sys.exit("FAIL: %s has no frames" % svg)
# rebuild each frame's stack from depth and position
by_depth = {}
for f in frames:
    by_depth.setdefault(int(f.get("data-d")), []).append(f)
def stack(f):
    d, x, w = int(f.get("data-d")), float(f.get("data-x")), float(f.get("data-w"))
    names = [f.get("data-n")]
    while d > 1:
        d -= 1
        p = [g for g in by_depth[d] if float(g.get("data-x")) <= x + 1e-6 and
             float(g.get("data-x")) + float(g.get("data-w")) >= x + w - 1e-6]
        names.insert(0, p[0].get("data-n"))
    return ";".join(names)
coloured = {}
for f in frames:
    if f.get("data-d") == "0":
        continue
    k = f.get("data-k")
    fill = f.find(NS + "rect").get("fill")
    r, g, b = map(int, re.match(r"rgb\((\d+),(\d+),(\d+)\)", fill).groups())
    grey = abs(r - g) <= 2 and abs(g - b) <= 8 and r > 200
    if (k == "same") != grey:
        sys.exit("FAIL: %s: frame %s is %s but filled %s" % (svg, stack(f), k, fill))
    if k != "same":
        coloured[stack(f)] = k
if mode == "same":
    if coloured:
        sys.exit("FAIL: %s: a run against itself colours %r" % (svg, coloured))
else:
    grew = sorted(s for s, k in coloured.items() if k == "grew")
    new = sorted(s for s, k in coloured.items() if k == "new")
    other = sorted(s for s, k in coloured.items() if k not in ("grew", "new"))
    if len(grew) != 1 or not grew[0].endswith("write_lines;[write]"):
        sys.exit("FAIL: %s: grew %r, want only write_lines;[write]" % (svg, grew))
    base = [s for s in new if s.endswith("new_site")]
    if len(base) != 1 or any(not s.startswith(base[0]) for s in new) or len(new) != 3:
        sys.exit("FAIL: %s: new %r, want new_site and its [openat] and [close]" % (svg, new))
    if other:
        sys.exit("FAIL: %s: also coloured %r" % (svg, other))
    if "main;" not in grew[0] and "-k" in svg:
        sys.exit("FAIL: %s: the -k stacks lost main: %r" % (svg, grew))
PYEOF
}

for opt in s k; do
	run 0 "$RENACER" flamegraph-diff -o same$opt.svg g$opt.json s$opt.json
	has err.txt "0 frames grew, 0 shrank, 0 new, 0 gone"
	check_svg same$opt.svg same
	run 0 "$RENACER" flamegraph-diff -o self$opt.svg g$opt.json g$opt.json
	check_svg self$opt.svg same
	run 0 "$RENACER" flamegraph-diff -o plant$opt.svg g$opt.json c$opt.json
	has err.txt "1 frame grew, 0 shrank, 3 new, 0 gone"
	check_svg plant$opt.svg planted
	# the golden's widths: nothing gone, the new frames not drawn
	run 0 "$RENACER" flamegraph-diff --width golden -o gw$opt.svg g$opt.json c$opt.json
	grep -q 'data-n="new_site"' gw$opt.svg && fail "--width golden draws new_site (the golden has no call there)"
	grep -q 'data-n="write_lines"' gw$opt.svg || fail "--width golden lost write_lines"
done
# gone: the other way round
run 0 "$RENACER" flamegraph-diff --width golden -o gone.svg ck.json gk.json
has err.txt "0 frames grew, 1 shrank, 0 new, 3 gone"
grep -q 'data-k="gone"[^>]*data-n="new_site"' gone.svg || fail "new_site is not gone in gone.svg"

# folded diff lines: difffolded.pl's format, by a Python oracle from the
# live profile's folded stacks; the trace's -k stacks give the same lines
run 0 "$RENACER" flamegraph-diff g.folded c.folded
cp out.txt diff_folded.txt
run 0 "$RENACER" flamegraph-diff --no-programs gk.json ck.json
cp out.txt diff_trace.txt
$PY - g.folded c.folded diff_folded.txt diff_trace.txt <<'PYEOF' || exit 1
import sys
def load(p):
    d = {}
    for line in open(p):
        s, w = line.rstrip("\n").rsplit(" ", 1)
        d[s] = d.get(s, 0) + int(w)
    return d
g, c = load(sys.argv[1]), load(sys.argv[2])
want = "".join("%s %d %d\n" % (s, g.get(s, 0), c.get(s, 0)) for s in sorted(set(g) | set(c)))
for f in sys.argv[3:]:
    got = open(f).read()
    if got != want:
        sys.exit("FAIL: %s:\n%s\nwant (difffolded.pl of the folded stacks):\n%s" % (f, got, want))
if "main;write_lines;[write] 10 80\n" not in want:
    sys.exit("FAIL: the oracle lacks the planted line:\n" + want)
PYEOF
perl "$FLAMEGRAPH" < diff_folded.txt > fg.svg 2>fg.err || fail "flamegraph.pl cannot draw the folded diff: $(cat fg.err)"
grep -q "write_lines" fg.svg || fail "flamegraph.pl's drawing lacks write_lines"
# folded against folded, as SVG: the same colouring
run 0 "$RENACER" flamegraph-diff --format svg g.folded c.folded
cp out.txt folded.svg
check_svg folded.svg planted

# time weights: the columns are microseconds, a line per stack
run 0 "$RENACER" flamegraph-diff --weight time gk.json ck.json
grep -q ';write_lines;\[write\] [1-9][0-9]* [1-9][0-9]*$' out.txt || fail "time weights: $(cat out.txt)"
# the floor: at 95% nothing is big enough to colour but what is new
run 0 "$RENACER" flamegraph-diff --floor 95 -o /dev/null gk.json ck.json
has err.txt "0 frames grew, 0 shrank, 3 new"

# errors
run 2 "$RENACER" flamegraph-diff gk.json nosuch.json
has err.txt "cannot open 'nosuch.json'"
printf 'a;b 3\nnot a weight\n' > bad.folded
run 3 "$RENACER" flamegraph-diff bad.folded g.folded
has err.txt "line 2"
printf 'a;b 3 4\n' > twice.folded
run 3 "$RENACER" flamegraph-diff twice.folded g.folded
has err.txt "two weights"
printf '{"format": "renacer-json-v2", "syscalls": [' > cut.json
run 3 "$RENACER" flamegraph-diff cut.json g.folded
run 5 "$RENACER" flamegraph-diff g.folded
run 5 "$RENACER" flamegraph-diff --weight bytes g.folded c.folded
run 5 "$RENACER" flamegraph-diff --floor -1 g.folded c.folded
run 7 "$RENACER" flamegraph-diff -o /nonexistent/dir/x.svg g.folded c.folded
echo ok
