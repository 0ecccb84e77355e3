#!/bin/sh
# Memory stays flat while tracing: renacer's peak RSS with --format jsonl,
# --format json and -c is under 20 MB, and 10x more syscalls add less than
# 2 MB.  (make bench runs the 10-million-syscall version.)
# test: slow
set -u
[ -x "$RENACER" ] || { echo "no $RENACER"; exit 77; }
[ -x "$PROGS/engine" ] || { echo "no $PROGS/engine"; exit 77; }
[ -x /usr/bin/time ] || { echo "no /usr/bin/time"; exit 77; }
small=20000 big=200000
fail=0

rss() { # n mode-args...: peak RSS of renacer in KB
	n=$1; shift
	/usr/bin/time -f %M -o "$TMPDIR/rss" "$RENACER" "$@" -- "$PROGS/engine" loop "$n" \
		> /dev/null 2> "$TMPDIR/err" || { echo "renacer $* failed:"; cat "$TMPDIR/err"; }
	tail -n 1 "$TMPDIR/rss"
}

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
	echo "$mode: $small calls: ${a} KB, $big calls: ${b} KB ($got getppid seen)"
	if [ "$got" != "$big" ]; then
		echo "$mode: expected $big getppid calls in the output"; fail=1
	fi
	if [ "$b" -gt 20480 ]; then
		echo "$mode: peak RSS ${b} KB is over 20 MB"; fail=1
	fi
	if [ $((b - a)) -gt 2048 ]; then
		echo "$mode: RSS grew by $((b - a)) KB for $((big - small)) more syscalls"; fail=1
	fi
done
exit $fail
