#!/bin/sh
# make demo: the whole loop on the shipped examples (examples/*.c):
# trace with a summary, capture golden traces, validate them, evaluate the
# renacer.toml budgets, and write the report.  Run from the repository root.
set -eu
BUILD=${1:-build}
R="$BUILD/renacer"
CFG=examples/renacer.toml
if [ "$BUILD" != build ]; then
	mkdir -p "$BUILD/demo"
	sed "s#build/#$BUILD/#g" examples/renacer.toml > "$BUILD/demo/renacer.toml"
	CFG="$BUILD/demo/renacer.toml"
fi
DIR="$BUILD/demo/golden_traces"
mkdir -p "$DIR"
export LC_ALL=C LANG=C

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "1. strace-style summary of each example (renacer -f -c)"
for e in file_io fork_wait threads; do
	echo "-- $e"
	"$R" -f -c -o "$BUILD/demo/$e.summary" "$BUILD/examples/$e" "$BUILD/demo" > /dev/null
	cat "$BUILD/demo/$e.summary"
done

step "2. capture golden traces (renacer capture, declared in $CFG)"
# a fresh capture each demo run: the goldens live under $BUILD/demo
env -u CI "$R" capture --config "$CFG" --dir "$DIR"

step "3. validate: a second run of the unchanged programs (renacer validate)"
env -u CI "$R" validate --config "$CFG" --dir "$DIR" --no-color

step "4. performance assertions (renacer --assert $CFG)"
for e in file_io fork_wait threads; do
	echo "-- $e"
	"$R" --assert "$CFG" -o "$BUILD/demo/$e.trace" "$BUILD/examples/$e" "$BUILD/demo" > /dev/null
done

step "5. report (renacer report $DIR)"
"$R" report "$DIR"
echo "wrote $DIR/ANALYSIS.md; traces in $DIR:"
ls -l "$DIR"
