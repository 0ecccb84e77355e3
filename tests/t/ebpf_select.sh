#!/bin/sh
# --backend: what auto picks (eBPF for -c and for count-only --assert with
# no trace printed, ptrace for everything else), the one warning line of a
# fallback (not root, RENACER_NO_EBPF), what an explicit --backend ebpf
# records (a trace, -C, CSV, assertions and detectors that read every
# call: the recording engine; -E too), and its errors: options it cannot serve
# (exit 1), a machine where it cannot run (exit 6).  Which engine ran is read from the command itself:
# TracerPid in /proc/self/status is 0 unless ptrace stopped it.
set -u
. "$TOP/tests/lib.sh"
# what auto picks by default (RENACER_BACKEND=ebpf, a choice of the
# environment, would record every trace in the kernel)
export RENACER_BACKEND=ptrace
export LC_ALL=C LANG=C
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# prints the TracerPid the command saw (writes it to a file: -c tables and
# traces go to stderr)
tracer_pid() { # renacer options...
	rm -f "$TMPDIR/tp"
	"$RENACER" "$@" -- sh -c "grep TracerPid /proc/\$\$/status > '$TMPDIR/tp'" \
		> /dev/null 2> "$TMPDIR/tp.err" < /dev/null
	echo "$? $(awk '{print $2}' "$TMPDIR/tp" 2> /dev/null)"
}

cat > "$TMPDIR/count.toml" <<'EOF'
[[assertion]]
name = "budget"
type = "span_count"
max_spans = 100000
EOF
cat > "$TMPDIR/path.toml" <<'EOF'
[[assertion]]
name = "budget"
type = "span_count"
max_spans = 100000

[[assertion]]
name = "latency"
type = "critical_path"
max_duration_ms = 100000
EOF

# Options an explicit --backend ebpf cannot serve: exit 1, one line, before
# anything runs (no BPF needed to say so).
# (-k, -s and the profiles it serves: t/ebpf_stacks.sh; -y, -yy, -P, -Y,
# -e read=, -p, -s N past a record's strings: t/ebpf_opts.sh)
for opts in "-e inject=openat:error=ENOENT" \
	    "-u nobody" "-b execve" "-D" \
	    "--seccomp-bpf -f"; do
	# shellcheck disable=SC2086
	"$RENACER" --backend ebpf $opts true > "$TMPDIR/o" 2> "$TMPDIR/e" < /dev/null
	rc=$?
	[ $rc = 1 ] || bad "--backend ebpf $opts: exit $rc (want 1)"
	[ "$(wc -l < "$TMPDIR/e")" = 1 ] && grep -q '^renacer: --backend ebpf ' "$TMPDIR/e" ||
		bad "--backend ebpf $opts: message '$(cat "$TMPDIR/e")'"
done
"$RENACER" --backend ebpf -D true 2>&1 | grep -q -- "-u, -D or -b" || bad "-D is not named"
# served by the recorder since (tests/t/ebpf_opts.sh): no refusal
for opts in "-y" "-yy" "-P /etc/passwd" "-Y" "--decode-pids=comm" "-e read=3" \
	    "--string-limit 9000"; do
	# shellcheck disable=SC2086
	RENACER_NO_EBPF=1 "$RENACER" --backend ebpf $opts true > "$TMPDIR/o" 2> "$TMPDIR/e" < /dev/null
	rc=$?
	[ $rc = 6 ] || bad "--backend ebpf $opts where eBPF cannot run: exit $rc (want 6): $(cat "$TMPDIR/e")"
done
"$RENACER" --backend nope -c true 2> "$TMPDIR/e"
[ $? = 1 ] && grep -qx "renacer: unknown backend 'nope' (expected ptrace, ebpf or auto)" "$TMPDIR/e" ||
	bad "--backend nope: $(cat "$TMPDIR/e")"

# ptrace whenever records are needed, whatever the machine
for opts in "" "-C" "-c --format json" "-o /dev/null --assert $TMPDIR/count.toml" \
	    "-c --assert $TMPDIR/path.toml" "-c --anti-patterns" "--backend ptrace -c"; do
	# shellcheck disable=SC2086
	set -- $(tracer_pid $opts)
	[ "$1" = 0 ] && [ "${2:-0}" != 0 ] || bad "'$opts': not under ptrace (exit $1, TracerPid ${2:-?})"
	grep -q 'eBPF' "$TMPDIR/tp.err" && bad "'$opts': a warning about eBPF: $(cat "$TMPDIR/tp.err")"
done

# A fallback says so once and runs the command under ptrace.
set -- $(RENACER_NO_EBPF=1 tracer_pid -c)
[ "$1" = 0 ] && [ "${2:-0}" != 0 ] || bad "RENACER_NO_EBPF -c: not under ptrace ($*)"
[ "$(grep -c 'warning: eBPF back end unavailable (disabled by RENACER_NO_EBPF): counting with ptrace' "$TMPDIR/tp.err")" = 1 ] ||
	bad "RENACER_NO_EBPF -c: warning: $(cat "$TMPDIR/tp.err")"
grep -q ' total$' "$TMPDIR/tp.err" || bad "RENACER_NO_EBPF -c: no table after the fallback"
RENACER_NO_EBPF=1 "$RENACER" --backend ebpf -c true > /dev/null 2> "$TMPDIR/e"
rc=$?
[ $rc = 6 ] && [ "$(cat "$TMPDIR/e")" = "renacer: cannot use --backend ebpf: disabled by RENACER_NO_EBPF" ] ||
	bad "RENACER_NO_EBPF --backend ebpf: exit $rc, '$(cat "$TMPDIR/e")'"

# As user nobody (not root): auto falls back with one warning and counts;
# --backend ebpf is an error with exit 6.  nobody must reach the binaries:
# they are copied to a directory of its own.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null 2>&1; then
	nb="$TMPDIR/nobody"
	mkdir -p "$nb" && cp "$RENACER" "$nb/renacer" && cp /bin/true "$nb/true" &&
		chmod 755 "$TMPDIR" "$nb" "$nb/renacer" "$nb/true"
	nob="setpriv --reuid=65534 --regid=65534 --clear-groups"
	if ! $nob "$nb/renacer" --version > /dev/null 2>&1; then
		echo "note: user nobody cannot run a copy of renacer here (libraries?): skipped"
	else
		$nob "$nb/renacer" -c "$nb/true" > /dev/null 2> "$TMPDIR/e"
		rc=$?
		[ $rc = 0 ] || bad "nobody -c: exit $rc: $(cat "$TMPDIR/e")"
		[ "$(grep -c '^renacer: warning: eBPF back end unavailable (not running as root): counting with ptrace$' "$TMPDIR/e")" = 1 ] ||
			bad "nobody -c: warning: $(cat "$TMPDIR/e")"
		grep -q ' execve$' "$TMPDIR/e" || bad "nobody -c: no table: $(cat "$TMPDIR/e")"
		$nob "$nb/renacer" --backend ebpf -c "$nb/true" > /dev/null 2> "$TMPDIR/e"
		rc=$?
		[ $rc = 6 ] && [ "$(cat "$TMPDIR/e")" = "renacer: cannot use --backend ebpf: not running as root" ] ||
			bad "nobody --backend ebpf: exit $rc, '$(cat "$TMPDIR/e")'"
		echo "as nobody: one warning and ptrace for -c; exit 6 for --backend ebpf"
	fi
else
	echo "note: not root (or no setpriv): the unprivileged checks ran as this user only"
fi

# Where eBPF can run, auto picks it for -c and -c with count-only budgets
# (and the assertion still passes or fails on the counts).
if "$RENACER" --backend ebpf -c -o /dev/null true 2> /dev/null; then
	# (--assert alone prints only the results: no records needed either)
	for opts in "-c" "-f -c -S calls" "-c --assert $TMPDIR/count.toml" "--backend ebpf -c" \
		    "--assert $TMPDIR/count.toml"; do
		# shellcheck disable=SC2086
		set -- $(tracer_pid $opts)
		[ "$1" = 0 ] && [ "${2:-x}" = 0 ] || bad "'$opts': not counted by eBPF (exit $1, TracerPid ${2:-?})"
		grep -q 'eBPF' "$TMPDIR/tp.err" && bad "'$opts': $(cat "$TMPDIR/tp.err")"
	done
	sed 's/100000/3/' "$TMPDIR/count.toml" > "$TMPDIR/tight.toml"
	"$RENACER" -c --assert "$TMPDIR/tight.toml" -o /dev/null true 2> "$TMPDIR/e"
	rc=$?
	[ $rc = 1 ] && grep -q "FAILED" "$TMPDIR/e" || bad "a broken span_count budget under eBPF: exit $rc: $(cat "$TMPDIR/e")"
	# span_count counts every call of the run (exit_group too): as ptrace.
	# (On a loaded machine a child may be killed before it enters its
	# read: up to three tries for one pair of runs that agree.)
	for try in 1 2 3; do
		a=$("$RENACER" -c --assert "$TMPDIR/count.toml" -o /dev/null "$PROGS/ebpf_tree" tree 2>&1 | grep -o '[0-9]* / 100000')
		b=$("$RENACER" --backend ptrace -c --assert "$TMPDIR/count.toml" -o /dev/null "$PROGS/ebpf_tree" tree 2>&1 | grep -o '[0-9]* / 100000')
		[ -n "$a" ] && [ "$a" = "$b" ] && break
	done
	[ -n "$a" ] && [ "$a" = "$b" ] || bad "span_count: eBPF '$a', ptrace '$b'"
	# the command's status is renacer's, a death by signal too
	"$RENACER" -c -o /dev/null sh -c 'exit 3'; rc=$?
	[ $rc = 3 ] || bad "exit 3 under eBPF: renacer exited $rc"
	"$RENACER" -c -o /dev/null sh -c 'kill -USR1 $$'; rc=$?
	[ $rc = 138 ] || bad "killed by SIGUSR1 under eBPF: renacer exited $rc (want 138)"
	# the command starts with the signal dispositions and mask renacer was
	# given (SIGINT and SIGHUP ignored, SIGUSR1 blocked), as untraced
	sigs() { /usr/bin/python3 -c 'import signal, os, sys
signal.signal(signal.SIGINT, signal.SIG_IGN); signal.signal(signal.SIGHUP, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
os.execv(sys.argv[1], sys.argv[1:])' "$@" /bin/grep -E '^Sig(Ign|Blk)' /proc/self/status; }
	want=$(sigs) got=$(sigs "$RENACER" -c -o /dev/null)
	[ -n "$want" ] && [ "$got" = "$want" ] || bad "signal state under eBPF: '$got', untraced '$want'"
	# a command that cannot run: no table, exit 1, as with ptrace
	"$RENACER" -c -o "$TMPDIR/none" /nonexistent/cmd 2> "$TMPDIR/e"; rc=$?
	[ $rc = 1 ] && [ ! -e "$TMPDIR/none" ] &&
		grep -qx "renacer: cannot run '/nonexistent/cmd': No such file or directory" "$TMPDIR/e" ||
		bad "missing command under eBPF: exit $rc, '$(cat "$TMPDIR/e")'"
	echo "auto picks eBPF for -c and count-only budgets; statuses pass through"
	# what needs every call, --backend ebpf records in the kernel
	for opts in "" "-C" "--format csv -c" "--anti-patterns -c" "-f" \
		    "--assert $TMPDIR/path.toml -c" "--assert $TMPDIR/count.toml -o /dev/null"; do
		# shellcheck disable=SC2086
		set -- $(tracer_pid --backend ebpf -o "$TMPDIR/rec" $opts)
		[ "$1" = 0 ] && [ "${2:-x}" = 0 ] ||
			bad "--backend ebpf '$opts': not recorded by eBPF (exit $1, TracerPid ${2:-?}): $(cat "$TMPDIR/tp.err")"
		grep -q 'renacer' "$TMPDIR/tp.err" && bad "--backend ebpf '$opts': $(cat "$TMPDIR/tp.err")"
	done
	"$RENACER" --backend ebpf -o "$TMPDIR/rec" true 2> /dev/null
	grep -q '^execve(' "$TMPDIR/rec" && grep -q '^exit_group(0) *= ?$' "$TMPDIR/rec" ||
		bad "--backend ebpf: no trace: $(head -3 "$TMPDIR/rec")"
	# -E: the command's environment set up as under ptrace (set, unset),
	# the program found in renacer's own PATH (strace's rule)
	for b in ebpf ptrace; do
		R_T=outer R_U=gone PATH="$PATH" "$RENACER" --backend $b -o /dev/null -E R_T=inner -E R_U \
			-E PATH=/nonexistent -- sh -c 'echo "$R_T ${R_U-unset} $PATH"; /bin/grep TracerPid /proc/$$/status' \
			> "$TMPDIR/env.$b" 2> "$TMPDIR/e" < /dev/null || bad "-E under $b: $(cat "$TMPDIR/e")"
	done
	[ "$(head -n 1 "$TMPDIR/env.ebpf")" = "inner unset /nonexistent" ] &&
		[ "$(head -n 1 "$TMPDIR/env.ptrace")" = "inner unset /nonexistent" ] &&
		[ "$(awk '/TracerPid/ {print $2}' "$TMPDIR/env.ebpf")" = 0 ] ||
		bad "-E: eBPF '$(cat "$TMPDIR/env.ebpf")', ptrace '$(cat "$TMPDIR/env.ptrace")'"
	echo "--backend ebpf records traces, -C, CSV, assertions and detectors, with -E"
else
	echo "note: eBPF back end unavailable here: auto's eBPF choices not checked"
fi
[ $fails = 0 ] || exit 1
exit 0
