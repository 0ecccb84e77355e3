#!/bin/sh
# make bench: renacer's overhead, side by side in one run with strace and
# the untraced command (docs/benchmarks.md says how to read it).
#
# 1. ptrace overhead and CPU placement.  For each program, in -c and in
#    full-text mode: strace as it comes (the scheduler's placement), strace
#    pinned to one CPU (taskset -c 0: tracer and tracee share it), renacer
#    as it comes (its default co-location) and renacer --no-pin (to show
#    what co-location buys).  Nothing else is pinned.  Programs: syscall
#    storms (dd with 1-byte blocks; the cheapest call in a loop), find over
#    /usr/share, a 4-thread worker pool, make -j2 of a small C project.
# 2. Filtered runs (a seccomp filter stops only the selected calls:
#    -f -e trace=%process, and -f -e trace=openat) against the untraced run
#    and the seccomp floor (the command under an allow-all filter and no
#    tracer) on real programs, a multi-threaded one included; strace
#    --seccomp-bpf -e trace=openat beside them.
# 3. Memory: peak RSS of renacer on 10 million syscalls.
# 4. The golden compare, eBPF, OTLP, source and start-up benchmarks (their
#    own scripts), and the golden verdict's rates (scripts/verdict.sh, a
#    shorter run than make verdict's; VERDICT_ARGS=skip leaves it out).
# Each configuration runs RUNS times, interleaved; the median wall time is
# shown with its ratios.  The -c rows are the ptrace back end's (--backend
# ptrace); the eBPF back end has its own table (scripts/bench_ebpf.sh).
# Knobs: RUNS, DD, LOOP, JOBS, BIG, STARTUP_RUNS, VERDICT_ARGS; RENACER_PIN=tracer in the environment
# runs renacer with its "renacer moves, the tracee never" variant instead
# (docs/architecture.md, CPU placement).
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
ENGINE="$TOP/$BUILD/progs/engine"
POOL="$TOP/$BUILD/progs/pool"
FLOOR="$TOP/$BUILD/progs/seccomp_floor"
RUNS=${RUNS:-5}
DD=${DD:-20000}
LOOP=${LOOP:-20000}
JOBS=${JOBS:-5000}
BIG=${BIG:-10000000}
export LC_ALL=C LANG=C
T=$(mktemp -d "${TMPDIR:-/tmp}/renacer-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1/$2}'; }
med() { median < "$T/times.$1"; }

run_cfg() { # name cmd...: appends one wall time to $T/times.<name>
	name=$1; shift
	s=$(now)
	"$@" > /dev/null 2>&1 < /dev/null
	e=$(now)
	echo "$s $e" | awk '{printf "%.6f\n", $2 - $1}' >> "$T/times.$name"
}

# A small C project for make -j2: 8 files of arithmetic, built from scratch
# (-B) at each run.
make_project() {
	mkdir -p "$T/proj"
	i=0
	while [ $i -lt 8 ]; do
		{
			echo "int f$i(int x);"
			j=0
			while [ $j -lt 40 ]; do
				echo "static int g${i}_$j(int x) { int s = 0; for (int k = 0; k < x; k++) s += k * $j ^ (s >> 3); return s; }"
				j=$((j + 1))
			done
			printf 'int f%d(int x) { return 0' "$i"
			j=0
			while [ $j -lt 40 ]; do printf ' + g%d_%d(x)' "$i" "$j"; j=$((j + 1)); done
			echo '; }'
		} > "$T/proj/f$i.c"
		i=$((i + 1))
	done
	{
		printf 'int f0(int);\nint main(void) { return f0(3) & 1; }\n'
	} > "$T/proj/main.c"
	{
		echo 'OBJS = main.o f0.o f1.o f2.o f3.o f4.o f5.o f6.o f7.o'
		echo 'prog: $(OBJS)'
		printf '\tgcc -o $@ $(OBJS)\n'
		echo '%.o: %.c'
		printf '\tgcc -O2 -c -o $@ $<\n'
	} > "$T/proj/Makefile"
}

# section 1: label cmd...
bench_place() {
	label=$1; shift
	rm -f "$T"/times.*
	i=0
	while [ $i -lt "$RUNS" ]; do
		run_cfg untraced "$@"
		run_cfg strace_c strace -f -c -o "$T/s.c" "$@"
		run_cfg strace_c_pin taskset -c 0 strace -f -c -o "$T/s.c" "$@"
		run_cfg renacer_c "$R" --backend ptrace -f -c -o "$T/r.c" "$@"
		run_cfg renacer_c_nopin "$R" --backend ptrace --no-pin -f -c -o "$T/r.c" "$@"
		run_cfg strace_text strace -f -o "$T/s.txt" "$@"
		run_cfg strace_text_pin taskset -c 0 strace -f -o "$T/s.txt" "$@"
		run_cfg renacer_text "$R" -f -o "$T/r.txt" "$@"
		run_cfg renacer_text_nopin "$R" --no-pin -f -o "$T/r.txt" "$@"
		i=$((i + 1))
	done
	u=$(med untraced)
	echo
	echo "== $label (median of $RUNS; nothing pinned unless said)"
	printf '%-28s %10s %10s %10s %10s\n' mode seconds "x untr." "x strace" "x pinned"
	printf '%-28s %10.4f %10s\n' untraced "$u" 1.00
	for m in c text; do
		s=$(med strace_$m) sp=$(med strace_${m}_pin)
		printf '%-28s %10.4f %10s\n' "strace ($m)" "$s" "$(ratio "$s" "$u")"
		printf '%-28s %10.4f %10s\n' "strace ($m), taskset -c 0" "$sp" "$(ratio "$sp" "$u")"
		for v in "" _nopin; do
			r=$(med renacer_$m$v)
			printf '%-28s %10.4f %10s %10s %10s\n' \
				"renacer ($m)$( [ -n "$v" ] && echo ", --no-pin")" "$r" \
				"$(ratio "$r" "$u")" "$(ratio "$r" "$s")" "$(ratio "$r" "$sp")"
		done
	done
}

# section 2: label cmd...
bench_filter() {
	label=$1; shift
	rm -f "$T"/times.*
	i=0
	while [ $i -lt "$RUNS" ]; do
		run_cfg untraced "$@"
		run_cfg floor "$FLOOR" "$@"
		run_cfg renacer_p "$R" -f -e trace=%process -o "$T/r.o" "$@"
		run_cfg renacer "$R" -f -e trace=openat -o "$T/r.o" "$@"
		run_cfg strace_bpf strace -f --seccomp-bpf -e trace=openat -o "$T/s.o" "$@"
		i=$((i + 1))
	done
	u=$(med untraced) fl=$(med floor) rp=$(med renacer_p) r=$(med renacer) sb=$(med strace_bpf)
	printf '%-32s %8.4f %5s %8.4f %5s %8.4f %5s %8.4f %5s\n' "$label" "$u" \
		"$(ratio "$fl" "$u")" "$rp" "$(ratio "$rp" "$u")" "$r" "$(ratio "$r" "$u")" \
		"$sb" "$(ratio "$sb" "$u")"
}

[ -x "$R" ] && [ -x "$ENGINE" ] && [ -x "$POOL" ] && [ -x "$FLOOR" ] ||
	{ echo "build first: make all progs" >&2; exit 1; }
make_project
echo "renacer $("$R" --version | cut -d' ' -f2) vs $(strace -V | head -n 1); $(nproc) CPUs; kernel $(uname -r); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(x strace: against strace in the same mode as it comes; x pinned: against strace under taskset -c 0)"
[ "${RENACER_PIN:-}" = tracer ] && echo "(RENACER_PIN=tracer: renacer moves to the tracee's CPU, the tracee is never pinned)"
bench_place "syscall storm: dd if=/dev/zero of=/dev/null bs=1 count=$DD" \
	dd if=/dev/zero of=/dev/null bs=1 count="$DD"
bench_place "syscall storm, cheapest call: $LOOP getppid calls" "$ENGINE" loop "$LOOP"
bench_place "find /usr/share -name '*.txt'" find /usr/share -name '*.txt'
bench_place "4-thread worker pool, $JOBS jobs" "$POOL" 4 "$JOBS"
bench_place "make -j2 of 9 C files" make -s -B -j2 -C "$T/proj"

echo
echo "== filtered runs (median of $RUNS; seconds, and x untraced after each)"
echo "   floor: no tracer, an allow-all filter; then renacer -f -e trace=%process,"
echo "   renacer -f -e trace=openat, strace -f --seccomp-bpf -e trace=openat"
printf '%-32s %8s %5s %8s %5s %8s %5s %8s %5s\n' program untraced floor "%proc" x openat x strace x
bench_filter "find /usr/share -name '*.txt'" find /usr/share -name '*.txt'
bench_filter "gcc -O2 -c src/sink/render.c" gcc -std=gnu11 -O2 -D_GNU_SOURCE \
	-I"$TOP/src" -I"$TOP/src/arch/$(uname -m)" -I"$TOP/$BUILD/gen" -c "$TOP/src/sink/render.c" -o "$T/r.o"
bench_filter "4-thread worker pool, $JOBS jobs" "$POOL" 4 "$JOBS"
bench_filter "make -j2 of 9 C files" make -s -B -j2 -C "$T/proj"
bench_filter "tar of /usr/include/linux" tar -cf "$T/x.tar" -C /usr/include linux

echo
echo "== memory: $BIG syscalls (peak RSS of renacer, limit 20 MB)"
for mode in "-c" "--format jsonl"; do
	/usr/bin/time -f %M -o "$T/rss" "$R" --backend ptrace $mode -o "$T/big.out" "$ENGINE" loop "$BIG" > /dev/null 2>&1
	kb=$(tail -n 1 "$T/rss")
	printf '%-18s %8d KB  %s\n' "$mode" "$kb" "$( [ "$kb" -lt 20480 ] && echo ok || echo OVER)"
done
[ -x "$TOP/scripts/bench_golden.sh" ] && BUILD=$BUILD sh "$TOP/scripts/bench_golden.sh"
# the -c rows above are the ptrace back end's; the eBPF back end's table
BUILD=$BUILD sh "$TOP/scripts/bench_ebpf.sh"
# OpenTelemetry export: 100,000 spans, added time and peak RSS (bench_otlp.sh)
BUILD=$BUILD PIN=${PIN:-1} sh "$TOP/scripts/bench_otlp.sh"
# source correlation: -s and -k against the plain traced run (bench_source.sh)
BUILD=$BUILD PIN=${PIN:-1} sh "$TOP/scripts/bench_source.sh"
# start-up: renacer around /bin/true per kind of run, short real programs
BUILD=$BUILD RUNS=${STARTUP_RUNS:-30} sh "$TOP/scripts/bench_startup.sh"
# the golden verdict as a classifier, a shorter run (make verdict: the full one)
if [ "${VERDICT_ARGS:-}" != skip ]; then
	va=${VERDICT_ARGS:---reps 1 --unchanged 100}
	echo
	echo "== golden verdict (scripts/verdict.sh $va; make verdict for the full run)"
	BUILD=$BUILD sh "$TOP/scripts/verdict.sh" $va 2> /dev/null | sed -n '/^recall/,$p'
fi
exit 0
