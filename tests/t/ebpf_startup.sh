#!/bin/sh
# The eBPF back end loads only what a run needs (issue 19): the programs
# of the counter or of the recorder, sched_process_fork's only with -f;
# without -f its task table is small.  What renacer says it loaded
# (RENACER_EBPF_STATS) is checked against what the kernel shows of renacer
# while the command runs (/proc/PID/fd and fdinfo: programs, attached
# links, maps).  The command is forked before the load and told to exec
# after it, and is still followed from its execve; an exec that fails is
# still reported.
set -u
. "$TOP/tests/lib.sh"
export LC_ALL=C LANG=C
"$RENACER" --backend ebpf -c -o /dev/null true 2> "$TMPDIR/probe"
rc=$?
[ $rc = 6 ] && skip "eBPF back end unavailable here: $(cat "$TMPDIR/probe")"
[ $rc = 0 ] || fail "--backend ebpf -c true: exit $rc: $(cat "$TMPDIR/probe")"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# What the command sees of its parent, renacer: the kinds of its bpf
# descriptors, and the fdinfo of its maps.
SPY='for f in /proc/$PPID/fd/*; do
	l=$(readlink "$f")
	echo "$l" >> fds.txt
	case $l in *bpf-map*) cat "/proc/$PPID/fdinfo/${f##*/}" >> maps.txt ;; esac
done'

n=0
# check LABEL PROGRAMS OPTS...: renacer OPTS -- sh -c SPY loads exactly
# PROGRAMS (names, in the skeleton's order), attaches all but rec_capture
# (a tail call's target), and the kernel agrees
check() {
	label=$1 want=$2; shift 2
	n=$((n + 1))
	d="$TMPDIR/s$n"
	mkdir -p "$d"
	(cd "$d" && RENACER_EBPF_STATS=1 "$RENACER" --backend ebpf "$@" -o out.txt -- sh -c "$SPY" \
		> /dev/null 2> err.txt < /dev/null) || bad "$label: exit $?: $(cat "$d/err.txt")"
	got=$(sed -n 's/^renacer: eBPF: programs: [0-9]* loaded: //p' "$d/err.txt")
	[ "$got" = "$want" ] || bad "$label: loaded '$got', want '$want'"
	nprog=$(echo "$want" | wc -w)
	nlink=$(echo "$want" | tr ' ' '\n' | grep -cv '^rec_capture$')
	kprog=$(grep -c 'anon_inode:bpf-prog' "$d/fds.txt")
	klink=$(grep -c 'anon_inode:bpf_link' "$d/fds.txt")
	[ "$kprog" = "$nprog" ] || bad "$label: renacer holds $kprog programs, want $nprog"
	[ "$klink" = "$nlink" ] || bad "$label: renacer holds $klink links, want $nlink"
	# the bytes of the maps' values, as the kernel has them (a ring
	# buffer's max_entries is its size) and as renacer says
	kbytes=$(awk '/^max_entries:/ { m = $2 } /^value_size:/ { v = $2 }
		/^map_type:/ { t = $2 }
		/^map_id:/ { s += (t == 27 ? m : m * v) } END { print s + 0 }' "$d/maps.txt")
	bytes=$(sed -n 's/^renacer: eBPF: maps: [0-9]*, \([0-9]*\) bytes.*/\1/p' "$d/err.txt")
	[ "$kbytes" = "$bytes" ] || bad "$label: maps of $kbytes bytes in the kernel, renacer says '$bytes'"
	BYTES=$kbytes
	# the command was forked before the program was loaded, told to exec
	# once it was attached, and its execve came after
	sed -n 's/^renacer: eBPF: start-up: //p' "$d/err.txt" | awk -v l="$label" '
		{ for (i = 1; i < NF; i++) if ($(i + 1) ~ /^\+/) t[$i] = substr($(i + 1), 2) + 0 }
		END {
			if (!("fork" in t) || !("load" in t) || !("go" in t) || !("execve" in t) ||
			    !(t["fork"] < t["load"] && t["load"] <= t["attach"] &&
			      t["attach"] <= t["go"] && t["go"] <= t["execve"])) {
				print "FAIL: " l ": steps out of order: " $0; exit 1
			}
		}' || fails=$((fails + 1))
	OUT="$d/out.txt"
}

check "-c" "rb_sys_enter rb_sys_exit rb_exec rb_exit" -c
# without -f the table holds one task: well under a MiB of maps (the
# 32768-entry table alone is 1.25 MiB)
[ "${BYTES:-0}" -gt 0 ] && [ "$BYTES" -lt 1048576 ] || bad "-c: maps of $BYTES bytes"
check "-f -c" "rb_sys_enter rb_sys_exit rb_fork rb_exec rb_exit" -f -c
check "record" "rec_sys_enter rec_sys_exit rec_capture rec_signal_deliver rec_signal_generate rb_exec rb_exit"
check "record -f" "rec_sys_enter rec_sys_exit rec_capture rec_signal_deliver rec_signal_generate rb_fork rb_exec rb_exit" -f
# followed from its first call: the trace opens with its execve
head -n 1 "$OUT" | grep -q '^[0-9]*  *execve("[^"]*/sh", \["sh", "-c", ' ||
	bad "record -f: the trace does not open with the command's execve: $(head -n 1 "$OUT")"

# an exec that fails, and a program not found: reported as before the
# command was forked early (the exit status is not 0; a missing program is
# reported as the ptrace engine reports it)
printf '\001\002\003 not a program\n' > "$TMPDIR/notprog"
chmod +x "$TMPDIR/notprog"
"$RENACER" --backend ebpf -c -o /dev/null -- "$TMPDIR/notprog" > /dev/null 2> "$TMPDIR/e.err"
rc=$?
[ $rc != 0 ] && grep -qx "renacer: cannot run '$TMPDIR/notprog': Exec format error" "$TMPDIR/e.err" ||
	bad "a failed exec: exit $rc: $(cat "$TMPDIR/e.err")"
for be in ptrace ebpf; do
	"$RENACER" --backend "$be" -c -o /dev/null -- no-such-program-here > /dev/null 2> "$TMPDIR/$be.err"
	echo "$?" >> "$TMPDIR/$be.err"
done
cmp -s "$TMPDIR/ebpf.err" "$TMPDIR/ptrace.err" ||
	bad "a missing program: '$(cat "$TMPDIR/ebpf.err")', ptrace: '$(cat "$TMPDIR/ptrace.err")'"
[ $fails = 0 ] || exit 1
echo ok
