#!/bin/sh
# make verdict: renacer's golden verdict measured as a classifier (docs/
# benchmarks.md, "Verdict benchmark").  Planted changes of three real
# programs built from Debian source (zstd, lz4; tar as installed, with zstd
# as its helper) and of two small C programs (tests/verdict/) must fail with
# a finding that names the right syscall, file, process or metric; harmless
# changes must pass; unchanged programs validated 500 times beside a CPU hog
# must never fail.  Prints recall, the harmless pass rate and the false-alarm
# rate, with a line per failing case; exit 0 when every target is met, 1 when
# not, 2 when the benchmark could not run.
#
#   scripts/verdict.sh [--fast] [--only REGEX] [--reps N] [--unchanged N]
#                      [--goldens N] [--hogs N] [--keep] [--out DIR] [--list]
#
# The Debian sources are fetched once (scripts/verdict_src.sh: apt-get
# source, adding a deb-src entry when there is none; root) into
# $BUILD/verdict/src, and every build is cached in $BUILD/verdict/bin.
# --fast runs the subset of tests/t/verdict_fast.sh (no download).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
PY=/usr/bin/python3 # Debian's python: tomllib
exec "$PY" "$TOP/scripts/verdict.py" --build "$BUILD" "$@"
