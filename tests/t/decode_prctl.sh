#!/bin/sh
# prctl(2) against strace: tests/progs/prctlops makes each option's call
# (names, signals, flags, the arm64 and MIPS options that fail here with
# EINVAL, bad pointers), under -X abbrev, raw and verbose; with "get" the
# options whose result strace decodes, their results injected
# (-e inject=prctl:retval=N) as strace's prctl-*-success tests do (not
# PR_GET_SPECULATION_CTRL of an unknown misfeature: strace shows the
# previous call's text after it).
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog prctlops) || exit 1
MASK_EXTRA='s/^(prctl\((PR_SCHED_CORE|0x3e)( \/\* PR_SCHED_CORE \*\/)?, [^,]*, )[0-9]+/\1PID/'
export MASK_EXTRA
rc=0
compare_with_strace -e trace=prctl -- "$prog" || rc=1
for want in 'prctl(PR_SET_NAME, "123456789abcdef"...)' \
	'PR_SVE_SET_VL_ONEXEC|PR_SVE_VL_INHERIT|0x20' \
	'!PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_ASYNC|0xcafe<<PR_MTE_TAG_SHIFT|0xADDR' \
	'PR_SCHED_CORE_SHARE_TO, PID, 0x7 /* PIDTYPE_??? */'; do
	mask_trace <"$STRACE_OUT" | grep -qF "$want" ||
		fail "strace's trace of prctlops lacks '$want'"
done
for x in "-X raw" "-X verbose" "-v" "-s 4"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=prctl -- "$prog" || rc=1
done
for r in 0 1 0x3 0x2003f 0x57ae57f4 0x60030; do
	for x in "" "-X raw" "-X verbose"; do
		# shellcheck disable=SC2086
		compare_with_strace $x -e trace=prctl -e inject=prctl:retval=$r -- "$prog" get || rc=1
	done
done
compare_with_strace -e trace=prctl -e inject=prctl:error=ENOTTY -- "$prog" get || rc=1
exit $rc
