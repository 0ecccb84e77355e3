#!/bin/sh
# -k and -s under the eBPF recorder (--backend ebpf), which unwinds a copy of
# each call's user stack taken at its entry with the executable mappings the
# kernel reported: on the source-correlation programs (C at -O0 and at -O2
# -fomit-frame-pointer: main program, shared library, dlopen-ed plugin,
# inlined helper, recursion, a thread, a forked child that exits at once,
# after exec) every call has the frames the ptrace engine gives it (module,
# symbol, offset, function, file:line), filtered (-e trace=, the mappings
# still followed) and not; -s marks each call at its MARK line; flame graph
# stacks are those of ptrace, tail-call frames too; a thread outliving its
# leader keeps the mappings (under ptrace too); a call made from the vDSO
# has its frame; in a storm stacks are dropped, not calls; a slice made too
# small loses the outer frames and says so (the copy is what is unwound); a
# return address in the red zone below the stack pointer is in the copy.
# test: slow
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"
export LC_ALL=C LANG=C
"$RENACER" --backend ebpf -o /dev/null true 2> "$TMPDIR/probe"
rc=$?
[ $rc = 6 ] && skip "eBPF back end unavailable here: $(cat "$TMPDIR/probe")"
[ $rc = 0 ] || fail "--backend ebpf true: exit $rc: $(cat "$TMPDIR/probe")"

# same_stacks PTRACE.json EBPF.json MIN: every call found once in both traces
# (arguments with addresses masked) has the same frames and stack error; the
# marked calls are among them, with their program's frame; at least MIN
# calls are compared.
same_stacks() {
	$PY - "$@" <<'PYEOF'
import json, re, sys
from collections import Counter

def key(s):
    a = re.sub(r'0x[0-9a-f]{6,}', 'ADDR', json.dumps(s.get("args")))
    return (s["name"], a)

def frames(s):
    return [{k: v for k, v in f.items() if k != "pc"} for f in s.get("stack", [])]

def load(path):
    d = json.load(open(path))
    calls = [s for s in d["syscalls"] if "stack" in s or "stack_error" in s]
    n = Counter(key(s) for s in calls)
    return {key(s): s for s in calls if n[key(s)] == 1}

p, e = load(sys.argv[1]), load(sys.argv[2])
common = sorted(set(p) & set(e))
bad = 0
for k in common:
    fp, fe = frames(p[k]), frames(e[k])
    if fp != fe or p[k].get("stack_error") != e[k].get("stack_error"):
        bad += 1
        if bad <= 3:
            print("FAIL: %s%s: ptrace frames %s (error %r), eBPF %s (error %r)" % (
                k[0], k[1], json.dumps(fp), p[k].get("stack_error"), json.dumps(fe),
                e[k].get("stack_error")))
marks = {'"main\\n"': "main", '"inline\\n"': "helper", '"recurse\\n"': "recurse",
         '"lib\\n"': "lib_write", '"plugin\\n"': "plugin_write",
         '"thread\\n"': "thread_main", '"child\\n"': "main", '"exec\\n"': "main"}
for m, fn in marks.items():
    ks = [k for k in common if k[0] == "write" and m in k[1]]
    if len(ks) != 1:
        bad += 1
        print("FAIL: write(%s) not found once in both traces" % m)
    elif not any(f.get("function") == fn and f.get("line") for f in frames(e[ks[0]])):
        bad += 1
        print("FAIL: write(%s): no frame of %s with a line: %s" % (m, fn, frames(e[ks[0]])))
if len(common) < int(sys.argv[3]):
    bad += 1
    print("FAIL: only %d calls compared" % len(common))
print("%d calls compared" % len(common))
sys.exit(1 if bad else 0)
PYEOF
}

run_pair() { # NAME OPTS...: NAME.p.json (ptrace) and NAME.e.json (eBPF)
	_n=$1
	shift
	for _b in ptrace ebpf; do
		"$RENACER" --backend $_b -f "$@" --format json -o $_n.${_b%${_b#?}}.json -- \
			"$W/$opt/srcmain" "$W/$opt/srcplug.so" "$W/$opt/srcexec" >/dev/null ||
			fail "renacer --backend $_b $* failed on the $opt build"
	done
}

for opt in O0 O2; do
	case $opt in
	O0) build_c $opt -O0 ;;
	O2) build_c $opt -O2 -fomit-frame-pointer ;;
	esac
	# filtered: the mmaps that load the libraries are not traced, yet
	# their mappings must be known
	run_pair f$opt -k -e trace=write,openat,execve
	same_stacks f$opt.p.json f$opt.e.json 15 || fail "-k -e trace= differs on the $opt build"
	# every call unwound
	run_pair a$opt -k
	same_stacks a$opt.p.json a$opt.e.json 25 || fail "-k differs on the $opt build"

	# -s: the marked lines, as source_lines.sh checks them under ptrace
	"$RENACER" --backend ebpf -f -s -e trace=write,openat,execve -o s$opt.txt -- \
		"$W/$opt/srcmain" "$W/$opt/srcplug.so" "$W/$opt/srcexec" >/dev/null ||
		fail "renacer --backend ebpf -s failed on the $opt build"
	check_source s$opt.txt 'write(1, "main\n"' srcmain.c main main
	check_source s$opt.txt 'write(1, "inline\n"' srcmain.c inline helper
	check_source s$opt.txt 'openat(AT_FDCWD, "/dev/null", O_RDONLY)' srcmain.c fopen main
	check_source s$opt.txt 'write(1, "recurse\n"' srcmain.c recurse recurse
	check_source s$opt.txt 'write(1, "lib\n"' srclib.c lib lib_write
	check_source s$opt.txt "openat(AT_FDCWD, \"$W/$opt/srcplug.so\"" srcmain.c dlopen main
	check_source s$opt.txt 'write(1, "plugin\n"' srcplug.c plugin plugin_write
	check_source s$opt.txt 'write(1, "thread\n"' srcmain.c thread thread_main
	check_source s$opt.txt 'write(1, "child\n"' srcmain.c child main
	check_source s$opt.txt "execve(\"$W/$opt/srcexec\"" srcmain.c execve main
	check_source s$opt.txt 'write(1, "exec\n"' srcexec.c exec main
	if grep -F 'libsrclib.so", O_RDONLY|O_CLOEXEC) = 3 [' s$opt.txt; then
		fail "the dynamic loader's openat has a source line"
	fi
done

# the profiles go through the same unwinding: the same folded stacks
for b in ptrace ebpf; do
	"$RENACER" --backend $b -f -e trace=write,openat,execve --flamegraph fold.$b \
		--flamegraph-weight count -- "$W/O2/srcmain" "$W/O2/srcplug.so" "$W/O2/srcexec" \
		>/dev/null || fail "renacer --backend $b --flamegraph failed"
	sort fold.$b > fold.$b.sorted
done
grep -q '^main;\[write\] ' fold.ebpf.sorted || fail "no stack of main in $(cat fold.ebpf)"
diff fold.ptrace.sorted fold.ebpf.sorted || fail "the folded stacks differ"

# a thread that goes on after its leader exited (pthread_exit in main)
# keeps the process's mappings
cat > src/leaderexit.c <<'EOF'
#include <pthread.h>
#include <unistd.h>
static void *late(void *a)
{
	usleep(100000);
	write(1, "late\n", 5);
	return a;
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, late, NULL);
	pthread_exit(NULL);
}
EOF
gcc -g -O2 -o leaderexit src/leaderexit.c -lpthread || fail "cannot build leaderexit"
# (under ptrace too: /proc/PID/maps is empty once the leader is a zombie,
# the thread's own /proc/TID/maps is read)
l=$(grep -n 'write(1, "late' src/leaderexit.c | cut -d: -f1)
for b in ptrace ebpf; do
	"$RENACER" --backend $b -f -k -e trace=write -o le.$b -- "$W/leaderexit" >/dev/null ||
		fail "renacer --backend $b failed on leaderexit"
	sed -n '/write(1, "late/,/^[^ ]/s/^ > //p' le.$b > le.$b.frames
	grep -q "^$W/leaderexit(late+0x[0-9a-f]*) \[0x[0-9a-f]*\] src/leaderexit.c:$l\$" \
		le.$b.frames && grep -q '(start_thread+0x' le.$b.frames ||
		fail "$b: a thread that outlived its leader: $(cat le.$b)"
done
diff le.ptrace.frames le.ebpf.frames || fail "a thread that outlived its leader: other frames"

# functions that end in a tail call: their frames are rebuilt from DWARF
# call sites, reading registers saved on the (copied) stack
gcc -g -O2 -fPIC -shared -o libsrctail.so src/srctaillib.c &&
gcc -g -O2 -o srctail src/srctail.c src/srctail2.c -L. -lsrctail -Wl,-rpath,"$W" ||
	fail "cannot build srctail"
for b in ptrace ebpf; do
	"$RENACER" --backend $b -k -e trace=write -o tc.$b -- "$W/srctail" >/dev/null ||
		fail "renacer --backend $b failed on srctail"
done
grep -q '(tail call)' tc.ptrace || fail "no tail-call frame under ptrace: $(cat tc.ptrace)"
diff tc.ptrace tc.ebpf || fail "tail-call frames differ"

# a call made from the vDSO (the CPU-time clocks fall back to the syscall
# there): its frame is "[vdso]", as under ptrace, and the stack goes on
cat > src/vdsocall.c <<'EOF'
#include <time.h>
int main(void)
{
	struct timespec ts;
	return clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
}
EOF
gcc -g -O2 -o vdsocall src/vdsocall.c || fail "cannot build vdsocall"
for b in ptrace ebpf; do
	"$RENACER" --backend $b -k -e trace=clock_gettime -o vd.$b -- "$W/vdsocall" >/dev/null ||
		fail "renacer --backend $b failed on vdsocall"
	grep '^ > ' vd.$b > vd.$b.frames
done
if grep -q '^ > \[vdso\](__vdso_clock_gettime+' vd.ptrace.frames; then
	grep -q 'src/vdsocall.c:[0-9]' vd.ebpf.frames || fail "no frame of vdsocall.c: $(cat vd.ebpf)"
	diff vd.ptrace.frames vd.ebpf.frames || fail "a call from the vDSO: other frames"
else
	echo "no clock_gettime from the vDSO here: not checked (ptrace: $(cat vd.ptrace))"
fi

# a storm faster than stacks can be unwound: stacks are dropped (each such
# call says so), never the calls themselves
"$RENACER" --backend ebpf -k -o storm.txt -- dd if=/dev/zero of=/dev/null bs=1 count=20000 \
	2>storm.err >/dev/null || fail "renacer -k on a storm failed: $(cat storm.err)"
grep -q 'calls and signals were lost' storm.err && fail "calls lost under -k: $(cat storm.err)"
n=$(grep -c '^read(0, "\\0", 1) *= 1$' storm.txt)
[ "$n" = 20000 ] || fail "$n of dd's 20000 reads recorded: $(cat storm.err)"
if grep -q 'stacks and mappings were lost' storm.err; then
	grep -q '^ > no stack was recorded for this call (ring buffer full)$' storm.txt ||
		fail "stacks lost, no call says so"
fi

# the frames come from the copy of the stack: 8 bytes of it hold the
# return address into libc's caller at most, never main's frames
RENACER_EBPF_STACK=8 "$RENACER" --backend ebpf -k -e trace=write -o tiny.txt -- \
	"$W/O2/srcexec" >/dev/null || fail "renacer with an 8-byte stack slice failed"
grep -A3 -F 'write(1, "exec\n"' tiny.txt | grep -q '__libc_start_main' &&
	fail "an 8-byte slice still gave the outer frames: $(cat tiny.txt)"
grep -A1 -F 'write(1, "exec\n"' tiny.txt | grep -q ' > .*write' ||
	fail "an 8-byte slice lost the innermost frame too: $(cat tiny.txt)"
# ... and says so rather than end the stack quietly
grep -A4 -F 'write(1, "exec\n"' tiny.txt |
	grep -qx ' > the stack goes on past the 8 bytes copied with the call' ||
	fail "a stack cut short by the slice is not reported: $(cat tiny.txt)"

# a leaf that keeps its return address below the stack pointer (the red
# zone, copied with the slice) and whose frame information makes it its own
# caller: the loop is found as under ptrace, not a stack that just ends
gcc -g -O2 -o srcbad "$TOP/tests/data/source/srcbad.c" || fail "cannot build srcbad"
for b in ptrace ebpf; do
	"$RENACER" --backend $b -k -e trace=getpid -o "loop.$b" -- ./srcbad >/dev/null ||
		fail "renacer --backend $b on srcbad failed"
done
sed -n '2,3p' loop.ptrace > loop.ptrace.frames
sed -n '2,3p' loop.ebpf > loop.ebpf.frames
grep -qx ' > the stack loops (a frame repeats itself)' loop.ptrace.frames ||
	fail "srcbad under ptrace: no loop: $(cat loop.ptrace)"
diff loop.ptrace.frames loop.ebpf.frames || fail "a leaf's frame in the red zone: other frames"
exit 0
