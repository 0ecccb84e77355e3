#!/bin/sh
# The eBPF recording engine (--backend ebpf for a trace) against the ptrace
# engine: on the decode programs of tests/t/decode_*.sh the same text,
# line for line after masking what differs from run to run (addresses,
# pids, ids, ports, times), with the default string limit, -s 5, -v and
# -X raw; children, threads and an exec from a thread from birth, and
# tracees killed by signals (compared per process: the interleaving of
# processes is the scheduler's); strings on pages the program never touched
# (the kernel faults them in inside the call); every output format (JSON
# and JSONL records, CSV, -C, -ff); and the kernel's recording of a storm
# with no event lost, losses reported when the ring buffer is made tiny.
# test: slow
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_proc.sh"
export LC_ALL=C LANG=C
"$RENACER" --backend ebpf -o /dev/null true 2> "$TMPDIR/probe"
rc=$?
[ $rc = 6 ] && skip "eBPF back end unavailable here: $(cat "$TMPDIR/probe")"
[ $rc = 0 ] || fail "--backend ebpf true: exit $rc: $(cat "$TMPDIR/probe")"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# what differs between two runs of these programs, whatever the engine
MASK_EXTRA='s/htons\([0-9]+\)/htons(PORT)/g; s/(sin6?_port)="([^"\\]|\\.)*"/\1=PORT/g
s/(kill|tkill|tgkill|pidfd_open|rt_sigqueueinfo|rt_tgsigqueueinfo)\([0-9]+(, [0-9]+)?/\1(PID/
s/renacer[-_](netops|ipcops)[-_][0-9]+/renacer-\1-N/g
s/(tv_n?sec|tv_usec|ru_[a-z]+|si_[us]time|st_[amc]time(_nsec)?|st_ino|stx_ino|d_ino|(shm|sem|msg)_[a-z]time)=[0-9]+/\1=N/g
s/^(.*time\(\[)[0-9]+/\1N/
s/ \/\* [0-9T:.+-]+ \*\//\/* DATE *\//g
s/^(.*(semget|msgget|shmget|msgctl|shmctl|semctl)\(.*\) += )[0-9]+/\1ID/
s/(semop|semctl|msgsnd|msgrcv|msgctl|shmat|shmctl|semtimedop)\([0-9]+/\1(ID/
s/= [0-9]{6,}$/= N/; s/= [0-9]+ \((20[0-9-]+T[^)]*)\)$/= N/
s/\[[0-9]{6,}( \/\*[^]]*)?\]/[N]/
s/getcpu\(\[[0-9]+\]/getcpu([CPU]/
s/(PR_SCHED_CORE_SHARE_TO), [0-9]+/\1, PID/
s/f_(bfree|bavail|ffree)=[0-9]+/f_\1=N/g
s/pid=[0-9]+/pid=PID/g
s/sa_data="([^"\\]|\\.)*"/sa_data=DATA/
s/[0-9]+ vars \*\//N vars *\//
s/, "RENACER_[A-Z_]*=[^"]*"//g; s/\["RENACER_[A-Z_]*=[^"]*", /[/g
s/ +=/ =/'
export MASK_EXTRA

# both OPTS... -- CMD...: the two engines' traces of CMD, run one after
# the other in the same fresh directory; sets P and E (the traces)
n=0
both() {
	n=$((n + 1))
	P="$TMPDIR/p.$n" E="$TMPDIR/e.$n"
	rm -rf "$TMPDIR/w" && mkdir "$TMPDIR/w"
	(cd "$TMPDIR/w" && "$RENACER" --backend ptrace -o "$P" "$@") > /dev/null 2>&1 < /dev/null
	PRC=$?
	rm -rf "$TMPDIR/w" && mkdir "$TMPDIR/w"
	(cd "$TMPDIR/w" && RENACER_EBPF_STATS=1 "$RENACER" --backend ebpf -o "$E" "$@") \
		> /dev/null 2> "$E.err" < /dev/null
	ERC=$?
	[ "$PRC" = "$ERC" ] || bad "$*: exit status: ptrace $PRC, ebpf $ERC: $(head -c 300 "$E.err")"
	grep '^renacer' "$E.err" | grep -v '^renacer:\( \|   \)\?eBPF recorder\|^renacer:   \|^renacer: eBPF: \(loaded\|start-up\|end\|clock\|programs\|maps\)' |
		grep -v "${ALLOW_MSG:-^$}" &&
		bad "$*: a message from renacer"
	# the recorder's count of reads it could not serve, for the log
	sed -n 's/^renacer: eBPF recorder: //p' "$E.err"
}
same() { # LABEL: P and E the same after masking
	compare_traces "$P" "$E" "$1 (- ptrace, + ebpf)" || bad "$1: the traces differ"
}

# 1. each decode program, whole (one process each), under several options
for prog in fileops fsops futexops ioctls ipcops memops miscops netops pollops sigops \
	    sysops timeops ttyops badptr edgeargs; do
	p=$(need_prog "$prog")
	for opts in "-f" "-f -s 5" "-f -v" "-f -X raw"; do
		# shellcheck disable=SC2086
		both $opts -- "$p"
		# an ignored signal interrupts a sleep under ptrace (the
		# tracee stops for it) and never untraced; whether the timer's
		# SIGURG comes before the sleep ends is the scheduler's
		[ "$prog" = timeops ] && for f in "$P" "$E"; do
			sed -E -i '/restart_syscall\(/d; /--- SIGURG/d
				s/ = \? ERESTART_RESTARTBLOCK \(Interrupted by signal\)$/ = 0/' "$f"
		done
		same "$prog $opts"
	done
done

# 1b. what the recorder copies beyond a call's plain arguments: fields
# the call changes, read at its entry too ("A => B": recvmmsg's
# msg_namelen, SIOCGIFCONF's ifc_len, perf_event_open's size), structures
# behind pointers (socket filters, SIOCGIFCONF's buffer, PR_SET_VMA's
# name), a failed execve's environment (-v: at its exit), and pages of an
# anonymous mapping the program never touched (zeros, as ptrace reads
# them: fsconfig's value, write's buffer with -s 0)
for case in "-f -v|sockoptops" "-f|ioctl_sock" "-f|prctlops" "-f -s 0|edgeargs io" \
	    "-f|edgeargs new"; do
	opts=${case%%|*} args=${case#*|}
	p=$(need_prog "${args%% *}")
	# shellcheck disable=SC2086
	both $opts -- "$p" ${args#"${args%% *}"}
	same "$args $opts"
done
P1=$(need_prog procops)
# (its entry record is full: 40 arguments on pages not there, read later;
# the environment comes from the exit record)
ALLOW_MSG='more memory than a record holds'
both -f -v -e 'trace=!futex' -- "$P1"
ALLOW_MSG=
grep -q 'execve("/nonexistent/prog", \[.*\], \["A=1", "B=2"\]) = -1 ENOENT' "$E" ||
	bad "procops -v: the failed execve's environment: $(grep nonexistent/prog "$E" | head -1)"
compare_norm "$P" "$E" "procops -v (- ptrace, + ebpf)" || bad "procops -v: the traces differ"

# 2. processes and threads from birth, an exec from a thread, children
# killed by signals: per process (tests/lib_proc.sh)
P1=$(need_prog procops)
both -f -e 'trace=!futex' -- "$P1"
# a failed execve's arguments are on pages no call touched: the kernel
# never faults them in; they are constants of the program's read-only
# mapping, which renacer reads afterwards (from the process, or the file)
grep -q 'execve("/nonexistent/prog", \["arg", "arg", "arg", "a rather long' "$E" ||
	bad "procops: the failed execve's arguments: $(grep nonexistent/prog "$E")"
compare_norm "$P" "$E" "procops (- ptrace, + ebpf)" || bad "procops: the traces differ"
T=$(need_prog ebpf_tree)
for mode in tree threads; do
	both -f -e 'trace=!futex' -- "$T" "$mode"
	# (where a SIGCHLD lands among the parent's calls is the scheduler's)
	[ "$(grep -c -- '--- SIGCHLD' "$P")" = "$(grep -c -- '--- SIGCHLD' "$E")" ] ||
		bad "ebpf_tree $mode: SIGCHLD lines: ptrace $(grep -c -- '--- SIGCHLD' "$P"), ebpf $(grep -c -- '--- SIGCHLD' "$E")"
	sed -i '/--- SIGCHLD/d' "$P" "$E"
	compare_norm "$P" "$E" "ebpf_tree $mode (- ptrace, + ebpf)" || bad "ebpf_tree $mode: the traces differ"
	# the leader's end comes after its threads' (and after the calls they
	# die inside), as a ptrace tracer sees it
	[ $mode = threads ] && for f in "$P" "$E"; do
		lead=$(head -n 1 "$f" | cut -d' ' -f1)
		tail -n 1 "$f" | grep -q "^$lead  *+++ exited with 0 +++" ||
			bad "ebpf_tree threads: the leader's end is not last in $f: $(tail -n 3 "$f")"
	done
done
grep -q '+++ killed by SIGKILL +++' "$TMPDIR/e.$((n - 1))" && grep -q '+++ killed by SIGTERM +++' "$TMPDIR/e.$((n - 1))" &&
	grep -q -- '--- SIGTERM {si_signo=SIGTERM' "$TMPDIR/e.$((n - 1))" ||
	bad "ebpf_tree tree: the children killed by SIGKILL and SIGTERM are not in the trace"
both -f -e 'trace=!futex,rseq,set_robust_list,rt_sigprocmask,madvise,mmap,munmap,mprotect' -- \
	"$PROGS/engine" thread-exec "$PROGS/engine"
grep -q 'superseded by execve' "$E" || bad "exec from a thread: no 'superseded' line: $(tail -5 "$E")"
# (whether the other thread ran before the exec killed it varies)
sed -i '/^[0-9]* *+++ \(exited with 0\|superseded\)/d' "$P" "$E"
# (the exec'ing thread's line is cut in two under ptrace: its arguments)
grep '^[0-9]* *execve(' "$P" | sed -E 's/^[0-9]* *//; s/( <unfinished \.\.\.>|\) += 0)$//' > "$P.x"
grep '^[0-9]* *execve(' "$E" | sed -E 's/^[0-9]* *//; s/( <unfinished \.\.\.>|\) += 0)$//' > "$E.x"
compare_traces "$P.x" "$E.x" "exec from a thread: execve lines" || bad "exec from a thread: execve lines differ"

# 3. strings on pages never touched before the call: read at the exit
# (paths), from the new image (execve's arguments), from the mapped file
# (a constant written to /dev/null)
F=$(need_prog ebpf_fault)
for mode in paths exec; do
	both -f -e trace=openat,newfstatat,access,readlink,execve -- "$F" "$mode"
	same "ebpf_fault $mode"
done
grep -q 'openat(AT_FDCWD, "/etc/passwd", O_RDONLY) = [0-9]' "$TMPDIR/e.$((n - 1))" ||
	bad "a path on an untouched page: $(grep passwd "$TMPDIR/e.$((n - 1))")"
grep -q '"an-argument-on-an-untouched-page"' "$E" ||
	bad "an execve argument on an untouched page: $(grep true "$E")"
# a write of such a page to /dev/null (the call never reads it), by a
# process that is gone when its record is decoded: read from the file
rm -rf "$TMPDIR/w" && mkdir "$TMPDIR/w"
(cd "$TMPDIR/w" && RENACER_EBPF_STATS=1 "$RENACER" --backend ebpf -e trace=write -o "$TMPDIR/null" "$F" null) \
	> /dev/null 2> "$TMPDIR/null.err"
grep -aq '^write(1, "written to /dev/null\\n", 21) *= 21' "$TMPDIR/null" ||
	bad "a page never touched, written to /dev/null: $(grep -a 'write(1' "$TMPDIR/null") $(cat "$TMPDIR/null.err")"
# a path on such a page opened by a second thread (so the entry is recorded
# apart), its file removed, decoded once the process is gone (renacer
# blocked on its output, no back-pressure), the other thread's calls
# between its entry and exit: the entry record cannot serve it, the exit
# record's copy does (a golden once kept such a call as
# openat(AT_FDCWD, 0x...) and flagged every later run)
rm -f "$TMPDIR/w/fifo"
mkfifo "$TMPDIR/w/fifo"
(exec < "$TMPDIR/w/fifo"; sleep 2; cat > "$TMPDIR/thr.json") &
reader=$!
(cd "$TMPDIR/w" && RENACER_EBPF_THROTTLE=0 RENACER_EBPF_STATS=1 "$RENACER" --backend ebpf -f \
	--format json -o fifo "$F" thread 20000) > /dev/null 2> "$TMPDIR/thr.err"
rc=$?
wait $reader
# (the command's SIGCHLD must not cut renacer's write to the slow FIFO)
[ $rc = 0 ] || bad "ebpf_fault thread: exit $rc: $(grep -v '^renacer: eBPF' "$TMPDIR/thr.err")"
grep -q 'could not read ([0-9]* read later, [1-9]' "$TMPDIR/thr.err" ||
	bad "ebpf_fault thread: no late read failed, the case is not tested: $(grep 'eBPF recorder:' "$TMPDIR/thr.err")"
/usr/bin/python3 - "$TMPDIR/thr.json" <<'EOF' || bad "ebpf_fault thread: the thread's path is not in the trace"
import json, sys
d = json.load(open(sys.argv[1]))
calls = [s for s in d["syscalls"] if s["name"] == "openat" and s["tid"] != s["pid"]]
ok = [s for s in calls if s["args"][1][2].get("s") == "fault-fifo"]
if len(calls) != 1 or not ok:
    print("the thread's openat calls:", json.dumps(calls)[:600])
    sys.exit(1)
EOF

# 4. every output format: the same records as the ptrace engine's
p=$(need_prog fileops)
for fmt in json jsonl; do
	both -f --format "$fmt" -- "$p"
	/usr/bin/python3 - "$P" "$E" "$fmt" <<'EOF' || bad "--format $fmt: the records differ"
import json, re, sys
def recs(path, fmt):
    if fmt == "json":
        d = json.load(open(path))
        calls = d["syscalls"]
        if d.get("backend") is not None:
            print("backend member: %r" % d.get("backend"))
            sys.exit(1)
    else:
        calls = [r for r in map(json.loads, open(path)) if r.get("type") == "syscall"]
    def shape(v):
        # a typed value's kinds and structure, not its numbers (addresses,
        # times, pids differ from run to run; the text checks the rest)
        if isinstance(v, dict):
            return {k: shape(x) for k, x in v.items() if k not in ("s", "bytes")}
        if isinstance(v, list):
            return [shape(x) for x in v]
        return type(v).__name__
    out = []
    for c in calls:
        args = c.get("args") or []
        text = json.dumps([c["name"], [a[:2] for a in args], c.get("rv_fmt"),
                           [shape(a[2]) if len(a) > 2 else None for a in args]])
        text = re.sub(r"0x[0-9a-f]{6,}", "ADDR", text)
        text = re.sub(r"(st_[amc]time(_nsec)?|st_ino|tv_n?sec)=[0-9]+", r"\1=N", text)
        text = re.sub(r" /\* [0-9T:.+-]+ \*/", "", text)
        text = re.sub(r"[0-9]+ vars", "N vars", text)
        if c["name"] == "getrandom":
            text = re.sub(r'\["buf", "[^]]*"\]', "RANDOM", text)
        res = c.get("result")
        if c["name"] in ("getpid", "gettid", "set_tid_address", "getppid") or \
           (c.get("rv_fmt") == "hex" and isinstance(res, int) and res > 0xffffff):
            res = "N"
        out.append((text, res))
    return out
a, b = recs(sys.argv[1], sys.argv[3]), recs(sys.argv[2], sys.argv[3])
if a != b:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print("record %d: ptrace %s, ebpf %s" % (i, x, y))
            break
    print("%d records under ptrace, %d under eBPF" % (len(a), len(b)))
    sys.exit(1)
print("--format %s: %d records agree" % (sys.argv[3], len(a)))
EOF
done
both -f --format csv -- "$p"
cut -d, -f4-8 "$P" | sed -E 's/,[0-9]{6,},/,N,/; s/^(set_tid_address|getpid|gettid),([0-9]+),(.*),[0-9]+,$/\1,\2,\3,PID,/; s/getrandom,318,"""[^"]*""/getrandom,318,RANDOM/; s/0x[0-9a-f]{6,}/ADDR/g; s/(st_[amc]time(_nsec)?|st_ino)=[0-9]+/\1=N/g; s/ \/\* [0-9T:.+-]+ \*\///g; s/[0-9]+ vars/N vars/' > "$P.c"
cut -d, -f4-8 "$E" | sed -E 's/,[0-9]{6,},/,N,/; s/^(set_tid_address|getpid|gettid),([0-9]+),(.*),[0-9]+,$/\1,\2,\3,PID,/; s/getrandom,318,"""[^"]*""/getrandom,318,RANDOM/; s/0x[0-9a-f]{6,}/ADDR/g; s/(st_[amc]time(_nsec)?|st_ino)=[0-9]+/\1=N/g; s/ \/\* [0-9T:.+-]+ \*\///g; s/[0-9]+ vars/N vars/' > "$E.c"
cmp -s "$P.c" "$E.c" || { bad "--format csv: the rows differ"; diff "$P.c" "$E.c" | head -5; }
both -f -C -- "$p"
sed -i '/^ *[0-9.]* *[0-9.]* *[0-9]* *[0-9]* *[0-9]* *[a-z_0-9]*$/d; /^[-%]/d; / total$/d' "$P" "$E"
same "-C"
# -ff: a file per process
rm -rf "$TMPDIR/ff" && mkdir "$TMPDIR/ff"
(cd "$TMPDIR/ff" && "$RENACER" --backend ebpf -ff -o out "$T" tree > /dev/null 2>&1)
[ "$(ls "$TMPDIR/ff" | grep -c '^out\.[0-9]*$')" = 5 ] || bad "-ff: files $(ls "$TMPDIR/ff" | tr '\n' ' ')"

# -p: a filter on the kernel's table of traced tasks; SIGINT lets go of
# them (they run on); children of the attached process from birth with -f
sh -c 'while :; do cat /etc/hostname > /dev/null; sleep 0.1; done' > /dev/null 2>&1 &
sp=$!
"$RENACER" --backend ebpf -f -p $sp -o "$TMPDIR/att" 2> "$TMPDIR/att.err" &
rp=$!
sleep 1.5
kill -INT $rp
wait $rp
rc=$?
[ $rc = 130 ] || bad "-p: exit $rc, want 130: $(cat "$TMPDIR/att.err")"
grep -q "^renacer: Process $sp attached" "$TMPDIR/att.err" &&
	grep -q "^renacer: Process $sp detached" "$TMPDIR/att.err" ||
	bad "-p: attach/detach lines: $(cat "$TMPDIR/att.err")"
grep -q 'openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = 3' "$TMPDIR/att" ||
	bad "-p -f: the children's calls are not there: $(tail -3 "$TMPDIR/att")"
kill -0 $sp 2> /dev/null || bad "-p: the process did not outlive the trace"
kill $sp

# 5. a storm: every call recorded, none lost; a tiny ring buffer loses
# calls and says how many
N=200000
"$RENACER" --backend ebpf -e trace=getppid -o "$TMPDIR/storm" "$T" storm $N 2> "$TMPDIR/storm.err"
got=$(grep -c '^getppid() *= [0-9]' "$TMPDIR/storm")
[ "$got" = $N ] || bad "storm: $got getppid lines, want $N: $(cat "$TMPDIR/storm.err")"
grep -q 'lost' "$TMPDIR/storm.err" && bad "storm: $(cat "$TMPDIR/storm.err")"
RENACER_EBPF_RINGBUF=4096 "$RENACER" --backend ebpf -e trace=getppid -o "$TMPDIR/tiny" "$T" storm $N \
	2> "$TMPDIR/tiny.err"
rc=$?
lost=$(sed -n 's/^renacer: warning: eBPF: \([0-9]*\) calls and signals were lost.*/\1/p' "$TMPDIR/tiny.err")
got=$(grep -c '^getppid() *= [0-9]' "$TMPDIR/tiny")
[ -n "$lost" ] && [ "$lost" -gt 0 ] && [ $((got + lost)) -ge $N ] ||
	bad "tiny ring buffer: exit $rc, $got lines, lost '$lost': $(cat "$TMPDIR/tiny.err")"
echo "storm: $N calls recorded; with a 4 KiB ring buffer $got recorded and $lost reported lost"

[ $fails = 0 ] || exit 1
exit 0
