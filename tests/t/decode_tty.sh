#!/bin/sh
# Terminal ioctls (TCGETS/TCSETS termios, TIOCGWINSZ, ...) against strace,
# with stdin a pseudo-terminal made by Python's pty module.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog ttyops) || exit 1
py=/usr/bin/python3
[ -x $py ] || skip "no $py for a pseudo-terminal"

# on_pty OUT TRACER ARGS...: runs TRACER -o OUT ARGS with a pty as its terminal
on_pty() {
	$py - "$@" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    out, tracer = sys.argv[1], sys.argv[2:]
    os.execvp(tracer[0], [tracer[0], "-o", out] + tracer[1:])
while True:
    try:
        if not os.read(fd, 4096):
            break
    except OSError:
        break
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
PY
}

# the process group varies; signal lines (SIGWINCH after TIOCSWINSZ) are
# another decoder's business
mask_pgrp() { sed -E 's/TIOCGPGRP, \[[0-9]+\]/TIOCGPGRP, [PGRP]/' | grep -v '^--- SIG'; }
on_pty "$TMPDIR/s.txt" strace -e trace=ioctl "$prog" || fail "ttyops under strace failed"
on_pty "$TMPDIR/r.txt" "$RENACER" -e trace=ioctl "$prog" || fail "ttyops under renacer failed"
mask_pgrp <"$TMPDIR/s.txt" >"$TMPDIR/s2.txt"
mask_pgrp <"$TMPDIR/r.txt" >"$TMPDIR/r2.txt"
grep -q 'TCGETS, {c_iflag=' "$TMPDIR/s2.txt" || skip "strace saw no terminal"
rc=0
compare_traces "$TMPDIR/s2.txt" "$TMPDIR/r2.txt" "ioctls on a pty" || rc=1

# -v adds c_line and c_cc
on_pty "$TMPDIR/sv.txt" strace -v -e trace=ioctl "$prog" || fail "ttyops under strace -v failed"
on_pty "$TMPDIR/rv.txt" "$RENACER" -v -e trace=ioctl "$prog" || fail "ttyops under renacer -v failed"
mask_pgrp <"$TMPDIR/sv.txt" >"$TMPDIR/sv2.txt"
mask_pgrp <"$TMPDIR/rv.txt" >"$TMPDIR/rv2.txt"
compare_traces "$TMPDIR/sv2.txt" "$TMPDIR/rv2.txt" "ioctls on a pty, -v" || rc=1
exit $rc
