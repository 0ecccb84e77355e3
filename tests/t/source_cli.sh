#!/bin/sh
# The command line of source correlation: -s with a number is strace's
# string limit (-s 4, -s4, same output as strace), -s alone or before the
# command or another option is --source; --source-skip moves the source to
# the caller, '' empties the list; --stack-trace=symbol; bad values.
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"
need_strace
build_c O2 -O2
P="$W/O2/srcmain"
A="$W/O2/srcplug.so $W/O2/srcexec"

# -s 4 and -s4: strace's string limit, the same lines as strace's
strace -f -o st.txt -s 4 -e trace=write -- $P $A >/dev/null 2>&1
for form in "-s 4" "-s4"; do
	# shellcheck disable=SC2086
	"$RENACER" -f -o rn.txt $form -e trace=write -- $P $A >/dev/null 2>rn.err ||
		fail "renacer $form failed: $(cat rn.err)"
	# the calls only: when a thread's exit shows up is up to the scheduler
	syscall_lines write <st.txt >st.w
	syscall_lines write <rn.txt >rn.w
	compare_traces st.w rn.w "$form" || fail "$form differs from strace -s 4"
	grep -qF '[src/' rn.txt && fail "$form turned on source lines"
done
grep -qF 'write(1, "main"..., 5)' rn.txt || fail "-s4 did not cut strings at 4: $(cat rn.txt)"

# -s alone: source lines, whatever follows it
for form in "-s --" "-s -e trace=write --" "-s" "--source"; do
	case $form in *trace*) e= ;; *) e="-e trace=write" ;; esac
	# shellcheck disable=SC2086
	"$RENACER" -f -o rn.txt $e $form $P $A >/dev/null 2>rn.err ||
		fail "renacer $form failed: $(cat rn.err)"
	check_source rn.txt 'write(1, "main\n"' srcmain.c main main
done

# --source-skip: a skipped function hands the source to its caller
"$RENACER" -f -o rn.txt -s --source-skip '^lib_write$' -e trace=write $P $A >/dev/null ||
	fail "--source-skip failed"
check_source rn.txt 'write(1, "lib\n"' srcmain.c call_lib main
check_source rn.txt 'write(1, "main\n"' srcmain.c main main
# '' empties the list: the C library's frame is the innermost "own" one
"$RENACER" -f -o rn.txt -s --source-skip '' -e trace=write $P $A >/dev/null ||
	fail "--source-skip '' failed"
grep -F 'write(1, "main\n"' rn.txt | grep -qF '[src/srcmain.c' &&
	fail "--source-skip '' still skipped the C library: $(grep -F main rn.txt)"
grep -F 'write(1, "main\n"' rn.txt | grep -q ' \[.*write.*\]$' ||
	fail "--source-skip '': the write's own frame is not libc's write: $(cat rn.txt)"

# [source] in ./renacer.toml: the same, and --source-skip '' empties both
printf '[source]\nskip = ["^lib_write$"]\n' >renacer.toml
"$RENACER" -f -o rn.txt -s -e trace=write $P $A >/dev/null || fail "-s with renacer.toml failed"
check_source rn.txt 'write(1, "lib\n"' srcmain.c call_lib main
"$RENACER" -f -o rn.txt -s --source-skip '' --source-skip '^__' -e trace=write $P $A >/dev/null ||
	fail "-s --source-skip '' with renacer.toml failed"
check_source rn.txt 'write(1, "lib\n"' srclib.c lib lib_write
printf '[source]\ndefault_skip = false\n' >renacer.toml
"$RENACER" -f -o rn.txt -s -e trace=write $P $A >/dev/null || fail "-s with default_skip = false failed"
grep -F 'write(1, "main\n"' rn.txt | grep -qF '[src/srcmain.c' &&
	fail "default_skip = false still skipped the C library"
printf '[source]\nskip = ["ok", "("]\n' >renacer.toml
"$RENACER" -s -- true >out.txt 2>err.txt
[ $? = 5 ] || fail "a bad [source] pattern: exit status not 5"
grep -q "^renacer: renacer.toml:2:15: source: invalid regex in 'skip': " err.txt ||
	fail "a bad [source] pattern: $(cat err.txt)"
rm renacer.toml

# -k shows file:line, --stack-trace=symbol does not (strace 6.1's form)
"$RENACER" -f -o k.txt -k -e trace=write $P $A >/dev/null || fail "-k failed"
"$RENACER" -f -o ks.txt --stack-trace=symbol -e trace=write $P $A >/dev/null ||
	fail "--stack-trace=symbol failed"
grep -q "^ > $P(main+0x[0-9a-f]*) \[0x[0-9a-f]*\] src/srcmain.c:$(mark_line srcmain.c main)\$" k.txt ||
	fail "-k: no frame of main with its line: $(head -n 12 k.txt)"
grep -q "^ > $P(main+0x[0-9a-f]*) \[0x[0-9a-f]*\]\$" ks.txt ||
	fail "--stack-trace=symbol: $(head -n 12 ks.txt)"
grep -q "srcmain.c:" ks.txt && fail "--stack-trace=symbol printed file:line"
[ "$(grep -c '^ > ' k.txt)" = "$(grep -c '^ > ' ks.txt)" ] || fail "-k and --stack-trace=symbol differ in frames"

# bad values: one line, exit 1, nothing run
expect_error() { # WANT ARGS...
	_want=$1
	shift
	"$RENACER" "$@" >out.txt 2>err.txt
	_rc=$?
	[ $_rc = 1 ] || fail "exit $_rc for $*: $(cat err.txt)"
	[ "$(cat err.txt)" = "$_want" ] || fail "message for $*: '$(cat err.txt)', want '$_want'"
}
expect_error "renacer: invalid string limit 'x' (-s takes a number, attached or as the next word; -s alone turns on source lines)" -sx -- true
"$RENACER" --source-skip '(' -- true >out.txt 2>err.txt && fail "a bad --source-skip pattern was accepted"
grep -q "^renacer: invalid --source-skip pattern '(': " err.txt || fail "bad pattern message: $(cat err.txt)"
expect_error "renacer: invalid --stack-trace argument 'all' (expected symbol or source)" --stack-trace=all -- true
exit 0
