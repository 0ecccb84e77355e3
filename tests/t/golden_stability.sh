#!/bin/sh
# A second validate of an unchanged program passes, every time: the shipped
# examples and real programs (ls, git, python3, a shell pipeline, a 4-thread
# worker pool) are each validated GOLDEN_STABILITY_RUNS times (default 10)
# against a golden captured once, with no false regression, while a CPU hog
# runs beside them (on top of whatever else loads the machine).
# test: serial
. "$TOP/tests/golden_lib.sh"
gp_setup
N=${GOLDEN_STABILITY_RUNS:-10}
mkdir -p "$W/pool" && printf 'pool input\n' > "$W/pool/in.txt" || fail "setup"

sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT

git init -q repo || fail "git init"
(cd repo && printf 'a\n' > a && git add a &&
 GIT_AUTHOR_DATE=2020-01-01T00:00:00Z GIT_COMMITTER_DATE=2020-01-01T00:00:00Z \
 git -c user.email=t@example.com -c user.name=t commit -qm init) || fail "git commit"
export GIT_CONFIG_NOSYSTEM=1

# name, then the command
set -- \
	"file_io|$EXAMPLES/file_io" \
	"fork_wait|$EXAMPLES/fork_wait" \
	"threads|$EXAMPLES/threads" \
	"ls|ls -l /usr" \
	"git|git --no-pager -C repo log --oneline" \
	"python3|/usr/bin/python3 -c print(sum(range(1000)))" \
	"pipeline|sh -c seq_2000_|_sort_-r_|_wc_-l" \
	"gp_threads|$GP $W/gp --threads 4" \
	"pool|$PROGS/plant $W/pool --threads 4"

cmd_of() { # the command of an entry, words split; "_" in sh -c scripts are spaces
	c=${1#*|}
	case "$c" in
	"sh -c "*) printf '%s\n' "sh" "-c" "$(printf '%s' "${c#sh -c }" | tr '_' ' ')" ;;
	*) printf '%s\n' $c ;;
	esac
}

start=$(date +%s)
for e in "$@"; do
	name=${e%%|*}
	# the command as positional words, read back line by line
	cmd_of "$e" > cmd.txt
	set --
	while IFS= read -r w; do set -- "$@" "$w"; done < cmd.txt
	[ -x "$1" ] || command -v "$1" > /dev/null || { echo "skip $name: no $1"; continue; }
	run 0 "$RENACER" capture -q "$name" -- "$@"
	i=0 bad=0
	while [ $i -lt "$N" ]; do
		i=$((i + 1))
		"$RENACER" validate -q --no-color --golden "golden_traces/$name.json" -- "$@" \
			> "v.$name.$i.txt" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			bad=$((bad + 1))
			echo "FALSE REGRESSION: $name run $i (exit $rc):"
			cat "v.$name.$i.txt"
		fi
	done
	echo "$name: $N validations, $bad false regressions"
	[ $bad -eq 0 ] || exit 1
done
echo "total $(( $(date +%s) - start ))s"
echo ok
