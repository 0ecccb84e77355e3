# Shared shell functions for the end-to-end tests (tests/t/*.sh), POSIX sh.
# Source it first:   . "$TOP/tests/lib.sh"
#
# Environment (set by tests/run.sh): RENACER, PROGS, TOP, TMPDIR.
# Optional:
#   MASK_EXTRA  extra sed -E script applied by mask_trace after the standard
#               masks (e.g. 's/clock_gettime\(.*/clock_gettime(...)/')
#
# Functions (stable; other tests rely on them):
#   skip MSG...                 print MSG, exit 77 (test skipped)
#   fail MSG...                 print "FAIL: MSG", exit 1
#   need_strace                 skip unless strace can trace here
#   need_prog NAME              fail unless $PROGS/NAME was built; prints its path
#   mask_trace                  filter: masks what differs run to run (see below)
#   syscall_lines NAME...       filter: only the lines of the given syscalls
#                               (also their "<... NAME resumed>" halves)
#   run_both OPTS... -- CMD...  runs `strace -o S OPTS -- CMD` and `$RENACER
#                               -o R OPTS -- CMD` in the same fresh work directory
#                               (CMD should be an absolute path; strace's
#                               "-s N" is passed to renacer as --string-limit N)
#                               (stdin /dev/null, stdout/stderr to files); sets
#                               STRACE_OUT, RENACER_OUT (the traces), STRACE_RC,
#                               RENACER_RC, WORKDIR; returns 0
#   compare_traces A B [LABEL]  masks both trace files and compares them line by
#                               line; prints a diff (first 60 lines) and returns
#                               1 when they differ
#   compare_with_strace OPTS... -- CMD...
#                               run_both, then compare the exit statuses and the
#                               masked traces; returns 1 on any difference
#
# Masks of mask_trace (what varies between two runs of the same program):
#   - addresses: 0x followed by 6 or more hex digits -> 0xADDR (a non-PIE
#     program's brk heap can start below 0x1000000 under ASLR, so six-digit
#     pointers vary too; shorter values such as flag leftovers are kept);
#   - pids: "[pid N] " and leading "N " prefixes -> PID; results of calls
#     that return pids (getpid, gettid, getppid, set_tid_address, fork, vfork,
#     clone, clone3, wait4) -> PID, and "--- SIG... {...si_pid=N" -> si_pid=PID;
#   - inode numbers in -y paths: pipe:[12345] -> pipe:[INO];
#   - times: -t/-tt/-ttt/-r prefixes -> TS, -T suffixes <0.000012> -> <T>;
#   - getrandom's random bytes -> "RANDOM";
#   - then MASK_EXTRA.
# Lines are compared after masking; "+++ exited with N +++" lines are kept.

: "${TMPDIR:=/tmp}"
: "${RENACER:=${TOP:-.}/build/renacer}"

skip() {
	# a back end the kernel's verifier rejected is renacer's defect (its
	# program, or a kernel stricter than it was built for), not a machine
	# without eBPF: never a skip
	case "$*" in *"verifier rejected"*) echo "FAIL: $*"; exit 1 ;; esac
	echo "$*"
	exit 77
}

fail() {
	echo "FAIL: $*"
	exit 1
}

need_strace() {
	command -v strace >/dev/null 2>&1 || skip "strace is not installed"
	strace -o /dev/null true >/dev/null 2>&1 || skip "strace cannot trace here (ptrace not permitted)"
}

need_prog() {
	[ -x "$PROGS/$1" ] || fail "test program '$PROGS/$1' is missing (make progs)"
	echo "$PROGS/$1"
}

mask_trace() {
	sed -E \
		-e 's/^\[pid +[0-9]+\] /[pid PID] /' \
		-e 's/^[0-9]+ +/PID /' \
		-e 's/^((PID|\[pid PID\]) )?[0-9]+:[0-9]+:[0-9]+(\.[0-9]+)? /\1TS /' \
		-e 's/^((PID|\[pid PID\]) )?[0-9]+\.[0-9]+ /\1TS /' \
		-e 's/ <[0-9]+\.[0-9]+>$/ <T>/' \
		-e 's/0x[0-9a-f]{6,}/0xADDR/g' \
		-e 's/0x[0-9a-f]+ \/\* ([0-9]+) entries \*\//0xADDR \/* \1 entries *\//g' \
		-e 's/:\[[0-9]+\]/:[INO]/g' \
		-e 's/getrandom\("[^"]*"/getrandom("RANDOM"/' \
		-e 's/^(.*(getpid|gettid|getppid|set_tid_address|fork|vfork|clone|clone3)\(.*\) += )[0-9]+/\1PID/' \
		-e 's/^(.*(fork|vfork|clone|clone3) resumed>.*\) += )[0-9]+/\1PID/' \
		-e 's/^(.*wait4\()[0-9]+/\1PID/' \
		-e 's/^(.*wait4(\(| resumed>).*\) += )[0-9]+/\1PID/' \
		-e 's/si_pid=[0-9]+/si_pid=PID/g' \
		-e "${MASK_EXTRA:-}"
}

syscall_lines() {
	_pat=$(echo "$*" | sed 's/ /|/g')
	grep -E "^((\[pid +[0-9]+\]|[0-9]+) +)?([0-9:.]+ +)?(($_pat)\(|<\.\.\. ($_pat) resumed>)"
}

_cmp_n=0
run_both() {
	_cmp_n=$((_cmp_n + 1))
	_base="$TMPDIR/cmp.$_cmp_n"
	mkdir -p "$_base" || fail "cannot create '$_base'"
	WORKDIR="$_base/work"
	STRACE_OUT="$_base/strace.txt"
	RENACER_OUT="$_base/renacer.txt"

	# both tools take the same "OPTIONS -- COMMAND ARGS" (getopt style)
	rm -rf "$WORKDIR" && mkdir "$WORKDIR"
	# the same names for both runs' stdout/stderr: -y shows them
	(cd "$WORKDIR" && exec strace -o "$STRACE_OUT" "$@") \
		</dev/null >"$_base/stdout" 2>"$_base/stderr"
	STRACE_RC=$?
	mv "$_base/stdout" "$_base/strace.stdout"
	mv "$_base/stderr" "$_base/strace.stderr"
	# renacer reserves -s for source correlation: strace's -s N is
	# --string-limit N there
	_dd=0
	for _a in "$@"; do
		shift
		if [ $_dd = 0 ] && [ "$_a" = "-s" ]; then
			set -- "$@" --string-limit
		else
			[ "$_a" = "--" ] && _dd=1
			set -- "$@" "$_a"
		fi
	done
	rm -rf "$WORKDIR" && mkdir "$WORKDIR"
	(cd "$WORKDIR" && exec "$RENACER" -o "$RENACER_OUT" "$@") \
		</dev/null >"$_base/stdout" 2>"$_base/stderr"
	RENACER_RC=$?
	mv "$_base/stdout" "$_base/renacer.stdout"
	mv "$_base/stderr" "$_base/renacer.stderr"
	if [ ! -f "$RENACER_OUT" ]; then
		echo "renacer wrote no trace; its stderr:"
		head -n 20 "$_base/renacer.stderr"
	fi
	return 0
}

compare_traces() {
	_a=$1 _b=$2 _label=${3:-trace}
	mask_trace <"$_a" >"$_a.masked"
	mask_trace <"$_b" >"$_b.masked"
	if ! cmp -s "$_a.masked" "$_b.masked"; then
		echo "$_label: differs from strace (- strace, + renacer, after masking):"
		diff -u "$_a.masked" "$_b.masked" | sed -n '3,62p'
		return 1
	fi
	return 0
}

compare_with_strace() {
	run_both "$@"
	_rc=0
	if [ "$STRACE_RC" != "$RENACER_RC" ]; then
		echo "exit status: strace run $STRACE_RC, renacer run $RENACER_RC"
		_rc=1
	fi
	[ -f "$RENACER_OUT" ] || return 1
	compare_traces "$STRACE_OUT" "$RENACER_OUT" "$*" || _rc=1
	return $_rc
}
