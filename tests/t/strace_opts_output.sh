#!/bin/sh
# strace's output options against strace: -ff / --output-separately (one
# file per task, FILE.PID), -A (append), -o '|command', and the summary's
# -U columns, -O overhead and -C (the table at the end of the -o file);
# a thread's execve ("<pid changed to N ...>", "+++ superseded by execve in
# pid N +++", -e quiet=thread-execve).
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog optprog) || exit 1
rc=0
MASK_EXTRA='s/(kill|wait4)\([0-9]+([^)]*\)) += /\1(PID\2 = /
s/<pid changed to [0-9]+ /<pid changed to PID /
s/superseded by execve in pid [0-9]+/superseded by execve in pid PID/'

# -ff: the same files (by order of pid), each as strace writes it; a
# thread's execve ends its file, the leader's file goes on
for opts in "-ff" "--follow-forks --output-separately" \
	"-ff -e trace=execve,pause,exit_group -- thread-exec"; do
	mode=fork
	case "$opts" in *" -- "*) mode=${opts##* -- }; opts=${opts% -- *} ;; esac
	d="$TMPDIR/ff"
	rm -rf "$d" && mkdir -p "$d/s" "$d/r"
	# shellcheck disable=SC2086
	(cd "$d/s" && strace $opts -o out -- "$prog" $mode >/dev/null 2>&1)
	# (a thread's execve: the ptrace engine, whose stops order its entry
	# before the leader's end, as strace's do; t/ebpf_record compares the
	# eBPF engine's with it)
	be=auto
	[ "$mode" = thread-exec ] && be=ptrace
	# shellcheck disable=SC2086
	(cd "$d/r" && "$RENACER" --backend $be $opts -o out -- "$prog" $mode >/dev/null 2>&1) ||
		{ echo "$opts: renacer failed"; rc=1; }
	ls "$d/s" | sort -t. -k2 -n > "$d/s.list"
	ls "$d/r" | sort -t. -k2 -n > "$d/r.list"
	[ "$(wc -l < "$d/r.list")" -eq 2 ] || { echo "$opts: renacer wrote $(cat "$d/r.list")"; rc=1; }
	[ -e "$d/r/out" ] && { echo "$opts: renacer wrote a plain 'out'"; rc=1; }
	n=0
	while read -r sf && read -r rf <&3; do
		n=$((n + 1))
		compare_traces "$d/s/$sf" "$d/r/$rf" "$opts file $n" || rc=1
	done < "$d/s.list" 3< "$d/r.list"
done

# -A: what the file held stays first, the trace follows
d="$TMPDIR/append"
mkdir -p "$d"
printf 'earlier line\n' > "$d/s.txt"
printf 'earlier line\n' > "$d/r.txt"
strace -A -o "$d/s.txt" -e trace=write -- "$prog" fork >/dev/null 2>&1
"$RENACER" -A -o "$d/r.txt" -e trace=write -- "$prog" fork >/dev/null 2>&1
compare_traces "$d/s.txt" "$d/r.txt" "-A" || rc=1
[ "$(head -n 1 "$d/r.txt")" = "earlier line" ] || { echo "-A lost the file's content"; rc=1; }

# -o '|command' and -o '!command'
strace -o "|cat > '$d/s.pipe'" -e trace=write -- "$prog" fork >/dev/null 2>&1
"$RENACER" -o "|cat > '$d/r.pipe'" -e trace=write -- "$prog" fork >/dev/null 2>&1
compare_traces "$d/s.pipe" "$d/r.pipe" "-o |cat" || rc=1
"$RENACER" -o "!wc -l > '$d/count'" -e trace=write -- "$prog" fork >/dev/null 2>&1
[ "$(cat "$d/count")" -eq "$(wc -l < "$d/r.pipe")" ] || { echo "-o !wc: $(cat "$d/count") lines"; rc=1; }

# the summary: -U columns (counts only: exact), -O 1s makes every time 0
# (so the whole table is exact), -C ends the -o file with the table
chk() { compare_with_strace "$@" || rc=1; }
chk -c -U name,calls,errors -S name -- "$prog" io
chk -c -U calls,shortest,longest,syscall -O 1s -- "$prog" io
chk -c -w -O 1s -U time-percent,total-time,min-time,max-time,avg-time,calls,errors,name \
	-S calls -- "$prog" io
chk -C -O 1s -w -e trace=read,write,close -- "$prog" io
chk -C -U calls,name -e trace=write -- "$prog" fork

# a thread other than the leader execs: with the leader in a traced call,
# outside of one, and with -e quiet=thread-execve
for opts in "-e trace=execve,pause,exit_group" "-e trace=execve,exit_group" \
	"-e trace=execve,exit_group -e quiet=thread-execve"; do
	# (the ptrace engine, as above)
	# shellcheck disable=SC2086
	(export RENACER_BACKEND=ptrace; compare_with_strace -f $opts -- "$prog" thread-exec) || rc=1
done
exit $rc
