#!/bin/sh
# make bench, eBPF part: the in-kernel summary (renacer --backend ebpf -c)
# against the untraced run, side by side in one run with renacer's ptrace
# back end (--backend ptrace -c) and strace -c, each unpinned (the
# scheduler's placement) and pinned to CPU 0.  Syscall storms (dd with
# 1-byte blocks, the cheapest call in a loop) and real programs (find, git
# status, python3 -c pass, a gcc compile).  Each configuration runs RUNS
# times, interleaved; the median wall time is shown with its ratio to the
# untraced run of the same placement.  Needs root and a kernel with BTF;
# elsewhere it says why and stops.
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
TREE="$TOP/$BUILD/progs/ebpf_tree"
RUNS=${RUNS:-5}
DD=${DD:-500000}
LOOP=${LOOP:-1000000}
export LC_ALL=C LANG=C
T=$(mktemp -d "${TMPDIR:-/tmp}/renacer-bench-ebpf.XXXXXX")
trap 'rm -rf "$T"' EXIT

[ -x "$R" ] && [ -x "$TREE" ] || { echo "build first: make all progs" >&2; exit 1; }
echo
echo "== eBPF back end: renacer --backend ebpf -c against the untraced run"
if ! "$R" --backend ebpf -c -o /dev/null true 2> "$T/why"; then
	echo "(skipped: $(cat "$T/why"))"
	exit 0
fi

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1/$2}'; }

run_cfg() { # name pin cmd...: appends one wall time to $T/times.<name>
	name=$1 pin=$2; shift 2
	s=$(now)
	if [ "$pin" = 1 ]; then
		taskset -c 0 "$@" > /dev/null 2>&1 < /dev/null
	else
		"$@" > /dev/null 2>&1 < /dev/null
	fi
	e=$(now)
	echo "$s $e" | awk '{printf "%.6f\n", $2 - $1}' >> "$T/times.$name"
}

bench() { # label cmd...
	label=$1; shift
	rm -f "$T"/times.*
	i=0
	while [ $i -lt "$RUNS" ]; do
		for p in 0 1; do
			run_cfg "untraced.$p" $p "$@"
			run_cfg "ebpf.$p" $p "$R" -f --backend ebpf -c -o "$T/e.c" "$@"
			run_cfg "ptrace.$p" $p "$R" -f --backend ptrace -c -o "$T/p.c" "$@"
			run_cfg "strace.$p" $p strace -f -c -o "$T/s.c" "$@"
		done
		i=$((i + 1))
	done
	echo
	echo "-- $label (median of $RUNS)"
	printf '%-22s %10s %10s %10s %10s\n' mode unpinned "x untr." pinned "x untr."
	u0=$(median < "$T/times.untraced.0") u1=$(median < "$T/times.untraced.1")
	for m in untraced ebpf ptrace strace; do
		a=$(median < "$T/times.$m.0") b=$(median < "$T/times.$m.1")
		case $m in
		untraced) name=untraced ;;
		ebpf) name="renacer -c (ebpf)" ;;
		ptrace) name="renacer -c (ptrace)" ;;
		strace) name="strace -c" ;;
		esac
		printf '%-22s %10.4f %10s %10.4f %10s\n' "$name" "$a" "$(ratio "$a" "$u0")" \
			"$b" "$(ratio "$b" "$u1")"
	done
}

echo "renacer $("$R" --version | cut -d' ' -f2) vs $(strace -V | head -n 1); $(nproc) CPUs; kernel $(uname -r)"
echo "(every traced run follows children: -f; the ebpf rows include loading the program)"
bench "fixed cost: true" true
bench "syscall storm: dd bs=1 count=$DD (2 syscalls a byte)" \
	dd if=/dev/zero of=/dev/null bs=1 count="$DD"
bench "syscall storm, cheapest call: $LOOP getppid calls" "$TREE" storm "$LOOP"
bench "real: find /usr/share -name '*.txt'" find /usr/share -name '*.txt'
if command -v git > /dev/null 2>&1 && git -C "$TOP" rev-parse > /dev/null 2>&1; then
	git -C "$TOP" status --short > /dev/null 2>&1   # the index is fresh for every run
	bench "real: git status (this repository)" git -C "$TOP" status --short
fi
bench "real: python3 -c pass" /usr/bin/python3 -c pass
bench "real: gcc -O2 -c src/sink/render.c" gcc -std=gnu11 -O2 -D_GNU_SOURCE \
	-I"$TOP/src" -I"$TOP/src/arch/$(uname -m)" -I"$TOP/$BUILD/gen" \
	-c "$TOP/src/sink/render.c" -o "$T/r.o"
exit 0
