#!/bin/sh
# -e status=: only calls with the chosen outcome are shown, never a held
# entry printed as unfinished; the lines are strace's.
set -u
fail=0
mask() {
	sed -E 's/0x[0-9a-f]{6,}/0xADDR/g; s/^[0-9]+ +//; s/^(set_tid_address\(.*= )[0-9]+$/\1PID/' "$1"
}
# each run in a fresh directory of the same name: fileops lists it
runin() { rm -rf "$TMPDIR/w" && mkdir "$TMPDIR/w" && cd "$TMPDIR/w" && "$@" > /dev/null 2>&1; cd "$TMPDIR"; }
cd "$TMPDIR" || exit 1
for st in failed successful '!failed' unfinished; do
	runin strace -qq -e status="$st" -o ../s.txt "$PROGS/fileops"
	runin "$RENACER" -qq -e status="$st" -o ../r.txt "$PROGS/fileops"
	mask s.txt | grep -v '^getrandom' > s.m; mask r.txt | grep -v '^getrandom' > r.m
	if ! diff s.m r.m > d.txt; then
		echo "FAIL status=$st differs from strace:"; head -n 20 d.txt; fail=1
	fi
	grep -q 'unfinished' r.txt && [ "$st" != unfinished ] && { echo "FAIL status=$st: an unfinished line"; fail=1; }
done
"$RENACER" -e status=failed -o r.txt /bin/true
[ -s r.txt ] && grep -v '^access\|^+++' r.txt && { echo "FAIL status=failed on true printed more"; fail=1; }
exit $fail
