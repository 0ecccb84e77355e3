#!/bin/sh
# Verdicts of issue 16 on a small program of the kind the seeds trace
# (tests/progs/verdict_prog.c, its changes planted through VP_PLANT so that
# the traced command stays the same), as a user runs them: capture NAME --
# COMMAND, then validate NAME.
#  - independent opens reordered, printed words changed: pass;
#  - sleeps added (6 calls), 64 MiB leaked (touched) or allocated
#    (untouched): fail, named as the calls or as memory;
#  - files worker threads open in every run: a regression, not a note;
#  - a diff of one line repeated prints it once with its count;
#  - validate NAME finds an undeclared golden's command, and its messages
#    name the trace; a .new made by validate carries the variation of 3 runs.
. "$TOP/tests/lib.sh"

cd "$TMPDIR" || exit 1
P=$(need_prog verdict_prog)
mkdir d
head -c 3072 /dev/zero | tr '\0' 'a' > d/in.txt
export VP_PLANT=
cap() { # NAME [env...]: capture NAME from the unchanged program
	n=$1; shift
	env -u CI "$@" "$RENACER" capture "$n" -- "$P" d > "cap_$n.txt" 2>&1 ||
		fail "capture $n: $(cat cap_$n.txt)"
}
val() { # NAME PLANT [env...]: validate NAME with the plant; output in val.txt
	n=$1 p=$2; shift 2
	env CI=1 VP_PLANT="$p" "$@" "$RENACER" validate --no-color --no-timing "$n" > val.txt 2>&1
}
cap vp
cap vpt VP_THREADS=1

# harmless changes pass
for p in reorder message; do
	val vp "$p" || fail "$p: a harmless change fails: $(cat val.txt)"
	grep -q "✅ vp: equivalent" val.txt || fail "$p: $(cat val.txt)"
done
# planted ones fail, named
val vp sleeps && fail "6 new nanosleep calls pass: $(cat val.txt)"
grep -q "✗ .*nanosleep" val.txt || fail "sleeps: nanosleep not named: $(cat val.txt)"
for p in leak untouched; do
	val vp "$p" && fail "$p: 64 MiB passes: $(cat val.txt)"
	grep -q "✗ memory: \[1\] peak committed memory: .* -> " val.txt ||
		fail "$p: not named as committed memory: $(cat val.txt)"
done
grep -q "✗ memory: \[1\] peak resident memory" val.txt &&
	fail "untouched: an allocation never written is not resident: $(cat val.txt)"
val vp leak
grep -q "✗ memory: \[1\] peak resident memory" val.txt ||
	fail "leak: a written allocation not named as resident: $(cat val.txt)"
# worker threads open a file in every run: a regression, not a note
val vpt hostname VP_THREADS=1 && fail "threads opening /etc/hostname pass: $(cat val.txt)"
grep -q '✗ resource: .*new file opened: "/etc/hostname"' val.txt ||
	fail "hostname: not a regression naming the file: $(cat val.txt)"
hasnt() { grep -q "$1" "$2" && fail "$3: $(cat "$2")"; return 0; }
hasnt 'not a regression' val.txt "hostname: called a note"
# a repeated line once, with its count
val vp repeat && fail "350 more writes pass"
grep -q '^+write(<"$CWD/d/out.txt">) = ok  (x350)$' val.txt ||
	fail "repeat: the 350 writes are not one line with their count: $(grep -c '^+write' val.txt) lines: $(head -40 val.txt)"
# validate NAME: the undeclared golden's own command; no long notes
[ -e renacer.toml ] && fail "a renacer.toml appeared"
awk 'length > 200' val.txt | grep -q . && fail "a line over 200 characters: $(awk 'length > 200' val.txt | head -1)"
# a .new written by validate has the variation of 3 runs (accept keeps it)
env -u CI VP_PLANT=sleeps "$RENACER" validate --no-timing vp > upd.txt 2>&1
[ -e golden_traces/vp.json.new ] || fail "no .new: $(cat upd.txt)"
/usr/bin/python3 -c "
import json; d = json.load(open('golden_traces/vp.json.new'))
assert d['timing']['runs'] >= 3, d['timing']['runs']
assert d['timing']['variation']['runs'] >= 3" || fail "the .new does not carry 3 runs"
env -u CI "$RENACER" accept vp > acc.txt 2>&1 || fail "accept: $(cat acc.txt)"
/usr/bin/python3 -c "
import json; d = json.load(open('golden_traces/vp.json'))
assert d['timing']['runs'] >= 3" || fail "the accepted golden lost its runs"
exit 0
