#!/bin/sh
# Time decoders against strace: tests/progs/timeops calls clock_gettime and
# clock_getres for every clock (and bad ones), clock_settime, nanosleep and
# clock_nanosleep (relative, TIMER_ABSTIME, bad flags, invalid, and one cut
# short by SIGALRM so the time left is shown), setitimer, gettimeofday and
# time.  Values read from the clocks differ between the two runs and are
# masked; the requested ones are compared as printed.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog timeops) || exit 1
# the ptrace engine: its stop for the ignored SIGURG interrupts the sleep
# ("= ? ERESTART_RESTARTBLOCK", then restart_syscall), as strace's does;
# the eBPF engine, which never stops the program, is compared with it on
# timeops by t/ebpf_record (docs/architecture.md, "Where it differs")
export RENACER_BACKEND=ptrace

MASK_EXTRA='/(clock_gettime|clock_getres|gettimeofday|timer_gettime|timerfd_gettime)\(/ s/(tv_sec|tv_nsec|tv_usec)=[0-9]+/\1=N/g
/TIMER_ABSTIME/ s/(tv_sec|tv_nsec)=[0-9]+/\1=N/g
/ERESTART_RESTARTBLOCK/ s/\}, \{tv_sec=[0-9]+, tv_nsec=[0-9]+\}/}, {tv_sec=N, tv_nsec=N}/
/^(PID )?time\(/ s/[0-9]{9,}/T/g
/^(PID )?time\(/ s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9]{4}/DATE/g'
export MASK_EXTRA

calls=clock_gettime,clock_getres,clock_settime,nanosleep,clock_nanosleep
calls=$calls,gettimeofday,time,setitimer,getitimer,alarm,timerfd_create
calls=$calls,timerfd_settime,timerfd_gettime,timer_create,timer_settime
calls=$calls,timer_gettime,timer_getoverrun,timer_delete

rc=0
compare_with_strace -- "$prog" || rc=1
grep -q 'nanosleep({tv_sec=100, tv_nsec=0}, {tv_sec=' "$STRACE_OUT" ||
	fail "strace did not show the time left of the interrupted nanosleep"
compare_with_strace -e trace=$calls -- "$prog" || rc=1
compare_with_strace -e trace=%clock -- "$prog" || rc=1
exit $rc
