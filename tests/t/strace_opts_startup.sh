#!/bin/sh
# strace's start-up options: -E VAR=VAL / -E VAR (the command's
# environment), -u USERNAME (ids and groups, as strace sets them), -b execve
# (detach at a child's exec), -D/-DD/-DDD (renacer as a grandchild: the
# command keeps its parent), -I (which signals stop renacer).
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog optprog) || exit 1
rc=0
bad() { echo "FAIL: $*"; rc=1; }

# -E: set, replace, remove, in order, the command's environment only
FOO=outer BAR=keep "$RENACER" -o /dev/null -E FOO -E BAZ=new -E BAR=changed -E BAZ=last \
	-- "$prog" env FOO BAR BAZ > "$TMPDIR/r.env" || bad "-E: renacer failed"
FOO=outer BAR=keep strace -o /dev/null -E FOO -E BAZ=new -E BAR=changed -E BAZ=last \
	-- "$prog" env FOO BAR BAZ > "$TMPDIR/s.env"
cmp -s "$TMPDIR/s.env" "$TMPDIR/r.env" || bad "-E: the command saw $(cat "$TMPDIR/r.env"), strace's $(cat "$TMPDIR/s.env")"
grep -qx "FOO=(unset)" "$TMPDIR/r.env" && grep -qx "BAZ=last" "$TMPDIR/r.env" ||
	bad "-E: $(cat "$TMPDIR/r.env")"
# ...and the trace records the environment the command got: LC_ALL, unset
# in renacer's own, as -E set it; TERM as -E removed it
env -u LC_ALL TERM=dumb "$RENACER" --format json -o "$TMPDIR/e.json" -E LC_ALL=C -E TERM \
	-- "$prog" env LC_ALL TERM > /dev/null || bad "-E --format json: renacer failed"
/usr/bin/python3 - "$TMPDIR/e.json" <<'EOF' || bad "-E: the trace's environment is not the command's"
import json, sys
v = json.load(open(sys.argv[1]))["environment"]["variables"]
if v.get("LC_ALL") != "C" or "TERM" not in v or v["TERM"] is not None:
    print("recorded:", {k: v.get(k, "(absent)") for k in ("LC_ALL", "TERM")})
    sys.exit(1)
EOF

# -u: the ids strace gives the command (root only)
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	"$RENACER" -o /dev/null -u nobody -- "$prog" ids > "$TMPDIR/r.ids" || bad "-u: renacer failed"
	strace -o /dev/null -u nobody -- "$prog" ids > "$TMPDIR/s.ids"
	cmp -s "$TMPDIR/s.ids" "$TMPDIR/r.ids" || bad "-u nobody: $(cat "$TMPDIR/r.ids"), strace: $(cat "$TMPDIR/s.ids")"
	grep -q "^uid=$(id -u nobody) euid=$(id -u nobody) " "$TMPDIR/r.ids" || bad "-u: $(cat "$TMPDIR/r.ids")"
fi

# -b execve: the child is let go at its execve (" <detached ...>"), the
# parent goes on being traced
compare_with_strace -f -b execve -e trace=execve,exit_group -- "$prog" exec || rc=1
grep -q '<detached \.\.\.>$' "$RENACER_OUT" || bad "-b execve: no '<detached ...>' line"
# a command that execs itself is followed past that exec (its own first)
compare_with_strace -b execve -e trace=execve,write -- /bin/sh -c "exec $prog fork" || rc=1

# -D, -DD, -DDD: the command is the process that ran renacer (its parent is
# the shell's), and the trace is complete
for d in -D -DD -DDD; do
	sh -c 'echo "$$" > "$1.shell"; exec "$2" "$3" -o "$1.trace" -e trace=write,exit_group \
		sh -c "echo \$\$ \$PPID"' x "$TMPDIR/d" "$RENACER" "$d" > "$TMPDIR/d.out"
	read -r cmdpid cmdppid < "$TMPDIR/d.out"
	[ "$cmdpid" = "$(cat "$TMPDIR/d.shell")" ] || bad "$d: the command ran as $cmdpid, not as the shell's pid"
	[ "$cmdppid" = "$$" ] || bad "$d: the command's parent is $cmdppid, want $$"
	# the tracer outlives its command a moment: wait for the trace
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		grep -q '^+++ exited with 0 +++' "$TMPDIR/d.trace" 2>/dev/null && break
		sleep 0.2
	done
	grep -q '^write(1, ' "$TMPDIR/d.trace" && grep -q '^+++ exited with 0 +++' "$TMPDIR/d.trace" ||
		bad "$d: trace: $(cat "$TMPDIR/d.trace" 2>/dev/null)"
	rm -f "$TMPDIR/d.trace"
done

# -I 3: SIGINT, SIGTERM, SIGHUP are ignored; -I 1: renacer dies of them
"$RENACER" -I 3 -o /dev/null sleep 0.6 & pid=$!
sleep 0.2; kill -INT $pid; kill -TERM $pid
wait $pid; r=$?
[ $r -eq 0 ] || bad "-I 3: renacer ended with $r after SIGINT/SIGTERM, want the command's 0"
"$RENACER" -I 1 -o /dev/null sleep 2 & pid=$!
sleep 0.2; kill -TERM $pid
wait $pid; r=$?
[ $r -eq 143 ] || bad "-I 1: renacer ended with $r after SIGTERM, want 143 (killed by it)"
exit $rc
