#!/bin/sh
# Each assertion type passes and fails on real programs, evaluated on their
# saved traces with `renacer assert`: a sleep breaks critical_path (a waited
# child counts, a detached one does not), a loop breaks span_count, an
# allocation breaks memory_usage, a busy loop breaks an anti_pattern.
# Expected numbers come from the traces themselves and from strace.
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/assert_lib.sh"
P=$PROGS

# ---- span_count ----
capture "$TMPDIR/loop.json" "$P/assert_loop" 1000
n=$(nsyscalls "$TMPDIR/loop.json")
cfg <<E
[[assertion]]
name = "budget"
type = "span_count"
max_spans = $((n - 1))

[[assertion]]
name = "getppid_only"
type = "span_count"
max_spans = 1000
span_name_pattern = "^getppid\$"

[[assertion]]
name = "roomy"
type = "span_count"
max_spans = $n
E
run_assert "$TMPDIR/loop.json"
[ $RC -eq 1 ] || bad "span_count over budget: exit $RC, want 1"
[ "$(result 0 status)" = failed ] || bad "span_count over budget: $(result 0 status)"
[ "$(result 0 actual)" = "$n" ] || bad "span_count actual $(result 0 actual), trace has $n records"
[ "$(result 1 actual)" = 1000 ] || bad "getppid count $(result 1 actual), want 1000"
[ "$(result 1 status)" = passed ] || bad "getppid at budget should pass"
[ "$(result 2 status)" = passed ] || bad "span_count at budget should pass"
# strace agrees on the number of getppid calls
if command -v strace >/dev/null 2>&1; then
	strace -f -o "$TMPDIR/s.txt" "$P/assert_loop" 1000 >/dev/null 2>&1
	sn=$(grep -c 'getppid()' "$TMPDIR/s.txt")
	[ "$sn" = 1000 ] || bad "strace saw $sn getppid calls"
fi

# ---- critical_path ----
capture "$TMPDIR/self.json" "$P/assert_sleep" self 300
cfg <<E
[[assertion]]
name = "startup_latency"
type = "critical_path"
max_duration_ms = 100

[[assertion]]
name = "generous"
type = "critical_path"
max_duration_ms = 60000
E
run_assert "$TMPDIR/self.json"
[ $RC -eq 1 ] || bad "critical_path: exit $RC, want 1"
ge "$(result 0 actual)" 300 || bad "critical_path of a 300ms sleep: $(result 0 actual)ms"
[ "$(result 0 status)" = failed ] || bad "critical_path 300ms > 100ms not failed"
[ "$(result 1 status)" = passed ] || bad "critical_path within 60s not passed"
ge "$(result 0 regression_pct)" 200 || bad "regression $(result 0 regression_pct)%, want >= 200%"

# a parent waiting for a sleeping child: the child is on the path
capture "$TMPDIR/wait.json" "$P/assert_sleep" wait 300
run_assert "$TMPDIR/wait.json"
ge "$(result 0 actual)" 300 || bad "waited child not on the critical path: $(result 0 actual)ms"
path=$(result 0 evidence | head -n 1)
[ "$(echo "$path" | grep -o 'assert_sleep\[[0-9]*\]' | sort -u | wc -l)" -eq 2 ] ||
	bad "critical path does not name parent and child: $path"

# a detached background child: not on the path, though the trace lasts as long
capture "$TMPDIR/detach.json" "$P/assert_sleep" detach 300
wall=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["wall_time_us"] / 1000)' "$TMPDIR/detach.json")
ge "$wall" 300 || bad "the tracer did not follow the detached child ($wall ms)"
run_assert "$TMPDIR/detach.json"
[ "$(result 0 status)" = passed ] || bad "detached child counted: $(result 0 actual)ms ($(result 0 evidence | head -n 1))"

# trace_name_pattern: only matching processes count
capture "$TMPDIR/sh.json" /bin/sh -c "$P/assert_sleep self 300; true"
cfg <<E
[[assertion]]
name = "worker"
type = "critical_path"
max_duration_ms = 100
trace_name_pattern = "^assert_sleep\$"

[[assertion]]
name = "shell"
type = "critical_path"
max_duration_ms = 100
trace_name_pattern = "^(sh|dash|bash)\$"
E
run_assert "$TMPDIR/sh.json"
ge "$(result 0 actual)" 300 || bad "pattern ^assert_sleep\$: $(result 0 actual)ms"
[ "$(result 0 status)" = failed ] || bad "pattern ^assert_sleep\$ not failed"
[ "$(result 1 status)" = passed ] || bad "the shell alone took $(result 1 actual)ms"

# ---- memory_usage (allocations) ----
for mode in self child; do
	if [ $mode = self ]; then capture "$TMPDIR/alloc.json" "$P/assert_alloc" 64
	else capture "$TMPDIR/alloc.json" "$P/assert_alloc" 64 child; fi
	cfg <<E
[[assertion]]
name = "small"
type = "memory_usage"
max_bytes = 33554432
tracking_mode = "allocations"

[[assertion]]
name = "large"
type = "memory_usage"
max_bytes = 1073741824
E
	run_assert "$TMPDIR/alloc.json"
	[ $RC -eq 1 ] || bad "memory ($mode): exit $RC, want 1"
	ge "$(result 0 actual)" 67108864 || bad "memory ($mode): peak $(result 0 actual) < 64MiB"
	[ "$(result 0 status)" = failed ] || bad "memory ($mode): 64MiB under a 32MiB budget"
	[ "$(result 1 status)" = passed ] || bad "memory ($mode): 64MiB over a 1GiB budget"
done
# the peak of a run that maps nothing big is small
capture "$TMPDIR/small.json" "$P/assert_alloc" 0
run_assert "$TMPDIR/small.json"
[ "$(result 0 status)" = passed ] || bad "memory: a program without the big mapping peaks at $(result 0 actual)"

# ---- anti_pattern ----
capture "$TMPDIR/busy.json" "$P/ap_tightloop" busy 2000
capture "$TMPDIR/ok.json" "$P/ap_tightloop" ok 2000
cfg <<E
[[assertion]]
name = "no_busy_loops"
type = "anti_pattern"
pattern = "TightLoop"
threshold = 0.8

[[assertion]]
name = "no_busy_loops_warn"
type = "anti_pattern"
pattern = "TightLoop"
threshold = 0.8
fail_on_violation = false
E
run_assert "$TMPDIR/busy.json"
[ $RC -eq 1 ] || bad "anti_pattern: exit $RC, want 1"
[ "$(result 0 status)" = failed ] || bad "TightLoop on a busy loop: $(result 0 status) ($(result 0 actual))"
[ "$(result 1 status)" = warning ] || bad "fail_on_violation = false gave $(result 1 status)"
result 0 evidence | grep -q 'newfstatat repeated 2000 times' || bad "TightLoop evidence: $(result 0 evidence)"
[ -n "$(result 0 recommendation)" ] || bad "TightLoop without a recommendation"
run_assert "$TMPDIR/ok.json"
[ $RC -eq 0 ] || bad "anti_pattern on a clean run: exit $RC"
[ "$(result 0 status)" = passed ] || bad "TightLoop on data-moving calls: $(result 0 actual)"
finish
