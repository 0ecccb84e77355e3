#!/bin/sh
# Bad input to strace's options: the same verdict as strace 6.1 (rejected
# or accepted), and for a rejection one line on stderr naming the problem
# in strace's words, exit status 1, no trace file.
. "$TOP/tests/lib.sh"
need_strace
rc=0
bad() { echo "FAIL: $*"; rc=1; }

# reject PATTERN OPTIONS...: both tools refuse; renacer says PATTERN
reject() {
	pat=$1; shift
	strace -o "$TMPDIR/s.trace" "$@" /bin/true >/dev/null 2>&1 && bad "strace accepts '$*'"
	"$RENACER" -o "$TMPDIR/r.trace" "$@" /bin/true >/dev/null 2>"$TMPDIR/err"; r=$?
	[ $r -eq 1 ] || bad "'$*': exit $r, want 1"
	[ "$(wc -l < "$TMPDIR/err")" -eq 1 ] || bad "'$*': stderr is '$(cat "$TMPDIR/err")'"
	grep -q -- "$pat" "$TMPDIR/err" || bad "'$*': '$(cat "$TMPDIR/err")' lacks '$pat'"
	[ -e "$TMPDIR/r.trace" ] && bad "'$*': a trace file was written"
	rm -f "$TMPDIR/s.trace" "$TMPDIR/r.trace"
}

# accept OPTIONS...: both tools run the command
accept() {
	strace -o /dev/null "$@" /bin/true >/dev/null 2>&1 || bad "strace refuses '$*'"
	"$RENACER" -o /dev/null "$@" /bin/true >/dev/null 2>"$TMPDIR/err" ||
		bad "renacer refuses '$*': $(cat "$TMPDIR/err")"
}

reject "unknown option '-W'" -W
reject "unknown option '--no-such-option'" --no-such-option
reject "invalid -a argument: '-1'" -a -1
reject "invalid --columns argument: 'abc'" --columns=abc
reject "invalid system call 'foo=bar'" -e foo=bar
reject "invalid system call 'opnat'" -e trace=opnat
reject "invalid system call 'opnat@64'" -e trace=opnat@64
reject "invalid signal 'FOO'" -e signal=FOO
reject "invalid quiet 'foo'" -e quiet=foo
reject "invalid decode-fds 'foo'" -e decode-fds=foo
reject "invalid descriptor 'abc'" -e read=abc
reject "invalid system call 'foo'" -e abbrev=foo
reject "invalid inject argument 'openat'" -e inject=openat
reject "invalid inject argument 'openat:error=FOO'" -e inject=openat:error=FOO
reject "invalid inject argument 'openat:when=0:error=ENOENT'" -e inject=openat:when=0:error=ENOENT
reject "invalid inject argument 'openat:when=3..2:error=EIO'" -e inject=openat:when=3..2:error=EIO
reject "invalid inject argument 'openat:retval=1:error=2'" -e inject=openat:retval=1:error=2
reject "invalid inject argument 'openat:syscall=read:error=EIO'" -e inject=openat:syscall=read:error=EIO
reject "invalid fault argument 'openat:retval=1'" -e fault=openat:retval=1
reject "invalid -e kvm= argument: 'foo'" -e kvm=foo
reject "invalid -I argument: '5'" -I 5
reject "invalid -X argument: 'foo'" -X foo
reject "invalid -O argument: 'foo'" -O foo
reject "unknown column name: 'foo'" -c -U foo
reject "provided more than once: 'calls'" -c -U calls,calls
reject "invalid --relative-timestamps argument: 'x'" --relative-timestamps=x
reject "invalid --absolute-timestamps argument: 'foo'" --absolute-timestamps=foo
reject "invalid sortby: 'foo'" -c -S foo
reject "syscall 'foo' for -b isn't supported" -b foo
reject "cannot find user 'no-such-user-x'" -u no-such-user-x
reject "mutually exclusive" -ff -c
reject "mutually exclusive" -c -C
reject "-w/--summary-wall-clock must be given with" -w
reject "-t and --absolute-timestamps cannot be provided simultaneously" -t --absolute-timestamps
reject "-x and --strings-in-hex cannot be provided simultaneously" -x --strings-in-hex
reject "-y and --decode-fds cannot be provided simultaneously" -y --decode-fds
reject "-q and -e quiet/--quiet cannot be provided simultaneously" -q -e quiet=exit
reject "too many -D's (4)" -DDDD

accept -P /no/such/path
accept -a 0
accept -a 1000
accept -e trace=?no_such_call,close
accept -e trace=close@64
accept -e signal=none
accept -e inject=openat:retval=0:when=1000
accept -z -Z
accept -e q=exit
accept -e kvm=vcpu
accept --kvm=vcpu
exit $rc
