#!/bin/sh
# `renacer assert` output and exit statuses: the text shape of the seeds
# (passed, FAILED with Actual/Budget/Regression, warning, skipped, Build
# BLOCKED), JSON that parses with the counts it claims, JUnit XML that
# parses with one testcase per assertion, and exit 0/1/2/3/5.
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/assert_lib.sh"
P=$PROGS

capture "$TMPDIR/t.json" "$P/assert_sleep" self 150
n=$(nsyscalls "$TMPDIR/t.json")
cfg <<E
[[assertion]]
name = "example_startup_latency"
type = "critical_path"
max_duration_ms = 100
fail_on_violation = true
enabled = true

[[assertion]]
name = "max_syscall_budget"
type = "span_count"
max_spans = 500

[[assertion]]
name = "tight"
type = "span_count"
max_spans = 1
fail_on_violation = false

[[assertion]]
name = "ultra_strict_latency"
type = "critical_path"
max_duration_ms = 50
enabled = false
E

# ---- text ----
run_assert "$TMPDIR/t.json" text
[ $RC -eq 1 ] || bad "text: exit $RC, want 1"
out=$TMPDIR/res
grep -qx "✅ Assertion 'max_syscall_budget' passed ($n / 500 calls)" "$out" ||
	bad "no passed line with $n / 500 calls: $(cat "$out")"
# the failed block: FAILED, then Actual / Budget / Regression, indented
awk '/^❌ Assertion .example_startup_latency. FAILED$/ { f = NR }
     f && NR == f + 1 && /^   Actual: [0-9.]+ms$/ { a = 1 }
     f && NR == f + 2 && /^   Budget: 100ms$/ { b = 1 }
     f && NR == f + 3 && /^   Regression: \+[0-9.]+%$/ { r = 1 }
     END { exit !(f && a && b && r) }' "$out" || bad "FAILED block shape: $(cat "$out")"
actual=$(sed -n 's/^   Actual: \([0-9.]*\)ms$/\1/p' "$out")
ge "$actual" 150 || bad "Actual $actual ms for a 150ms sleep"
grep -qx "⚠️ Assertion 'tight' WARNING (fail_on_violation = false)" "$out" || bad "no warning line"
grep -qx "⏭️ Assertion 'ultra_strict_latency' skipped (disabled)" "$out" || bad "no skipped line"
grep -qx "4 assertions: 1 passed, 1 failed, 1 warning, 1 skipped" "$out" || bad "no summary line"
grep -qx "⚠️ Build BLOCKED: 1 assertion failed" "$out" || bad "no Build BLOCKED line"
[ -s "$TMPDIR/err" ] && bad "stderr not empty: $(cat "$TMPDIR/err")"

# ---- json ----
run_assert "$TMPDIR/t.json" json
[ $RC -eq 1 ] || bad "json: exit $RC, want 1"
$PY - "$TMPDIR/res" "$n" <<'PY' || bad "json report: $(cat "$TMPDIR/res")"
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert d["format"] == "renacer-assert-v1"
r = {x["name"]: x for x in d["results"]}
assert [x["name"] for x in d["results"]] == ["example_startup_latency", "max_syscall_budget", "tight", "ultra_strict_latency"]
assert r["example_startup_latency"]["status"] == "failed" and r["example_startup_latency"]["unit"] == "ms"
assert r["example_startup_latency"]["actual"] >= 150 and r["example_startup_latency"]["budget"] == 100
assert abs(r["example_startup_latency"]["regression_pct"] - (r["example_startup_latency"]["actual"] - 100)) < 0.01
assert r["max_syscall_budget"] ["status"] == "passed" and r["max_syscall_budget"]["actual"] == n
assert r["tight"]["status"] == "warning" and r["tight"]["fail_on_violation"] is False
assert r["ultra_strict_latency"]["status"] == "skipped" and r["ultra_strict_latency"]["actual"] is None
s = d["summary"]
assert (s["total"], s["passed"], s["failed"], s["warnings"], s["skipped"]) == (4, 1, 1, 1, 1)
assert s["blocked"] is True and s["exit_status"] == 1
PY

# ---- junit ----
run_assert "$TMPDIR/t.json" junit
[ $RC -eq 1 ] || bad "junit: exit $RC, want 1"
$PY - "$TMPDIR/res" <<'PY' || bad "junit report: $(cat "$TMPDIR/res")"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites"
suites = root.findall("testsuite")
assert len(suites) == 1
s = suites[0]
cases = s.findall("testcase")
assert [c.get("name") for c in cases] == ["example_startup_latency", "max_syscall_budget", "tight", "ultra_strict_latency"]
assert s.get("tests") == "4" and s.get("failures") == "1" and s.get("skipped") == "1"
assert cases[0].find("failure") is not None and "Actual:" in cases[0].find("failure").text
assert cases[0].get("classname") == "renacer.critical_path"
assert cases[1].find("failure") is None and cases[2].find("failure") is None
assert "WARNING" in cases[2].find("system-out").text
assert cases[3].find("skipped") is not None
props = {p.get("name"): p.get("value") for p in s.iter("property")}
assert props.get("source", "").endswith("t.json"), props
PY

# ---- the same results from .jsonl and zstd-compressed traces ----
"$RENACER" -f --format jsonl -o "$TMPDIR/t.jsonl" -- "$P/assert_loop" 300 >/dev/null 2>&1 ||
	bad "jsonl capture failed"
capture "$TMPDIR/l.json" "$P/assert_loop" 300
zstd -q "$TMPDIR/l.json" -o "$TMPDIR/l.json.zst" || bad "zstd failed"
cfg <<E
[[assertion]]
name = "calls"
type = "span_count"
max_spans = 100000
span_name_pattern = "^getppid\$"
E
for f in l.json l.json.zst t.jsonl; do
	run_assert "$TMPDIR/$f"
	[ $RC -eq 0 ] && [ "$(result 0 actual)" = 300 ] || bad "$f: exit $RC, getppid count $(result 0 actual)"
done

# ---- exit statuses ----
cfg <<E
[[assertion]]
name = "ok"
type = "span_count"
max_spans = 100000
E
run_assert "$TMPDIR/t.json" text
[ $RC -eq 0 ] || bad "all passed: exit $RC"
grep -q "Build BLOCKED" "$TMPDIR/res" && bad "BLOCKED printed although nothing failed"
run_assert "$TMPDIR/missing.json" text
[ $RC -eq 2 ] || bad "missing trace: exit $RC, want 2"
grep -q "missing.json" "$TMPDIR/err" || bad "missing trace: message '$(cat "$TMPDIR/err")'"
printf '{"format": "renacer-json-v1", "syscalls": [' > "$TMPDIR/cut.json"
run_assert "$TMPDIR/cut.json" text
[ $RC -eq 3 ] || bad "truncated trace: exit $RC, want 3"
printf 'not json\n' > "$TMPDIR/junk.json"
run_assert "$TMPDIR/junk.json" text
[ $RC -eq 3 ] || bad "junk trace: exit $RC, want 3"

bad_config() { # what line col
	run_assert "$TMPDIR/t.json" text
	[ $RC -eq 5 ] || bad "$1: exit $RC, want 5"
	grep -q "cfg.toml:$2:$3" "$TMPDIR/err" || bad "$1: message '$(cat "$TMPDIR/err")' lacks cfg.toml:$2:$3"
	[ -s "$TMPDIR/res" ] && bad "$1: a report was printed"
}
printf '[[assertion]]\nname = "x\n' | cfg
bad_config "bad syntax" 2 8
printf '[[assertion]]\nname = "x"\ntype = "span_count"\nmax_spans = "many"\n' | cfg
bad_config "wrong type" 4 13
printf '[[assertion]]\nname = "x"\ntype = "span_count"\nmax_spans = 5\nmax_span = 6\n' | cfg
bad_config "unknown key" 5 1
printf '[[assertion]]\nname = "x"\ntype = "span_count"\nmax_spans = 5\nspan_name_pattern = "(open"\n' | cfg
bad_config "invalid regex" 5 21
printf '[[assertion]]\nname = "x"\ntype = "critical_path"\nmax_duration_ms = -3\n' | cfg
bad_config "negative budget" 4 19
printf '[[assertion]]\nname = "x"\ntype = "anti_pattern"\npattern = "TightLoops"\n' | cfg
bad_config "unknown detector" 4 11
"$RENACER" assert --config "$TMPDIR/nope.toml" "$TMPDIR/t.json" >/dev/null 2>&1
[ $? -eq 5 ] || bad "missing config: want exit 5"
(cd "$TMPDIR" && "$RENACER" assert t.json >/dev/null 2>&1; [ $? -eq 5 ]) ||
	bad "no renacer.toml in the current directory: want exit 5"
# renacer.toml in the current directory is the default
cp "$TMPDIR/cfg.toml" "$TMPDIR/renacer.toml" 2>/dev/null
printf '[[assertion]]\nname = "ok"\ntype = "span_count"\nmax_spans = 100000\n' > "$TMPDIR/renacer.toml"
(cd "$TMPDIR" && "$RENACER" assert t.json > out.txt 2>&1) || bad "default renacer.toml: $(cat "$TMPDIR/out.txt")"
"$RENACER" assert --assert-format xml "$TMPDIR/t.json" >/dev/null 2>&1
[ $? -eq 1 ] || bad "unknown format: want exit 1"
finish
