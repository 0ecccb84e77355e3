#!/bin/sh
# verdict_src.sh DIR PKG...: the Debian source packages PKG (source package
# names) unpacked under DIR with their Debian patches applied (apt-get source),
# for the verdict benchmark (scripts/verdict.sh); a package already there is
# left as it is.  When apt knows no deb-src entry it adds one
# (/etc/apt/sources.list.d/renacer-deb-src.sources) with the URIs, Suites,
# Components and Signed-By of the deb entries of
# /etc/apt/sources.list.d/debian.sources, and runs apt-get update; dpkg-dev
# (dpkg-source) is installed when missing.  Both need root.  DIR must be
# outside the git tree or ignored by it: third-party source is never committed.
set -eu
[ $# -ge 2 ] || { echo "usage: verdict_src.sh DIR PKG..." >&2; exit 2; }
dir=$1
shift
mkdir -p "$dir"

have_src() { # PKG: an unpacked tree PKG-VERSION under $dir
	for d in "$dir/$1"-*; do
		[ -d "$d" ] && return 0
	done
	return 1
}

need=""
for p in "$@"; do
	have_src "$p" || need="$need $p"
done
[ -z "$need" ] && exit 0

root() {
	[ "$(id -u)" = 0 ] || { echo "renacer: verdict_src: $1 needs root" >&2; exit 1; }
}

if ! command -v dpkg-source > /dev/null 2>&1; then
	root "installing dpkg-dev"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends dpkg-dev > /dev/null
fi

# A deb-src entry: apt-cache showsrc answers only when there is one.
first=$(echo $need | cut -d' ' -f1)
if ! apt-cache showsrc "$first" 2> /dev/null | grep -q '^Package:'; then
	root "adding a deb-src entry"
	src=/etc/apt/sources.list.d/debian.sources
	[ -f "$src" ] || { echo "renacer: verdict_src: no $src to copy a deb-src entry from" >&2; exit 1; }
	# every stanza of type deb, as deb-src, its other fields kept
	awk 'BEGIN { RS = ""; ORS = "\n\n" }
		/(^|\n)Types:[^\n]*deb([ \t]|\n|$)/ {
			sub(/Types:[^\n]*/, "Types: deb-src"); print
		}' "$src" > /etc/apt/sources.list.d/renacer-deb-src.sources
	apt-get update -q > /dev/null
fi

cd "$dir"
for p in $need; do
	echo "renacer: verdict: apt-get source $p" >&2
	# the newest first; a mirror that lacks its files (a security update's
	# source answered 404) falls back on the other versions apt knows
	ok=""
	for v in "" $(apt-cache showsrc "$p" 2> /dev/null | awk '/^Version:/ { print $2 }' |
		      sort -r -V); do
		if apt-get source -q "$p${v:+=$v}" > "apt-source-$p.log" 2>&1; then
			ok=1
			break
		fi
		rm -rf "$p"-* "$p"_* 2> /dev/null || true
		echo "renacer: verdict: apt-get source $p${v:+=$v} failed; trying an older version" >&2
	done
	[ -n "$ok" ] ||
		{ echo "renacer: verdict_src: apt-get source $p failed:" >&2; tail -n 5 "apt-source-$p.log" >&2; exit 1; }
	have_src "$p" || { echo "renacer: verdict_src: apt-get source $p unpacked nothing" >&2; exit 1; }
done
