#!/bin/sh
# The eBPF back end counts what strace -f -c and the ptrace back end count:
# per syscall, the same calls and errors on deterministic real programs
# (coreutils, a shell pipeline, a process tree with killed children,
# threads, python3, git).  Its JSON summary equals the ptrace back end's
# (calls, errors, unfinished; the processes), its time column means what
# strace's means (system CPU time, -w wall-clock), and -e trace= / -e
# status= select the same calls.
# test: slow
set -u
. "$TOP/tests/lib.sh"
need_strace
export LC_ALL=C LANG=C
"$RENACER" --backend ebpf -c -o /dev/null true 2> "$TMPDIR/probe"
rc=$?
[ $rc = 6 ] && skip "eBPF back end unavailable here: $(cat "$TMPDIR/probe")"
[ $rc = 0 ] || fail "--backend ebpf -c true: exit $rc: $(cat "$TMPDIR/probe")"
P=$(need_prog ebpf_tree)
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# rows of a -c table: "name calls errors", sorted (columns as strace prints)
rows() {
	awk 'NR > 2 && !/^-/ && $NF != "total" {
		print $NF, substr($0, 38, 9) + 0, substr($0, 48, 9) + 0 }' "$1" |
		grep -Ev "^(${vary:-^}) " | sort
}

n=0
# check LABEL CMD...: strace, ptrace and ebpf -f -c of CMD, compared
check() {
	label=$1; shift
	n=$((n + 1))
	d="$TMPDIR/c$n"
	mkdir -p "$d"
	(cd "$d" && strace -f -c -o s.txt "$@" > /dev/null 2>&1 < /dev/null)
	(cd "$d" && "$RENACER" -f --backend ptrace -c -o p.txt "$@" > /dev/null 2>&1 < /dev/null)
	(cd "$d" && "$RENACER" -f --backend ebpf -c -o e.txt "$@" > /dev/null 2> e.err < /dev/null)
	grep '^renacer' "$d/e.err" && bad "$label: ebpf: a message from renacer"
	rows "$d/s.txt" > "$d/s.rows"; rows "$d/p.txt" > "$d/p.rows"; rows "$d/e.txt" > "$d/e.rows"
	[ "$(wc -l < "$d/e.rows")" -ge 5 ] || bad "$label: ebpf table too short: $(cat "$d/e.txt")"
	diff "$d/s.rows" "$d/e.rows" > "$d/d1" || { bad "$label: strace (<) and ebpf (>) differ:"; cat "$d/d1"; }
	diff "$d/p.rows" "$d/e.rows" > "$d/d2" || { bad "$label: ptrace (<) and ebpf (>) differ:"; cat "$d/d2"; }
	echo "$label: $(wc -l < "$d/e.rows") syscalls, $(awk '{c += $2} END {print c}' "$d/e.rows") calls agree"
}

vary=""
check "ls" ls -la /usr/bin /nonexistent
check "process tree" "$P" tree
check "python3" /usr/bin/python3 -c 'import json; print(json.dumps([1]))'
if command -v git > /dev/null 2>&1; then
	g="$TMPDIR/repo"
	git init -q "$g" && echo x > "$g/f" && git -C "$g" add f &&
		git -C "$g" -c user.name=t -c user.email=t@t commit -qm one &&
		check "git" git -C "$g" log --oneline --stat
fi
# signal handler returns and waits depend on when SIGCHLD lands
vary="rt_sigreturn|wait4"
check "pipeline" sh -c 'cat /etc/passwd | wc -l; ls / /nope | tr a-z A-Z'
# threads wait on each other in futex a varying number of times (FACTS.md)
vary="futex"
check "threads" "$P" threads
# a thread other than the leader calls execve: it takes the leader's tid,
# and its state must follow it (every call of the new program counted);
# whether the other thread got to start before the execve killed it varies
vary="futex|rseq|set_robust_list|rt_sigprocmask|madvise"
check "execve from a thread" "$PROGS/engine" thread-exec "$PROGS/engine"
vary=""

# the per-task table of the kernel side made tiny (one entry): every task
# but one lives in its overflow hash, and the counts stay the same
d="$TMPDIR/ovf"; mkdir -p "$d"
vary=futex
for m in tree threads; do
	"$RENACER" -f --backend ebpf -c -o "$d/a.$m" "$P" $m > /dev/null 2>&1
	RENACER_EBPF_TASKS=1 "$RENACER" -f --backend ebpf -c -o "$d/b.$m" "$P" $m > /dev/null 2>&1
	rows "$d/a.$m" > "$d/a.rows"; rows "$d/b.$m" > "$d/b.rows"
	[ -s "$d/b.rows" ] && diff "$d/a.rows" "$d/b.rows" ||
		bad "$m: table (<) and overflow (>) count differently"
done
vary=""

# -e trace= and -e status= select the same calls (ptrace as the oracle for
# status=, which strace -c does not apply)
d="$TMPDIR/sel"; mkdir -p "$d"
strace -f -c -e trace=openat,getppid,%process -o "$d/s.txt" "$P" tree > /dev/null 2>&1
"$RENACER" -f --backend ebpf -c -e trace=openat,getppid,%process -o "$d/e.txt" "$P" tree > /dev/null 2>&1
rows "$d/s.txt" > "$d/s.rows"; rows "$d/e.txt" > "$d/e.rows"
diff "$d/s.rows" "$d/e.rows" || bad "-e trace=openat,getppid,%process: strace (<) and ebpf (>) differ"
grep -q '^openat ' "$d/e.rows" && ! grep -q '^mmap ' "$d/e.rows" ||
	bad "-e trace=openat,...: wrong rows: $(cat "$d/e.rows")"
for st in failed successful; do
	"$RENACER" -f --backend ptrace -c -e status=$st -o "$d/p.$st" "$P" tree > /dev/null 2>&1
	"$RENACER" -f --backend ebpf -c -e status=$st -o "$d/e.$st" "$P" tree > /dev/null 2>&1
	rows "$d/p.$st" > "$d/p.rows"; rows "$d/e.$st" > "$d/e.rows"
	diff "$d/p.rows" "$d/e.rows" || bad "-e status=$st: ptrace (<) and ebpf (>) differ"
done
grep -q '^openat 23 23$' "$d/e.rows" && bad "-e status=successful counted failed openat calls"

# without -f only the command itself is counted, as strace does
strace -c -o "$d/s.nof" "$P" tree > /dev/null 2>&1
"$RENACER" --backend ebpf -c -o "$d/e.nof" "$P" tree > /dev/null 2>&1
rows "$d/s.nof" > "$d/s.rows"; rows "$d/e.nof" > "$d/e.rows"
diff "$d/s.rows" "$d/e.rows" || bad "without -f: strace (<) and ebpf (>) differ"

# the field offsets from the kernel's whole BTF (what a renacer built on
# another kernel uses) give the same counts as the small copy made at build
RENACER_EBPF_FULL_BTF=1 "$RENACER" -f --backend ebpf -c -o "$d/e.full" "$P" tree > /dev/null 2>&1
"$RENACER" -f --backend ebpf -c -o "$d/e.min" "$P" tree > /dev/null 2>&1
rows "$d/e.full" > "$d/full.rows"; rows "$d/e.min" > "$d/min.rows"
[ -s "$d/full.rows" ] && diff "$d/full.rows" "$d/min.rows" ||
	bad "whole-BTF (<) and build-time BTF (>) offsets count differently"

# The JSON summary (--format json with -c) counts as the ptrace back end's
# JSON trace does, unfinished calls (exit_group, the killed read) included,
# and lists the same processes; it has no per-call records and says so.
j="$TMPDIR/json"; mkdir -p "$j"
"$RENACER" -f --backend ebpf -c --format json -o "$j/e.json" "$P" tree > /dev/null 2> "$j/e.err" ||
	bad "ebpf --format json failed: $(cat "$j/e.err")"
"$RENACER" -f --backend ptrace --format json -o "$j/p.json" "$P" tree > /dev/null 2>&1
"$RENACER" -f --backend ebpf -c --format jsonl -o "$j/e.jsonl" "$P" tree > /dev/null 2>&1
/usr/bin/python3 - "$j/e.json" "$j/p.json" "$j/e.jsonl" <<'EOF' || fails=$((fails + 1))
import json, sys
e = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2]))
lines = [json.loads(l) for l in open(sys.argv[3])]
bad = []
def counts(s):
    return {k: (v["calls"], v["errors"], v.get("unfinished", 0)) for k, v in s["by_syscall"].items()}
if e.get("backend") != "ebpf" or "backend" in p:
    bad.append("backend member: ebpf %r, ptrace %r" % (e.get("backend"), p.get("backend")))
if e["syscalls"] != [] or e["signals"] != []:
    bad.append("ebpf document has records")
for k in ("total_syscalls", "total_errors", "total_unfinished", "exit_code"):
    if e["summary"][k] != p["summary"][k]:
        bad.append("%s: ebpf %s, ptrace %s" % (k, e["summary"][k], p["summary"][k]))
if counts(e["summary"]) != counts(p["summary"]):
    ce, cp = counts(e["summary"]), counts(p["summary"])
    for k in sorted(set(ce) | set(cp)):
        if ce.get(k) != cp.get(k):
            bad.append("by_syscall %s: ebpf %s, ptrace %s" % (k, ce.get(k), cp.get(k)))
eg = e["summary"]["by_syscall"].get("exit_group", {})
if not eg.get("unfinished") or eg["unfinished"] != eg["calls"]:
    bad.append("exit_group is not unfinished: %r" % eg)
if e["summary"]["by_syscall"]["read"].get("unfinished") != 1:
    bad.append("the read killed by SIGKILL is not unfinished: %r" % e["summary"]["by_syscall"]["read"])
def procs(d):
    return sorted((x["is_thread"], x.get("exit_code", -1), x.get("signal", ""), len(x["exec"]))
                  for x in d["processes"])
if procs(e) != procs(p):
    bad.append("processes: ebpf %s, ptrace %s" % (procs(e), procs(p)))
ex = e["processes"][0]["exec"]
if not ex or ex[0]["path"] != p["processes"][0]["exec"][0]["path"]:
    bad.append("exec path: %r" % ex)
root = e["processes"][0]["pid"]
if any(x["ppid"] != root for x in e["processes"][1:]):
    bad.append("children's ppid is not the command's pid")
if lines[0].get("backend") != "ebpf" or lines[-1]["type"] != "summary" or \
   counts(lines[-1]) != counts(e["summary"]) or any(l["type"] == "syscall" for l in lines):
    bad.append("jsonl: header %r, last %r" % (lines[0], lines[-1]["type"]))
for b in bad:
    print("FAIL: JSON summary: " + b)
print("JSON summary: %d syscalls, %d unfinished, %d processes agree" %
      (e["summary"]["total_syscalls"], e["summary"]["total_unfinished"], len(e["processes"])))
sys.exit(1 if bad else 0)
EOF

# a summary has no records to replay: readers refuse it (status 3)
printf '[[assertion]]\nname = "n"\ntype = "span_count"\nmax_spans = 10\n' > "$j/c.toml"
"$RENACER" assert --config "$j/c.toml" "$j/e.json" > /dev/null 2> "$j/a.err"
rc=$?
[ $rc = 3 ] && grep -q "a summary of the ebpf back end, without syscall records" "$j/a.err" ||
	bad "renacer assert on an eBPF summary: exit $rc: $(cat "$j/a.err")"

# The time column: system CPU time in each call by default (a 200 ms sleep
# costs ~0), wall-clock with -w; a call that burns CPU in the kernel shows
# about what strace shows (the kernel's tick accounting, so within 3x).
nsl() { awk '$NF == "clock_nanosleep" || $NF == "nanosleep" {print $2}' "$1"; }
"$RENACER" --backend ebpf -c -o "$d/t1" "$PROGS/engine" sleep 200 > /dev/null 2>&1
"$RENACER" --backend ebpf -c -w -o "$d/t2" "$PROGS/engine" sleep 200 > /dev/null 2>&1
s1=$(nsl "$d/t1") s2=$(nsl "$d/t2")
[ "$(echo "$s1 $s2" | awk '{print ($1 < 0.1 && $2 >= 0.2)}')" = 1 ] ||
	bad "sleep 200 ms: system time '$s1' (want < 0.1), -w '$s2' (want >= 0.2)"
# -S max-time and min-time order by the longest and shortest call, which
# the kernel side keeps only when asked: the 200 ms sleep comes first
"$RENACER" --backend ebpf -c -w -S max-time -o "$d/t3" "$PROGS/engine" sleep 200 > /dev/null 2>&1
sed -n 3p "$d/t3" | grep -Eq ' (clock_)?nanosleep$' || bad "-S max-time: $(sed -n 3p "$d/t3")"
"$RENACER" --backend ebpf -c -w -S min-time -o "$d/t4" "$PROGS/engine" sleep 200 > /dev/null 2>&1
sed -n 3p "$d/t4" | grep -Eq ' (clock_)?nanosleep$' || bad "-S min-time: $(sed -n 3p "$d/t4")"
rd() { awk '$NF == "read" {print $2}' "$1"; }
strace -c -o "$d/u.s" dd if=/dev/urandom of=/dev/null bs=1M count=100 2> /dev/null
"$RENACER" --backend ebpf -c -o "$d/u.e" dd if=/dev/urandom of=/dev/null bs=1M count=100 2> /dev/null
a=$(rd "$d/u.s") b=$(rd "$d/u.e")
[ "$(echo "$a $b" | awk '{print ($1 > 0 && $2 >= $1 / 3 && $2 <= $1 * 3)}')" = 1 ] ||
	bad "reading 100 MB of /dev/urandom: system time strace '$a', ebpf '$b'"
echo "times: sleep 200 ms ${s1}s, with -w ${s2}s; urandom read strace ${a}s, ebpf ${b}s"

[ $fails = 0 ] || exit 1
exit 0
