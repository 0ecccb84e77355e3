#!/bin/sh
# Same program, same environment: a trace records how its command was run
# (stdio kinds, working directory, allowlisted variables); validate runs
# the command that way (a locale, a terminal, a pipe), says what it could
# not make alike instead of calling the difference a regression, and
# compare leaves out the calls on a standard stream whose kind differs.
. "$TOP/tests/golden_lib.sh"

# the locale: ls makes twice the calls under C.UTF-8 as under C
LANG=C.UTF-8 LC_ALL=C.UTF-8 run 0 "$RENACER" capture -q ls_utf8 -- ls /usr
$PY -c "import json,sys; e=json.load(open('golden_traces/ls_utf8.json'))['environment']; assert e['variables']['LC_ALL']=='C.UTF-8' and e['stdio']=={'stdin':'null','stdout':'file','stderr':'file'} and e['cwd']" ||
	fail "the golden records no environment"
run 0 "$RENACER" validate --no-color --golden golden_traces/ls_utf8.json -- ls /usr
has out.txt "ls_utf8: equivalent"
has out.txt "LC_ALL set to 'C.UTF-8' as in the golden run (here it is 'C')"
# two traces taken under the two locales differ, and compare says why
LC_ALL=C.UTF-8 "$RENACER" --format json -o utf8.json -- ls /usr > /dev/null 2>&1
"$RENACER" --format json -o c.json -- ls /usr > /dev/null 2>&1
run 1 "$RENACER" compare --no-color utf8.json c.json
has out.txt "LC_ALL was 'C.UTF-8' in the golden run and is 'C' now"

# a terminal: a trace taken at one, validated through a pseudo-terminal
script -qc "$RENACER --format json -o tty.json -- ls /usr" /dev/null > /dev/null 2>&1 ||
	fail "script(1)"
[ "$(jq -r .environment.stdio.stdout tty.json)" = tty ] || fail "tty.json: stdout not a tty"
jq -e '.syscalls[] | select(.name == "ioctl" and .args[0][1] == "1")' tty.json > /dev/null ||
	fail "ls at a terminal asks it (ioctl): no such call"
run 0 "$RENACER" validate --no-color --golden tty.json -- ls /usr
has out.txt "tty: equivalent"
hasnt out.txt "stdout was"
# compared with a trace whose stdout was /dev/null: not a regression, said
"$RENACER" --format json -o null.json -- ls /usr > /dev/null 2>&1
# (there, ls's ioctl on stdout fails: the difference the issue saw called a regression)
jq -e '.syscalls[] | select(.name == "ioctl" and .args[0][1] == "1" and .result < 0)' null.json \
	> /dev/null || fail "ls with stdout on /dev/null: no failing ioctl"
[ "$(jq -r .environment.stdio.stdout null.json)" = null ] || fail "null.json: stdout not /dev/null"
run 0 "$RENACER" compare --no-color tty.json null.json
has out.txt "stdout was a terminal in the golden run and is /dev/null now: its calls and bytes are not compared"

# a pipe
"$RENACER" --format json -o pipe.json -- ls /usr 2> /dev/null | cat > /dev/null
[ "$(jq -r .environment.stdio.stdout pipe.json)" = pipe ] || fail "pipe.json: stdout not a pipe"
run 0 "$RENACER" validate --no-color --golden pipe.json -- ls /usr
has out.txt "pipe: equivalent"

# what validate cannot make alike it says, and does not call a regression
"$RENACER" --format json -o dev.json -- ls /usr > /dev/zero 2> /dev/null
[ "$(jq -r .environment.stdio.stdout dev.json)" = device ] || fail "dev.json: stdout not a device"
run 0 "$RENACER" validate --no-color --golden dev.json -- ls /usr
has out.txt "stdout was a device in the golden run; this run cannot make one and gives a regular file"

# the working directory: paths under it compare as $CWD, said
mkdir -p a b && cp tty.json a/ || fail "setup"
(cd a && "$RENACER" capture -q here -- ls .) || fail "capture in a"
cp -r a/golden_traces b/ && (cd b && "$RENACER" validate --no-color --golden golden_traces/here.json -- ls .) \
	> out.txt 2>&1 || { cat out.txt; fail "validate in another directory"; }
has out.txt "the golden ran in '$W/a' and this run in '$W/b'"
echo ok
