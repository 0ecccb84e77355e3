#!/bin/sh
# Planted changes are caught and named: one extra openat, a removed fsync,
# a call that now fails, a new child process, a loop that doubles its
# writes, a run made 3x slower.  The plants come from GP_PLANT so that the
# traced command line stays the same.
# test: slow
. "$TOP/tests/golden_lib.sh"
gp_setup

run 0 "$RENACER" capture --runs 3 gp -- "$GP" "$W/gp"
count() { # syscall: its calls in the golden
	$PY -c "import json,sys; print(sum(1 for s in json.load(open('golden_traces/gp.json'))['syscalls'] if s['name']==sys.argv[1]))" "$1"
}
openat=$(count openat)
write=$(count write)
[ "$openat" -gt 0 ] && [ "$write" -ge 10 ] || fail "golden has $openat openat, $write write"

validate() { # rc, then GP_PLANT words
	want=$1
	shift
	GP_PLANT="$*" run "$want" "$RENACER" validate --no-color --golden golden_traces/gp.json -- "$GP" "$W/gp"
}

# unchanged: equivalent
validate 0
has out.txt "gp: equivalent"

validate 1 --extra-open
has out.txt "openat: $openat -> $((openat + 1)) calls"

validate 1 --no-fsync
has out.txt "fsync vanished"

validate 1 --double
has out.txt "write: $write -> $((write + 10)) calls"

validate 1 --fork
has out.txt "new process 1.1"

validate 1 --slow
grep -qE "✗ timing: (net|CPU) time [0-9.]+ms is [0-9.]+x the golden's" out.txt ||
	{ cat out.txt; fail "--slow: no slower time"; }

# a call that used to succeed now fails: the input file is gone
mv "$W/gp/input.txt" "$W/gp/input.bak"
validate 1
has out.txt "input.txt\", O_RDONLY) now fails with ENOENT"
mv "$W/gp/input.bak" "$W/gp/input.txt"

# each regression left the new trace beside the golden, with how to accept it
[ -f golden_traces/gp.json.new ] || fail "no gp.json.new"
has out.txt "accept it with: renacer accept gp"
echo ok
