#!/bin/sh
# -e inject= and -e fault= against strace: the same trace ("(INJECTED)",
# "(INJECTED: args)", "(DELAYED)", injected signals) and, from the
# program's side (tests/progs/optprog inject prints what each call
# returned), the same results: an error, a return value, :when= ranges and
# steps, a pure syscall run instead, memory poked, a delay.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog optprog) || exit 1
rc=0
bad() { echo "FAIL: $*"; rc=1; }
calls=openat,getppid,fsync,read,write

# inject SPEC EXPECT...: the trace as strace's, the program's output as
# under strace, and each EXPECT line in it
inject() {
	spec=$1; shift
	compare_with_strace -e trace=$calls -e "$spec" -- "$prog" inject || rc=1
	_d=$(dirname "$RENACER_OUT")
	cmp -s "$_d/strace.stdout" "$_d/renacer.stdout" ||
		bad "$spec: the program printed '$(cat "$_d/renacer.stdout")' under renacer, '$(cat "$_d/strace.stdout")' under strace"
	for want in "$@"; do
		grep -qx "$want" "$_d/renacer.stdout" || bad "$spec: the program did not print '$want'"
	done
}

inject inject=openat:error=ENOENT:when=3 "open: No such file or directory"
inject inject=getppid:retval=42:when=2..3 "getppid 1: real" "getppid 2: 42" \
	"getppid 3: 42" "getppid 4: real"
inject inject=getppid:error=EPERM:when=2+2 "getppid 2: Operation not permitted" \
	"getppid 3: real" "getppid 4: Operation not permitted" "getppid 6: Operation not permitted"
inject inject=getppid:error=EIO:when=5+ "getppid 4: real" "getppid 5: Input/output error"
inject inject=getppid:error=13:when=1..6+3 "getppid 1: Permission denied" "getppid 2: real" \
	"getppid 4: Permission denied"
inject inject=getppid:syscall=getpid:error=EIO:when=1 "getppid 1: Input/output error"
inject fault=fsync "fsync: Function not implemented"
inject fault=fsync:error=EACCES "fsync: Permission denied"
inject inject=getppid:signal=SIGUSR1:when=4 "getppid 4: real"
inject inject=fsync:delay_exit=50ms:error=EIO "fsync: Input/output error"
grep -q '^fsync(3) *= -1 EIO (Input/output error) (INJECTED) (DELAYED)$' "$RENACER_OUT" ||
	bad "no '(INJECTED) (DELAYED)' mark: $(grep fsync "$RENACER_OUT")"
# poke_enter: the path of the fourth openat becomes "targe" (the program
# then fails to open what it created as "target")
inject inject=openat:poke_enter=@arg2=746172676500:when=4
grep -q '"targe".*(INJECTED: args)$' "$RENACER_OUT" || bad "poke_enter: $(grep targ "$RENACER_OUT")"

# a delay holds the task: -T shows it, and the run lasts at least as long
run_both -T -e trace=fsync -e inject=fsync:delay_enter=300ms -- "$prog" inject
line=$(grep '^fsync' "$RENACER_OUT")
case "$line" in
*"(DELAYED) <0.3"[0-9]*">"|*"(DELAYED) <0.4"[0-9]*">") ;;
*) bad "delay_enter=300ms: '$line'" ;;
esac
# both delays in one expression: the exit delay comes after the call, so
# -T shows only the entry one, and the run lasts both
t0=$(date +%s%N)
run_both -T -e trace=fsync -e inject=fsync:delay_enter=100ms:delay_exit=300ms -- "$prog" inject
t1=$(date +%s%N)
line=$(grep '^fsync' "$RENACER_OUT")
case "$line" in
*"(DELAYED) <0.1"[0-9]*">") ;;
*) bad "delay_enter=100ms:delay_exit=300ms: '$line'" ;;
esac
[ $(( (t1 - t0) / 1000000 )) -ge 800 ] || bad "delay_exit=300ms: both runs took $(( (t1 - t0) / 1000000 )) ms"

# injections only touch traced calls, as strace's: -P narrows them too
compare_with_strace -e trace=read -e inject=openat:error=ENOENT -- "$prog" inject || rc=1
grep -qx "open: ok" "$(dirname "$RENACER_OUT")/renacer.stdout" || bad "an untraced openat was injected"
compare_with_strace -P target -e inject=openat:error=ENOENT -- "$prog" inject || rc=1

# a golden of the failure path: capture and validate take the same
# injection; validating without it is a regression
g="$TMPDIR/golden"
mkdir -p "$g" && cd "$g" || exit 1
spec=openat:error=ENOENT:when=3
"$RENACER" capture -q -e inject=$spec inj -- "$prog" inject >/dev/null 2>&1 ||
	bad "capture -e inject= failed"
grep -q '"tamper": \["INJECTED"\]' golden_traces/inj.json || bad "the golden does not mark the injected call"
grep -q '"errno": "ENOENT"' golden_traces/inj.json || bad "the golden lacks the injected ENOENT"
"$RENACER" validate -q --golden golden_traces/inj.json --inject=$spec -- "$prog" inject >/dev/null 2>&1 ||
	bad "validate with the same injection: exit $?"
"$RENACER" validate -q --golden golden_traces/inj.json -- "$prog" inject >/dev/null 2>&1
[ $? -eq 1 ] || bad "validate without the injection should be a regression"
# declared in renacer.toml: capture and validate keep it with no option
cat > renacer.toml <<EOF
[[golden_traces.trace]]
name = "declared"
command = ["$prog", "inject"]
inject = ["$spec", "fsync:error=EIO"]
EOF
"$RENACER" capture -q declared >/dev/null 2>&1 || bad "capture of a declared injection failed"
grep -q '"INJECTED"' golden_traces/declared.json || bad "the declared injection was not applied"
"$RENACER" validate -q declared >/dev/null 2>&1 || bad "validate of a declared injection: exit $?"
# a bad spec stops before anything runs, in one line naming the trace
sed -i 's/fsync:error=EIO/fsync:error=NOPE/' renacer.toml
"$RENACER" validate declared >/dev/null 2>"$TMPDIR/err"; r=$?
[ $r -eq 5 ] && [ "$(wc -l < "$TMPDIR/err")" -eq 1 ] &&
	grep -q "golden trace 'declared': invalid inject argument 'fsync:error=NOPE'" "$TMPDIR/err" ||
	bad "bad declared injection: exit $r, '$(cat "$TMPDIR/err")'"
"$RENACER" capture -e trace=open -q x -- /bin/true >/dev/null 2>"$TMPDIR/err"; r=$?
[ $r -eq 5 ] && grep -q "takes only inject= and fault=" "$TMPDIR/err" || bad "capture -e trace=: exit $r"
exit $rc
