#!/bin/sh
# Builds and runs renacer's libFuzzer targets: `make fuzz` runs
#   BUILD=build sh tests/fuzz/run.sh tests/fuzz/fuzz_*.c
# Each target runs for FUZZ_SECONDS (default 60) under ASan and UBSan; the
# script fails when any target finds a crash, a leak, a timeout or an
# out-of-memory, and prints where the reproducer was saved.
#
# How it builds: the whole library (every src/**/*.c but main.c) is built
# once more with clang and -fsanitize=fuzzer-no-link,address,undefined into
# $FUZZ_BUILD (default build-fuzz/, or $BUILD-fuzz/ when BUILD is not
# "build") by the Makefile's own rules; each
# tests/fuzz/fuzz_NAME.c is then linked against it with -fsanitize=fuzzer.
#
# Adding a fuzzer: write tests/fuzz/fuzz_NAME.c defining
#   int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
# that calls the code under test and abort()s when an invariant breaks (no
# main: libFuzzer provides it).  In its opening comment, name the seed
# inputs on one line (case does not matter) and, optionally, a file name
# pattern for them:
#   * seeds: tests/data/traces /some/absolute/dir file.json
#   * seed-glob: *.json
# Directories are searched recursively; missing ones are skipped with a
# note.  An optional tests/fuzz/fuzz_NAME.dict (libFuzzer dictionary) is
# used when present.  `make fuzz` picks the new file up by itself.
#
# Outputs, under $FUZZ_BUILD: bin/NAME (the fuzzer), corpus/NAME (inputs
# found so far, kept between runs), seeds/NAME (fresh copy of the seeds),
# crashes/NAME-* (reproducers: run bin/NAME FILE to replay one), logs/NAME.log.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
# build-fuzz/ for the default build; build-X-fuzz/ for BUILD=build-X, so
# that parallel builds in separate directories do not collide.
if [ "$BUILD" = build ]; then FB=${FUZZ_BUILD:-build-fuzz}; else FB=${FUZZ_BUILD:-$BUILD-fuzz}; fi
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
ARCH=$(uname -m)
CLANG=${CLANG:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

if [ $# -eq 0 ]; then
	set -- tests/fuzz/fuzz_*.c
fi
if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "fuzz: clang not found; run 'make deps' (it installs clang and libclang-rt)" >&2
	exit 1
fi

mkdir -p "$FB/bin" "$FB/corpus" "$FB/seeds" "$FB/crashes" "$FB/logs"

# The library, built with clang and coverage instrumentation.
echo "fuzz: building the library with $CLANG into $FB/"
if ! make --no-print-directory BUILD="$FB" CC="$CLANG" OPT=-O1 \
	SAN="-fsanitize=fuzzer-no-link $SAN" "$FB/librenacer.a" > "$FB/logs/build.log" 2>&1; then
	echo "fuzz: building the library failed; last lines of $FB/logs/build.log:" >&2
	tail -n 20 "$FB/logs/build.log" >&2
	exit 1
fi
# the libraries the Makefile links renacer with (eBPF, libiberty, ... included)
LDLIBS=$(make --no-print-directory -s print-ldlibs 2>/dev/null) ||
	LDLIBS="-ldw -lelf -ljansson -lcurl -lz -lzstd -lseccomp -lm -lpthread"

# seed_value FILE KEY: the text after "KEY:" on its first line in FILE.
seed_value() {
	sed -n "s/.*[[:space:]]$2:[[:space:]]*//Ip" "$1" | head -n 1 | sed 's/[[:space:]]*\*\/.*//'
}

pass=0 fail=0 failed=""
for src in "$@"; do
	name=$(basename "$src" .c)
	bin="$FB/bin/$name"
	log="$FB/logs/$name.log"

	if ! "$CLANG" -std=gnu11 -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer $SAN \
		-Isrc -I"src/arch/$ARCH" -I"$FB/gen" -Itests -o "$bin" "$src" \
		"$FB/librenacer.a" $LDLIBS -lm -lpthread > "$log" 2>&1; then
		echo "FAIL  $name: does not build; last lines of $log:"
		tail -n 15 "$log" | sed 's/^/      /'
		fail=$((fail + 1)); failed="$failed $name"
		continue
	fi

	# Seeds: a fresh flat copy (libFuzzer does not recurse into directories).
	seeds="$FB/seeds/$name"
	rm -rf "$seeds"
	mkdir -p "$seeds" "$FB/corpus/$name"
	glob=$(seed_value "$src" seed-glob)
	[ -n "$glob" ] || glob='*'
	n=0
	for p in $(seed_value "$src" seeds); do
		if [ ! -e "$p" ]; then
			echo "note  $name: seed path '$p' does not exist; skipped"
			continue
		fi
		for f in $(find "$p" -type f -name "$glob" -size -1024k 2>/dev/null | sort); do
			n=$((n + 1))
			cp "$f" "$seeds/seed-$n"
		done
	done
	dict=""
	[ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"

	rm -f "$FB/crashes/$name-"*
	start=$(date +%s)
	ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
	UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
	"$bin" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$FB/crashes/$name-" $dict \
		"$FB/corpus/$name" "$seeds" >> "$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	runs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok    $name (${secs}s, ${runs:-?} runs, $n seeds, ${cov:-cov: ?})"
	else
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL  $name (exit $rc after ${secs}s); last lines of $log:"
		grep -E 'ERROR|SUMMARY|Test unit written|abort|runtime error' "$log" | tail -n 8 | sed 's/^/      /'
		tail -n 5 "$log" | sed 's/^/      /'
		for a in "$FB/crashes/$name-"*; do
			[ -f "$a" ] && echo "      reproducer: $a (replay: $bin $a)"
		done
	fi
done

[ -n "$failed" ] && echo "failed:$failed"
echo "fuzz: $pass passed, $fail failed"
[ $fail -eq 0 ]
