#!/bin/sh
# CI-native output in simulated runners: the step of action.yml (read from
# the file, its inputs substituted) runs with the GITHUB_* variables set:
# annotations on the source line of a planted regression, the job summary
# appended to $GITHUB_STEP_SUMMARY, the step outputs, the HTML report,
# junit.xml and the new trace in the report directory; orphaned goldens and
# pending .new files fail validate under CI=1 (warnings without CI, allowed
# by option); the GitLab template's script writes JUnit and a Code Quality
# report; a golden from another machine is said in one line or refused.
. "$TOP/tests/golden_lib.sh"
FS="$PROGS/flame_sites"
[ -x "$FS" ] || fail "test program $FS is missing (make progs)"
$PY -c 'import yaml' 2>/dev/null || fail "python3-yaml is missing (make deps installs it)"

mkdir -p proj bin && cd proj || exit 1
ln -s "$RENACER" "$W/bin/renacer"
write_toml() { # WRITES [EXTRA]: fs runs flame_sites WRITES EXTRA; ok runs it with 5
	cat > renacer.toml <<TOML
[[golden_traces.trace]]
name = "fs"
command = ["$FS", "$1"${2:+, \"$2\"}]

[[golden_traces.trace]]
name = "ok"
command = ["$FS", "5"]
TOML
}
write_toml 10
# captured in the environment the runner below has (else its notes say
# how PATH and TERM differ)
run 0 env -i PATH="$W/bin:/usr/bin:/bin" HOME="$HOME" TMPDIR="$TMPDIR" LC_ALL=C LANG=C \
	"$RENACER" capture -s
[ -f golden_traces/fs_source.json ] || fail "capture -s wrote no fs_source.json"

# action_step DIR [INPUT=VALUE...]: the validate step of action.yml, run
# as GitHub's runner would: working-directory, env with ${{ inputs.X }}
# replaced (the defaults unless given), bash --noprofile --norc -eo pipefail
action_step() {
	_dir=$1
	shift
	rm -rf "$W/runner" && mkdir -p "$W/runner" || exit 1
	: > "$W/runner/summary.md"
	: > "$W/runner/output.txt"
	$PY - "$TOP/action.yml" "$W/runner/step.sh" "$W/runner/env.sh" "$@" <<'PYEOF' || exit 1
import re, shlex, sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
given = dict(a.split("=", 1) for a in sys.argv[4:])
inputs = {k: str(given.get(k, v.get("default", ""))) for k, v in action["inputs"].items()}
for k in given:
    if k not in inputs:
        sys.exit("FAIL: action.yml has no input %r" % k)
assert action["runs"]["using"] == "composite"
step = [s for s in action["runs"]["steps"] if s.get("id") == "validate"][0]
assert step["shell"] == "bash", step
def sub(v):
    return re.sub(r"\$\{\{\s*inputs\.([a-z-]+)\s*\}\}", lambda m: inputs[m.group(1)], str(v))
open(sys.argv[2], "w").write(step["run"] + "\n")
with open(sys.argv[3], "w") as f:
    for k, v in step.get("env", {}).items():
        f.write("export %s=%s\n" % (k, shlex.quote(sub(v))))
    f.write("cd %s\n" % shlex.quote(sub(step.get("working-directory", "."))))
# the artifact upload takes the report directory
up = [s for s in action["runs"]["steps"] if "upload-artifact" in s.get("uses", "")]
assert up and up[0]["if"] == "always()" and sub(up[0]["with"]["path"]).endswith(inputs["report-dir"]), up
PYEOF
	(
		cd "$_dir" || exit 1
		. "$W/runner/env.sh"
		env -i PATH="$W/bin:/usr/bin:/bin" HOME="$HOME" TMPDIR="$TMPDIR" LC_ALL=C LANG=C \
			CI=true GITHUB_ACTIONS=true GITHUB_WORKSPACE="$W/proj" \
			GITHUB_ACTION_PATH="$TOP" GITHUB_STEP_SUMMARY="$W/runner/summary.md" \
			GITHUB_OUTPUT="$W/runner/output.txt" RUNNER_TEMP="$W/runner" \
			GITHUB_SERVER_URL=https://github.example GITHUB_REPOSITORY=org/proj \
			GITHUB_RUN_ID=4242 INPUT_ARGS="$INPUT_ARGS" INPUT_CONFIG="$INPUT_CONFIG" \
			INPUT_REPORT_DIR="$INPUT_REPORT_DIR" INPUT_RENACER="$INPUT_RENACER" \
			bash --noprofile --norc -eo pipefail "$W/runner/step.sh"
	) > "$W/runner/stdout.txt" 2> "$W/runner/stderr.txt"
	echo $? > "$W/runner/rc"
}

# --- unchanged programs: green, a summary, no annotation
action_step .
[ "$(cat "$W/runner/rc")" = 0 ] || { cat "$W/runner/stdout.txt" "$W/runner/stderr.txt"; fail "the action failed on unchanged programs"; }
grep -qx "status=0" "$W/runner/output.txt" || fail "outputs: $(cat "$W/runner/output.txt")"
grep -qx "report=renacer-reports/report.html" "$W/runner/output.txt" || fail "outputs: $(cat "$W/runner/output.txt")"
grep -q '^::group::renacer fs: equivalent$' "$W/runner/stdout.txt" || fail "no group for fs: $(head "$W/runner/stdout.txt")"
# (a note may come from a loaded machine's time: a warning, never an error)
grep -q '^::error' "$W/runner/stdout.txt" && fail "errors on unchanged programs: $(grep '^::' "$W/runner/stdout.txt")"
grep '^::warning' "$W/runner/stdout.txt" | grep -v 'title=renacer [a-z]*%3A time::' &&
	fail "warnings on unchanged programs besides time notes"
has "$W/runner/summary.md" "| fs | ✅ equivalent |"
has "$W/runner/summary.md" "| ok | ✅ equivalent |"
[ -s renacer-reports/report.html ] && [ -s renacer-reports/junit.xml ] || fail "no report.html or junit.xml"
ls golden_traces > "$W/before.txt"

# --- a planted regression: an annotation on the line that writes
write_toml 80 new
action_step . args="fs"
[ "$(cat "$W/runner/rc")" = 1 ] || { cat "$W/runner/stdout.txt" "$W/runner/stderr.txt"; fail "the action did not fail (1) on a regression"; }
grep -qx "status=1" "$W/runner/output.txt" || fail "outputs: $(cat "$W/runner/output.txt")"
line=$(grep -n 'write(fd, "x", 1)' "$TOP/tests/progs/flame_sites.c" | cut -d: -f1)
grep -q "^::error file=[^,]*flame_sites\.c,line=$line,title=renacer fs%3A count::\[1\] write: 10 -> 80 calls (+700\.0%25" \
	"$W/runner/stdout.txt" || fail "no annotation of write_lines' line $line: $(grep '^::' "$W/runner/stdout.txt")"
newline=$(grep -n 'fd = open("/dev/null", O_RDONLY)' "$TOP/tests/progs/flame_sites.c" | cut -d: -f1)
grep -q "^::error file=[^,]*flame_sites\.c,line=$newline,title=renacer fs%3A count::\[1\] openat" \
	"$W/runner/stdout.txt" || fail "no annotation of new_site's line $newline: $(grep '^::' "$W/runner/stdout.txt")"
# data never holds a raw % (escaped as %25) and every line is whole
grep '^::error' "$W/runner/stdout.txt" | sed 's/%25//g; s/%0[AD]//g; s/%3A//g; s/%2C//g' | grep -q '%' &&
	fail "an unescaped % in an annotation"
has "$W/runner/summary.md" "| fs | ❌ regression | **count**"
has "$W/runner/summary.md" '`report.html` in [this run'"'"'s artifacts](https://github.example/org/proj/actions/runs/4242)'
[ -f renacer-reports/new/fs.json.new ] || fail "no new/fs.json.new in the reports"
$PY -c "
import xml.etree.ElementTree as ET
r = ET.parse('renacer-reports/junit.xml').getroot()
assert r.get('failures') == '1', r.attrib
" || fail "junit.xml of the failing run"
grep -q 'data-kind="count"' renacer-reports/report.html || fail "report.html has no count finding"
ls golden_traces > "$W/after.txt"
cmp -s "$W/before.txt" "$W/after.txt" || fail "the action wrote into the golden directory"

# --- hygiene: an orphaned golden and a pending .new fail under CI=1
write_toml 10
cp golden_traces/ok.json golden_traces/old.json
cp golden_traces/ok_summary.txt golden_traces/old_summary.txt
cp golden_traces/fs.json golden_traces/fs.json.new
run 0 "$RENACER" validate
has err.txt "warning: 'golden_traces/old.json' is a golden file that no trace declared in renacer.toml uses"
has err.txt "warning: 'golden_traces/fs.json.new' is a pending update"
CI=1 run 5 "$RENACER" validate
has out.txt "golden_traces/old.json, golden_traces/old_summary.txt"
has out.txt "1 pending .new file: golden_traces/fs.json.new"
has out.txt "✅ fs: equivalent"
CI=1 run 5 "$RENACER" validate --allow-orphans
hasnt out.txt "old.json"
has out.txt "golden_traces/fs.json.new"
CI=1 run 5 "$RENACER" validate --allow-pending
hasnt out.txt "fs.json.new"
CI=1 run 0 "$RENACER" validate --allow-pending --allow-orphans
CI=1 run 5 "$RENACER" validate --format json
$PY - out.txt <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
t = [c for c in d["traces"] if c["name"] == "golden_traces"]
files = sorted(f["path"] for f in t[0].get("files", [])) if t else []
if files != ["golden_traces/fs.json.new", "golden_traces/old.json", "golden_traces/old_summary.txt"]:
    sys.exit("FAIL: the JSON names the files %r" % files)
if len(t) != 1 or t[0]["status"] != 5 or "old.json" not in t[0]["error"] or d["summary"]["status"] != 5:
    sys.exit("FAIL: the JSON has no failing golden directory: %r" % d)
PYEOF
action_step .
[ "$(cat "$W/runner/rc")" = 5 ] || fail "the action passed with an orphan and a pending file"
grep -q '^::error file=golden_traces/old.json,title=renacer golden_traces%3A bad configuration::golden_traces/old.json: a golden file that no declared trace uses$' \
	"$W/runner/stdout.txt" || fail "no annotation of old.json: $(grep '^::' "$W/runner/stdout.txt")"
grep -q '^::error file=golden_traces/fs.json.new,' "$W/runner/stdout.txt" || fail "no annotation of fs.json.new"
has "$W/runner/summary.md" "| golden_traces | ❌ bad configuration |"
action_step . args="--allow-orphans --allow-pending"
[ "$(cat "$W/runner/rc")" = 0 ] || fail "the action's args did not reach validate: $(cat "$W/runner/stdout.txt")"
rm golden_traces/old.json golden_traces/old_summary.txt golden_traces/fs.json.new

# --- GitLab: the template's script, with JUnit and Code Quality
write_toml 80 new
$PY - "$TOP/ci/renacer.gitlab-ci.yml" "$W/gitlab.sh" <<'PYEOF' || exit 1
import sys, yaml, shlex
t = yaml.safe_load(open(sys.argv[1]))
job = t[".renacer-validate"]
a = job["artifacts"]
assert a["when"] == "always" and a["reports"]["junit"] == "renacer-reports/junit.xml", a
assert a["reports"]["codequality"] == "renacer-reports/gl-code-quality-report.json", a
with open(sys.argv[2], "w") as f:
    f.write("set -eo pipefail\n")
    for k, v in job["variables"].items():
        f.write("export %s=%s\n" % (k, shlex.quote(str(v))))
    for line in job["script"]:
        f.write(line + "\n")
PYEOF
env -i PATH="$W/bin:/usr/bin:/bin" HOME="$HOME" TMPDIR="$TMPDIR" LC_ALL=C CI=true GITLAB_CI=true \
	CI_PROJECT_DIR="$W/proj" CI_JOB_URL=https://gitlab.example/org/proj/-/jobs/7 \
	bash --noprofile --norc "$W/gitlab.sh" > "$W/gitlab.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$W/gitlab.out"; fail "the GitLab job ended $rc, want 1"; }
has "$W/gitlab.out" "| fs | ❌ regression |"
has "$W/gitlab.out" "https://gitlab.example/org/proj/-/jobs/7/artifacts/browse"
$PY - renacer-reports/gl-code-quality-report.json renacer-reports/junit.xml "$line" <<'PYEOF' || exit 1
import json, sys, xml.etree.ElementTree as ET
cq = json.load(open(sys.argv[1]))
need = {"description", "check_name", "fingerprint", "severity", "location"}
for i in cq:
    if not need <= set(i) or "path" not in i["location"] or "begin" not in i["location"]["lines"]:
        sys.exit("FAIL: a Code Quality issue lacks a member: %r" % i)
if len({i["fingerprint"] for i in cq}) != len(cq):
    sys.exit("FAIL: fingerprints repeat")
w = [i for i in cq if i["check_name"] == "renacer/count" and "write: 10 -> 80" in i["description"]]
if len(w) != 1 or not w[0]["location"]["path"].endswith("flame_sites.c") or \
        w[0]["location"]["lines"]["begin"] != int(sys.argv[3]) or w[0]["severity"] != "major":
    sys.exit("FAIL: the write finding in Code Quality: %r" % w)
assert ET.parse(sys.argv[2]).getroot().get("failures") == "1"
PYEOF

# --- the machine: said in one line, or refused
write_toml 10
$PY - golden_traces/ok.json <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
m = d["timing"]["machine"]
if not m["cpu"] or m["cores"] < 1 or not m["kernel"] or not m["libc"].startswith("glibc "):
    sys.exit("FAIL: the golden's machine: %r" % m)
m["cpu"] = "Imaginary CPU 9000"
m["cores"] = 96
json.dump(d, open(sys.argv[1], "w"))
PYEOF
run 0 "$RENACER" validate ok
[ "$(grep -c "made on another machine" err.txt)" = 1 ] || fail "not one line about the machine: $(cat err.txt)"
has err.txt "golden 'ok' was made on another machine: CPU 'Imaginary CPU 9000' (96 cores) -> "
run 5 "$RENACER" validate --same-machine ok
has out.txt "golden made on another machine (CPU 'Imaginary CPU 9000' (96 cores)"
run 0 "$RENACER" validate fs
hasnt err.txt "another machine"
echo ok
