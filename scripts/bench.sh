#!/bin/sh
# make bench: renacer's overhead measured side by side with strace and the
# untraced run, in one run, on a syscall-heavy program and a realistic one.
# Each configuration runs RUNS times, interleaved; the median wall time is
# reported with its ratio to the untraced run and to strace in the same mode.
# PIN=1 (default) pins everything to CPU 0 (tracer and tracee on one CPU,
# see FACTS.md); PIN=0 lets the scheduler place them.  Then the memory
# check: 10 million syscalls in jsonl and summary mode, peak RSS of renacer.
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
ENGINE="$TOP/$BUILD/progs/engine"
RUNS=${RUNS:-7}
LOOP=${LOOP:-500000}
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

bench_prog() { # label cmd...
	label=$1; shift
	rm -f "$T"/times.*
	i=0
	while [ $i -lt "$RUNS" ]; do
		run_cfg untraced "$@"
		run_cfg strace_c strace -f -c -o "$T/s.c" "$@"
		run_cfg renacer_c "$R" -f -c -o "$T/r.c" "$@"
		run_cfg strace_text strace -f -o "$T/s.txt" "$@"
		run_cfg renacer_text "$R" -f -o "$T/r.txt" "$@"
		run_cfg renacer_jsonl "$R" -f --format jsonl -o "$T/r.jsonl" "$@"
		run_cfg strace_openat strace -f -e trace=openat -o "$T/s.o" "$@"
		run_cfg renacer_openat "$R" -f -e trace=openat -o "$T/r.o" "$@"
		i=$((i + 1))
	done
	u=$(median < "$T/times.untraced")
	echo
	echo "== $label (median of $RUNS, $( [ "$PIN" = 1 ] && echo "pinned to CPU 0" || echo unpinned))"
	printf '%-24s %10s %12s %12s\n' mode seconds "x untraced" "x strace"
	printf '%-24s %10.4f %12s %12s\n' untraced "$u" 1.00 -
	for m in c text jsonl openat; do
		s=$(median < "$T/times.strace_$( [ $m = jsonl ] && echo text || echo $m)")
		r=$(median < "$T/times.renacer_$m")
		[ $m != jsonl ] && printf '%-24s %10.4f %12.2f %12s\n' "strace ($m)" "$s" \
			"$(echo "$s $u" | awk '{print $1/$2}')" 1.00
		printf '%-24s %10.4f %12.2f %12.2f\n' "renacer ($m)" "$r" \
			"$(echo "$r $u" | awk '{print $1/$2}')" "$(echo "$r $s" | awk '{print $1/$2}')"
	done
}

[ -x "$R" ] && [ -x "$ENGINE" ] || { echo "build first: make all progs" >&2; exit 1; }
echo "renacer $("$R" --version | cut -d' ' -f2) vs $(strace -V | head -n 1); $(nproc) CPUs; kernel $(uname -r)"
echo "(jsonl is compared with strace's full text output)"
bench_prog "syscall-heavy: $LOOP getppid calls" "$ENGINE" loop "$LOOP"
bench_prog "realistic: gcc -O2 -c src/sink/render.c" gcc -std=gnu11 -O2 -D_GNU_SOURCE \
	-I"$TOP/src" -I"$TOP/src/arch/$(uname -m)" -I"$TOP/$BUILD/gen" -c "$TOP/src/sink/render.c" -o "$T/r.o"
bench_prog "realistic: tar of /usr/include/linux" tar -cf "$T/x.tar" -C /usr/include linux

echo
echo "== memory: $BIG syscalls (peak RSS of renacer, limit 20 MB)"
for mode in "-c" "--format jsonl"; do
	/usr/bin/time -f %M -o "$T/rss" "$R" $mode -o "$T/big.out" "$ENGINE" loop "$BIG" > /dev/null 2>&1
	kb=$(tail -n 1 "$T/rss")
	printf '%-18s %8d KB  %s\n' "$mode" "$kb" "$( [ "$kb" -lt 20480 ] && echo ok || echo OVER)"
done
[ -x "$TOP/scripts/bench_golden.sh" ] && BUILD=$BUILD sh "$TOP/scripts/bench_golden.sh"
exit 0
