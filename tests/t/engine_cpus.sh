#!/bin/sh
# CPU placement (issue 11, docs/architecture.md "CPU placement"):
# - the program never sees renacer's pin: what sched_getaffinity and
#   /proc/thread-self/status say in the process, a thread and a child is
#   what they say untraced, with -f or without, filtered or not, under
#   taskset, with --cpu;
# - while one task runs, it and renacer share one CPU (seen from outside);
#   with several running, at most one task is pinned and renacer is not;
# - --no-pin changes no mask; --cpu LIST confines renacer; renacer started
#   under taskset never leaves its CPUs; a contended CPU is given up.
# RENACER_PIN=always (a test knob) keeps co-location on under this shared
# machine's load, so that what the policy does is seen, not the back-off.
set -u
. "$TOP/tests/lib.sh"
# where the ptrace engine puts itself and its tracees (its stops are
# cross-CPU wake-ups): that engine, whatever RENACER_BACKEND asks of auto
export RENACER_BACKEND=ptrace
P=$(need_prog cpumask)
fail=0
bad() { echo "FAIL: $*"; fail=1; }

mine=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)

# the program's own view
want=$("$P" show)
[ -n "$want" ] || fail "cpumask show printed nothing"
for opts in "" "-f" "-f -e trace=openat" "-f --no-seccomp -e trace=write"; do
	got=$(RENACER_PIN=always "$RENACER" $opts -o /dev/null "$P" show)
	[ "$got" = "$want" ] || bad "renacer $opts: the program saw
$got
untraced:
$want"
done
# under a filter that leaves open/openat out, only sched_getaffinity is
# kept right (reading /proc/self/status is the documented exception)
got=$(RENACER_PIN=always "$RENACER" -f -e trace=write -o /dev/null "$P" show | grep affinity)
[ "$got" = "$(echo "$want" | grep affinity)" ] || bad "-f -e trace=write: the program saw $got"

# sample FILE PID...: appends "tid mask" for each live task of each pid
# (a task that has exited, whose tracer may be ending, is left out)
sample() {
	_out=$1
	shift
	for _p in "$@"; do
		for _s in /proc/"$_p"/task/*/status; do
			awk -v p="${_s%/status}" '/^State:/ { if ($2 == "Z" || $2 == "X") exit }
				/^Cpus_allowed_list:/ { n = split(p, a, "/"); print a[n], $2 }' \
				"$_s" 2>/dev/null
		done
	done >> "$_out"
	echo "--" >> "$_out"
}

# watch SECONDS OUT ARGS...: runs renacer ARGS (the command prints its pid
# first) and samples renacer's and the command's masks every 50 ms
watch() {
	_secs=$1 _out=$2
	shift 2
	: > "$_out"
	: > "$TMPDIR/pid"
	"$RENACER" "$@" > "$TMPDIR/pid" &
	_r=$!
	_i=0
	while [ ! -s "$TMPDIR/pid" ] && [ $_i -lt 200 ]; do sleep 0.01; _i=$((_i + 1)); done
	_t=$(head -n 1 "$TMPDIR/pid")
	sleep 0.1
	_i=0
	while [ $_i -lt $((_secs * 20)) ] && kill -0 "$_t" 2>/dev/null; do
		echo "renacer $(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/$_r/status 2>/dev/null)" >> "$_out"
		sample "$_out" "$_t"
		sleep 0.05
		_i=$((_i + 1))
	done
	wait $_r
}

ncpu=$(awk -v m="$mine" 'BEGIN { n = split(m, a, ","); c = 0
	for (i = 1; i <= n; i++) { if (split(a[i], b, "-") == 2) c += b[2] - b[1] + 1; else c++ }
	print c }')
if [ "$ncpu" -lt 2 ]; then
	echo "renacer may use one CPU only ($mine): placement has nothing to choose"
	exit $fail
fi
cpu1=$(awk -v m="$mine" 'BEGIN { split(m, a, "[,-]"); print a[1] }')

# one task: it and renacer on one and the same CPU
RENACER_PIN=always watch 1 "$TMPDIR/one" -f -o /dev/null "$P" busy 1 800
awk '/^renacer / { r = $2; next }
     /^--/ { if (r != "" && r !~ /[,-]/ && t == r) same++; n++; r = ""; t = ""; next }
     { t = $2 }
     END { exit !(same >= 1) }' "$TMPDIR/one" ||
	bad "one task: never on renacer's CPU: $(head -n 12 "$TMPDIR/one")"

# a program that opens a file or directory named "status" that is not in
# /proc (an icon theme has dozens) is still co-located: only /proc status
# files show the mask (find /usr/share ran 2.4x slower when any did)
mkdir -p "$TMPDIR/icons/status"
RENACER_PIN=always watch 1 "$TMPDIR/icons.out" -f -o /dev/null "$P" busy 1 800 "$TMPDIR/icons"
awk '/^renacer / { r = $2; next }
     /^--/ { if (r != "" && r !~ /[,-]/ && t == r) same++; n++; r = ""; t = ""; next }
     { t = $2 }
     END { exit !(same >= 1) }' "$TMPDIR/icons.out" ||
	bad "a directory named status: never co-located: $(head -n 12 "$TMPDIR/icons.out")"

# several tasks running: renacer not pinned at some point, never two pinned
RENACER_PIN=always watch 1 "$TMPDIR/many" -f -o /dev/null "$P" busy 3 800
awk -v mine="$mine" '/^renacer / { if ($2 == mine) free++; next }
     /^--/ { if (pinned > 1) two++; pinned = 0; next }
     { if ($2 != mine) pinned++ }
     END { exit !(free >= 1 && two == 0) }' "$TMPDIR/many" ||
	bad "three tasks: renacer pinned all along or two tasks pinned: $(head -n 20 "$TMPDIR/many")"

# --no-pin: nothing changes, ever
watch 1 "$TMPDIR/nopin" --no-pin -f -o /dev/null "$P" busy 1 600
awk -v mine="$mine" '/^--/ { next } { if ($2 != mine) bad++ } END { exit bad > 0 }' "$TMPDIR/nopin" ||
	bad "--no-pin: a mask changed: $(grep -v -e "$mine" -e '^--' "$TMPDIR/nopin" | head -n 5)"

# --cpu: renacer stays on it, and so does the one running task
RENACER_PIN=always watch 1 "$TMPDIR/cpu" --cpu "$cpu1" -f -o /dev/null "$P" busy 1 600
awk -v c="$cpu1" '/^renacer / { r = $2; live = 0; next }
     /^--/ { if (live && r != c) bad++; next }
     { live = 1; if ($2 == c) on++ }
     END { exit !(bad == 0 && on >= 1) }' "$TMPDIR/cpu" ||
	bad "--cpu $cpu1: renacer left it or the task never ran there: $(head -n 8 "$TMPDIR/cpu")"
got=$("$RENACER" --cpu "$cpu1" -f -o /dev/null "$P" show)
[ "$got" = "$want" ] || bad "--cpu $cpu1: the program saw $got"

# renacer under taskset: neither it nor the command ever leaves that CPU,
# and the command's mask is that CPU, as it would be untraced
: > "$TMPDIR/pid"
taskset -c "$cpu1" "$RENACER" -f -o /dev/null "$P" busy 1 600 > "$TMPDIR/pid" &
r=$!
i=0
while [ ! -s "$TMPDIR/pid" ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i + 1)); done
t=$(head -n 1 "$TMPDIR/pid")
sleep 0.2
rm=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/$r/status)
tm=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/$t/status)
wait $r
[ "$rm" = "$cpu1" ] && [ "$tm" = "$cpu1" ] || bad "taskset -c $cpu1: renacer on '$rm', the command on '$tm'"
got=$(taskset -c "$cpu1" "$RENACER" -f -o /dev/null "$P" show)
[ "$got" = "$(taskset -c "$cpu1" "$P" show)" ] || bad "taskset -c $cpu1: the program saw $got"
got=$("$RENACER" -f -o /dev/null taskset -c "$cpu1" "$P" show)
[ "$got" = "$(taskset -c "$cpu1" "$P" show)" ] || bad "renacer taskset -c $cpu1: the program saw $got"

# a busy CPU is given up: with a CPU hog on it, renacer (--cpu there)
# stops pinning the command within a second
taskset -c "$cpu1" sh -c 'while :; do :; done' &
hog=$!
watch 2 "$TMPDIR/busy" --cpu "$cpu1" -f -o /dev/null "$P" busy 1 1800
kill $hog
wait $hog 2>/dev/null
awk -v mine="$mine" '/^renacer / { next } /^--/ { n++; next } { if (n >= 12 && $2 == mine) free++ }
     END { exit !(free >= 1) }' "$TMPDIR/busy" ||
	bad "a contended CPU was kept: $(tail -n 8 "$TMPDIR/busy")"
exit $fail
