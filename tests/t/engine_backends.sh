#!/bin/sh
# The engine's probed features and their fallbacks give the same trace:
# PTRACE_GET_SYSCALL_INFO vs registers, process_vm_readv vs PEEKDATA
# (single-process programs, so that the lines come in one order).  And
# a trace set installs a seccomp-bpf filter in the tracee (the other calls
# never stop it) unless --no-seccomp, with the same lines either way.
set -u
# the ptrace engine's probes, fallbacks and seccomp filter: that engine,
# whatever RENACER_BACKEND asks of auto
export RENACER_BACKEND=ptrace
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export LC_ALL=C
# addresses, pids (line prefixes, pid results, si_pid) and times vary
mask() {
	sed -E 's/0x[0-9a-f]{6,}/0xADDR/g; s/^[0-9]+ +//; s/(st_[amc]time|tv_sec|tv_nsec|si_pid)=[0-9]+/\1=N/g
		s/^((set_tid_address|getpid|gettid|clone|clone3|fork|vfork|wait4)\(.*= )[0-9]+$/\1PID/
		s/^(wait4\()[0-9]+/\1PID/' "$1"
}

# runs renacer in a fresh directory with one variable set: out var
# (the same directory name each time: getcwd is in the trace)
run() {
	rm -rf "$TMPDIR/run" && mkdir -p "$TMPDIR/run" && cd "$TMPDIR/run" || exit 1
	env "$2=1" "$RENACER" -o ../$1.txt "$prog" > /dev/null 2>&1 < /dev/null
	cd "$TMPDIR" || exit 1
}
for prog in "$PROGS/fileops" "$EXAMPLES/file_io"; do
	[ -x "$prog" ] || continue
	run a RENACER_TEST_BASELINE
	run b RENACER_NO_SYSCALL_INFO
	run c RENACER_NO_VM_READV
	cd "$TMPDIR" || exit 1
	mask a.txt | grep -v '^getrandom' > a.m
	for alt in b c; do
		mask $alt.txt | grep -v '^getrandom' > $alt.m
		if ! diff a.m $alt.m > d.txt; then
			bad "$(basename "$prog"): fallback $alt differs:"; head -n 20 d.txt
		fi
	done
	[ "$(wc -l < a.m)" -gt 10 ] || bad "$(basename "$prog"): trace too short"
done

P=$PROGS/seccomp_status
out=$("$RENACER" -f -e trace=openat -o "$TMPDIR/s1" "$P")
echo "$out" | grep -q 'Seccomp:[[:space:]]*2' || bad "no seccomp filter with -f -e trace=openat: '$out'"

# no_new_privs only where the kernel needs it: not for root (CAP_SYS_ADMIN),
# so set-user-ID programs behave as untraced; an unprivileged renacer sets it
if [ "$(id -u)" = 0 ]; then
	echo "$out" | grep -q 'NoNewPrivs:[[:space:]]*0' || bad "root: no_new_privs set: '$out'"
	chmod 755 "$TMPDIR"
	nob="setpriv --reuid=65534 --regid=65534 --clear-groups"
	# (only where user nobody can reach the binaries: a clone under /root
	# is not readable by other users)
	if ! command -v setpriv > /dev/null 2>&1 ||
	   ! $nob sh -c "test -x '$RENACER' && test -x '$P'" 2>/dev/null; then
		echo "note: cannot run renacer as nobody here; unprivileged check skipped"
	else
		out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$RENACER" -f -e trace=openat -o /dev/null "$P" 2>&1)
		echo "$out" | grep -q 'Seccomp:[[:space:]]*2' ||
			bad "unprivileged: no seccomp filter: '$out'"
		echo "$out" | grep -q 'NoNewPrivs:[[:space:]]*1' ||
			bad "unprivileged: no_new_privs not set: '$out'"
	fi
fi
out=$("$RENACER" -f --no-seccomp -e trace=openat -o "$TMPDIR/s2" "$P")
echo "$out" | grep -q 'Seccomp:[[:space:]]*0' || bad "--no-seccomp still filtered: '$out'"
out=$("$RENACER" -f -o "$TMPDIR/s3" "$P")
echo "$out" | grep -q 'Seccomp:[[:space:]]*0' || bad "a filter without -e trace: '$out'"
mask "$TMPDIR/s1" > "$TMPDIR/s1.m"; mask "$TMPDIR/s2" > "$TMPDIR/s2.m"
diff "$TMPDIR/s1.m" "$TMPDIR/s2.m" || bad "seccomp and full stops give different lines"
grep -q '^openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = ' "$TMPDIR/s1.m" || bad "openat line missing: $(cat "$TMPDIR/s1")"
grep -v '^openat\|^+++' "$TMPDIR/s1.m" && bad "lines of other syscalls with -e trace=openat"
# without -f no filter: threads and children nobody traces would get ENOSYS
# from every selected call (strace too uses --seccomp-bpf only with -f)
out=$("$RENACER" -e trace=openat -o "$TMPDIR/s0" sh -c "grep Seccomp: /proc/self/status")
[ "$out" = "Seccomp:	0" ] || bad "a filter without -f (a child's openat fails): '$out'"
# the same lines strace prints for that set
strace -f -e trace=openat -o "$TMPDIR/st" "$P" > /dev/null
mask "$TMPDIR/st" > "$TMPDIR/st.m"
diff "$TMPDIR/st.m" "$TMPDIR/s1.m" || bad "-e trace=openat differs from strace"
exit $fail
