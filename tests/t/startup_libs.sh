#!/bin/sh
# renacer loads libcurl, libdw/libelf and libbpf only for the runs that use
# them (OTLP export over the network; -s, -k and profiles; the eBPF back
# end): the files renacer has mapped while its command runs are read from
# /proc/PID/maps.  And when one cannot be loaded (a broken copy first in
# LD_LIBRARY_PATH: dlopen() really fails), renacer says so in one line:
# -s stops before anything runs, OTLP export warns and the trace goes on,
# --backend ebpf exits 6 and auto counts with ptrace.
set -u
. "$TOP/tests/lib.sh"
cd "$TMPDIR" || exit 1
# the engine a trace gets by default, ptrace (RENACER_BACKEND=ebpf would
# record them in the kernel, with libbpf: the eBPF runs below name it)
export RENACER_BACKEND=ptrace

# run NAME RENACER-ARGS...: runs renacer ARGS -- a shell that says it has
# started and waits for a file; once it runs (renacer's start-up is over),
# keeps the basenames of the files renacer maps in maps.NAME, lets the
# command end, and sets RC to renacer's exit status
run() {
	_n=$1
	shift
	rm -f started done
	"$RENACER" "$@" -- /bin/sh -c ': > started; while [ ! -e done ]; do sleep 0.02; done' \
		> "out.$_n" 2> "err.$_n" &
	_pid=$!
	_i=0
	while [ ! -e started ]; do
		kill -0 $_pid 2>/dev/null || { wait $_pid; fail "$_n: renacer ended early ($?): $(cat "err.$_n")"; }
		_i=$((_i + 1))
		[ $_i -gt 1500 ] && { kill $_pid; fail "$_n: the command did not start in 30 s"; }
		sleep 0.02
	done
	awk 'NF >= 6 { n = split($6, p, "/"); print p[n] }' "/proc/$_pid/maps" | sort -u > "maps.$_n"
	: > done
	wait $_pid
	RC=$?
	grep -q '^libc\.so\.6$' "maps.$_n" || fail "$_n: libc.so.6 not in renacer's maps: $(cat "maps.$_n")"
}

# has NAME LIB... / hasnt NAME LIB...: renacer had (had not) mapped LIB.so.*
# or LIB-*.so (libdw-0.188.so)
has() {
	_n=$1
	shift
	for _l; do
		grep -q "^$_l[-.]" "maps.$_n" || fail "$_n: renacer did not map $_l: $(tr '\n' ' ' < "maps.$_n")"
	done
}
hasnt() {
	_n=$1
	shift
	for _l; do
		grep -q "^$_l[-.]" "maps.$_n" && fail "$_n: renacer mapped $_l: $(grep "^$_l[-.]" "maps.$_n")"
	done
	return 0
}
OPTIONAL="libcurl libdw libelf libbpf libdebuginfod libssl libgnutls libcrypto"

# 1. runs that need none of them
run text -o t.txt
hasnt text $OPTIONAL
[ $RC = 0 ] && grep -q 'execve("/bin/sh"' t.txt || fail "text: exit $RC, trace: $(head -3 t.txt)"
run json -f --format json -o t.json
hasnt json $OPTIONAL
run ptrace_c --backend ptrace -c -o c.txt
hasnt ptrace_c $OPTIONAL
grep -q 'total$' c.txt || fail "ptrace -c: no table: $(cat c.txt)"
run filtered -f -e trace=openat -o f.txt
hasnt filtered $OPTIONAL
run otlp_file --otlp-file spans.jsonl -o /dev/null
hasnt otlp_file $OPTIONAL
[ -s spans.jsonl ] || fail "--otlp-file wrote nothing"

# 2. the runs that need them, and only them
run source -s -o s.txt
has source libdw libelf
hasnt source libcurl libcurl-gnutls libdebuginfod libbpf libssl libgnutls
[ $RC = 0 ] || fail "-s: exit $RC: $(cat err.source)"
run stack -k -e trace=write -o k.txt
has stack libdw libelf
hasnt stack libcurl libbpf
run profile --function-time -o /dev/null
has profile libdw libelf

if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import google.protobuf, grpc' 2>/dev/null &&
	command -v protoc >/dev/null; then
	. "$TOP/tests/otlp/lib.sh"
	otlp_serve http rx
	run otlp --otlp "http://127.0.0.1:$PORT" --otlp-protocol http/protobuf -o /dev/null
	has otlp libcurl
	hasnt otlp libdw libbpf
	otlp_unannounce err.otlp
	[ $RC = 0 ] && [ ! -s err.otlp ] || fail "--otlp: exit $RC: $(cat err.otlp)"
	[ -s rx ] || fail "--otlp: the collector received nothing"
else
	echo "note: no OTLP receiver here (Debian's python3-protobuf, python3-grpcio, protoc)"
fi

ebpf=no
"$RENACER" --backend ebpf -c -o /dev/null true 2> probe && ebpf=yes
if [ $ebpf = yes ]; then
	run ebpf --backend ebpf -c -o e.txt
	has ebpf libbpf libelf
	hasnt ebpf libcurl libdw
	grep -q 'total$' e.txt || fail "ebpf -c: no table: $(cat e.txt)"
else
	echo "note: eBPF back end unavailable here: $(cat probe)"
fi

# 3. a library that cannot be loaded: a copy of another library (dlsym()
# fails) or a file that is not ELF (dlopen() fails), first in the search
mkdir lib
zlib=$(ldconfig -p | awk '$1 == "libz.so.1" && /x86-64|x86_64|64bit/ { print $NF; exit }')
[ -n "$zlib" ] || zlib=$(ldconfig -p | awk '$1 == "libz.so.1" { print $NF; exit }')
[ -f "$zlib" ] || fail "cannot find libz.so.1 to copy"

# -s: one line, status 1, nothing ran, no trace file
echo 'not a shared object' > lib/libdw.so.1
LD_LIBRARY_PATH="$TMPDIR/lib" "$RENACER" -s -o s2.txt -- /bin/sh -c ': > ran' > out 2> err
rc=$?
[ $rc = 1 ] || fail "-s without libdw: exit $rc, want 1: $(cat err)"
[ "$(wc -l < err)" = 1 ] || fail "-s without libdw: not one line: $(cat err)"
grep -q "^renacer: cannot unwind stacks: cannot load 'libdw.so.1': $TMPDIR/lib/libdw.so.1: " err ||
	fail "-s without libdw: $(cat err)"
[ -e ran ] && fail "-s without libdw: the command ran"
[ -e s2.txt ] && fail "-s without libdw: a trace file was written"
rm lib/libdw.so.1
cp "$zlib" lib/libelf.so.1
LD_LIBRARY_PATH="$TMPDIR/lib" "$RENACER" -k -o /dev/null -- /bin/true 2> err
rc=$?
[ $rc = 1 ] || fail "-k with a libelf without its functions: exit $rc: $(cat err)"
grep -qx "renacer: cannot unwind stacks: cannot load 'libelf.so.1': $TMPDIR/lib/libelf.so.1: undefined symbol: [a-z_]*" err ||
	fail "-k with a bad libelf: $(cat err)"
rm lib/libelf.so.1

# OTLP export: the trace is written, the spans are counted as not exported,
# the exit status is the command's
cp "$zlib" lib/libcurl.so.4
LD_LIBRARY_PATH="$TMPDIR/lib" "$RENACER" --otlp http://127.0.0.1:1 -o t3.txt -- /bin/sh -c 'exit 3' 2> err
rc=$?
[ $rc = 3 ] || fail "--otlp without libcurl: exit $rc, want the command's 3: $(cat err)"
# the line every export prints says where the spans were to go
grep -qx "renacer: OTLP export to 'http://127.0.0.1:1/v1/traces' (http/protobuf, endpoint from --otlp)" err ||
	fail "--otlp without libcurl: no line saying where: $(cat err)"
sed -i "/^renacer: OTLP export to '[^']*' (/d" err
[ "$(wc -l < err)" = 1 ] || fail "--otlp without libcurl: not one line: $(cat err)"
grep -qx "renacer: warning: OTLP export to 'http://127.0.0.1:1' failed: cannot load 'libcurl.so.4': $TMPDIR/lib/libcurl.so.4: undefined symbol: curl_[a-z_]*; \([0-9]*\) of \1 spans not exported" err ||
	fail "--otlp without libcurl: $(cat err)"
grep -q '+++ exited with 3 +++' t3.txt || fail "--otlp without libcurl: no trace: $(cat t3.txt)"
rm lib/libcurl.so.4

if [ $ebpf = yes ]; then
	echo 'not a shared object' > lib/libbpf.so.1
	LD_LIBRARY_PATH="$TMPDIR/lib" "$RENACER" --backend ebpf -c -o e2.txt -- /bin/sh -c ': > ran' 2> err
	rc=$?
	[ $rc = 6 ] || fail "--backend ebpf without libbpf: exit $rc, want 6: $(cat err)"
	grep -qx "renacer: cannot use --backend ebpf: cannot load 'libbpf.so.1': $TMPDIR/lib/libbpf.so.1: .*" err ||
		fail "--backend ebpf without libbpf: $(cat err)"
	[ -e ran ] && fail "--backend ebpf without libbpf: the command ran"
	# auto: says why once and counts with ptrace
	LD_LIBRARY_PATH="$TMPDIR/lib" "$RENACER" -c -o e3.txt -- /bin/sh -c ': > ran' 2> err
	rc=$?
	[ $rc = 0 ] || fail "-c without libbpf: exit $rc: $(cat err)"
	grep -qx "renacer: warning: eBPF back end unavailable (cannot load 'libbpf.so.1': .*): counting with ptrace" err ||
		fail "-c without libbpf: $(cat err)"
	grep -q ' execve$' e3.txt && [ -e ran ] || fail "-c without libbpf: no count: $(cat e3.txt)"
fi

# 4. -s asks libdw for a debug file only when one may exist (else libdw
# loads libdebuginfod and its TLS stacks to find nothing): the places it
# looks still work: .gnu_debuglink's name in the binary's .debug/, and
# NAME.debug next to a binary without a debuglink
. "$TOP/tests/source_lib.sh"
L=$(mark_line srcexec.c exec)
# lines PROG: -s shows the line of srcexec's write
lines() {
	"$RENACER" -s -e trace=write -o t.txt -- "$1" > /dev/null 2> t.err || fail "$1: $(cat t.err)"
	grep -F "[src/srcexec.c:$L in main]" t.txt | grep -qF 'write(1, "exec' ||
		fail "$1: no source line: $(grep write t.txt)"
}
gcc -g -O2 -o sep src/srcexec.c && objcopy --only-keep-debug sep sep.debug &&
	strip --strip-debug sep && objcopy --add-gnu-debuglink=sep.debug sep || fail "objcopy"
mkdir -p d/.debug && cp sep d/ && mv sep.debug d/.debug/ || exit 1
lines "$W/d/sep"
mkdir n && gcc -g -O2 -o n/sep src/srcexec.c && objcopy --only-keep-debug n/sep n/sep.debug &&
	strip --strip-debug n/sep || fail "gcc"
lines "$W/n/sep"
exit 0
