#!/bin/sh
# make bench: renacer's overhead measured side by side with strace and the
# untraced run, in one run, on a syscall-heavy program and a realistic one.
# Each configuration runs RUNS times, interleaved; the median wall time is
# reported with its ratio to the untraced run and to strace in the same mode.
# The -e trace=openat rows also show the seccomp floor: the command under an
# allow-all seccomp filter with no tracer, what the kernel charges every
# syscall of a filtered task; then that mode alone on longer syscall-heavy
# runs (dd with 64-byte blocks, LONG getppid calls), where start-up is <1%.
# PIN=1 (default) pins everything to CPU 0 (tracer and tracee on one CPU,
# see FACTS.md); PIN=0 lets the scheduler place them.  Then the memory
# check: 10 million syscalls in jsonl and summary mode, peak RSS of renacer.
# The -c rows here are the ptrace back end's (--backend ptrace); the eBPF
# back end has its own table, scripts/bench_ebpf.sh, run at the end.
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
ENGINE="$TOP/$BUILD/progs/engine"
FLOOR="$TOP/$BUILD/progs/seccomp_floor"
RUNS=${RUNS:-7}
LOOP=${LOOP:-500000}
LONG=${LONG:-4000000}
DD=${DD:-200000}
BIG=${BIG:-10000000}
PIN=${PIN:-1}
export LC_ALL=C LANG=C
T=$(mktemp -d "${TMPDIR:-/tmp}/renacer-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
pin=""
[ "$PIN" = 1 ] && pin="taskset -c 0"


# median wall seconds of RUNS runs of a command
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

run_cfg() { # name cmd...: appends one timing to $T/times.<name>
	name=$1; shift
	s=$(now)
	$pin "$@" > /dev/null 2>&1 < /dev/null
	e=$(now)
	echo "$s $e" | awk '{printf "%.6f\n", $2 - $1}' >> "$T/times.$name"
}

ratio() { echo "$1 $2" | awk '{printf "%.2f", $1/$2}'; }
med() { median < "$T/times.$1"; }

# The openat mode's rows: the kernel's floor for any seccomp filter (the
# command under an allow-all filter, no tracer), strace with its default
# (every call stops; only when $1 is "all") and with --seccomp-bpf, and
# renacer, whose filter is on by default.  "x strace" is against strace's
# default where it ran, else against strace --seccomp-bpf.
openat_rows() { # all|bpf untraced-median
	u=$2
	fl=$(med floor)
	printf '%-24s %10.4f %12s %12s\n' "seccomp floor" "$fl" "$(ratio "$fl" "$u")" -
	sb=$(med strace_openat_bpf)
	if [ "$1" = all ]; then
		s=$(med strace_openat)
		printf '%-24s %10.4f %12s %12s\n' "strace (openat)" "$s" "$(ratio "$s" "$u")" 1.00
		printf '%-24s %10.4f %12s %12s\n' "strace --seccomp-bpf" "$sb" "$(ratio "$sb" "$u")" \
			"$(ratio "$sb" "$s")"
	else
		s=$sb
		printf '%-24s %10.4f %12s %12s\n' "strace --seccomp-bpf" "$sb" "$(ratio "$sb" "$u")" 1.00
	fi
	r=$(med renacer_openat)
	printf '%-24s %10.4f %12s %12s   (%s x floor)\n' "renacer (openat)" "$r" \
		"$(ratio "$r" "$u")" "$(ratio "$r" "$s")" "$(ratio "$r" "$fl")"
}

run_openat_cfgs() { # all|bpf cmd...
	which=$1; shift
	run_cfg floor "$FLOOR" "$@"
	[ "$which" = all ] && run_cfg strace_openat strace -f -e trace=openat -o "$T/s.o" "$@"
	run_cfg strace_openat_bpf strace -f --seccomp-bpf -e trace=openat -o "$T/s.o" "$@"
	run_cfg renacer_openat "$R" -f -e trace=openat -o "$T/r.o" "$@"
}

bench_prog() { # label cmd...
	label=$1; shift
	rm -f "$T"/times.*
	i=0
	while [ $i -lt "$RUNS" ]; do
		run_cfg untraced "$@"
		run_cfg strace_c strace -f -c -o "$T/s.c" "$@"
		run_cfg renacer_c "$R" --backend ptrace -f -c -o "$T/r.c" "$@"
		run_cfg strace_text strace -f -o "$T/s.txt" "$@"
		run_cfg renacer_text "$R" -f -o "$T/r.txt" "$@"
		run_cfg renacer_jsonl "$R" -f --format jsonl -o "$T/r.jsonl" "$@"
		run_openat_cfgs all "$@"
		i=$((i + 1))
	done
	u=$(med untraced)
	echo
	echo "== $label (median of $RUNS, $( [ "$PIN" = 1 ] && echo "pinned to CPU 0" || echo unpinned))"
	printf '%-24s %10s %12s %12s\n' mode seconds "x untraced" "x strace"
	printf '%-24s %10.4f %12s %12s\n' untraced "$u" 1.00 -
	for m in c text jsonl; do
		s=$(med "strace_$( [ $m = jsonl ] && echo text || echo $m)")
		r=$(med "renacer_$m")
		[ $m != jsonl ] && printf '%-24s %10.4f %12s %12s\n' "strace ($m)" "$s" \
			"$(ratio "$s" "$u")" 1.00
		printf '%-24s %10.4f %12s %12s\n' "renacer ($m)" "$r" "$(ratio "$r" "$u")" \
			"$(ratio "$r" "$s")"
	done
	openat_rows all "$u"
}

# -e trace=openat alone on a longer loop, so that the fixed start-up of a
# traced run (a second exec, the fork and seize handshake) is under 1%
# and what is left is the per-syscall price of the filter.
bench_filter() { # label cmd...
	label=$1; shift
	rm -f "$T"/times.*
	i=0
	while [ $i -lt "$RUNS" ]; do
		run_cfg untraced "$@"
		run_openat_cfgs bpf "$@"
		i=$((i + 1))
	done
	u=$(med untraced)
	echo
	echo "== $label, -e trace=openat only (median of $RUNS)"
	printf '%-24s %10s %12s %12s\n' mode seconds "x untraced" "x strace"
	printf '%-24s %10.4f %12s %12s\n' untraced "$u" 1.00 -
	openat_rows bpf "$u"
}

[ -x "$R" ] && [ -x "$ENGINE" ] && [ -x "$FLOOR" ] || { echo "build first: make all progs" >&2; exit 1; }
echo "renacer $("$R" --version | cut -d' ' -f2) vs $(strace -V | head -n 1); $(nproc) CPUs; kernel $(uname -r)"
echo "(jsonl is compared with strace's full text output)"
bench_prog "syscall-heavy: dd bs=64 count=$DD (2 syscalls a block)" \
	dd if=/dev/zero of=/dev/null bs=64 count="$DD"
bench_prog "syscall-heavy, cheapest call: $LOOP getppid calls" "$ENGINE" loop "$LOOP"
bench_filter "syscall-heavy: dd bs=64 count=$((DD * 5))" dd if=/dev/zero of=/dev/null bs=64 count=$((DD * 5))
bench_filter "syscall-heavy, cheapest call: $LONG getppid calls" "$ENGINE" loop "$LONG"
bench_prog "realistic: gcc -O2 -c src/sink/render.c" gcc -std=gnu11 -O2 -D_GNU_SOURCE \
	-I"$TOP/src" -I"$TOP/src/arch/$(uname -m)" -I"$TOP/$BUILD/gen" -c "$TOP/src/sink/render.c" -o "$T/r.o"
bench_prog "realistic: tar of /usr/include/linux" tar -cf "$T/x.tar" -C /usr/include linux

echo
echo "== memory: $BIG syscalls (peak RSS of renacer, limit 20 MB)"
for mode in "-c" "--format jsonl"; do
	$pin /usr/bin/time -f %M -o "$T/rss" "$R" --backend ptrace $mode -o "$T/big.out" "$ENGINE" loop "$BIG" > /dev/null 2>&1
	kb=$(tail -n 1 "$T/rss")
	printf '%-18s %8d KB  %s\n' "$mode" "$kb" "$( [ "$kb" -lt 20480 ] && echo ok || echo OVER)"
done
[ -x "$TOP/scripts/bench_golden.sh" ] && BUILD=$BUILD sh "$TOP/scripts/bench_golden.sh"
# the -c rows above are the ptrace back end's; the eBPF back end's table
BUILD=$BUILD sh "$TOP/scripts/bench_ebpf.sh"
# OpenTelemetry export: 100,000 spans, added time and peak RSS (bench_otlp.sh)
BUILD=$BUILD PIN=$PIN sh "$TOP/scripts/bench_otlp.sh"
# source correlation: -s and -k against the plain traced run (bench_source.sh)
BUILD=$BUILD PIN=$PIN sh "$TOP/scripts/bench_source.sh"
exit 0
