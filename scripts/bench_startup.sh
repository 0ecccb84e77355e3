#!/bin/sh
# make bench, start-up part: what renacer costs before and around a command
# that does nothing (/bin/true), per kind of run (--version, a text trace,
# -c with each back end, -s, OTLP to a file), and the eBPF summary's cost
# on short real programs (python3 -c pass, git status) against the
# untraced run.  Each configuration runs RUNS times, interleaved; the
# median wall time and the median CPU time (user + system of every process
# the run started) are shown, in milliseconds.  BASE=/path/to/renacer adds
# the same rows for another build (a "before" column).  Then the eBPF
# back end's start-up and end measured from outside (the command prints
# the clock as its main() begins: build/progs/stamp) beside strace and the
# ptrace engine, with the steps renacer reports (RENACER_EBPF_STATS);
# docs/benchmarks.md, "eBPF start-up (issue 19)".
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
RUNS=${RUNS:-30}
BASE=${BASE:-}
export LC_ALL=C LANG=C
unset DEBUGINFOD_URLS
T=$(mktemp -d "${TMPDIR:-/tmp}/renacer-bench-startup.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -x "$R" ] || { echo "build first: make" >&2; exit 1; }

# bench.py RUNS: reads "label<TAB>command words..." lines on stdin, runs
# them round-robin RUNS times, prints "label wall_ms cpu_ms" medians.
cat > "$T/bench.py" <<'PY'
import os, resource, statistics, subprocess, sys, time
runs = int(sys.argv[1])
cfgs = [l.rstrip("\n").split("\t") for l in sys.stdin if l.strip()]
res = {c[0]: ([], []) for c in cfgs}
for _ in range(runs):
    for c in cfgs:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        subprocess.run(c[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        t1 = time.monotonic()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        res[c[0]][0].append((t1 - t0) * 1e3)
        res[c[0]][1].append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1e3)
for c in cfgs:
    w, u = res[c[0]]
    print("%s %.3f %.3f" % (c[0], statistics.median(w), statistics.median(u)))
PY

ebpf=0
"$R" --backend ebpf -c -o /dev/null true 2> "$T/why" && ebpf=1

# rows BIN PREFIX: the start-up configurations of renacer binary BIN
rows() {
	b=$1 p=$2
	printf '%s\t%s\t--version\n' "$p.version" "$b"
	printf '%s\t%s\t-o\t/dev/null\t--\t/bin/true\n' "$p.text" "$b"
	printf '%s\t%s\t--backend\tptrace\t-c\t-o\t/dev/null\t--\t/bin/true\n' "$p.ptrace_c" "$b"
	printf '%s\t%s\t-c\t-o\t/dev/null\t--\t/bin/true\n' "$p.auto_c" "$b"
	[ $ebpf = 1 ] && printf '%s\t%s\t--backend\tebpf\t-c\t-o\t/dev/null\t--\t/bin/true\n' "$p.ebpf_c" "$b"
	printf '%s\t%s\t-s\t-o\t/dev/null\t--\t/bin/true\n' "$p.source" "$b"
	printf '%s\t%s\t--otlp-file\t%s\t-o\t/dev/null\t--\t/bin/true\n' "$p.otlp_file" "$b" "$T/spans.jsonl"
}
{
	printf 'true\t/bin/true\n'
	rows "$R" new
	[ -n "$BASE" ] && rows "$BASE" base
} > "$T/cfg"
/usr/bin/python3 "$T/bench.py" "$RUNS" < "$T/cfg" > "$T/res" || exit 1
get() { awk -v k="$1" -v c="$2" '$1 == k { print $c }' "$T/res"; }

echo
echo "== start-up (median of $RUNS; wall and CPU milliseconds, CPU of every process)"
echo "renacer $("$R" --version | cut -d' ' -f2); $(nproc) CPUs; kernel $(uname -r);" \
	"renacer maps $(ldd "$R" | grep -c '=>') shared libraries at start (ldd)"
[ -n "$BASE" ] && echo "base: $BASE, $(ldd "$BASE" | grep -c '=>') shared libraries"
if [ -n "$BASE" ]; then
	printf '%-44s %8s %8s %10s %10s\n' run wall cpu "base wall" "base cpu"
else
	printf '%-44s %8s %8s\n' run wall cpu
fi
printf '%-44s %8.2f %8.2f\n' "/bin/true (untraced)" "$(get true 2)" "$(get true 3)"
for r in version text ptrace_c auto_c ebpf_c source otlp_file; do
	[ -n "$(get "new.$r" 2)" ] || continue
	case $r in
	version) l="renacer --version" ;;
	text) l="renacer -o /dev/null -- true" ;;
	ptrace_c) l="renacer --backend ptrace -c -- true" ;;
	auto_c) l="renacer -c -- true (auto)" ;;
	ebpf_c) l="renacer --backend ebpf -c -- true" ;;
	source) l="renacer -s -o /dev/null -- true" ;;
	otlp_file) l="renacer --otlp-file F -o /dev/null -- true" ;;
	esac
	if [ -n "$BASE" ]; then
		printf '%-44s %8.2f %8.2f %10.2f %10.2f\n' "$l" "$(get "new.$r" 2)" "$(get "new.$r" 3)" \
			"$(get "base.$r" 2)" "$(get "base.$r" 3)"
	else
		printf '%-44s %8.2f %8.2f\n' "$l" "$(get "new.$r" 2)" "$(get "new.$r" 3)"
	fi
done

# eBPF start-up from outside (issue 19): a command that prints the
# monotonic clock as its main() begins (build/progs/stamp) gives, for any
# tracer and any build, the time from the tracer's spawn to the command's
# own start and from there to the tracer's exit; less the untraced run's,
# those are the tracer's start-up and end.  Beside strace, the ptrace
# engine, the eBPF counter and recorder (and BASE's).  Then where the
# counter's and the recorder's time goes (RENACER_EBPF_STATS steps).
STAMP="$TOP/$BUILD/progs/stamp"
if [ $ebpf = 1 ] && [ -x "$STAMP" ]; then
	cat > "$T/bench2.py" <<'PY'
import os, resource, statistics, subprocess, sys, time
runs = int(sys.argv[1])
cfgs = [l.rstrip("\n").split("\t") for l in sys.stdin if l.strip()]
res = {c[0]: ([], [], [], []) for c in cfgs}
for _ in range(runs):
    for c in cfgs:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic_ns()
        p = subprocess.run(c[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        t1 = time.monotonic_ns()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            st = int(p.stdout.split()[0])
        except (IndexError, ValueError):
            continue
        w, u, a, b = res[c[0]]
        w.append((t1 - t0) / 1e6)
        u.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1e3)
        a.append((st - t0) / 1e6)
        b.append((t1 - st) / 1e6)
for c in cfgs:
    v = res[c[0]]
    if v[0]:
        print(c[0], *("%.3f" % statistics.median(x) for x in v))
PY
	# rows2 BIN PREFIX: renacer BIN around stamp
	rows2() {
		printf '%s\t%s\t--backend\tptrace\t-c\t-o\t/dev/null\t--\t%s\n' "$2.ptrace_c" "$1" "$STAMP"
		printf '%s\t%s\t-c\t-o\t/dev/null\t--\t%s\n' "$2.counter" "$1" "$STAMP"
		printf '%s\t%s\t--backend\tebpf\t-f\t-o\t/dev/null\t--\t%s\n' "$2.recorder" "$1" "$STAMP"
	}
	{
		printf 'untraced\t%s\n' "$STAMP"
		if command -v strace > /dev/null 2>&1; then
			printf 'strace_c\tstrace\t-f\t-c\t-o\t/dev/null\t--\t%s\n' "$STAMP"
			printf 'strace_f\tstrace\t-f\t-o\t/dev/null\t--\t%s\n' "$STAMP"
		fi
		rows2 "$R" new
		# what forking the command before the load saves
		printf 'new.late\tenv\tRENACER_EBPF_LATE_FORK=1\t%s\t-c\t-o\t/dev/null\t--\t%s\n' "$R" "$STAMP"
		[ -n "$BASE" ] && rows2 "$BASE" base
	} > "$T/cfg3"
	load0=$(cut -d' ' -f1 /proc/loadavg)
	/usr/bin/python3 "$T/bench2.py" "$RUNS" < "$T/cfg3" > "$T/res3" || exit 1
	get3() { awk -v k="$1" -v c="$2" '$1 == k { print $c }' "$T/res3"; }
	echo
	echo "== eBPF start-up against untraced and strace (median of $RUNS, ms; load average $load0 before, $(cut -d' ' -f1 /proc/loadavg) after)"
	echo "start-up: the tracer's spawn to the command's main(), end: main() to the tracer's exit, each less the untraced run's"
	uw=$(get3 untraced 2) ua=$(get3 untraced 4) ub=$(get3 untraced 5)
	hdr='%-46s %8s %8s %9s %8s'
	[ -n "$BASE" ] && hdr="$hdr   %10s %9s %9s %8s"
	printf "$hdr\n" run wall cpu start-up end ${BASE:+"base wall" "base cpu" "start-up" "end"}
	for k in untraced strace_c strace_f ptrace_c counter late recorder; do
		case $k in
		untraced) l="stamp (untraced)"; kk=untraced ;;
		strace_c) l="strace -f -c -o /dev/null"; kk=strace_c ;;
		strace_f) l="strace -f -o /dev/null"; kk=strace_f ;;
		ptrace_c) l="renacer --backend ptrace -c"; kk=new.ptrace_c ;;
		counter) l="renacer -c (eBPF counter)"; kk=new.counter ;;
		late) l="  the same, forked after the load"; kk=new.late ;;
		recorder) l="renacer --backend ebpf -f -o /dev/null"; kk=new.recorder ;;
		esac
		[ -n "$(get3 "$kk" 2)" ] || continue
		line=$(printf '%-46s %8.2f %8.2f %9.2f %8.2f' "$l" "$(get3 "$kk" 2)" "$(get3 "$kk" 3)" \
			"$(echo "$(get3 "$kk" 4) $ua" | awk '{print $1 - $2}')" \
			"$(echo "$(get3 "$kk" 5) $ub" | awk '{print $1 - $2}')")
		bk=$(echo "$kk" | sed 's/^new\./base./')
		if [ -n "$BASE" ] && [ "$bk" != "$kk" ] && [ -n "$(get3 "$bk" 2)" ]; then
			line="$line$(printf '   %10.2f %9.2f %9.2f %8.2f' "$(get3 "$bk" 2)" "$(get3 "$bk" 3)" \
				"$(echo "$(get3 "$bk" 4) $ua" | awk '{print $1 - $2}')" \
				"$(echo "$(get3 "$bk" 5) $ub" | awk '{print $1 - $2}')")"
		fi
		echo "$line"
	done
	# the steps, from renacer's own clock (ms after ebpf_run() began;
	# the end's after the command's exit)
	for mode in counter recorder; do
		i=0; : > "$T/steps.$mode"
		while [ $i -lt "$RUNS" ]; do
			case $mode in
			counter) RENACER_EBPF_STATS=1 "$R" -c -o /dev/null -- "$STAMP" ;;
			recorder) RENACER_EBPF_STATS=1 "$R" --backend ebpf -f -o /dev/null -- "$STAMP" ;;
			esac 2>&1 > /dev/null | sed -n 's/^renacer: eBPF: \(start-up\|end\): //p' |
				tr '\n' ' ' >> "$T/steps.$mode"
			echo >> "$T/steps.$mode"
			i=$((i + 1))
		done
		printf '%-9s' "$mode:"
		awk '{ for (i = 1; i < NF; i++) if ($(i + 1) ~ /^\+/) { v[$i] = v[$i] " " substr($(i + 1), 2); if (!($i in o)) { o[$i] = ++n; k[n] = $i } }
		       if (match($0, /CPU [0-9.]+ ms at run, [0-9.]+ at go/)) { split(substr($0, RSTART, RLENGTH), c, " "); v["cpu@run"] = v["cpu@run"] " " c[2]; v["cpu@go"] = v["cpu@go"] " " c[6] } }
		     function med(s,   a, m, i, j, t) { m = split(s, a, " "); for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return a[int((m + 1) / 2)] }
		     END { for (i = 1; i <= n; i++) printf " %s %.2f", k[i], med(v[k[i]]); printf "; renacer CPU at run %.2f, at go %.2f\n", med(v["cpu@run"]), med(v["cpu@go"]) }' "$T/steps.$mode"
	done
	echo "(counter and recorder steps: ms after ebpf_run() began, from fork to execve; reaped to end: ms after the command's exit)"
fi

# short real programs: untraced against the eBPF summary (and ptrace -c)
[ $ebpf = 1 ] || { echo "(eBPF rows skipped: $(cat "$T/why"))"; exit 0; }
git -C "$TOP" status --short > /dev/null 2>&1   # a fresh index for every run
{
	printf 'py.untraced\t/usr/bin/python3\t-c\tpass\n'
	printf 'py.ebpf\t%s\t-f\t--backend\tebpf\t-c\t-o\t/dev/null\t/usr/bin/python3\t-c\tpass\n' "$R"
	printf 'py.ptrace\t%s\t-f\t--backend\tptrace\t-c\t-o\t/dev/null\t/usr/bin/python3\t-c\tpass\n' "$R"
	printf 'git.untraced\tgit\t-C\t%s\tstatus\t--short\n' "$TOP"
	printf 'git.ebpf\t%s\t-f\t--backend\tebpf\t-c\t-o\t/dev/null\tgit\t-C\t%s\tstatus\t--short\n' "$R" "$TOP"
	printf 'git.ptrace\t%s\t-f\t--backend\tptrace\t-c\t-o\t/dev/null\tgit\t-C\t%s\tstatus\t--short\n' "$R" "$TOP"
} > "$T/cfg2"
/usr/bin/python3 "$T/bench.py" "$RUNS" < "$T/cfg2" > "$T/res" || exit 1
ratio() { echo "$1 $2" | awk '{printf "%.2f", $1/$2}'; }
echo
echo "-- short real programs: untraced, renacer -f -c --backend ebpf, --backend ptrace"
printf '%-24s %9s %9s %9s %6s %9s %6s %9s %6s %9s %6s\n' program "wall" "cpu" \
	"ebpf wall" x "cpu" x "ptrace" x "cpu" x
for p in py git; do
	case $p in py) l="python3 -c pass" ;; git) l="git status (this repo)" ;; esac
	uw=$(get $p.untraced 2) uc=$(get $p.untraced 3)
	ew=$(get $p.ebpf 2) ec=$(get $p.ebpf 3) pw=$(get $p.ptrace 2) pc=$(get $p.ptrace 3)
	printf '%-24s %9.2f %9.2f %9.2f %6s %9.2f %6s %9.2f %6s %9.2f %6s\n' "$l" "$uw" "$uc" \
		"$ew" "$(ratio "$ew" "$uw")" "$ec" "$(ratio "$ec" "$uc")" \
		"$pw" "$(ratio "$pw" "$uw")" "$pc" "$(ratio "$pc" "$uc")"
done
exit 0
