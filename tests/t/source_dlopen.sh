#!/bin/sh
# A library loaded with dlopen and built with -g is the program's own
# wherever it lies outside the system's library directories, whatever its
# name: a project's libutil.so or libm.so (names of glibc's libraries) gets
# its own lines from -s, as -k shows them, the call in tail position of
# one of its functions included (its frame rebuilt, also when the plugin's
# function was called through a pointer that DWARF names as the call's
# target).  --source-skip and
# renacer.toml's [source] still decide; the system's libraries (libc, with
# debug information from libc6-dbg when it is installed) stay foreign, and
# so does a copy without debug information.  Expected lines come from the
# MARK comments of the sources.
. "$TOP/tests/lib.sh"
. "$TOP/tests/source_lib.sh"
mkdir -p plug nodebug
gcc -g -O2 -fPIC -shared -o plug/libutil.so src/srcown.c &&
gcc -g -O2 -fPIC -shared -o plug/libm.so src/srcown.c &&
gcc -O2 -fPIC -shared -o nodebug/libutil.so src/srcown.c &&
gcc -g -O2 -o srcownmain src/srcownmain.c -ldl || fail "cannot build srcown"
readelf --debug-dump=info plug/libutil.so | grep -q DW_AT_call_tail_call ||
	fail "own_emit's write is not a tail call in plug/libutil.so"
# call_twice's calls through the pointer name a register that calls keep
readelf --debug-dump=info srcownmain | grep -Eq 'DW_AT_call_target *:.*DW_OP_breg(6|1[2-5]) ' ||
	fail "no DW_AT_call_target in a register kept across calls in srcownmain"

# own_check TRACE NAME: the plugin's calls at the plugin's lines
own_check() {
	check_source "$1" "write(1, \"plain $2\\n\"" srcown.c own_plain own_write
	check_source "$1" "write(1, \"tail $2\\n\"" srcown.c own_tail own_emit
	check_source "$1" "write(1, \"jump $2\\n\"" srcown.c own_tail own_emit
}
# foreign_check TRACE NAME: the plugin's calls at the main program's lines
foreign_check() {
	check_source "$1" "write(1, \"plain $2\\n\"" srcownmain.c own_main_plain main
	check_source "$1" "write(1, \"tail $2\\n\"" srcownmain.c own_main_run main
	check_source "$1" "write(1, \"jump $2\\n\"" srcownmain.c own_twice call_twice
}

"$RENACER" -s -e trace=write -o s.txt -- "$W/srcownmain" "$W/plug/libutil.so" "$W/plug/libm.so" \
	>/dev/null || fail "renacer -s failed"
own_check s.txt libutil.so
own_check s.txt libm.so

# -k: the plugin's frames have their lines and are own; libc's are not
"$RENACER" -k -s --format json -e trace=write -o k.json -- "$W/srcownmain" "$W/plug/libutil.so" \
	"$W/nodebug/libutil.so" >/dev/null || fail "renacer -k failed"
$PY - k.json "$W/" "$(mark_line srcown.c own_plain)" "$(mark_line srcown.c own_tail)" \
	"$(mark_line srcown.c own_run)" "$(mark_line srcown.c own_jump)" \
	"$(mark_line srcownmain.c own_twice)" <<'PYEOF' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
w, plain, tail, run, jump, twice = sys.argv[2], *map(int, sys.argv[3:8])
seen = 0
for s in d["syscalls"]:
    if s["name"] != "write":
        continue
    text = s["args"][1][1]
    st = s["stack"]
    for f in st:
        if f["module"] and "/libc.so" in f["module"] and f["own"]:
            sys.exit("FAIL: a frame of the C library is own: %r" % f)
    plug = [f for f in st if f["module"] == w + "plug/libutil.so"]
    nodebug = [f for f in st if f["module"] == w + "nodebug/libutil.so"]
    if text == '"plain libutil.so\\n"' and plug:
        got = [(f["function"], f["file"], f["line"], f["own"]) for f in plug]
        if got != [("own_write", "src/srcown.c", plain, True)]:
            sys.exit("FAIL: plain write: %r" % got)
        seen += 1
    elif text == '"tail libutil.so\\n"' and plug:
        got = [(f["function"], f["file"], f["line"], f["own"], f.get("tail_call", False)) for f in plug]
        if got != [("own_emit", "src/srcown.c", tail, True, True),
                   ("own_run", "src/srcown.c", run, True, False)]:
            sys.exit("FAIL: tail write: %r" % got)
        seen += 1
    elif text == '"jump libutil.so\\n"' and plug:
        # called through a pointer: both tail calls rebuilt, then the caller
        got = [(f["function"], f["file"], f["line"], f["own"], f.get("tail_call", False)) for f in plug]
        if got != [("own_emit", "src/srcown.c", tail, True, True),
                   ("own_jump", "src/srcown.c", jump, True, True)]:
            sys.exit("FAIL: jump write: %r" % got)
        nxt = st[st.index(plug[-1]) + 1]
        if (nxt["function"], nxt["line"], nxt.get("tail_call", False)) != ("call_twice", twice, False):
            sys.exit("FAIL: jump write: the caller %r" % nxt)
        seen += 1
    elif nodebug:
        # no debug information and a system library's name: foreign, as before
        if any(f["own"] for f in nodebug) or s["source"]["file"] != "src/srcownmain.c":
            sys.exit("FAIL: the plugin without debug information: %r, source %r" % (nodebug, s["source"]))
        seen += 1
if seen != 5:
    sys.exit("FAIL: %d of the 5 plugin writes checked" % seen)
PYEOF

# --source-skip decides: the plugin is not the program's own then
"$RENACER" -s --source-skip '/libutil\.so$' -e trace=write -o skip.txt -- "$W/srcownmain" \
	"$W/plug/libutil.so" "$W/plug/libm.so" >/dev/null || fail "renacer -s --source-skip failed"
foreign_check skip.txt libutil.so
own_check skip.txt libm.so
# and so does renacer.toml's [source]
mkdir -p cfg
cat >cfg/renacer.toml <<'EOF'
[source]
skip = ["/libm\\.so$"]
EOF
(cd cfg && "$RENACER" -s -e trace=write -o ../cfg.txt -- "$W/srcownmain" "$W/plug/libutil.so" \
	"$W/plug/libm.so" >/dev/null) || fail "renacer -s with renacer.toml failed"
own_check cfg.txt libutil.so
foreign_check cfg.txt libm.so
exit 0
