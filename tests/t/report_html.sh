#!/bin/sh
# The HTML report (validate --html, compare --html, report --html) in
# headless Chromium (tests/cdp.py): no console error, no request that
# leaves the page, a screenshot that is not blank; every finding with its
# source line; the timeline of both runs; per-syscall bars; the collapsed
# call diff; the differential flame graph (a golden against itself colours
# nothing, a planted change is coloured at exactly its frames) zooms on a
# real click, searches and switches to time; a 100,000-call trace makes a
# page under 2 MB.
# test: slow
. "$TOP/tests/golden_lib.sh"
FS="$PROGS/flame_sites"
[ -x "$FS" ] || fail "test program $FS is missing (make progs)"
command -v chromium >/dev/null 2>&1 || fail "chromium is missing (make deps installs it)"

run 0 "$RENACER" capture --dir gt -s fs -- "$FS" 10
[ -f gt/fs_source.json ] || fail "capture -s wrote no fs_source.json"
# the same program, a planted change (an 8x call site and a new one), itself
run 0 "$RENACER" validate --html same.html --golden gt/fs.json -- "$FS" 10
run 1 "$RENACER" validate --html plant.html --format json --golden gt/fs.json -- "$FS" 80 new
cp out.txt plant.json
run 0 "$RENACER" compare --html self.html gt/fs.json gt/fs.json
# report --html: the golden, and the pending .new that validate wrote
[ -f gt/fs.json.new ] || fail "validate wrote no fs.json.new"
run 0 "$RENACER" report --html report.html gt
has out.txt "Report: report.html"
[ -f gt/ANALYSIS.md ] && fail "report --html also wrote ANALYSIS.md"
for f in same plant self report; do
	grep -q 'src="http\|href="http\|url(http' $f.html && fail "$f.html refers to the network"
done

# a 100,000-call trace: its golden against a run whose 100,000 calls all differ
run 0 "$RENACER" -f --format json -o big_g.json -- "$FS" 100000
run 0 "$RENACER" -f --format json -o big_c.json -- "$FS" 100000 paths
run 1 "$RENACER" compare --html big.html big_g.json big_c.json
size=$(wc -c < big.html)
echo "page of a 100,000-call trace: $size bytes"
[ "$size" -lt 2000000 ] || fail "big.html weighs $size bytes (2 MB at most)"

$PY - "$TOP/tests" "$W" plant.json <<'PYEOF' || exit 1
import json, re, sys, io
sys.path.insert(0, sys.argv[1])
from cdp import Browser
from PIL import Image
W = sys.argv[2]
plant = json.load(open(sys.argv[3]))["traces"][0]

def not_blank(png, what):
    im = Image.open(io.BytesIO(png)).convert("RGB")
    px = list(im.getdata())
    ink = sum(1 for p in px if sum(p) < 600) / len(px)
    colours = len(set(px))
    if ink < 0.02 or colours < 16:
        sys.exit("FAIL: the screenshot of %s looks blank (%.1f%% ink, %d colours)" % (what, 100 * ink, colours))

# frames of a flame graph drawing, by stack, with their kinds
FRAMES = r"""(function (sel) {
  var svg = document.querySelector(sel), out = [];
  var fs = svg.querySelectorAll('g.f'), by = {};
  for (var i = 0; i < fs.length; i++) {
    var d = +fs[i].getAttribute('data-d');
    (by[d] = by[d] || []).push(fs[i]);
  }
  function stack(f) {
    var d = +f.getAttribute('data-d'), x = +f.getAttribute('data-x'), w = +f.getAttribute('data-w');
    var names = [f.getAttribute('data-n')];
    for (var k = d - 1; k >= 1; k--) {
      var p = by[k].filter(function (g) { return +g.getAttribute('data-x') <= x + 1e-6 &&
        +g.getAttribute('data-x') + +g.getAttribute('data-w') >= x + w - 1e-6; })[0];
      names.unshift(p.getAttribute('data-n'));
    }
    return names.join(';');
  }
  for (var j = 0; j < fs.length; j++) {
    if (fs[j].getAttribute('data-d') == '0') continue;
    out.push([stack(fs[j]), fs[j].getAttribute('data-k'),
              fs[j].querySelector('rect').getAttribute('fill')]);
  }
  return out;
})(%s)"""

def coloured(b, view):
    fr = b.eval(FRAMES % json.dumps('svg.flame[data-view="%s"]' % view))
    if not fr:
        sys.exit("FAIL: no frames in the %s flame graph" % view)
    for s, k, fill in fr:
        r, g, bl = map(int, re.match(r"rgb\((\d+),(\d+),(\d+)\)", fill).groups())
        if (k == "same") != (abs(r - g) <= 2 and abs(g - bl) <= 8 and r > 200):
            sys.exit("FAIL: %s: frame %s is %s but filled %s" % (view, s, k, fill))
    return {s: k for s, k, _ in fr if k != "same"}

with Browser(W, 1280, 1000) as b:
    for page in ("same", "plant", "self", "report", "big"):
        b.errors = []
        b.open("file://%s/%s.html" % (W, page))
        if b.eval("document.body.getAttribute('data-ready')") != "1":
            sys.exit("FAIL: %s.html: its script did not finish" % page)
        if b.errors:
            sys.exit("FAIL: %s.html: %r" % (page, b.errors))
        not_blank(b.screenshot(), page + ".html")
        n = b.eval("document.querySelectorAll('svg.flame').length")
        if n < 2:
            sys.exit("FAIL: %s.html has %d flame graphs" % (page, n))

    # a golden against itself: nothing coloured, whatever the weight and width
    b.open("file://%s/self.html" % W)
    for view in ("calls-current", "calls-golden", "time-current", "time-golden"):
        c = coloured(b, view)
        if c:
            sys.exit("FAIL: self.html %s: a golden against itself colours %r" % (view, c))
    # report --html: the golden alone, then its pending .new against it,
    # drawn from the whole stacks (NAME_source.json and _source.json.new)
    b.open("file://%s/report.html" % W)
    got = b.eval("""[document.querySelectorAll('section.case').length,
        !!document.querySelector('#case-1 svg.flame[data-view="calls-current"] g.f[data-n="main"]'),
        !!document.querySelector('#case-2 svg.flame[data-view="calls-current"] g.f[data-n="main"]'),
        document.querySelectorAll('#case-2 svg.flame[data-view="calls-current"] g.f[data-k="new"]').length]""")
    if got[0] != 2 or not got[1] or not got[2] or got[3] != 3:
        sys.exit("FAIL: report.html: sections, main in both flame graphs, 3 new frames: %r" % got)
    # the same program run again: its calls colour nothing
    b.open("file://%s/same.html" % W)
    for view in ("calls-current", "calls-golden"):
        c = coloured(b, view)
        if c:
            sys.exit("FAIL: same.html %s: an unchanged run colours %r" % (view, c))

    # the planted change
    b.open("file://%s/plant.html" % W)
    c = coloured(b, "calls-current")
    grew = [s for s, k in c.items() if k == "grew"]
    new = sorted(s for s, k in c.items() if k == "new")
    if len(grew) != 1 or not grew[0].endswith(";main;write_lines;[write]"):
        sys.exit("FAIL: plant.html: grew %r, want only main;write_lines;[write]" % grew)
    if len(new) != 3 or not new[0].endswith(";main;new_site") or \
            any(not s.startswith(new[0]) for s in new) or len(c) != 4:
        sys.exit("FAIL: plant.html: coloured %r" % c)

    # every finding of the JSON result is on the page, with its source lines
    rows = b.eval("""Array.prototype.map.call(document.querySelectorAll('table.findings tr[data-kind]'),
        function (tr) { return [tr.getAttribute('data-kind'), tr.cells[3].textContent, tr.cells[4].textContent]; })""")
    fs = plant["findings"]
    if len(rows) != len(fs):
        sys.exit("FAIL: plant.html shows %d findings, the JSON %d" % (len(rows), len(fs)))
    for f, (kind, text, src) in zip(fs, rows):
        if f["kind"] != kind or not text.startswith(f["message"]):
            sys.exit("FAIL: finding %r shown as %r %r" % (f["message"], kind, text))
        for s in f.get("sources", []):
            if s["where"] not in src:
                sys.exit("FAIL: finding %r: source %r not shown (%r)" % (f["message"], s["where"], src))
    if not any("flame_sites.c" in r[2] and "write_lines" in r[2] for r in rows):
        sys.exit("FAIL: no finding names write_lines' source line: %r" % rows)
    # the timeline: the process on both sides; the bars: write 10 -> 80
    sides = b.eval("Array.prototype.map.call(document.querySelectorAll('svg.timeline g.task'), function (g) { return g.getAttribute('data-side'); })")
    if sorted(sides) != ["current", "golden"]:
        sys.exit("FAIL: timeline tasks %r" % sides)
    wr = b.eval("document.querySelector('table.bars tr[data-syscall=\"write\"]').textContent")
    if "10" not in wr or "80" not in wr or "+70" not in wr:
        sys.exit("FAIL: the bars of write: %r" % wr)
    # the call diff: the 70 more writes are one line
    diff = b.eval("document.querySelector('pre.diff').textContent")
    if not re.search(r'\+write\(.*\) = ok\s+\u00d770', diff):
        sys.exit("FAIL: the repeated writes are not collapsed:\n" + diff)

    # zoom on a real click, then reset
    sel = 'svg.flame[data-view="calls-current"] g.f[data-n="write_lines"] rect'
    b.click(sel)
    z = b.eval("""(function () {
      var s = document.querySelector('svg.flame[data-view="calls-current"]');
      var f = s.querySelector('g.f[data-n="write_lines"]'), r = f.querySelector('rect');
      var hidden = s.querySelectorAll('g.f.hide').length;
      return [s.getAttribute('data-zoomed'), +r.getAttribute('x'), +r.getAttribute('width'), hidden,
              s.querySelector('[id$="-details"]').textContent];
    })()""")
    if z[0] != "write_lines" or abs(z[1] - 10) > 0.01 or abs(z[2] - 1180) > 0.01 or z[3] < 1:
        sys.exit("FAIL: a click on write_lines did not zoom into it: %r" % z)
    if "Zoomed into write_lines" not in z[4]:
        sys.exit("FAIL: zoomed, the details say %r" % z[4])
    not_blank(b.screenshot(), "the zoomed flame graph")
    b.click('#fg1 button.reset')
    if b.eval("document.querySelector('svg.flame[data-view=\"calls-current\"]').hasAttribute('data-zoomed')"):
        sys.exit("FAIL: Reset zoom did not unzoom")
    # search
    b.type_text('#fg1 input.search', 'write')
    m = b.eval("""(function () {
      var s = document.querySelector('svg.flame[data-view="calls-current"]');
      return [s.getAttribute('data-matched'), Array.prototype.map.call(s.querySelectorAll('g.f[data-m]'),
              function (g) { return g.getAttribute('data-n'); }), s.querySelector('[id$="-matched"]').textContent];
    })()""")
    if not m[0] or sorted(set(m[1])) != ["[write]", "write_lines"] or "Matched:" not in m[2]:
        sys.exit("FAIL: searching 'write' matched %r" % m)
    # the time weights
    b.eval("var s = document.querySelector('#fg1 select.weight'); s.value = 'time'; s.onchange();")
    vis = b.eval("Array.prototype.map.call(document.querySelectorAll('#fg1 svg.flame:not(.hidden)'), function (s) { return s.getAttribute('data-view'); })")
    if vis != ["time-current"]:
        sys.exit("FAIL: choosing time shows %r" % vis)
    if b.errors:
        sys.exit("FAIL: plant.html while used: %r" % b.errors)
print("Chromium: 5 pages without errors, zoom on click, search, time weights")
PYEOF
echo ok
