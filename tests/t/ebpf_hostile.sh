#!/bin/sh
# Issue 18's eBPF items and issue 16's eBPF time column:
# - a command that makes renacer its ptrace tracer (PTRACE_TRACEME) and
#   then stops (a handled signal, an exec, SIGSTOP) ends under the eBPF back
#   end with the status it has under strace and the ptrace back end (it
#   hung: renacer never continued it); each run has a timeout;
# - after kill -9 of renacer the eBPF back end's command dies with it, and
#   with -f its whole traced tree, as the ptrace back end's tracees do
#   (PTRACE_O_EXITKILL); without -f only the command, under both;
# - a --backend ebpf run that cannot run (no eBPF here, or options it
#   cannot serve) leaves no file beside its output, as root and as an
#   unprivileged user;
# - the -c -f time column shows time where strace -c -f does (it showed
#   0.000000 in most rows: task->stime moves by whole ticks).
# test: slow
set -u
. "$TOP/tests/lib.sh"
need_strace
export LC_ALL=C LANG=C
P=$(need_prog ebpf_hostile)
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$RENACER" --backend ebpf -c -o /dev/null true 2> "$TMPDIR/probe"
rc=$?
[ $rc = 6 ] && skip "eBPF back end unavailable here: $(cat "$TMPDIR/probe")"
[ $rc = 0 ] || fail "--backend ebpf -c true: exit $rc: $(cat "$TMPDIR/probe")"

# 1. PTRACE_TRACEME, under a timeout
n=0
for mode in traceme traceme-exec traceme-stop clone-ptrace; do
	timeout -k 5 30 strace -o /dev/null "$P" "$mode" > /dev/null 2>&1 < /dev/null
	want=$?
	case $want in 124|137) fail "strace hangs on $mode" ;; esac
	for opts in "--backend ebpf -c" "--backend ebpf -f -c" "--backend ptrace -c" \
		    "--backend ptrace -f -c"; do
		# a CLONE_PTRACE child of an untraced parent under the ptrace
		# back end is tests/t/reliab_hangs.sh's
		[ "$mode $opts" = "clone-ptrace --backend ptrace -c" ] && continue
		n=$((n + 1))
		# shellcheck disable=SC2086
		timeout -k 5 30 "$RENACER" $opts -o "$TMPDIR/o.$n" "$P" "$mode" \
			> /dev/null 2> "$TMPDIR/e.$n" < /dev/null
		rc=$?
		case $rc in
		124|137) bad "$mode: renacer $opts did not end in 30 s" ;;
		"$want") ;;
		*) bad "$mode: renacer $opts: exit $rc, strace's run $want: $(head -c 300 "$TMPDIR/e.$n")" ;;
		esac
		grep -q '^renacer' "$TMPDIR/e.$n" && bad "$mode: renacer $opts: $(cat "$TMPDIR/e.$n")"
	done
	echo "$mode: exit $want under strace and each back end"
done

# 2. kill -9 of renacer.  state PID: gone, zombie, or running
state() {
	if [ ! -e "/proc/$1" ]; then echo gone; return; fi
	s=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	case $s in Z|X|"") echo gone ;; *) echo running ;; esac
}
# outcome BACKEND OPTS: the fate of the command, its child and grandchild
outcome() {
	b=$1; shift
	o="$TMPDIR/pids.$b.$#"
	rm -f "$o"
	"$RENACER" --backend "$b" "$@" -c -o /dev/null "$P" tree 20000 > "$o" 2> /dev/null < /dev/null &
	rp=$!
	i=0
	while [ ! -s "$o" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	kill -9 $rp
	wait $rp 2> /dev/null
	res=""
	for p in $(cat "$o"); do
		i=0
		# a SIGKILL takes a moment (the watchdog's loop, the kernel)
		while [ "$(state "$p")" = running ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		res="$res $(state "$p")"
	done
	for p in $(cat "$o"); do [ "$(state "$p")" = gone ] || kill -9 "$p"; done
	echo "$res"
}
for f in "-f" ""; do
	pt=$(outcome ptrace $f) eb=$(outcome ebpf $f)
	want=" gone gone gone"
	[ -z "$f" ] && want=" gone running running"
	[ "$pt" = "$want" ] || bad "kill -9 of renacer --backend ptrace $f: command, child, grandchild:$pt (want$want)"
	[ "$eb" = "$want" ] || bad "kill -9 of renacer --backend ebpf $f: command, child, grandchild:$eb (want$want)"
	echo "kill -9 of renacer ${f:-without -f}: command, child, grandchild:$eb under eBPF,$pt under ptrace"
done

# 3. a refused --backend ebpf leaves no file (the output's temporary)
d="$TMPDIR/out"
mkdir -p "$d" && chmod 777 "$d"
RENACER_NO_EBPF=1 "$RENACER" --backend ebpf -c -o "$d/t.txt" true > /dev/null 2> "$TMPDIR/refused"
rc=$?
[ $rc = 6 ] || bad "--backend ebpf without eBPF: exit $rc, want 6: $(cat "$TMPDIR/refused")"
"$RENACER" --backend ebpf -c -e inject=openat:error=ENOENT -o "$d/u.txt" true > /dev/null 2>> "$TMPDIR/refused"
rc=$?
[ $rc = 1 ] || bad "--backend ebpf -e inject=: exit $rc, want 1: $(cat "$TMPDIR/refused")"
[ "$(wc -l < "$TMPDIR/refused")" = 2 ] || bad "refusals are not one line each: $(cat "$TMPDIR/refused")"
left=$(ls -A "$d")
[ -z "$left" ] || bad "refused runs left files beside their output: $left"
# (TMPDIR is private: the unprivileged user writes in a directory of /tmp)
nd=$(mktemp -d /tmp/renacer-nobody.XXXXXX) && chmod 777 "$nd"
if command -v setpriv > /dev/null 2>&1 && [ "$(id -u)" = 0 ] &&
   setpriv --reuid=65534 --regid=65534 --clear-groups "$RENACER" --version > /dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$RENACER" --backend ebpf -c -o "$nd/v.txt" true > /dev/null 2> "$TMPDIR/nobody"
	rc=$?
	[ $rc = 6 ] && grep -q 'not running as root' "$TMPDIR/nobody" ||
		bad "--backend ebpf as an unprivileged user: exit $rc: $(cat "$TMPDIR/nobody")"
	left=$(ls -A "$nd")
	[ -z "$left" ] || bad "an unprivileged refused run left files beside its output: $left"
else
	echo "note: cannot run renacer as an unprivileged user here"
fi
rm -rf "$nd"

# 4. the time column of -c -f: where strace's shows 100 us or more, the
# eBPF back end's shows time too (a row of zeros was the defect)
w="$TMPDIR/w"; mkdir -p "$w"
cmd='ls -la /usr/bin /usr/lib /usr/share /usr/include > /dev/null; cat /etc/passwd | wc -l > /dev/null'
strace -f -c -o "$w/s.txt" sh -c "$cmd" > /dev/null 2>&1
"$RENACER" -f --backend ebpf -c -o "$w/e.txt" sh -c "$cmd" > /dev/null 2>&1
secs() { awk 'NR > 2 && !/^-/ && $NF != "total" { print $NF, $2 }' "$1" | sort; }
secs "$w/s.txt" > "$w/s.secs"; secs "$w/e.txt" > "$w/e.secs"
join "$w/s.secs" "$w/e.secs" > "$w/both"
timed=$(awk '$2 >= 0.0001' "$w/both" | wc -l)
zero=$(awk '$2 >= 0.0001 && $3 == 0' "$w/both")
[ "$timed" -ge 3 ] || bad "-c -f: strace timed only $timed rows: $(cat "$w/s.txt")"
[ -z "$zero" ] || bad "-c -f: rows with time under strace and none under eBPF (name strace ebpf): $zero"
echo "-c -f: $timed rows timed by strace, all timed by the eBPF back end"

[ $fails = 0 ] || exit 1
exit 0
