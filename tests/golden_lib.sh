# Helpers for the golden-trace tests (tests/t/golden_*.sh); sourced.
# Every test works in its own $TMPDIR/w and starts from a clean environment:
# CI and RENACER_UPDATE_GOLDEN would change what renacer writes.
unset CI RENACER_UPDATE_GOLDEN NO_COLOR GP_PLANT SEED_PLANT
export LC_ALL=C LANG=C
PY=/usr/bin/python3
GP="$PROGS/golden_prog"
W="$TMPDIR/w"
mkdir -p "$W" && cd "$W" || exit 1

fail() {
	echo "FAIL: $*"
	exit 1
}

# run WANT_RC CMD...: runs CMD with output in out.txt/err.txt, checks the status.
run() {
	want=$1
	shift
	"$@" > out.txt 2> err.txt
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: expected exit $want, got $rc: $*"
		echo "--- stdout"; cat out.txt
		echo "--- stderr"; cat err.txt
		exit 1
	fi
}

# has FILE TEXT: FILE contains the fixed string TEXT.
has() {
	grep -qF -- "$2" "$1" || { echo "FAIL: '$2' not in $1:"; cat "$1"; exit 1; }
}
hasnt() {
	if grep -qF -- "$2" "$1"; then echo "FAIL: '$2' in $1:"; cat "$1"; exit 1; fi
}

# The golden_prog working directory: an input file to read.
gp_setup() {
	mkdir -p "$W/gp"
	printf 'hello golden\n' > "$W/gp/input.txt"
}
