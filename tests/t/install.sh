#!/bin/sh
# make install PREFIX=/usr DESTDIR=...: the binary runs from where it was
# installed, the man page is there and renders, and every long option that
# `renacer --help` and `renacer SUBCOMMAND --help` print is in the man page
# (computed from --help at run time, so an undocumented new option fails).
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }
command -v make > /dev/null 2>&1 || { echo "make is not installed"; exit 77; }
command -v man > /dev/null 2>&1 || { echo "man is not installed (man-db)"; exit 77; }

root="$TMPDIR/root"
# the binary is built already (-o: never remade here); make only copies it
if ! make -s -C "$TOP" -o "$BUILD/renacer" install PREFIX=/usr DESTDIR="$root" BUILD="$BUILD" \
	> "$TMPDIR/make.out" 2>&1; then
	cat "$TMPDIR/make.out"
	echo "FAIL: make install failed"
	exit 1
fi
bin="$root/usr/bin/renacer"
page="$root/usr/share/man/man1/renacer.1"

[ -x "$bin" ] || bad "$bin is missing or not executable"
version=$("$bin" --version 2>&1) || bad "installed renacer --version failed: $version"
want=$("$RENACER" --version 2>&1)
[ "$version" = "$want" ] || bad "installed --version says '$version', the build says '$want'"
case "$version" in
	"renacer "[0-9]*) ;;
	*) bad "--version prints '$version'" ;;
esac

[ -f "$page" ] || { bad "$page is missing"; exit 1; }
cmp -s "$page" "$TOP/docs/renacer.1" || bad "the installed man page differs from docs/renacer.1"

# renders without warnings, as plain text; no hyphenation (-rHY=0), so
# that words and option names are never split across lines
LC_ALL=C MANWIDTH=100 MANROFFOPT='-rHY=0' man --warnings -l "$page" > "$TMPDIR/man.raw" \
	2> "$TMPDIR/man.err" || bad "man -l failed: $(cat "$TMPDIR/man.err")"
[ -s "$TMPDIR/man.err" ] && bad "man -l warns: $(head -n 5 "$TMPDIR/man.err")"
col -b < "$TMPDIR/man.raw" > "$TMPDIR/man.txt"
for section in NAME SYNOPSIS DESCRIPTION OPTIONS SUBCOMMANDS "EXIT STATUS" ENVIRONMENT FILES \
	EXAMPLES "SEE ALSO"; do
	grep -q "^$section\$" "$TMPDIR/man.txt" || bad "the man page has no $section section"
done
for opt in --follow-forks --string-limit --summary --format --assert; do
	grep -q -e "$opt" "$TMPDIR/man.txt" || bad "the man page does not mention $opt"
done

# every long option of every --help is in the page
"$RENACER" --help > "$TMPDIR/help" 2>&1 || bad "renacer --help failed"
subs=$(sed -n '/^usage:/,/^$/p' "$TMPDIR/help" | tr -c 'a-z\n' '\n' |
	grep -x -e capture -e validate -e compare -e accept -e report -e assert -e analyze -e init |
	sort -u)
[ "$(echo "$subs" | wc -w)" -eq 8 ] || bad "renacer --help names subcommands '$subs'"
checked=0
for sub in "" $subs; do
	label="renacer ${sub:+$sub }--help"
	# shellcheck disable=SC2086
	"$RENACER" $sub --help > "$TMPDIR/h" 2>&1 || bad "$label failed"
	grep -q "usage: renacer $sub" "$TMPDIR/h" || bad "$label: $(head -n 1 "$TMPDIR/h")"
	if [ -n "$sub" ]; then
		grep -q "^   $sub\$" "$TMPDIR/man.txt" || bad "the man page has no subsection for '$sub'"
	fi
	for opt in $(grep -o -e '--[a-z][a-z-]*' "$TMPDIR/h" | sort -u); do
		checked=$((checked + 1))
		grep -q -e "$opt\([^a-z-]\|\$\)" "$TMPDIR/man.txt" ||
			bad "'$label' lists $opt, the man page does not"
	done
	# short options given beside their long form ("-f, --follow-forks")
	for opt in $(grep -o -e '^ *-[A-Za-z],' "$TMPDIR/h" | tr -d ' ,' | sort -u); do
		checked=$((checked + 1))
		grep -q -e "$opt," -e "$opt " "$TMPDIR/man.txt" ||
			bad "'$label' lists $opt, the man page does not"
	done
done
[ $checked -ge 40 ] || bad "only $checked options found in the --help texts"

# the exit statuses the help texts give are in the page's EXIT STATUS section
sed -n '/^EXIT STATUS$/,/^ENVIRONMENT$/p' "$TMPDIR/man.txt" > "$TMPDIR/exit.txt"
for st in 0 1 2 3 4 5; do
	grep -q "^ *$st  " "$TMPDIR/exit.txt" || bad "EXIT STATUS does not list $st"
done
[ $fail -eq 0 ] && echo "install and man page: ok ($checked options checked)"
exit $fail
