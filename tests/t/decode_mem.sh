#!/bin/sh
# Memory decoders against strace: tests/progs/memops makes mmap (types,
# flags, huge page sizes, unknown bits), munmap, mprotect, brk, mremap,
# madvise, msync, mlock*, mincore, the NUMA policy calls (set_mempolicy,
# get_mempolicy, mbind, migrate_pages), with successes and failures; the dynamic
# loader's own mmap/mprotect calls are compared too.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog memops) || exit 1

calls=mmap,munmap,mprotect,brk,mremap,madvise,msync,mlock,munlock,mlock2
calls=$calls,mlockall,munlockall,mincore
calls=$calls,set_mempolicy,get_mempolicy,mbind,migrate_pages

rc=0
compare_with_strace -e trace=$calls -- "$prog" || rc=1
compare_with_strace -y -e trace=$calls -- "$prog" || rc=1
compare_with_strace -s 1 -e trace=$calls -- "$prog" || rc=1
run_both -- "$prog"
syscall_lines $(echo $calls | tr , ' ') <"$STRACE_OUT" >"$STRACE_OUT.sel"
syscall_lines $(echo $calls | tr , ' ') <"$RENACER_OUT" >"$RENACER_OUT.sel"
[ "$(grep -c mremap "$STRACE_OUT.sel")" -ge 4 ] || fail "expected mremap calls in strace's trace"
compare_traces "$STRACE_OUT.sel" "$RENACER_OUT.sel" "unfiltered trace, memory calls" || rc=1
# -X raw and -X verbose: every value in strace's other two styles
for x in "-X raw" "-X verbose"; do
	# shellcheck disable=SC2086
	compare_with_strace $x -e trace=$calls -- "$prog" || rc=1
done
exit $rc
