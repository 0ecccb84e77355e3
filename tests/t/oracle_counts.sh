#!/bin/sh
# strace is the oracle: on real programs nobody here wrote, renacer -f -c
# gives the same syscalls with the same call and error counts as strace -f -c
# (git, python3, gcc compiling a file, coreutils, a shell pipeline, tar), and
# on multi-threaded programs the same counts for every syscall whose count
# does not depend on thread scheduling (futex, mmap, munmap, mprotect,
# madvise, sched_yield and rseq vary between any two runs; so does whether
# a SIGCHLD interrupts a call, which rt_sigreturn reports as its error).
set -u
command -v strace >/dev/null 2>&1 || { echo "strace not installed"; exit 77; }
export LC_ALL=C LANG=C HOME="$TMPDIR" GIT_CONFIG_NOSYSTEM=1
fail=0
cd "$TMPDIR" || exit 1
mkdir -p src && printf 'int main(void) { return 0; }\n' > src/a.c
printf 'hello\n' > src/f.txt

rows() { # strace -c table -> "name calls errors" sorted
	awk 'NR > 2 && !/^-/ && $NF != "total" {
		if (NF == 6) print $6, $4, $5; else print $5, $4, 0 }' "$1" | sort
}

trace_both() { # filter cmd...: s.rows (strace) and r.rows (renacer)
	filt=$1; shift
	# each tracer runs in a fresh copy of the same directory
	rm -rf run.s run.r && mkdir run.s run.r && cp -r src run.s/ && cp -r src run.r/
	(cd run.s && TMPDIR="$PWD" strace -f -c -o ../s.txt "$@" > /dev/null 2>&1 < /dev/null)
	(cd run.r && TMPDIR="$PWD" "$RENACER" -f -c -o ../r.txt "$@" > /dev/null 2>&1 < /dev/null)
	rows s.txt | grep -Ev "$filt" > s.rows
	rows r.txt | grep -Ev "$filt" > r.rows
}

check() { # label filter cmd...
	label=$1; shift
	trace_both "$@"
	if [ ! -s r.rows ]; then
		echo "FAIL $label: renacer gave no rows"; fail=1; return
	fi
	# a program may itself vary between two runs (gcc retries a random
	# temporary name now and then): a difference must show twice
	cmp -s s.rows r.rows || trace_both "$@"
	if ! cmp -s s.rows r.rows; then
		echo "FAIL $label: counts differ (< strace, > renacer)"
		diff s.rows r.rows | grep '^[<>]' | sed 's/^/  /'
		fail=1
	else
		echo "ok $label: $(wc -l < r.rows) syscalls agree"
	fi
}

none='^$'
check "git init+status" "$none" sh -c 'git init -q repo && cd repo && git status --short >/dev/null'
check "python3" "$none" /usr/bin/python3 -c 'import json; print(json.dumps({"a": 1}))'
# gcc's temporary file (/tmp/ccXXXXXX.s) is named by glibc's tempname
# (gnulib try_tempname_len): its first random value comes from the clock,
# and only when that value falls in the unfair range of the base-62
# rejection sampling ((2^64 mod 62^10) / 2^64, 4.45% of draws) does it call
# getrandom for another: one gcc run in 22 makes one getrandom more, under
# any tracer or none.  -save-temps names its files itself: every call of
# that run is deterministic and compared exactly (getrandom included: the
# malloc tcache key of each of its four processes); the run with a
# temporary file is compared exactly but for getrandom.
check "gcc -save-temps" "$none" gcc -save-temps -c src/a.c -o a.o
check "gcc" '^getrandom ' gcc -c src/a.c -o a.o
check "coreutils" "$none" sh -c 'cp src/f.txt g.txt && wc -c g.txt && sort src/f.txt && stat g.txt && rm g.txt'
check "pipeline" '^rt_sigreturn ' sh -c 'cat /etc/passwd | grep -c root | tr 0-9 a-j'
check "tar" "$none" tar -cf t.tar src
vary='^(futex|mmap|munmap|mprotect|madvise|sched_yield|rseq|set_robust_list) '
check "threads (example)" "$vary" "$EXAMPLES/threads"
# Python's join returns when the thread's Python code is done, before its
# OS thread has blocked signals and exited: at full speed (the eBPF back
# end, which -c uses as root) exit_group now and then kills a worker just
# before its last rt_sigprocmask, which strace's slower stops never let
# happen
check "threads (python)" "${vary%) }|rt_sigprocmask) " /usr/bin/python3 -c '
import threading
ts = [threading.Thread(target=lambda: sum(range(10000))) for _ in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]'
exit $fail
