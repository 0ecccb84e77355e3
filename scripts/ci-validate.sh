#!/bin/sh
# Validates every golden trace declared in renacer.toml, for CI systems
# other than GitHub Actions (docs/ci.md has the workflow this mirrors).
#
#   scripts/ci-validate.sh [--renacer PATH] [--config FILE] [--reports DIR]
#
# Runs with CI set, so nothing is written into the golden directory; writes
# into the reports directory (default renacer-reports):
#   report.md     the comparison as Markdown (also printed)
#   report.html   the HTML report (findings, timeline, bars, call diff,
#                 differential flame graph)
#   junit.xml     JUnit XML for test dashboards
#   gl-code-quality-report.json   GitLab's Code Quality report
#   ANALYSIS.md   renacer report of the goldens
#   new/NAME.json.new   the new trace of each mismatch (accept locally
#                 with: cp new/NAME.json.new golden_traces/NAME.json)
# Exits with renacer validate's status: 0 equivalent, 1 regression,
# 2 golden missing, 3 golden invalid, 4 command failed, 5 bad configuration.
set -u

RENACER=${RENACER:-renacer}
CONFIG=renacer.toml
REPORTS=renacer-reports

while [ $# -gt 0 ]; do
	case "$1" in
	--renacer) RENACER=$2; shift 2 ;;
	--config) CONFIG=$2; shift 2 ;;
	--reports) REPORTS=$2; shift 2 ;;
	-h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "ci-validate.sh: unknown argument '$1'" >&2; exit 5 ;;
	esac
done

if ! command -v "$RENACER" > /dev/null 2>&1; then
	echo "ci-validate.sh: renacer not found ('$RENACER'); install it with make && make install" >&2
	exit 5
fi
if [ ! -f "$CONFIG" ]; then
	echo "ci-validate.sh: no '$CONFIG' declaring the golden traces" >&2
	exit 5
fi

CI=${CI:-true}
[ "$CI" = false ] || [ "$CI" = 0 ] && CI=true
export CI
mkdir -p "$REPORTS" || exit 5

"$RENACER" validate --config "$CONFIG" --format markdown --html "$REPORTS/report.html" \
	--junit "$REPORTS/junit.xml" --codequality "$REPORTS/gl-code-quality-report.json" \
	--new-dir "$REPORTS/new" > "$REPORTS/report.md"
status=$?
cat "$REPORTS/report.md"

# the analysis of the goldens goes with the reports (never into the golden dir)
"$RENACER" report --config "$CONFIG" -o "$REPORTS/ANALYSIS.md" > /dev/null ||
	echo "ci-validate.sh: renacer report failed" >&2

echo "renacer validate exit status: $status (reports in $REPORTS/)"
exit $status
