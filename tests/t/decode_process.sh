#!/bin/sh
# Process decoders against strace, following children (-f): tests/progs/
# procops forks, vforks, clones (with a stack, clone3 with a pidfd, a
# pthread), waits for children that exit, are killed, exec; execs itself and
# fails to exec with a long argv; and uses prlimit64/getrlimit/setrlimit,
# getrusage, arch_prctl, uname and priorities.  Traces are compared per
# process after joining "<unfinished ...>" halves (tests/lib_proc.sh), so the
# interleaving of processes does not matter; pids are named by appearance.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_proc.sh"
need_strace
prog=$(need_prog procops) || exit 1

# run-time values: CPU times and counts; pthread_join's futex wait happens
# or not.  The thread may be gone before the parent's clone3 exit is read
# (glibc's child_tid is its parent_tid, which the thread's exit clears): its
# parent_tid is 0 then, under strace and renacer alike, and is masked.
MASK_EXTRA='s/tv_usec=[0-9P]+/tv_usec=N/g; s/si_(utime|stime)=[0-9P]+( \/\* [0-9.]+ s \*\/)?/si_\1=N/g; s/(ru_[a-z]+)=[0-9P]+/\1=N/g
s/(=> \{parent_tid=\[)(0|P[0-9]+)\]/\1TID]/g'
export MASK_EXTRA

rc=0
for opts in "-f -e trace=!futex" "-f -v -e trace=!futex" "-f -s 8 -e trace=!futex" \
	"-f -e trace=%process" "-f -e trace=clone,wait4,execve,prlimit64"; do
	# shellcheck disable=SC2086
	run_both $opts -- "$prog"
	[ "$STRACE_RC" = "$RENACER_RC" ] ||
		{ echo "exit status: strace run $STRACE_RC, renacer run $RENACER_RC"; rc=1; }
	compare_norm "$STRACE_OUT" "$RENACER_OUT" "procops $opts" || rc=1
	[ -n "${first:-}" ] || first=$STRACE_OUT.norm
done
# the trace exercised what it should
for want in 'clone3(.*=> {pidfd=\[' 'WIFSIGNALED(s) && WTERMSIG(s) == SIGQUIT' \
	'execve(.*"exec"\]' 'exited with 3' 'WEXITSTATUS(s) == 7'; do
	grep -q "$want" "$first" || fail "strace's trace of procops lacks '$want'"
done
exit $rc
