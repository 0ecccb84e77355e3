#!/bin/sh
# renacer -c against strace -c on the same commands: the same rows (syscall
# names with their calls and errors), the same header, rules and total line
# layout, and with -S calls / -S name the same row order.  Times differ
# between two tracers, so only their format is checked.
set -u
command -v strace >/dev/null 2>&1 || { echo "strace not installed"; exit 77; }
[ -x "$RENACER" ] || { echo "no $RENACER"; exit 77; }
export LC_ALL=C LANG=C

fail=0
n=0
vary=""
mkdir -p "$TMPDIR/d"
: > "$TMPDIR/d/a"

# rows: "name calls errors", one per line, sorted by name
rows() {
	awk 'NR > 2 && !/^-/ && $NF != "total" {
		if (NF == 6) print $6, $4, $5; else print $5, $4, 0 }' "$1" | sort
}

# the total line with its numbers masked
total_shape() {
	tail -n 1 "$1" | sed 's/[0-9]/9/g'
}

check() { # label sortkey cmd...
	label=$1 key=$2
	shift 2
	n=$((n + 1))
	s="$TMPDIR/strace.$n" r="$TMPDIR/renacer.$n"
	strace -f -c $key -o "$s" "$@" > /dev/null 2>&1 < /dev/null
	"$RENACER" -f -c $key -o "$r" "$@" > /dev/null 2>&1 < /dev/null
	if [ ! -s "$r" ]; then
		echo "$label: renacer wrote no table"; fail=1; return
	fi
	for i in 1 2; do
		a=$(sed -n "${i}p" "$s"); b=$(sed -n "${i}p" "$r")
		if [ "$a" != "$b" ]; then
			echo "$label: line $i differs:"; echo "  strace:  $a"; echo "  renacer: $b"; fail=1
		fi
	done
	if [ "$(tail -n 2 "$s" | head -n 1)" != "$(tail -n 2 "$r" | head -n 1)" ]; then
		echo "$label: closing rule differs"; fail=1
	fi
	if ! tail -n 1 "$r" | grep -Eq '^100\.00 +[0-9]+\.[0-9]{6} +[0-9]+ +[0-9]+ +[0-9]* total$'; then
		echo "$label: bad total line: $(tail -n 1 "$r")"; fail=1
	fi
	if [ -z "${vary:-}" ] &&
	   [ "$(total_shape "$s" | tr -s ' ' | cut -d' ' -f5-)" != \
	     "$(total_shape "$r" | tr -s ' ' | cut -d' ' -f5-)" ]; then
		echo "$label: total calls/errors differ:"; tail -n 1 "$s"; tail -n 1 "$r"; fail=1
	fi
	rows "$s" | grep -Ev "^(${vary:-^}) " > "$s.rows"
	rows "$r" | grep -Ev "^(${vary:-^}) " > "$r.rows"
	if ! cmp -s "$s.rows" "$r.rows"; then
		echo "$label: rows differ (name calls errors; < strace, > renacer):"
		diff "$s.rows" "$r.rows" | grep '^[<>]' | sed 's/^/  /'
		fail=1
	fi
	# every row has strace's column layout
	if awk 'NR > 2 && !/^-/' "$r" | grep -Evq \
	   '^( {0,2}[0-9]{1,3}\.[0-9]{2}) +[0-9]+\.[0-9]{6} +[0-9]+ +[0-9]+ +[0-9]* [a-z0-9_]+$'; then
		echo "$label: a row does not have strace's layout:"; cat "$r"; fail=1
	fi
	case "$key" in
	-S*)	# a deterministic order: the names must come in strace's order
		awk 'NR > 2 && !/^-/ {print $NF}' "$s" > "$s.order"
		awk 'NR > 2 && !/^-/ {print $NF}' "$r" > "$r.order"
		if ! cmp -s "$s.order" "$r.order"; then
			echo "$label: row order differs:"; paste "$s.order" "$r.order" | sed 's/^/  /'
			fail=1
		fi ;;
	esac
	echo "$label: $(wc -l < "$r.rows") syscalls, $(tail -n 1 "$r" | awk '{print $(NF-2)}') calls"
}

check "ls" "" ls -la /usr/bin /nonexistent
check "ls -S calls" "-S calls" ls -la /usr/bin /nonexistent
check "ls -S name" "-S name" ls -la /
# Counts that vary from run to run under strace alone are left out with
# vary=: signal handler returns (when SIGCHLD lands), glibc's temporary-name
# retries (getrandom), and the total line that includes them.
vary="rt_sigreturn|wait4"
check "shell pipeline" "" sh -c 'cat /etc/passwd | wc -l; ls "$1" /nope; echo x > "$1/b"; rm "$1/b"' sh "$TMPDIR/d"
vary=""
check "tar" "-S calls" tar -C "$TMPDIR/d" -cf "$TMPDIR/x.tar" .
check "python3" "" /usr/bin/python3 -c 'import json; print(json.dumps([1]))'
if command -v git >/dev/null 2>&1; then
	# a private repository: nothing changes it between the two runs
	g="$TMPDIR/repo"
	git init -q "$g" && echo x > "$g/f" && git -C "$g" add f &&
		git -C "$g" -c user.name=t -c user.email=t@t commit -qm one &&
		check "git" "-S calls" git -C "$g" log --oneline --stat
fi
if command -v gcc >/dev/null 2>&1; then
	# a.o exists before both runs, so that both see the same files
	printf 'int main(void) { return 0; }\n' > "$TMPDIR/a.c"
	gcc -c "$TMPDIR/a.c" -o "$TMPDIR/a.o"
	vary="getrandom"
	check "gcc" "" gcc -c "$TMPDIR/a.c" -o "$TMPDIR/a.o"
	vary=""
fi

# What the time column measures: by default the system CPU time spent in
# each call (strace's default), with -w the wall-clock latency.  A 200 ms
# sleep costs almost no CPU: strace and renacer show well under 100 ms
# without -w, and at least 200 ms with -w.
nsl() { awk '$NF ~ /nanosleep$/ {print $2}' "$1"; }
for w in "" "-w"; do
	strace -c $w -o "$TMPDIR/sw.s" "$PROGS/engine" sleep 200 > /dev/null 2>&1
	"$RENACER" -c $w -o "$TMPDIR/sw.r" "$PROGS/engine" sleep 200 > /dev/null 2>&1
	s=$(nsl "$TMPDIR/sw.s") r=$(nsl "$TMPDIR/sw.r")
	if [ -z "$s" ] || [ -z "$r" ]; then
		echo "-c $w: no nanosleep row (strace '$s', renacer '$r')"; fail=1; continue
	fi
	if [ -z "$w" ]; then
		ok=$(echo "$s $r" | awk '{print ($1 < 0.1 && $2 < 0.1)}')
	else
		ok=$(echo "$s $r" | awk '{print ($1 >= 0.2 && $2 >= 0.2)}')
	fi
	[ "$ok" = 1 ] || { echo "-c $w: nanosleep time strace $s, renacer $r"; fail=1; }
	echo "-c $w: nanosleep 200 ms shows strace ${s}s, renacer ${r}s"
done
exit $fail
