#!/bin/sh
# Installs the Debian packages renacer needs to build and test; a no-op when
# all are present.  Run as root on Debian 12 (make deps).
set -eu

PKGS="gcc make pkg-config perl libc6-dev linux-libc-dev
libdw-dev libelf-dev libjansson-dev libcurl4-openssl-dev zlib1g-dev
libzstd-dev libseccomp-dev libcmocka-dev golang-github-burntsushi-toml-dev
strace clang libclang-rt-14-dev zstd libdevel-nytprof-perl coreutils git
python3 tar procps time util-linux man-db groff-base bsdextrautils bc
libiberty-dev g++ elfutils gdb libbpf-dev bpftool
protobuf-compiler python3-protobuf python3-grpcio openssl
chromium python3-jsonschema python3-pil python3-yaml
jq bsdutils curl iproute2 patch dpkg-dev valgrind btrfs-progs"

# Source correlation tests build a Rust program: the machine's rustc (PATH
# or ~/.cargo/bin) when there is one, else Debian's.
if ! command -v rustc >/dev/null 2>&1 && [ ! -x "${HOME:-/root}/.cargo/bin/rustc" ]; then
	PKGS="$PKGS rustc"
fi

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done

# The kernel's syscall prototypes (argument names) ship in the
# linux-headers-<version>-common package; any 6.1 one will do.
need_hdr=1
for f in /usr/src/linux-headers-*-common/include/linux/syscalls.h; do
	[ -f "$f" ] && need_hdr=0
done

# npm (for the packages of tests/npm/*): any nodejs that brings npm will do
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"

# The npm packages the tests use, pinned by each package-lock.json
# (integrity hashes); installed again when the lock file changes.
npm_install() {
	for lock in "$(dirname "$0")"/../tests/npm/*/package-lock.json; do
		[ -f "$lock" ] || continue
		dir=$(dirname "$lock")
		if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
		   [ "$lock" -nt "$dir/node_modules/.package-lock.json" ]; then
			echo "renacer: npm ci in $dir"
			(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || exit 1
		fi
	done
}

if [ -z "$missing" ] && [ "$need_hdr" = 0 ]; then
	npm_install
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "renacer: missing packages:$missing; run 'make deps' as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
if [ "$need_hdr" = 1 ]; then
	hdr=$(apt-cache search --names-only '^linux-headers-[0-9.]+-[0-9]+-common$' |
		awk '{print $1}' | sort -V | tail -n 1)
	[ -n "$hdr" ] || { echo "renacer: no linux-headers-*-common package found" >&2; exit 1; }
	missing="$missing $hdr"
fi
echo "renacer: installing:$missing"
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $missing
npm_install
