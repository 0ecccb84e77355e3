#!/bin/sh
# Memory of capture and validate stays flat with the length of the trace:
# renacer's peak RSS for `capture --runs 1` and `validate --runs 1` of a
# program making 50,000 and 250,000 calls (four call sites) differs by
# less than 4 MB, and stays under 100 MB.  The golden model keeps
# limits.sequence_calls calls one by one (lowered here to 20,000 so that
# both sizes go past it) and aggregates the rest; the golden is streamed
# to disk.  Before, 1,000,000 calls took 455 MB (capture) and 89 MB
# (validate), growing linearly.  The counts stay exact: a changed count
# past the kept calls is still found.
# test: slow
set -u
[ -x "$RENACER" ] || { echo "no $RENACER"; exit 77; }
[ -x "$PROGS/manycalls" ] || { echo "no $PROGS/manycalls"; exit 77; }
[ -x /usr/bin/time ] || { echo "no /usr/bin/time"; exit 77; }
small=50000 big=250000
export RENACER_LIMITS=sequence_calls=20000
fail=0
cd "$TMPDIR" || exit 1
printf '[golden_traces]\ntiming_runs = 2\n' > renacer.toml

rss() { # label args...: peak RSS of renacer in KB
	label=$1; shift
	/usr/bin/time -f %M -o rss "$RENACER" "$@" > out 2> err ||
		{ echo "renacer $* failed:"; cat out err; fail=1; }
	tail -n 1 rss
}

for n in $small $big; do
	c=$(rss capture capture --dir g$n --runs 1 m -- "$PROGS/manycalls" $n)
	grep -q "^✅ Captured" out || { echo "capture $n:"; cat out err; fail=1; }
	v=$(rss validate validate --dir g$n --runs 1 m)
	grep -q "^✅ m: equivalent" out || { echo "validate $n:"; cat out err; fail=1; }
	grep -q "the order of calls is compared over the first 20000 calls" out ||
		{ echo "validate $n: no note on the calls not kept in order"; cat out; fail=1; }
	echo "$n calls: capture ${c} KB, validate ${v} KB"
	eval "cap_$n=$c val_$n=$v"
done
for what in cap val; do
	eval "a=\$${what}_$small b=\$${what}_$big"
	if [ "$b" -gt 102400 ]; then
		echo "$what: peak RSS ${b} KB at $big calls is over 100 MB"; fail=1
	fi
	if [ $((b - a)) -gt 4096 ]; then
		echo "$what: RSS grew by $((b - a)) KB for $((big - small)) more calls"; fail=1
	fi
done

# a count that changes after the kept calls is still a regression
"$RENACER" validate --runs 1 --golden g$small/m.json -- "$PROGS/manycalls" $((small * 3 / 2)) \
	> out 2> err
st=$?
if [ $st -eq 0 ] || ! grep -q "getppid: $((small / 4)) -> $((small * 3 / 8)) calls" out; then
	echo "validate of $((small * 3 / 2)) calls against $small (exit $st): no count regression"
	cat out err; fail=1
fi
exit $fail
