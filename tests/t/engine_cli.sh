#!/bin/sh
# Bad input to the trace command: one line on stderr, exit 1, no trace file.
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }

check() { # want_rc pattern args...
	want=$1 pat=$2; shift 2
	"$RENACER" "$@" >"$TMPDIR/out" 2>"$TMPDIR/err"; rc=$?
	[ $rc -eq "$want" ] || bad "'$*': exit $rc, want $want"
	n=$(wc -l < "$TMPDIR/err")
	[ "$n" -eq 1 ] || bad "'$*': $n lines on stderr, want 1: $(cat "$TMPDIR/err")"
	grep -q "$pat" "$TMPDIR/err" || bad "'$*': message '$(cat "$TMPDIR/err")' lacks '$pat'"
}

check 1 "unknown option '--bogus'" --bogus -- /bin/true
check 1 "unknown option '-W'" -W /bin/true
check 1 "cannot run 'no-such-program-xyz'" no-such-program-xyz
check 1 "cannot run '/nonexistent/x'" -o "$TMPDIR/t1" /nonexistent/x
[ -e "$TMPDIR/t1" ] && bad "a trace file was left for a command that did not start"
check 1 "invalid system call 'opnat'" -e trace=opnat /bin/true
check 1 "must have COMMAND" -f
check 1 "invalid process id 'abc'" -p abc
check 1 "unknown format 'xml'" --format xml /bin/true
check 1 "cannot attach to process" -p 999999999

# the exit status is the command's
"$RENACER" -o /dev/null "$PROGS/engine" exit 42; rc=$?
[ $rc -eq 42 ] || bad "exit status $rc, want 42"
# command output is never mixed with the trace
out=$("$RENACER" sh -c 'echo hello' 2>/dev/null)
[ "$out" = "hello" ] || bad "stdout carried '$out'"
# the trace goes to stderr by default
"$RENACER" /bin/true 2>"$TMPDIR/err" >/dev/null
grep -q '^execve("/bin/true", \["/bin/true"\]' "$TMPDIR/err" || grep -q '^execve(' "$TMPDIR/err" || bad "no trace on stderr"
# --help lists every option, --version works
"$RENACER" --help > "$TMPDIR/help" || bad "--help failed"
for o in -f -p -e -o --format --string-limit -y -T -t -r -c -C -w -S --timing --assert --anti-patterns; do
	grep -q -- "$o" "$TMPDIR/help" || bad "--help does not list $o"
done
"$RENACER" --version | grep -q '^renacer [0-9]' || bad "--version"
exit $fail
