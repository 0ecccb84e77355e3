#!/bin/sh
# Signal decoders against strace: tests/progs/sigops installs handlers
# (rt_sigaction with masks, flags, SIG_IGN/SIG_DFL), changes its mask
# (rt_sigprocmask, bad how, bad pointers, bad sizes), uses sigaltstack,
# sends itself signals (kill, tkill, tgkill, rt_sigqueueinfo) that are shown
# as "--- SIG... {siginfo} ---" and return through rt_sigreturn({mask=...}),
# catches a SIGSEGV, and uses rt_sigpending/rt_sigtimedwait/rt_sigsuspend.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_proc.sh"
need_strace
prog=$(need_prog sigops) || exit 1

rc=0
# without -f the pids are known from getpid/gettid; with -f from the line prefixes
for opts in "" "-f" "-f -e trace=%signal" "-f -e trace=kill,tgkill,rt_sigreturn"; do
	# shellcheck disable=SC2086
	run_both $opts -- "$prog"
	[ "$STRACE_RC" = "$RENACER_RC" ] ||
		{ echo "exit status: strace run $STRACE_RC, renacer run $RENACER_RC"; rc=1; }
	compare_norm "$STRACE_OUT" "$RENACER_OUT" "sigops $opts" || rc=1
done
grep -q 'SEGV_MAPERR' "$STRACE_OUT" || fail "strace saw no SIGSEGV in sigops"
grep -q 'rt_sigreturn({mask=\[USR2\]})' "$STRACE_OUT" || fail "strace saw no rt_sigreturn with a mask"
exit $rc
