#!/bin/sh
# Decoders read no more of the tracee than the options let them show
# (issue 18): tests/progs/hostile_decode makes calls that claim far more
# memory than they hold.  Peak RSS of renacer (/usr/bin/time %M) stays under
# 50 MB for an execve of 1,000,000 argument pointers with -v -s 4096, and
# bounded for writev -e write=1 of iovecs claiming 1 GiB each (unmapped and
# mapped), select of 2^30 descriptors and a sendmmsg of 1024 x 1024 iovecs;
# what is shown matches strace up to renacer's element cap (4096, then
# "...") and dump limit.
. "$TOP/tests/lib.sh"
need_strace
[ -x /usr/bin/time ] || skip "no /usr/bin/time"
prog=$(need_prog hostile_decode) || exit 1
rc=0
# Under ASan (make asan) the address space cannot be limited and memory is
# the sanitizer's: the lines are still checked, the RSS bounds are not
ASAN=0
case "${BUILD:-}" in *asan*) ASAN=1 ;; esac

# KB = peak RSS in KB of: renacer ARGS... (its trace to $TMPDIR/out), under
# a 4 GB address-space limit so that a regression fails instead of swapping
rss() {
	(if [ $ASAN = 0 ]; then ulimit -v 4000000; fi; exec /usr/bin/time -f %M -o "$TMPDIR/rss" "$RENACER" -o "$TMPDIR/out" "$@") \
		>/dev/null 2>"$TMPDIR/err" </dev/null
	_st=$?
	[ $_st = 0 ] || { echo "renacer $* exited $_st:"; head -n 5 "$TMPDIR/err"; rc=1; }
	KB=$(tail -n 1 "$TMPDIR/rss")
}
under() { # label KB limit-KB
	echo "$1: peak RSS $2 KB"
	[ $ASAN = 0 ] || return 0
	[ "$2" -le "$3" ] || { echo "$1: peak RSS $2 KB is over $3 KB"; rc=1; }
}
# the elements of the argv of the execve of /bin/true in a trace, one a line
argv_items() {
	grep '^execve("/bin/true"' "$1" | sed 's/^execve("\/bin\/true", \[//; s/\], .*//' |
		sed 's/, /\n/g'
}

# Sections 1 and 3 show arrays far larger than the eBPF recorder's records
# hold (docs/architecture.md, "Bounds of a record"): their lines are
# ptrace's, whatever RENACER_BACKEND asks; what the recorder shows of them
# is checked at the end
engine=${RENACER_BACKEND:-}
engine_back() { if [ -n "$engine" ]; then RENACER_BACKEND=$engine; else unset RENACER_BACKEND; fi; }
RENACER_BACKEND=ptrace
export RENACER_BACKEND

# 1. execve with 1,000,000 pointers
rss -v --string-limit 4096 -e trace=execve -- "$prog" execve 1000000
under "execve -v -s 4096" "$KB" 51200
argv_items "$TMPDIR/out" >"$TMPDIR/r.items"
n=$(wc -l <"$TMPDIR/r.items")
[ "$n" = 4097 ] && [ "$(tail -n 1 "$TMPDIR/r.items")" = "..." ] ||
	{ echo "execve -v: expected 4096 strings then '...', got $n items ending $(tail -n 1 "$TMPDIR/r.items")"; rc=1; }
strace -o "$TMPDIR/s" -v -s 4096 -e trace=execve -- "$prog" execve 1000000 >/dev/null 2>&1
argv_items "$TMPDIR/s" | head -n 4096 >"$TMPDIR/s.items"
head -n 1024 "$TMPDIR/s.items" >"$TMPDIR/s.items.1024"
[ "$(wc -l <"$TMPDIR/s.items")" = 4096 ] || fail "strace's execve line has fewer than 4096 strings"
head -n 4096 "$TMPDIR/r.items" | cmp -s - "$TMPDIR/s.items" ||
	{ echo "execve -v: the first 4096 strings differ from strace's"; rc=1; }
grep -q ' = -1 E2BIG ' "$TMPDIR/out" || { echo "execve: no E2BIG result"; rc=1; }
# without -v (the string limit of strings, and the count of the environment)
# and with -s 4096 the line is strace's
compare_with_strace -e trace=execve -- "$prog" execve 1000000 || rc=1
compare_with_strace -s 4096 -e trace=execve -- "$prog" execve 1000000 || rc=1
grep -q '/\* 1000000 vars \*/' "$RENACER_OUT" || { echo "execve: the environment count"; rc=1; }
engine_back

# 2. -e write=1 of iovecs claiming 1 GiB each: over one readable page the
# dump stops at the first chunk that cannot be read (as strace: nothing but
# the headers)
rss -e trace=writev -e write=1 -- "$prog" writev_unmapped 3
under "writev -e write=1, unmapped" "$KB" 51200
compare_with_strace -e trace=writev -e write=1 -- "$prog" writev_unmapped 3 || rc=1
[ "$(grep -c '^ \* 1073741824 bytes in buffer' "$RENACER_OUT")" = 3 ] ||
	{ echo "writev unmapped: expected 3 buffer headers"; rc=1; }
# over 1 GiB of readable zeros: 16 MiB of the call dumped, then the limit
rss -e trace=writev,write -e write=1 -- "$prog" writev_mapped 3
under "writev -e write=1, mapped" "$KB" 102400
lines=$(grep -c '^ | [0-9a-f]\{5,\}  00 00' "$TMPDIR/out")
limits=$(grep -c '^ | <renacer dumps at most 16777216 bytes and 4096 buffers of a call: the rest is left out>$' "$TMPDIR/out")
[ "$lines" = $((2 * 16777216 / 16)) ] && [ "$limits" = 2 ] ||
	{ echo "writev mapped: $lines dump lines and $limits limit lines (want $((2 * 16777216 / 16)) and 2)"; rc=1; }
grep -q '^ \* 1073741824 bytes in buffer 1' "$TMPDIR/out" &&
	{ echo "writev mapped: buffer 1 dumped after the limit"; rc=1; }
rm -f "$TMPDIR/out"

# 3. select(2^30) with 1M bits set in each set: 4096 descriptors, then "..."
RENACER_BACKEND=ptrace
export RENACER_BACKEND
rss -e trace=select -- "$prog" select
under "select 2^30" "$KB" 51200
compare_with_strace -e trace=select -- "$prog" select >/dev/null
sed 's/ 4096 [0-9 ]*\]/ ...]/g' "$STRACE_OUT" >"$STRACE_OUT.cut"
compare_traces "$STRACE_OUT.cut" "$RENACER_OUT" "select (strace cut at 4096 fds)" || rc=1
engine_back

# 4. sendmmsg of 1024 x 1024 iovecs of 4 KiB with -v -s 4096: the event's
# budget ends the arrays with "..."
rss -v --string-limit 4096 -e trace=sendmmsg -- "$prog" sendmmsg
under "sendmmsg -v -s 4096" "$KB" 51200
grep -q '^sendmmsg(-1, \[{msg_hdr={msg_name=NULL, msg_namelen=0, msg_iov=\[{iov_base="\\0\\7\\16' "$TMPDIR/out" &&
	grep -q '}}, \.\.\.\], 1024, 0) = -1 EBADF ' "$TMPDIR/out" ||
	{ echo "sendmmsg: unexpected line:"; cut -c1-200 "$TMPDIR/out"; rc=1; }

# 5. Sections 1 and 3 under the eBPF recorder (when it runs here): memory
# bounded as well, and the arrays cut where its records end, as
# docs/architecture.md says: execve's arguments at 1024 pointers (an
# unreadable tail, as ptrace shows an array running into unmapped memory),
# the environment counted up to 1024, select's sets of more than 1024
# descriptors as addresses
if "$RENACER" --backend ebpf -o /dev/null true 2>/dev/null; then
	RENACER_BACKEND=ebpf
	export RENACER_BACKEND
	rss -v --string-limit 4096 -e trace=execve -- "$prog" execve 1000000
	under "ebpf: execve -v -s 4096" "$KB" 51200
	argv_items "$TMPDIR/out" >"$TMPDIR/r.items"
	[ "$(wc -l <"$TMPDIR/r.items")" = 1025 ] &&
		tail -n 1 "$TMPDIR/r.items" | grep -q '^\.\.\. /\* 0x[0-9a-f]* \*/$' &&
		head -n 1024 "$TMPDIR/r.items" | cmp -s - "$TMPDIR/s.items.1024" ||
		{ echo "ebpf: execve -v: not the first 1024 strings then an unreadable tail"; rc=1; }
	rss -e trace=execve -- "$prog" execve 1000000
	grep -q '^execve("/bin/true", .* /\* 1024 vars, unterminated \*/) = -1 E2BIG ' "$TMPDIR/out" ||
		{ echo "ebpf: execve: the environment count"; cut -c1-200 "$TMPDIR/out"; rc=1; }
	rss -e trace=select -- "$prog" select
	under "ebpf: select 2^30" "$KB" 51200
	grep -q '^select(1073741824, 0x[0-9a-f]*, 0x[0-9a-f]*, 0x[0-9a-f]*, {tv_sec=0, tv_usec=0}) = -1 ' "$TMPDIR/out" ||
		{ echo "ebpf: select: unexpected line:"; cut -c1-200 "$TMPDIR/out"; rc=1; }
	engine_back
	rm -f "$TMPDIR/out"
fi
exit $rc
