#!/bin/sh
# Memory stays flat while tracing: renacer's peak RSS with --format jsonl,
# --format json and -c is under 20 MB, and 10x more syscalls add less than
# 2 MB, under each engine: ptrace, and the eBPF recorder where it runs
# (its 8 MiB ring buffer, mapped twice, counts 16 MiB more of RSS once the
# reader has gone round it).  (make bench runs the 10-million-syscall
# version.)
# test: slow
set -u
[ -x "$RENACER" ] || { echo "no $RENACER"; exit 77; }
[ -x "$PROGS/engine" ] || { echo "no $PROGS/engine"; exit 77; }
[ -x /usr/bin/time ] || { echo "no /usr/bin/time"; exit 77; }
small=20000 big=200000
fail=0

rss() { # n mode-args...: peak RSS of renacer in KB
	n=$1; shift
	/usr/bin/time -f %M -o "$TMPDIR/rss" "$RENACER" --backend $engine "$@" -- "$PROGS/engine" loop "$n" \
		> /dev/null 2> "$TMPDIR/err" || { echo "renacer $* failed:"; cat "$TMPDIR/err"; }
	tail -n 1 "$TMPDIR/rss"
}

engines=ptrace
"$RENACER" --backend ebpf -o /dev/null true 2> /dev/null && engines="ptrace ebpf"
for engine in $engines; do
limit=20480
[ $engine = ebpf ] && limit=$((20480 + 16384))
for mode in jsonl json summary; do
	case $mode in
	summary) args="-c -o $TMPDIR/out" ;;
	*) args="--format $mode -o $TMPDIR/out" ;;
	esac
	a=$(rss $small $args)
	b=$(rss $big $args)
	case $mode in
	jsonl) got=$(grep -c '"name": "getppid"' "$TMPDIR/out") ;;
	json) got=$(grep -c '"name": "getppid"' "$TMPDIR/out") ;;
	summary) got=$(awk '$NF == "getppid" {print $4}' "$TMPDIR/out") ;;
	esac
	echo "$engine $mode: $small calls: ${a} KB, $big calls: ${b} KB ($got getppid seen)"
	if [ "$got" != "$big" ]; then
		echo "$engine $mode: expected $big getppid calls in the output"; fail=1
	fi
	if [ "$b" -gt $limit ]; then
		echo "$engine $mode: peak RSS ${b} KB is over $((limit / 1024)) MB"; fail=1
	fi
	if [ $((b - a)) -gt 2048 ]; then
		echo "$engine $mode: RSS grew by $((b - a)) KB for $((big - small)) more syscalls"; fail=1
	fi
done
done
exit $fail
