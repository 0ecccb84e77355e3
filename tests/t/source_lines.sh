#!/bin/sh
# -s: every marked call is reported at exactly its marker's line, in C at
# -O0 and at -O2 -fomit-frame-pointer (main program, shared library,
# dlopen-ed library, inlined helper, recursion, thread, forked child,
# after exec), in C++ (g++ -O2) and in Rust (release with debug info,
# legacy and v0 mangling); the JSON "source" object and the CSV column say
# the same.
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"

c_checks() { # TRACE DIR
	check_source "$1" 'write(1, "main\n"' srcmain.c main main
	check_source "$1" 'write(1, "inline\n"' srcmain.c inline helper
	check_source "$1" 'openat(AT_FDCWD, "/dev/null", O_RDONLY)' srcmain.c fopen main
	check_source "$1" 'write(1, "recurse\n"' srcmain.c recurse recurse
	check_source "$1" 'write(1, "lib\n"' srclib.c lib lib_write
	check_source "$1" "openat(AT_FDCWD, \"$W/$2/srcplug.so\"" srcmain.c dlopen main
	check_source "$1" 'write(1, "plugin\n"' srcplug.c plugin plugin_write
	check_source "$1" 'write(1, "thread\n"' srcmain.c thread thread_main
	check_source "$1" 'write(1, "child\n"' srcmain.c child main
	check_source "$1" "execve(\"$W/$2/srcexec\"" srcmain.c execve main
	check_source "$1" 'write(1, "exec\n"' srcexec.c exec main
}

for opt in O0 O2; do
	case $opt in
	O0) build_c $opt -O0 ;;
	O2) build_c $opt -O2 -fomit-frame-pointer ;;
	esac
	"$RENACER" -f -s -e trace=write,openat,execve -o $opt.txt -- \
		"$W/$opt/srcmain" "$W/$opt/srcplug.so" "$W/$opt/srcexec" >$opt.out ||
		fail "renacer -s failed on the $opt build"
	c_checks $opt.txt $opt
	# the loader's own calls are nobody's source line
	if grep -F 'libsrclib.so", O_RDONLY|O_CLOEXEC) = 3 [' $opt.txt; then
		fail "the dynamic loader's openat has a source line"
	fi
	# the same run unfiltered (every call unwound) and in JSON
	"$RENACER" -f -s --format json -o $opt.json -- \
		"$W/$opt/srcmain" "$W/$opt/srcplug.so" "$W/$opt/srcexec" >/dev/null ||
		fail "renacer -s --format json failed"
	$PY - $opt.json "$(mark_line srcmain.c main)" "$(mark_line srcplug.c plugin)" <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
want = {'"main\\n"': ("src/srcmain.c", int(sys.argv[2]), "main"),
        '"plugin\\n"': ("src/srcplug.c", int(sys.argv[3]), "plugin_write")}
seen = 0
for s in d["syscalls"]:
    if s["name"] != "write" or s["args"][1][1] not in want:
        continue
    f, l, fn = want[s["args"][1][1]]
    src = s.get("source")
    if src != {"file": f, "line": l, "function": fn}:
        sys.exit("FAIL: %s: source %r, want %r" % (s["args"][1][1], src, (f, l, fn)))
    if "stack" in s:
        sys.exit("FAIL: a stack without -k")
    seen += 1
if seen != 2:
    sys.exit("FAIL: %d marked writes in the JSON trace" % seen)
PYEOF
done

# the replayed JSON keeps the sources: compare reads it back
"$RENACER" compare O2.json O2.json >/dev/null || fail "compare cannot read a trace with sources"

# CSV: a "source" column
"$RENACER" -s --format csv -e trace=write -o o.csv -- "$W/O2/srcexec" >/dev/null ||
	fail "renacer -s --format csv failed"
head -n 1 o.csv | grep -qx 'ts_us,pid,tid,name,nr,args,result,errno,duration_us,source' ||
	fail "CSV header: $(head -n 1 o.csv)"
grep -q ",src/srcexec.c:$(mark_line srcexec.c exec) in main\$" o.csv || fail "CSV row: $(cat o.csv)"

# C++: the calls come out of libstdc++ and inlined templates of /usr/include
g++ -g -O2 -fomit-frame-pointer -o srccpp src/srccpp.cpp || fail "cannot build srccpp"
"$RENACER" -s -e trace=openat,write -o cpp.txt -- "$W/srccpp" >/dev/null || fail "renacer -s failed on srccpp"
check_source cpp.txt 'openat(AT_FDCWD, "/dev/null", O_WRONLY|O_CREAT|O_TRUNC' srccpp.cpp cpp_open 'store::Widget::save(int)'
check_source cpp.txt 'write(1, "cpp-save 42\n"' srccpp.cpp cpp_cout 'store::Widget::save(int)'

# Rust, release build with debug info; legacy and v0 symbol mangling
RUSTC=$(find_rustc) || fail "no rustc (make deps installs Debian's when none is found)"
for mangling in legacy v0; do
	mflag=
	[ $mangling = v0 ] && mflag="-C symbol-mangling-version=v0"
	# shellcheck disable=SC2086
	"$RUSTC" -C opt-level=3 -g $mflag -o rs_$mangling src/srcrust.rs ||
		fail "cannot build srcrust.rs with $RUSTC"
	"$RENACER" -s -e trace=openat,write -o rs_$mangling.txt -- "$W/rs_$mangling" >/dev/null ||
		fail "renacer -s failed on the Rust program"
	check_source rs_$mangling.txt 'write(1, "rust-main 1\n"' srcrust.rs rust_println srcrust::main
	check_source rs_$mangling.txt 'write(1, "rust-backend\n"' srcrust.rs rust_write srcrust::detect_backend
	check_source rs_$mangling.txt 'openat(AT_FDCWD, "/dev/null"' srcrust.rs rust_fs_write srcrust::main
	# the runtime's start-up has no line of the program's
	if grep -F '"/proc/self/maps"' rs_$mangling.txt | grep -F '['; then
		fail "Rust start-up code got a source line"
	fi
done
exit 0
