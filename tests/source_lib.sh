# Helpers for the source-correlation tests (tests/t/source_*.sh); sourced
# after tests/lib.sh.  Programs are built at test time from
# tests/data/source/ into $TMPDIR/w, from relative paths, so that renacer
# (run in $TMPDIR/w) shows their files as src/NAME.c.  The line a marked
# call must be reported at is read from its "MARK:name" comment.
PY=/usr/bin/python3
W="$TMPDIR/w"
mkdir -p "$W/src" && cd "$W" || exit 1
cp "$TOP"/tests/data/source/* src/ || exit 1

# mark_line FILE NAME: the line number of "MARK:NAME" in src/FILE.
mark_line() {
	_l=$(grep -n "MARK:$2\\b" "src/$1" | cut -d: -f1)
	[ -n "$_l" ] || fail "no MARK:$2 in src/$1"
	echo "$_l"
}

# build_c DIR CFLAGS...: srcmain, srcexec, libsrclib.so and srcplug.so into DIR.
build_c() {
	_d=$1
	shift
	mkdir -p "$_d" &&
	gcc -g "$@" -fPIC -shared -o "$_d/libsrclib.so" src/srclib.c &&
	gcc -g "$@" -fPIC -shared -o "$_d/srcplug.so" src/srcplug.c &&
	gcc -g "$@" -o "$_d/srcexec" src/srcexec.c &&
	gcc -g "$@" -o "$_d/srcmain" src/srcmain.c -L"$_d" -lsrclib \
		-Wl,-rpath,"$W/$_d" -lpthread -ldl ||
		fail "cannot build the C test programs with $*"
}

# find_rustc: the rustc of the machine (PATH, then ~/.cargo/bin), else Debian's.
find_rustc() {
	for _r in "$(command -v rustc 2>/dev/null)" "$HOME/.cargo/bin/rustc" /usr/bin/rustc; do
		[ -n "$_r" ] && [ -x "$_r" ] && { echo "$_r"; return 0; }
	done
	return 1
}

# check_source TRACE NEEDLE FILE MARK FUNCTION: the first line of TRACE that
# contains NEEDLE (a fixed string) must end in "[src/FILE:LINE in FUNCTION]"
# with LINE that of MARK:MARK in FILE.
check_source() {
	_line=$(grep -F -- "$2" "$1" | head -n 1)
	[ -n "$_line" ] || { cat "$1"; fail "no line with '$2' in $1"; }
	_ml=$(mark_line "$3" "$4") || { echo "$_ml"; exit 1; }
	_want="[src/$3:$_ml in $5]"
	case "$_line" in
	*"$_want") ;;
	*) fail "$1: '$2' should end in '$_want': $_line" ;;
	esac
}
