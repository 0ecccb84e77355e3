#!/bin/sh
# The seeds' commands (../shared/seeds: the trueno, entrenar and repartir
# integration reports) run as typed, with C programs standing in for the
# Rust examples (tests/progs/seed_example.c as
# ./target/release/examples/NAME), and give what the seeds show.
#
# Each seed step is a function below, run in order by the list at the end.
# The expected source lines of -s are read from the MARK: comments of the
# stand-in's source; `cargo bench` is tests/progs/seed_cargo.c; the Jaeger
# of the OTLP steps is the test receiver (tests/otlp/otlptest.py) on port
# 4317 when it is free, its /api/traces answers made by `otlptest.py jaeger`.
# test: serial
. "$TOP/tests/lib.sh"
. "$TOP/tests/golden_lib.sh"
. "$TOP/tests/otlp/lib.sh"
unset OTEL_SERVICE_NAME OTEL_RESOURCE_ATTRIBUTES OTEL_EXPORTER_OTLP_ENDPOINT \
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT OTEL_EXPORTER_OTLP_PROTOCOL \
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL OTEL_EXPORTER_OTLP_HEADERS TRACEPARENT
SRC="$TOP/tests/progs/seed_example.c"
FLAMEGRAPH=/usr/share/perl5/Devel/NYTProf/flamegraph.pl
EX=./target/release/examples
mkdir -p "$EX" scripts || fail "setup"
for n in backend_detection matrix_operations activation_functions performance_demo \
	 ml_similarity gpu_test training_loop hello_repartir; do
	cp "$PROGS/seed_example" "$EX/$n" || fail "setup $n"
done

# renacer.toml as the trueno seed has it
cat > renacer.toml <<'TOML'
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
fail_on_violation = true
enabled = true

[[assertion]]
name = "memory_allocation_budget"
type = "memory_usage"
max_bytes = 104857600 # 100MB
tracking_mode = "allocations"
fail_on_violation = true
enabled = true

[[assertion]]
name = "detect_pcie_bottleneck"
type = "anti_pattern"
pattern = "PCIeBottleneck"
threshold = 0.7
fail_on_violation = false # Warning only
enabled = true

[[assertion]]
name = "ultra_strict_latency"
type = "critical_path"
max_duration_ms = 50
fail_on_violation = true
enabled = false
TOML

# scripts/capture_golden_traces.sh, as the seeds describe it
cat > scripts/capture_golden_traces.sh <<'SH'
#!/bin/sh
set -e
echo "=== Capturing Golden Traces for Trueno ==="
echo "Examples: ./target/release/examples/"
echo "Output: golden_traces/"
i=0
for ex in backend_detection matrix_operations activation_functions performance_demo ml_similarity; do
	i=$((i + 1))
	echo "[$i/5] Capturing: $ex"
	renacer capture "$ex" -- "./target/release/examples/$ex"
done
echo "Generating analysis report..."
renacer report
echo "=== Golden Trace Capture Complete ==="
SH
chmod +x scripts/capture_golden_traces.sh
mkdir -p bin && ln -s "$RENACER" bin/renacer && cp "$PROGS/seed_cargo" bin/cargo &&
	PATH="$PWD/bin:$PATH" && export PATH

count() { jq '.syscalls | length' "$1"; }
mark() { grep -n "MARK:$1\\b" "$SRC" | cut -d: -f1; }

# "./scripts/capture_golden_traces.sh": one "Captured" line per example,
# the goldens, their summaries and the analysis report
step_capture_script() {
	run 0 ./scripts/capture_golden_traces.sh
	for ex in backend_detection matrix_operations activation_functions performance_demo \
		  ml_similarity; do
		grep -qE "^✅ Captured: golden_traces/$ex.json \([0-9.]+ms, [0-9]+ syscalls\)$" out.txt ||
			{ cat out.txt; fail "no Captured line for $ex"; }
		n=$(sed -n "s|^✅ Captured: golden_traces/$ex.json ([0-9.]*ms, \([0-9]*\) syscalls)|\1|p" out.txt)
		[ "$n" = "$(count golden_traces/$ex.json)" ] || fail "$ex: Captured says $n syscalls, the golden has $(count golden_traces/$ex.json)"
		[ -s "golden_traces/${ex}_summary.txt" ] || fail "no ${ex}_summary.txt"
	done
	[ -s golden_traces/ANALYSIS.md ] || fail "no ANALYSIS.md"
}

# "cat golden_traces/backend_detection_summary.txt": the -c table, then
# "Syscall Summary:" lines and a TOTAL that agree with it
step_summary() {
	s=golden_traces/backend_detection_summary.txt
	has $s "% time     seconds  usecs/call     calls    errors syscall"
	has $s "Syscall Summary:"
	table=$(awk '$NF == "total" { print $(NF-2) + 0 }' $s)
	[ -n "$table" ] || table=$(awk '$NF == "total" { print $4 }' $s)
	total=$(sed -n 's/^TOTAL: \([0-9]*\) calls.*/\1/p' $s)
	calls=$(awk '/^[a-z_0-9]+: [0-9]+ calls/ { n += $2 } END { print n }' $s)
	[ "$total" = "$calls" ] || fail "summary: TOTAL $total, the lines add up to $calls"
	grep -q "^100.00 .* $total  *[0-9]* *total$\|^100.00 .* $total *total$" $s ||
		{ cat $s; fail "summary: the table's total is not $total calls"; }
}

# "renacer --format json -- ./target/release/examples/backend_detection >
# backend_detection.json": a JSON trace in the file, the program's output
# kept out of it (shown on stderr), the same count as the golden
step_json_redirect() {
	for ex in backend_detection matrix_operations; do
		renacer --format json -- "$EX/$ex" > "$ex.json" 2> err.txt || fail "$ex: exit $?"
		jq -e '.format == "renacer-json-v2"' "$ex.json" > /dev/null || fail "$ex.json is not a JSON trace"
		has err.txt "Example: $ex"
		# nothing but the document (its write calls show the output quoted)
		[ "$(head -c 1 "$ex.json")" = "{" ] && ! grep -q "^Example:" "$ex.json" ||
			fail "$ex.json holds the program's output"
		n=$(count "$ex.json") g=$(count "golden_traces/$ex.json")
		# as the seed expects: no difference (a threaded one within +-5%)
		if [ $ex = backend_detection ]; then
			[ "$n" = "$g" ] || fail "$ex: $n syscalls, golden $g"
		else
			[ $(( (n - g) * (n - g) * 400 )) -le $(( g * g )) ] || fail "$ex: $n syscalls, golden $g"
		fi
	done
}

# the same when the example was not built: a one-line reason and an empty
# file, never a fragment of a document
step_json_missing() {
	renacer --format json -- ./target/release/examples/not_built > nb.json 2> err.txt &&
		fail "a missing program traced"
	[ ! -s nb.json ] || { cat nb.json; fail "nb.json holds something"; }
	[ "$(wc -l < err.txt)" = 1 ] && has err.txt "cannot run './target/release/examples/not_built'"
}

# "diff <(jq '.syscalls | length' golden_traces/backend_detection.json)
#       <(jq '.syscalls | length' current.json)": no difference
step_diff_lengths() {
	renacer --format json -- ./target/release/examples/backend_detection > current.json 2> /dev/null
	bash -c "diff <(jq '.syscalls | length' golden_traces/backend_detection.json) <(jq '.syscalls | length' current.json)" \
		> diff.txt 2>&1 || { cat diff.txt; fail "the syscall counts differ"; }
}

# "jq '.syscalls[] | select(.name == "ioctl" or .name == "write")' gpu_trace.json"
step_gpu_filter() {
	renacer --format json -- ./target/release/examples/gpu_test > gpu_trace.json 2> /dev/null
	jq '.syscalls[] | select(.name == "ioctl" or .name == "write")' gpu_trace.json > sel.json ||
		fail "jq on gpu_trace.json"
	[ "$(jq -s 'map(select(.name == "write")) | length' sel.json)" -ge 10 ] || fail "no writes selected"
	[ "$(jq -s 'map(select(.name == "ioctl")) | length' sel.json)" -ge 1 ] || fail "no ioctl selected"
	jq -e '.syscalls[] | select(.name == "openat") | .args[1][1] | select(contains("/dev/nvidia0"))' \
		gpu_trace.json > /dev/null || fail "the look for /dev/nvidia0 is not in the trace"
}

# "renacer --assert renacer.toml -- ./target/release/examples/...": the CI
# step prints the assertion results only (and the program's own output)
step_assert() {
	for ex in backend_detection matrix_operations activation_functions; do
		run 0 renacer --assert renacer.toml -- "./target/release/examples/$ex"
		has err.txt "Assertion 'max_syscall_budget' passed"
		has err.txt "5 assertions:"
		hasnt err.txt "execve("
		hasnt err.txt "mmap("
		hasnt err.txt "attached"
		has out.txt "Example: $ex"
	done
	# a broken budget fails the step, named
	sed 's/max_spans = 500/max_spans = 5/' renacer.toml > tight.toml
	run 1 renacer --assert tight.toml -- ./target/release/examples/backend_detection
	has err.txt "Assertion 'max_syscall_budget' FAILED"
	# and the same assertions on the saved goldens
	run 0 renacer assert golden_traces/backend_detection.json
	has out.txt "Assertion 'memory_allocation_budget' passed"
}

# "renacer --summary --timing -- ./target/release/examples/backend_detection":
# the table and the totals agree (both wall-clock)
step_summary_timing() {
	run 0 renacer --summary --timing -- ./target/release/examples/backend_detection
	tcalls=$(awk '$NF == "total" && /^100/ { print $4 }' err.txt)
	tsecs=$(awk '$NF == "total" && /^100/ { print $2 }' err.txt)
	total=$(sed -n 's/^TOTAL: \([0-9]*\) calls.*/\1/p' err.txt)
	tms=$(sed -n 's/^TOTAL: [0-9]* calls (\([0-9.]*\)ms total)/\1/p' err.txt)
	[ -n "$tcalls" ] && [ "$tcalls" = "$total" ] || { cat err.txt; fail "table $tcalls calls, TOTAL $total"; }
	$PY -c "import sys; t, m = float(sys.argv[1]) * 1000, float(sys.argv[2]); sys.exit(0 if abs(t - m) <= 0.011 + 0.001 * m else 1)" "$tsecs" "$tms" ||
		{ cat err.txt; fail "table ${tsecs}s, TOTAL ${tms}ms"; }
	# --timing alone implies the summary
	run 0 renacer --timing -- ./target/release/examples/backend_detection
	has err.txt "TOTAL:"
	has err.txt "% time"
}

# "renacer -- ./target/release/examples/backend_detection > current_trace.txt":
# strace's text goes to stderr, and renacer says where it went and what to type
step_text_redirect() {
	renacer -- ./target/release/examples/backend_detection > current_trace.txt 2> err.txt ||
		fail "exit $?"
	has err.txt "execve(\"./target/release/examples/backend_detection\""
	has err.txt "renacer: hint: the trace went to standard error; '$PWD/current_trace.txt' holds the command's output (to write the trace to a file: renacer -o FILE -- ./target/release/examples/backend_detection)"
	has current_trace.txt "Example: backend_detection"
	renacer -o current_trace.txt -- ./target/release/examples/backend_detection > /dev/null 2>&1
	has current_trace.txt "execve(\"./target/release/examples/backend_detection\""
	# -o - is standard output
	renacer -o - -- ./target/release/examples/backend_detection > stdout_trace.txt 2> err.txt
	has stdout_trace.txt "execve(\"./target/release/examples/backend_detection\""
	grep -q "^Example:" stdout_trace.txt && fail "the program's output is in the trace on stdout"
	has err.txt "Example: backend_detection"
}

# The entrenar/repartir seeds: JSON of a single- and a multi-threaded
# example, and their golden summaries
step_other_seeds() {
	for ex in training_loop hello_repartir; do
		run 0 renacer capture "$ex" -- "./target/release/examples/$ex"
		renacer --format json -- "./target/release/examples/$ex" > new_trace.json 2> /dev/null
		jq -e '.syscalls | length > 0' new_trace.json > /dev/null || fail "$ex: new_trace.json"
		# "diff golden_traces/training_loop.json new_trace.json" differs in
		# every call's pid and time: renacer compare is the comparison (of
		# one run's calls: its time, unconfirmed, is the machine's)
		diff "golden_traces/$ex.json" new_trace.json > /dev/null && fail "$ex: the raw diff is empty"
		run 0 renacer compare --no-color --no-timing "golden_traces/$ex.json" new_trace.json
		has out.txt "golden_traces/$ex.json: equivalent"
		# the summary format of the seeds' ANALYSIS.md
		s="golden_traces/${ex}_summary.txt"
		grep -qx '% time     seconds  usecs/call     calls    errors syscall' "$s" &&
		grep -qx -- '------ ----------- ----------- --------- --------- ----------------' "$s" ||
			{ cat "$s"; fail "$s: not the seeds' table"; }
		rows=$(sed -n '3,/^------/p' "$s" | sed '$d')
		[ -n "$rows" ] && ! echo "$rows" | grep -vqE '^ *[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{6} +[0-9]+ +[0-9]+ +([0-9]+ +)?[a-z_0-9]+$' ||
			{ cat "$s"; fail "$s: a row is not '% time seconds usecs/call calls [errors] syscall'"; }
		run 0 renacer validate --no-color --golden "golden_traces/$ex.json" -- "./target/release/examples/$ex"
	done
	# repartir's threads are followed in the JSON trace as in the golden
	[ "$(jq '[.processes[] | select(.is_thread)] | length' new_trace.json)" = 4 ] ||
		fail "hello_repartir: the JSON trace does not follow its 4 threads"
	# the JSON trace format of ANALYSIS.md: "format": "renacer-json-v1",
	# syscalls[] with name, args as [name, value] pairs and result
	renacer --format json -- ./target/release/examples/training_loop > new_trace.json 2> /dev/null
	# the seeds' shape: name and strace's text first in each argument (v2
	# adds the typed value third)
	jq -e '.format == "renacer-json-v2" and (.version | type == "string") and
	       (.syscalls | length > 0) and
	       (.syscalls | all(has("name") and has("result") and (.args | type == "array") and
				(.args | all(type == "array" and length == 3 and (.[0] | type == "string") and
					     (.[1] | type == "string")))))' \
		new_trace.json > /dev/null || fail "new_trace.json is not the seeds' JSON format"
	jq -e '[.syscalls[] | select(.name == "write")] | length > 0 and
	       all(.args[0][0:2] == ["fd", "1"] and .args[0][2].fd == 1 and
		   .args[1][0] == "buf" and .args[2][0] == "count" and
		   .result == (.args[2][1] | tonumber) and .result == .args[2][2].u)' new_trace.json > /dev/null ||
		fail "the writes of new_trace.json are not {name, args: [[fd, 1], [buf, ...], [count, N]], result: N}"
}

# "renacer -s -- ./target/release/examples/backend_detection":
#   write(1, "Backend: AVX2\n", 14) = 14 [src/lib.rs:245]
#   mmap(...) = 0x7f... [src/vector.rs:89]
# with the stand-in's own lines (its MARK: comments), in text and JSON; and
# strace's -s 64 is still the string limit
step_source() {
	wl=$(mark backend_write) ml=$(mark vector_mmap)
	run 0 renacer -s -- ./target/release/examples/backend_detection
	grep -qE '^write\(1, "Backend: [A-Z0-9-]+\\n", [0-9]+\) += [0-9]+ \[([^]]*/)?seed_example\.c:'"$wl"' in detect_backend\]$' err.txt ||
		{ cat err.txt; fail "-s: no 'Backend' write at seed_example.c:$wl in detect_backend"; }
	[ "$(grep -cE '^mmap\(NULL, 65536, .*\) += 0x[0-9a-f]+ \[([^]]*/)?seed_example\.c:'"$ml"' in work\]$' err.txt)" = 3 ] ||
		{ cat err.txt; fail "-s: the 3 vector mmaps are not at seed_example.c:$ml in work"; }
	has out.txt "Backend: "
	renacer -s --format json -- ./target/release/examples/backend_detection > src.json 2> /dev/null
	jq -e --argjson l "$wl" '[.syscalls[] | select(.name == "write" and (.args[1][1] | startswith("\"Backend: ")))] |
		length == 1 and .[0].source.line == $l and .[0].source.function == "detect_backend" and
		(.[0].source.file | endswith("seed_example.c"))' src.json > /dev/null ||
		fail "-s --format json: the Backend write's source is not seed_example.c:$wl"
	# -s 64: strace's string limit, no source lines
	run 0 renacer -s 64 -- ./target/release/examples/backend_detection
	has err.txt 'execve("./target/release/examples/backend_detection", ["./target/release/examples/backend_detection"]'
	hasnt err.txt "in detect_backend]"
}

# "Source-correlated: JSON with DWARF debug info mapping (backend_detection
# only)": renacer capture -s writes backend_detection_source.json beside the
# golden, and the golden's runtime is the program's, not the unwinder's
# (unwinding every stack costs far more than this 5 ms program runs)
step_capture_source() {
	wl=$(mark backend_write)
	# the golden's runtime: the median of its untraced runs (the traced
	# runs judge behaviour; with -s they also unwind every stack)
	plain=$(jq '.timing.untraced.net_us | sort | .[length / 2 | floor]' golden_traces/backend_detection.json)
	run 0 renacer capture -s backend_detection -- ./target/release/examples/backend_detection
	has out.txt "with the stack of every call: golden_traces/backend_detection_source.json"
	jq -e --argjson l "$wl" '[.syscalls[] | select(.source.function == "detect_backend")] |
		length == 1 and .[0].source.line == $l and .[0].name == "write"' \
		golden_traces/backend_detection.json > /dev/null || fail "the golden keeps no source of the Backend write"
	jq -e '[.syscalls[] | select(.source.function == "detect_backend")] | length == 1 and
		(.[0].stack | length > 1)' golden_traces/backend_detection_source.json > /dev/null ||
		fail "backend_detection_source.json has no stack for the Backend write"
	src=$(jq '.timing.untraced.net_us | sort | .[length / 2 | floor]' golden_traces/backend_detection.json)
	$PY -c "import sys; p, s = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if s <= 3 * p + 10000 else 1)" "$plain" "$src" ||
		fail "capture -s: the golden's runtime is ${src}us, the plain capture's ${plain}us: the unwinding was counted"
	run 0 renacer validate --no-color --golden golden_traces/backend_detection.json -- ./target/release/examples/backend_detection
}

# A receiver standing in for Jaeger's OTLP port: RECV_OUT PORT (0: any).
# Returns 1 when PORT is taken; sets PORT.
start_receiver() {
	OTLP_PORT=$2
	otlp_serve grpc "$1"
	_r=$?
	OTLP_PORT=
	return $_r
}

# The last trueno-benchmarks trace a receiver log holds (another test's run
# may reach 4317 too): NAME COMMAND_ARGS SPANS SERVICE (the root process
# span's name and args, and its syscall spans)
last_trace() {
	"$PY" - "$1" <<'PYEOF'
import json, sys
spans = [s for l in open(sys.argv[1]) for r in [json.loads(l)] if r.get("answer", "ok") == "ok"
         for s in r["spans"] if s["resource"].get("service.name") == "trueno-benchmarks"]
last = max(spans, key=lambda s: s["start"])["trace_id"]
mine = [s for s in spans if s["trace_id"] == last]
ids = {s["span_id"] for s in mine}
root = [s for s in mine if s["parent"] not in ids and "syscall.name" not in s["attrs"]]
assert len(root) == 1, root
calls = [s for s in mine if "syscall.name" in s["attrs"]]
assert all(s["parent"] in ids for s in calls)
print(root[0]["name"], json.dumps(root[0]["attrs"].get("process.command_args")).replace(" ", ""),
      len(calls), root[0]["resource"]["service.name"])
PYEOF
}

# "renacer --otlp http://localhost:4317 -- ./target/release/examples/performance_demo"
# reaches the collector on 4317 (gRPC): one trace, its process span named
# after the example with its whole command line, a span per syscall
step_otlp() {
	: > spans.log
	if start_receiver spans.log 4317; then
		OTLP_PORT=4317
	else
		echo "port 4317 is taken: the command as typed runs, the checks use another port"
		start_receiver spans.log 0
		OTLP_PORT=$PORT
	fi
	want=$(count golden_traces/performance_demo.json)
	OTEL_SERVICE_NAME=trueno-benchmarks renacer --otlp http://localhost:4317 -- ./target/release/examples/performance_demo \
		> out.txt 2> err.txt || fail "--otlp as typed: exit $?"
	has out.txt "Example: performance_demo"
	if [ $OTLP_PORT != 4317 ]; then
		OTEL_SERVICE_NAME=trueno-benchmarks renacer --otlp "http://localhost:$OTLP_PORT" --otlp-protocol grpc -- \
			./target/release/examples/performance_demo > out.txt 2> err.txt || fail "--otlp: exit $?"
	fi
	hasnt err.txt "warning"
	got=$(last_trace spans.log) || fail "the receiver's spans"
	[ "$got" = "performance_demo [\"./target/release/examples/performance_demo\"] $want trueno-benchmarks" ] ||
		fail "the exported trace is '$got', want 'performance_demo [\"./target/release/examples/performance_demo\"] $want trueno-benchmarks'"
}

# The pre-release workflow: an export (make profile-otlp-jaeger), then
#   curl "localhost:16686/api/traces?service=trueno-benchmarks" > traces-before.json
# the same after the changes, and a comparison (their compare_traces.py is
# renacer compare).  Jaeger keeps every trace: the second export holds the
# first run too, and compare leaves out what both hold.
step_prerelease() {
	: > jaeger.log
	start_receiver jaeger.log 0
	export_run() {
		OTEL_SERVICE_NAME=trueno-benchmarks renacer -f --otlp "http://localhost:$PORT" --otlp-protocol grpc \
			-o /dev/null -- \
			./target/release/examples/performance_demo > /dev/null 2> err.txt || fail "export: exit $?"
		hasnt err.txt "warning"
	}
	curl_traces() { "$PY" "$OTLPTEST" jaeger jaeger.log --service "$1" > "$2" || fail "the Jaeger export"; }
	export_run
	curl_traces trueno-benchmarks traces-before.json
	export_run
	curl_traces trueno-benchmarks traces-after.json
	# as typed: the runs' counts agree (their times are the machine's)
	renacer compare traces-before.json traces-after.json > out.txt 2> err.txt
	[ $? -le 1 ] || { cat err.txt; fail "compare: exit $?"; }
	has out.txt "after:  traces-after.json (Jaeger export, 1 trace, "
	has out.txt "; 1 more trace also in before, left out)"
	hasnt out.txt "spans a trace ("
	run 0 renacer compare --no-timing traces-before.json traces-after.json
	has out.txt "EQUIVALENT: "
	# a change: 8 more buffers in each of the 3 computations
	curl_traces trueno-benchmarks traces-before.json
	n=$(jq '[.syscalls[] | select(.name == "mmap")] | length' golden_traces/performance_demo.json)
	SEED_PLANT=alloc export_run
	curl_traces trueno-benchmarks traces-after.json
	run 1 renacer compare --no-timing traces-before.json traces-after.json
	has out.txt "; 2 more traces also in before, left out)"
	has out.txt "regression: mmap: $n -> $((n + 24)) spans a trace"
	has out.txt "regression: munmap: "
	has out.txt "REGRESSION: 2 of "
	# a query for another service finds nothing: said, not compared
	curl_traces trueno traces-none.json
	run 3 renacer compare traces-none.json traces-after.json
	has err.txt "renacer: Jaeger export 'traces-none.json' holds no spans"
}

# The trueno spec: "renacer --function-time --source -- cargo bench vector_ops
# # I/O bottleneck >1ms" and "... -- cargo bench | flamegraph.pl > flame.svg"
step_function_time() {
	run 0 renacer --function-time --source -- ./target/release/examples/performance_demo
	has err.txt "  time (ms)      calls   avg (us)       I/O  slow I/O  function"
	writes=$(grep -c '^write(1, ' err.txt)
	row=$(grep -E '^ +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9]+  say \(([^)]*/)?seed_example\.c\)$' err.txt) ||
		{ cat err.txt; fail "--function-time: no row for say"; }
	[ "$(echo "$row" | awk '{ print $2, $4 }')" = "$writes $writes" ] ||
		fail "--function-time: say made $writes writes (all I/O), the row says: $row"
	has err.txt "main > say > [write]"
	has err.txt "main -> say"
	has err.txt "main -> work"
	[ -r "$FLAMEGRAPH" ] || fail "flamegraph.pl is missing (make deps: libdevel-nytprof-perl)"
	# as typed: the pipe gets the programs' output; renacer says what to add
	renacer --function-time --source -- cargo bench vector_ops 2> lit.err | perl "$FLAMEGRAPH" > flame.svg 2> fg.err
	has lit.err "renacer: hint: standard output is a pipe and got the command's output, not the folded stacks flamegraph.pl reads; add --flamegraph - to send the stacks there"
	has lit.err "renacer: hint: the command started 1 process or thread that was not traced, so its calls are not in the profile; -f follows them"
	# the working form: stacks on stdout, the benchmark (cargo's child) followed
	renacer -f --function-time --source --flamegraph - -- cargo bench vector_ops 2> fg.err |
		perl "$FLAMEGRAPH" > flame.svg 2>> fg.err
	hasnt fg.err "hint:"
	hasnt fg.err "Ignored"
	has fg.err "test result: ok"
	for f in main say work "[write]" "[mmap]" "[wait4]"; do
		grep -qF "<title>$f (" flame.svg || { grep -o '<title>[^<]*' flame.svg; fail "flame.svg has no frame $f"; }
	done
}

for step in capture_script summary json_redirect json_missing diff_lengths gpu_filter assert summary_timing \
	    text_redirect other_seeds source otlp prerelease function_time capture_source; do
	"step_$step"
	echo "ok $step"
done
echo ok
