#!/bin/sh
# Bad input for -s and -k: renacer prints what it knows and goes on, and
# never a wrong line.  A binary without debug information (function only),
# a stripped one (module and offset), a separate debug file found through
# .gnu_debuglink (lines) and one that is missing, corrupt (CRC mismatch) or
# has a broken line table (function only); a stack that loops and one in
# unmapped memory; plugins unloaded and another loaded at the same address;
# code run from an anonymous mapping, then unmapped.
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"
L=$(mark_line srcexec.c exec)

# expect PROG BRACKET: the "exec\n" write of PROG shows exactly BRACKET
expect() {
	"$RENACER" -s -k -e trace=write -o t.txt -- "$W/$1" >/dev/null 2>t.err ||
		fail "renacer on $1 failed: $(cat t.err)"
	_l=$(grep -F 'write(1, "exec\n"' t.txt)
	case "$_l" in
	*"$2") ;;
	*) cat t.txt; fail "$1: want '$2' at the end of: $_l" ;;
	esac
	grep -q '^ > ' t.txt || fail "$1: -k printed no frame"
}

gcc -O2 -o nog src/srcexec.c || fail "gcc"
expect nog "= 5 [in main]"
grep -q "^ > $W/nog(main+0x[0-9a-f]*) \[0x[0-9a-f]*\]\$" t.txt || fail "nog: -k frame: $(cat t.txt)"

# stripped: no symbol for main; the frame is its module and offset, the
# same offset -k shows (and nog's main has, being the same code)
off=$(sed -n "s|^ > $W/nog(main+0x[0-9a-f]*) \[\(0x[0-9a-f]*\)\]\$|\1|p" t.txt)
[ -n "$off" ] || fail "no offset of main in nog's stack"
cp nog stripped && strip -s stripped
expect stripped "= 5 [stripped+$off]"
grep -q "^ > $W/stripped() \[0x[0-9a-f]*\]\$" t.txt || fail "stripped: -k frame: $(cat t.txt)"

# a separate debug file next to the binary (.gnu_debuglink): lines
gcc -g -O2 -o sep src/srcexec.c && objcopy --only-keep-debug sep sep.debug &&
	strip --strip-debug sep && objcopy --add-gnu-debuglink=sep.debug sep || fail "objcopy"
expect sep "= 5 [src/srcexec.c:$L in main]"
# ... missing: the symbol table's function
mv sep.debug sep.debug.away
expect sep "= 5 [in main]"
# ... and never fetched over the network: a "debuginfod server" that counts
# connections sees none (libdw's own lookup would connect), while the
# traced command still sees DEBUGINFOD_URLS
$PY - port conns <<'PYEOF' &
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
s.settimeout(20)
n = 0
try:
    while True:
        c, _ = s.accept()
        n += 1
        open(sys.argv[2], "w").write(str(n))
        c.close()
        if n > 100:
            break
except OSError:
    pass
PYEOF
listener=$!
i=0
until [ -f port ]; do i=$((i + 1)); [ $i -lt 100 ] || fail "no listener"; sleep 0.1; done
url="http://127.0.0.1:$(cat port)"
DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH="$W/dcache" "$RENACER" -f -k -s -o net.txt -- \
	sh -c "\"$W/sep\"; echo \"\$DEBUGINFOD_URLS\"" >net.out 2>net.err || fail "renacer -k failed: $(cat net.err)"
grep -q "^ > $W/sep(main+0x[0-9a-f]*) \[0x[0-9a-f]*\]\$" net.txt || fail "no frame of sep: $(cat net.txt)"
[ "$(tail -n 1 net.out)" = "$url" ] || fail "the command lost DEBUGINFOD_URLS: $(cat net.out)"
kill $listener 2>/dev/null
wait $listener 2>/dev/null
[ ! -f conns ] || fail "renacer connected to DEBUGINFOD_URLS $(cat conns) times"
# ... corrupt: a file of the right name whose CRC does not match
head -c 4096 sep.debug.away >sep.debug
expect sep "= 5 [in main]"
# ... a line table of garbage in a file whose CRC matches (relinked to it)
$PY - sep.debug.away sep2.debug <<'PYEOF' || exit 1
import subprocess, sys
out = subprocess.run(["readelf", "-S", "-W", sys.argv[1]], capture_output=True, text=True).stdout
data = bytearray(open(sys.argv[1], "rb").read())
for line in out.splitlines():
    f = line.split("]", 1)[-1].split()
    if f and f[0] == ".debug_line":
        off, size = int(f[3], 16), int(f[4], 16)
        data[off:off + size] = b"\x5a" * size
        break
else:
    sys.exit("FAIL: no .debug_line in the debug file")
open(sys.argv[2], "wb").write(data)
PYEOF
cp sep sep2 && objcopy --remove-section=.gnu_debuglink sep2 && objcopy --add-gnu-debuglink=sep2.debug sep2 ||
	fail "objcopy"
expect sep2 "= 5 [in main]"

# stacks that cannot be walked
gcc -g -O2 -o srcbad src/srcbad.c || fail "cannot build srcbad"
"$RENACER" -s -k -e trace=getpid,gettid,write -o bad.txt -- "$W/srcbad" >/dev/null 2>bad.err ||
	fail "renacer on srcbad failed: $(cat bad.err)"
grep -q "write(1, \"survived\\\\n\", 9) *= 9 \[src/srcbad.c:$(mark_line srcbad.c survived) in main\]\$" bad.txt ||
	fail "srcbad: the last write: $(cat bad.txt)"
grep -qx ' > the stack loops (a frame repeats itself)' bad.txt || fail "srcbad: no loop reported: $(cat bad.txt)"
# the calls of the broken stacks: no source, or the caller's right line
for call in "getpid() " "gettid() "; do
	mark=loopy_call
	[ "$call" = "gettid() " ] && mark=badstack_call
	grep -F "$call" bad.txt | head -n 1 | grep -F '[' | grep -vq "\[src/srcbad.c:$(mark_line srcbad.c $mark) in main\]\$" &&
		fail "srcbad: $call has a wrong source: $(grep -F "$call" bad.txt)"
done
[ "$(grep -c '^ > ' bad.txt)" -lt 60 ] || fail "srcbad: too many frames: $(cat bad.txt)"

# plugins: unloaded, another at the same address; code in no module at all
gcc -g -O2 -fPIC -shared -o srcplug.so src/srcplug.c &&
	gcc -g -O2 -fPIC -shared -o srcplug2.so src/srcplug2.c &&
	gcc -g -O2 -o srcdl src/srcdl.c -ldl || fail "cannot build srcdl"
for filter in "" "-e trace=write,getpid"; do
	# shellcheck disable=SC2086
	"$RENACER" -s $filter -o dl.txt -- "$W/srcdl" "$W/srcplug.so" "$W/srcplug2.so" >/dev/null ||
		fail "renacer on srcdl failed"
	check_source dl.txt 'write(1, "plugin\n"' srcplug.c plugin plugin_write
	check_source dl.txt 'write(1, "plugin2\n"' srcplug2.c plugin2 plugin_write
	check_source dl.txt 'write(1, "after\n"' srcdl.c after_unmap main
	jit=$(mark_line srcdl.c jit_call)
	grep '^getpid()' dl.txt | grep -F '[' | grep -vq "\[src/srcdl.c:$jit in main\]\$" &&
		fail "srcdl $filter: getpid has a wrong source: $(grep getpid dl.txt)"
done
exit 0
