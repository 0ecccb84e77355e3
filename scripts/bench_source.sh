#!/bin/sh
# make bench, source correlation: what -s (and -k) add to a traced run,
# against the plain traced run of the same command (docs/benchmarks.md).
# Limits (issue 10): a syscall-heavy run at most 2x, a gcc compile at most
# 1.3x.  RUNS runs of each configuration, interleaved; medians.  PIN=1
# (default) pins tracer and tracee to CPU 0.  RENACER_DWARF_STATS prints
# the unwinder's own counters once per command at the end.
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
ENGINE="$TOP/$BUILD/progs/engine"
RUNS=${RUNS:-5}
LOOP=${LOOP:-200000}
DD=${DD:-100000}
PIN=${PIN:-1}
export LC_ALL=C LANG=C
T=$(mktemp -d "${TMPDIR:-/tmp}/renacer-bench-src.XXXXXX")
trap 'rm -rf "$T"' EXIT
pin=""
[ "$PIN" = 1 ] && pin="taskset -c 0"

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# wall seconds into times.NAME, CPU seconds (user + system of renacer and
# the command together, steadier than wall time on a loaded machine) into cpu.NAME
run_cfg() { # name cmd...
	name=$1; shift
	s=$(now)
	$pin /usr/bin/time -f '%U %S' -o "$T/rusage" "$@" >/dev/null 2>&1 </dev/null
	e=$(now)
	echo "$s $e" | awk '{printf "%.6f\n", $2 - $1}' >>"$T/times.$name"
	tail -n 1 "$T/rusage" | awk '{printf "%.6f\n", $1 + $2}' >>"$T/cpu.$name"
}
med() { median <"$T/times.$1"; }
medcpu() { median <"$T/cpu.$1"; }
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1/$2}'; }

bench() { # label limit cmd...
	label=$1 limit=$2
	shift 2
	rm -f "$T"/times.* "$T"/cpu.*
	i=0
	while [ $i -lt "$RUNS" ]; do
		run_cfg untraced "$@"
		run_cfg plain "$R" -f -o "$T/p.txt" "$@"
		run_cfg source "$R" -f -s -o "$T/s.txt" "$@"
		run_cfg stack "$R" -f -k -o "$T/k.txt" "$@"
		i=$((i + 1))
	done
	p=$(med plain)
	s=$(med source)
	pc=$(medcpu plain)
	echo
	echo "== $label (median of $RUNS, $( [ "$PIN" = 1 ] && echo "pinned to CPU 0" || echo unpinned))"
	printf '%-16s %9s %9s %9s %9s\n' mode "wall s" "x traced" "CPU s" "x traced"
	for m in untraced plain source stack; do
		case $m in
		untraced) label=untraced ;;
		plain) label="traced (text)" ;;
		source) label="-s" ;;
		stack) label="-k" ;;
		esac
		printf '%-16s %9.4f %9s %9.4f %9s' "$label" "$(med $m)" "$(ratio "$(med $m)" "$p")" \
			"$(medcpu $m)" "$(ratio "$(medcpu $m)" "$pc")"
		[ $m = source ] && printf '   (limit %sx: %s)' "$limit" \
			"$(echo "$s $p $limit" | awk '{print ($1 / $2 <= $3) ? "ok" : "OVER"}')"
		echo
	done
	RENACER_DWARF_STATS=1 $pin "$R" -f -s -o "$T/s.txt" "$@" 2>&1 >/dev/null </dev/null |
		grep '^renacer: dwarf:' | sed 's/^renacer: dwarf:/  -s unwinder:/'
}

[ -x "$R" ] && [ -x "$ENGINE" ] || { echo "build first: make all progs" >&2; exit 1; }
echo
echo "=== source correlation (-s, -k) against the plain traced run"
bench "syscall-heavy: $LOOP getppid calls" 2 "$ENGINE" loop "$LOOP"
bench "syscall-heavy: dd bs=64 count=$DD" 2 dd if=/dev/zero of=/dev/null bs=64 count="$DD"
bench "realistic: gcc -O2 -c src/sink/render.c" 1.3 gcc -std=gnu11 -O2 -D_GNU_SOURCE \
	-I"$TOP/src" -I"$TOP/src/arch/$(uname -m)" -I"$TOP/$BUILD/gen" -c "$TOP/src/sink/render.c" -o "$T/r.o"
exit 0
