#!/bin/sh
# --pidns-translation against strace: tests/progs/pidnsops makes calls whose
# arguments and results are process ids from inside a new pid namespace;
# each id shows " /* N in strace's PID NS */".  Traced with -ff so that each
# process's calls are compared in their own order (the file of the process
# inside the namespace is the one with getpid()).
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog pidnsops) || exit 1
# ptrace's: the eBPF recorder decodes after the process inside the
# namespace has gone, and takes a task that is gone to be in renacer's
# namespace (docs/architecture.md, "Commands")
export RENACER_BACKEND=ptrace
"$prog" >/dev/null 2>&1
[ $? = 77 ] && skip "no pid namespace can be made here"
MASK_EXTRA='s/[0-9]+ in strace.s PID NS/N in strace'"'"'s PID NS/g
s/^(wait4\()[0-9]+/\1PID/'
export MASK_EXTRA
inner() { # the -ff file (prefix $1) of the process inside the namespace
	grep -l '^getpid() ' "$1".* | head -n 1
}
rc=0
for opts in "--pidns-translation" "--decode-pids=pidns -e trace=%process,getpid,gettid,getpgid,getsid,getpgrp,kill,tkill,tgkill,fcntl,prlimit64" "--decode-pids=all -X verbose"; do
	rm -f "$TMPDIR"/s.* "$TMPDIR"/r.*
	# shellcheck disable=SC2086
	strace -ff -o "$TMPDIR/s" $opts -- "$prog" >/dev/null 2>&1
	# shellcheck disable=SC2086
	"$RENACER" -ff -o "$TMPDIR/r" $opts -- "$prog" >/dev/null 2>"$TMPDIR/err" ||
		{ echo "renacer $opts failed:"; cat "$TMPDIR/err"; rc=1; continue; }
	s=$(inner "$TMPDIR/s") r=$(inner "$TMPDIR/r")
	[ -n "$s" ] && [ -n "$r" ] || { echo "$opts: no trace of the inner process"; rc=1; continue; }
	compare_traces "$s" "$r" "$opts" || rc=1
	grep -q "^getpid() *= 1\(<pidnsops>\)\? /\* [0-9]* in strace's PID NS \*/" "$r" ||
		{ echo "$opts: getpid() not translated"; rc=1; }
done
exit $rc
