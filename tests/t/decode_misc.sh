#!/bin/sh
# Credential, scheduling and miscellaneous decoders against strace:
# tests/progs/miscops sets its own ids, reads its groups and limits, uses
# CPU affinity, scheduler policies, process groups, unshare/setns and common
# prctl options.  Tick counts and process group ids differ between the runs
# and are masked.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog miscops) || exit 1

MASK_EXTRA='s/^(times\(.*\) += )[0-9]+/\1N/
s/(tms_[a-z]+)=[0-9]+( \/\* [0-9.]+ s \*\/)?/\1=N/g
s/^((getpgid|getsid)\(.*\) += )[0-9]+/\1N/
s/^(prctl\(PR_GET_NO_NEW_PRIVS, .*\) += )[01]/\1N/
s/^getcpu\(\[[0-9]+\], (\[[0-9]+\]|NULL)/getcpu([N], \1/'
export MASK_EXTRA
# (renacer's seccomp filter, used when a trace set is given, needs
# PR_SET_NO_NEW_PRIVS: PR_GET_NO_NEW_PRIVS says 1 there)

rc=0
compare_with_strace -- "$prog" || rc=1
grep -q 'prctl(PR_GET_NAME, "miscops-worker")' "$STRACE_OUT" ||
	fail "strace's trace of miscops lacks the PR_GET_NAME name"
compare_with_strace -e trace=%creds -- "$prog" || rc=1
compare_with_strace -s 4 -e trace=prctl,getgroups,setgroups,sched_getaffinity -- "$prog" || rc=1
exit $rc
