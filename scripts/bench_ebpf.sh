#!/bin/sh
# make bench, eBPF part.  First the recording engine (full traces recorded
# in the kernel, issue 19): text and JSON traces, and renacer capture --runs
# 1, against the untraced run and the ptrace engine's, side by side; its
# start-up; its peak RSS and lost records on a storm of a million calls.
# Then the in-kernel summary (renacer --backend ebpf -c)
# against the untraced run, side by side in one run with renacer's ptrace
# back end (--backend ptrace -c) and strace -c, each unpinned (the
# scheduler's placement) and pinned to CPU 0: the fixed cost (true), a
# syscall storm (dd with 1-byte blocks) and real programs (find, git
# status, python3 -c pass, a gcc compile).  Then the storms alone, long
# enough (LONG calls) that start-up is under 2%, untraced against eBPF
# only (ptrace and strace would take minutes there).  Each configuration
# runs RUNS times, interleaved; the median wall time is shown with its
# ratio to the untraced run of the same placement.  Needs root and a kernel
# with BTF; elsewhere it says why and stops.
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
TREE="$TOP/$BUILD/progs/ebpf_tree"
RUNS=${RUNS:-5}
DD=${DD:-100000}
LONG=${LONG:-2000000}
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

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1/$2}'; }

# Runs a command and prints its wall time and the CPU time (user + system)
# of everything it ran, in seconds with microseconds: the CPU column is
# steadier than the wall clock on a busy machine.
cat > "$T/run.py" <<'PY'
import os, resource, subprocess, sys, time
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
t1 = time.monotonic()
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
print("%.6f %.6f" % (t1 - t0, cpu))
PY

run_cfg() { # name pin cmd...: appends "wall cpu" to $T/times.<name>
	name=$1 pin=$2; shift 2
	if [ "$pin" = 1 ]; then
		taskset -c 0 /usr/bin/python3 "$T/run.py" "$@" >> "$T/times.$name"
	else
		/usr/bin/python3 "$T/run.py" "$@" >> "$T/times.$name"
	fi
}
med() { cut -d' ' -f"$2" < "$T/times.$1" | median; }  # name column(1 wall, 2 cpu)

MODES="untraced ebpf ptrace strace"
mkdir -p "$T/gold"
bench() { # label cmd...
	label=$1; shift
	rm -f "$T"/times.*
	i=0
	while [ $i -lt "$RUNS" ]; do
		for p in 0 1; do
			for m in $MODES; do
				case $m in
				untraced) run_cfg "$m.$p" $p "$@" ;;
				ebpf) run_cfg "$m.$p" $p "$R" -f --backend ebpf -c -o "$T/e.c" "$@" ;;
				rec_text) run_cfg "$m.$p" $p "$R" -f --backend ebpf -o "$T/r.txt" "$@" ;;
				rec_json) run_cfg "$m.$p" $p "$R" -f --backend ebpf --format json -o "$T/r.json" "$@" ;;
				pt_text) run_cfg "$m.$p" $p "$R" -f --backend ptrace -o "$T/p.txt" "$@" ;;
				rec_capture) run_cfg "$m.$p" $p sh -c "cd '$T/gold' && rm -rf golden_traces && exec env -u CI RENACER_BACKEND=ebpf '$R' capture -q --runs 1 b -- \"\$@\"" sh "$@" ;;
				pt_capture) run_cfg "$m.$p" $p sh -c "cd '$T/gold' && rm -rf golden_traces && exec env -u CI RENACER_BACKEND=ptrace '$R' capture -q --runs 1 b -- \"\$@\"" sh "$@" ;;
				ptrace) run_cfg "$m.$p" $p "$R" -f --backend ptrace -c -o "$T/p.c" "$@" ;;
				strace) run_cfg "$m.$p" $p strace -f -c -o "$T/s.c" "$@" ;;
				esac
			done
		done
		i=$((i + 1))
	done
	echo
	echo "-- $label (median of $RUNS; wall seconds, and CPU seconds of all processes)"
	printf '%-20s %9s %7s %9s %7s %9s %7s %9s %7s\n' mode "unpinned" "x untr" \
		"cpu" "x untr" "pinned" "x untr" "cpu" "x untr"
	u0=$(med untraced.0 1) u1=$(med untraced.1 1)
	c0=$(med untraced.0 2) c1=$(med untraced.1 2)
	for m in $MODES; do
		a=$(med "$m.0" 1) b=$(med "$m.1" 1)
		ac=$(med "$m.0" 2) bc=$(med "$m.1" 2)
		case $m in
		untraced) name=untraced ;;
		rec_text) name="trace (ebpf)" ;;
		rec_json) name="json (ebpf)" ;;
		pt_text) name="trace (ptrace)" ;;
		rec_capture) name="capture (ebpf)" ;;
		pt_capture) name="capture (ptrace)" ;;
		ebpf) name="renacer -c (ebpf)" ;;
		ptrace) name="renacer -c (ptrace)" ;;
		strace) name="strace -c" ;;
		esac
		printf '%-20s %9.4f %7s %9.4f %7s %9.4f %7s %9.4f %7s\n' "$name" \
			"$a" "$(ratio "$a" "$u0")" "$ac" "$(ratio "$ac" "$c0")" \
			"$b" "$(ratio "$b" "$u1")" "$bc" "$(ratio "$bc" "$c1")"
	done
}

echo "renacer $("$R" --version | cut -d' ' -f2) vs $(strace -V | head -n 1); $(nproc) CPUs; kernel $(uname -r)"
echo "(every traced run follows children: -f; the ebpf rows include loading the program)"

echo
echo "== the recording engine: full traces recorded in the kernel (issue 19)"
echo "(targets: storm text/JSON <= 3x, find <= 1.5x, gcc <= 1.3x, capture <= 1.3x on find)"
MODES="untraced rec_text rec_json pt_text"
bench "record, fixed cost: true" true
bench "record, syscall storm: dd bs=1 count=$DD" dd if=/dev/zero of=/dev/null bs=1 count="$DD"
bench "record, real: find /usr/share -name '*.txt'" find /usr/share -name '*.txt'
bench "record, real: gcc -O2 -c src/sink/render.c" gcc -std=gnu11 -O2 -D_GNU_SOURCE \
	-I"$TOP/src" -I"$TOP/src/arch/$(uname -m)" -I"$TOP/$BUILD/gen" \
	-c "$TOP/src/sink/render.c" -o "$T/r.o"
MODES="untraced rec_capture pt_capture"
bench "record, renacer capture --runs 1: find /usr/share -name '*.txt'" find /usr/share -name '*.txt'
# start-up: renacer's CPU before and around a command that does nothing,
# and how long the program takes to load (RENACER_EBPF_STATS)
echo
echo "-- recording start-up (median of $RUNS): loading the program, CPU and wall"
i=0; rm -f "$T/load"
while [ $i -lt "$RUNS" ]; do
	RENACER_EBPF_STATS=1 "$R" --backend ebpf -o /dev/null true 2>&1 |
		sed -n 's/^renacer: eBPF: loaded in \([0-9.]*\) ms (CPU \([0-9.]*\) ms)/\1 \2/p' >> "$T/load"
	i=$((i + 1))
done
echo "load: wall $(cut -d' ' -f1 "$T/load" | median) ms, CPU $(cut -d' ' -f2 "$T/load" | median) ms"
# a million calls a second: peak RSS of renacer and lost records
echo
echo "-- recording a storm of $LONG getppid calls to a file: renacer's peak RSS, lost records"
for fmt in text json; do
	/usr/bin/python3 - "$R" "$fmt" "$TREE" "$LONG" "$T" <<'PY'
import resource, subprocess, sys, time
r, fmt, tree, n, t = sys.argv[1:]
args = [r, "--backend", "ebpf", "-o", t + "/storm." + fmt]
if fmt == "json":
    args += ["--format", "json"]
t0 = time.monotonic()
p = subprocess.run(args + [tree, "storm", n], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
wall = time.monotonic() - t0
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
lost = [l for l in p.stderr.decode().splitlines() if "lost" in l]
print("%-5s %d calls in %.2f s (%.2f M calls/s), peak RSS %.1f MB, %s" %
      (fmt, int(n), wall, int(n) / wall / 1e6, rss, lost[0] if lost else "no record lost"))
PY
done
# (EBPF_BENCH=record: the recording engine's part only)
[ "${EBPF_BENCH:-}" = record ] && exit 0
bench "fixed cost: true" true
bench "syscall storm: dd bs=1 count=$DD (2 syscalls a byte)" \
	dd if=/dev/zero of=/dev/null bs=1 count="$DD"
bench "real: find /usr/share -name '*.txt'" find /usr/share -name '*.txt'
if command -v git > /dev/null 2>&1 && git -C "$TOP" rev-parse > /dev/null 2>&1; then
	git -C "$TOP" status --short > /dev/null 2>&1   # the index is fresh for every run
	bench "real: git status (this repository)" git -C "$TOP" status --short
fi
bench "real: python3 -c pass" /usr/bin/python3 -c pass
bench "real: gcc -O2 -c src/sink/render.c" gcc -std=gnu11 -O2 -D_GNU_SOURCE \
	-I"$TOP/src" -I"$TOP/src/arch/$(uname -m)" -I"$TOP/$BUILD/gen" \
	-c "$TOP/src/sink/render.c" -o "$T/r.o"
MODES="untraced ebpf"
bench "long syscall storm: dd bs=1 count=$((LONG / 2)) ($LONG calls)" \
	dd if=/dev/zero of=/dev/null bs=1 count=$((LONG / 2))
bench "long syscall storm, the cheapest call: $LONG getppid calls" "$TREE" storm "$LONG"
exit 0
