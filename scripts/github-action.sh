#!/bin/sh
# The step of renacer's GitHub Action (action.yml): runs renacer validate
# as a GitHub Actions step should.
#
# Inputs (from action.yml, as the environment): INPUT_ARGS (more arguments
# of validate, split at spaces), INPUT_CONFIG (renacer.toml), INPUT_REPORT_DIR
# (default renacer-reports), INPUT_RENACER (the binary; else renacer on PATH,
# else this action's own source is built).
#
# It runs `renacer validate --format github` with CI set: annotations on the
# source lines of findings, the Markdown summary appended to
# $GITHUB_STEP_SUMMARY, and into the report directory report.html, junit.xml
# and new/NAME.json.new for each mismatch.  Sets the step outputs status and
# report ($GITHUB_OUTPUT) and exits with validate's status.
set -u

report_dir=${INPUT_REPORT_DIR:-renacer-reports}
renacer=${INPUT_RENACER:-}
action_dir=${GITHUB_ACTION_PATH:-$(dirname "$0")/..}

if [ -z "$renacer" ]; then
	if command -v renacer > /dev/null 2>&1; then
		renacer=renacer
	elif [ -x "$action_dir/build/renacer" ]; then
		renacer=$action_dir/build/renacer
	else
		echo "::group::Building renacer"
		if [ "$(id -u)" = 0 ]; then
			sh "$action_dir/scripts/deps.sh"
		elif command -v sudo > /dev/null 2>&1; then
			sudo sh "$action_dir/scripts/deps.sh"
		fi
		make -C "$action_dir" -j"$(nproc 2>/dev/null || echo 2)" || {
			echo "::endgroup::"
			echo "::error title=renacer::cannot build renacer from $action_dir (see docs/ci.md)"
			exit 5
		}
		echo "::endgroup::"
		renacer=$action_dir/build/renacer
	fi
fi

mkdir -p "$report_dir" || exit 7
set -- validate --format github --html "$report_dir/report.html" \
	--junit "$report_dir/junit.xml" --new-dir "$report_dir/new"
[ -n "${INPUT_CONFIG:-}" ] && set -- "$@" --config "$INPUT_CONFIG"
# more arguments, split at white space (never globbed)
set -f
# shellcheck disable=SC2086
set -- "$@" ${INPUT_ARGS:-}
set +f

CI=${CI:-true}
export CI
"$renacer" "$@"
status=$?

if [ -n "${GITHUB_OUTPUT:-}" ]; then
	{
		echo "status=$status"
		echo "report=$report_dir/report.html"
	} >> "$GITHUB_OUTPUT"
fi
exit $status
