#!/bin/sh
# Goldens recorded in the kernel (RENACER_BACKEND=ebpf) and under ptrace
# validate with each other, both ways, and a planted change is still found:
# in particular each process's peak RSS is the program's own high-water
# mark under both engines (the recorder once read the process's maxrss,
# which keeps the RSS of the child renacer forked before its execve:
# 19 MB against 1.3 MB, a memory regression on every cross-engine
# validation).
set -u
. "$TOP/tests/lib.sh"
cd "$TMPDIR" || exit 1
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
E="$PROGS/engine"
[ -x "$E" ] || { echo "no $E"; exit 77; }
"$RENACER" --backend ebpf -c -o /dev/null true 2> /dev/null ||
	{ echo "the eBPF recorder cannot run here (not root, or no BTF)"; exit 77; }

RENACER_BACKEND=ptrace "$RENACER" capture -q pt -- "$E" calls 300 > /dev/null 2>&1 || bad "capture pt"
RENACER_BACKEND=ebpf "$RENACER" capture -q bp -- "$E" calls 300 > /dev/null 2>&1 || bad "capture bp"

# the main process's peak RSS: the program's, under both engines
rss() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["processes"][0]["max_rss_kb"])' "$1"; }
p=$(rss golden_traces/pt.json) b=$(rss golden_traces/bp.json)
[ -n "$p" ] && [ -n "$b" ] && [ "$b" -gt 0 ] && [ "$b" -le $((p * 2)) ] && [ "$p" -le $((b * 2)) ] ||
	bad "peak RSS: ptrace ${p:-?} KB, eBPF ${b:-?} KB"

for i in 1 2 3; do
	RENACER_BACKEND=ebpf "$RENACER" validate --no-color --golden golden_traces/pt.json -- "$E" calls 300 \
		> v1.txt 2>&1 || bad "a ptrace golden validated in the kernel: $(cat v1.txt)"
	RENACER_BACKEND=ptrace "$RENACER" validate --no-color --golden golden_traces/bp.json -- "$E" calls 300 \
		> v2.txt 2>&1 || bad "a kernel golden validated under ptrace: $(cat v2.txt)"
done
# a planted change is found either way
RENACER_BACKEND=ebpf "$RENACER" validate --no-color --golden golden_traces/pt.json -- "$E" calls 330 \
	> v3.txt 2>&1
[ $? = 1 ] || bad "30 more calls against a ptrace golden, recorded in the kernel: not a regression: $(cat v3.txt)"
RENACER_BACKEND=ptrace "$RENACER" validate --no-color --golden golden_traces/bp.json -- "$E" calls 330 \
	> v4.txt 2>&1
[ $? = 1 ] || bad "30 more calls against a kernel golden, under ptrace: not a regression: $(cat v4.txt)"

[ $fails = 0 ] || exit 1
echo "ptrace ${p} KB, eBPF ${b} KB; cross-engine validations pass, planted changes found"
