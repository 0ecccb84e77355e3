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
# (renacer's seccomp filter, used when a trace set is given, sets
# no_new_privs when renacer runs unprivileged: PR_GET_NO_NEW_PRIVS says 1)

rc=0
compare_with_strace -- "$prog" || rc=1
grep -q 'prctl(PR_GET_NAME, "miscops-worker")' "$STRACE_OUT" ||
	fail "strace's trace of miscops lacks the PR_GET_NAME name"
compare_with_strace -e trace=%creds -- "$prog" || rc=1
compare_with_strace -s 4 -e trace=prctl,getgroups,setgroups,sched_getaffinity -- "$prog" || rc=1
# seccomp(2) and prctl(PR_GET/SET_SECCOMP): operations, flags, actions,
# notification sizes, failures, a real filter.  With a trace set strace runs
# with its own filter too (-f --seccomp-bpf), so PR_GET_SECCOMP sees one in
# both runs; the full trace has no filter on either side.
sprog=$(need_prog seccompops) || exit 1
compare_with_strace -f --seccomp-bpf -e trace=seccomp,prctl -- "$sprog" || rc=1
compare_with_strace -- "$sprog" || rc=1
grep -q '^seccomp(SECCOMP_GET_NOTIF_SIZES, 0, {seccomp_notif=' "$RENACER_OUT" ||
	{ echo "no decoded SECCOMP_GET_NOTIF_SIZES line"; rc=1; }
# -X raw and -X verbose: every value in strace's other two styles
for x in "-X raw" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=%creds -- "$prog" || rc=1
done
exit $rc
