#!/bin/sh
# An interrupted or killed capture / validate --update never becomes the
# golden, and a golden and its summary are one unit: 50 times, at a random
# moment, SIGINT, SIGTERM or SIGKILL hits a renacer that is replacing a
# golden (made from another command) with a new one.  After each, the old
# pair is byte-identical, or -- when the signal came after the commit -- the
# new pair is complete (the same id in both files); an interrupted renacer
# says so in one line and dies by the signal.  A pending summary can only be
# left by SIGKILL in the commit's few microseconds, and the next renacer
# finishes it.  Also: a command killed from outside is not stored, and a
# pair that does not match is refused (exit 3).
# test: slow
set -u
. "$TOP/tests/lib.sh"
cd "$TMPDIR" || exit 1
/usr/bin/python3 - "$RENACER" <<'EOF'
import os, random, re, signal, subprocess, sys, time

renacer = sys.argv[1]
G = "golden_traces"
random.seed(os.getpid())
fails = []

def bad(msg):
    fails.append(msg)
    print("FAIL: " + msg)

def read(p):
    try:
        with open(p, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None

def ids(name):
    j = read("%s/%s.json" % (G, name))
    s = read("%s/%s_summary.txt" % (G, name))
    gid = re.match(rb'\s*\{\s*"golden_id": "([0-9a-f]{16})"', j or b"")
    sid = re.search(rb"golden_id: ([0-9a-f]{16})\n*$", s or b"")
    return (gid.group(1) if gid else None), (sid.group(1) if sid else None)

def run(args, **kw):
    return subprocess.run([renacer] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)

# the old golden: "true"; the new command differs and takes a while
old_cmd = ["/bin/true"]
new_cmd = ["/bin/sh", "-c", "sleep 0.15; ls / >/dev/null; sleep 0.05"]
p = run(["capture", "t", "--"] + old_cmd)
if p.returncode != 0:
    print("capture failed: " + p.stderr)
    sys.exit(1)
old = (read(G + "/t.json"), read(G + "/t_summary.txt"))
gid, sid = ids("t")
if not gid or gid != sid:
    bad("a fresh capture is not a matching pair: %r %r" % (gid, sid))

# how long a whole capture of the new command takes, to spread the signals
t0 = time.time()
p = run(["capture", "probe", "--"] + new_cmd)
whole = time.time() - t0
if p.returncode != 0:
    print("capture of the new command failed: " + p.stderr)
    sys.exit(1)

kinds = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]
stats = {"unchanged": 0, "replaced": 0, "pending": 0}
for i in range(50):
    sig = kinds[i % 3]
    update = i % 2 == 1
    if update:
        args = ["validate", "--update", "--golden", G + "/t.json", "--"] + new_cmd
    else:
        args = ["capture", "t", "--"] + new_cmd
    delay = random.uniform(0, whole * 1.1)
    # a session of its own: what a SIGKILL orphans goes with its group
    proc = subprocess.Popen([renacer] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    time.sleep(delay)
    proc.send_signal(sig)
    rc = proc.wait()
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    out, err = proc.communicate(timeout=60)
    what = "%s %s after %.3fs" % ("validate --update" if update else "capture",
                                  signal.Signals(sig).name, delay)
    pending = os.path.exists(G + "/.t_summary.txt.pending")
    if pending:
        if sig != signal.SIGKILL:
            bad(what + ": a pending summary after a signal renacer catches")
        stats["pending"] += 1
        run(["report", "-o", "/dev/null"])          # any renacer that reads it finishes it
        if os.path.exists(G + "/.t_summary.txt.pending"):
            bad(what + ": the pending summary was not finished by the next renacer")
    now = (read(G + "/t.json"), read(G + "/t_summary.txt"))
    if now == old:
        stats["unchanged"] += 1
        if rc == 0:
            bad(what + ": exit 0 but the golden is unchanged")
        if sig != signal.SIGKILL:
            if rc != -sig:
                bad(what + ": exit %d, want death by the signal" % rc)
            lines = [l for l in err.splitlines() if l.startswith("renacer: ")]
            # (a signal that comes before renacer has set up its handler
            # kills it at once, with nothing done and nothing to say)
            if err and not any("interrupted by" in l and
                               ("unchanged" in l or "nothing written" in l) for l in lines):
                bad(what + ": no one-line reason: %r" % err[-300:])
    else:
        gid, sid = ids("t")
        if not gid or gid != sid:
            bad(what + ": a half pair: golden id %r, summary id %r" % (gid, sid))
        elif b"/bin/sh" not in now[0]:
            bad(what + ": the golden changed, but not to the new command's run")
        stats["replaced"] += 1
        # back to the old pair for the next round
        for path, data in zip((G + "/t.json", G + "/t_summary.txt"), old):
            with open(path, "wb") as f:
                f.write(data)
    for f in os.listdir(G):
        if f.endswith(".new"):
            bad(what + ": left " + f)
            os.unlink(os.path.join(G, f))

# temporaries of the killed ones are gone after the next renacer there
run(["capture", "probe", "--"] + old_cmd)
# (the directory's lock file stays: golden/store.h)
left = [f for f in os.listdir(G) if f.startswith(".") and f != ".renacer.lock"]
if left:
    bad("left in the golden directory: %r" % left)
print("50 interruptions: %(unchanged)d left the old pair, %(replaced)d came after the "
      "commit, %(pending)d left a pending summary" % stats)
if stats["unchanged"] < 10:
    bad("too few interruptions before the commit (%d): the test does not test" %
        stats["unchanged"])

# a command killed from outside (here SIGTERM, as a CI job cancel) is not stored
p = run(["capture", "t", "--", "/bin/sh", "-c", "kill -TERM $$"])
if p.returncode == 0 or (read(G + "/t.json"), read(G + "/t_summary.txt")) != old:
    bad("a command killed by SIGTERM became the golden (exit %d)" % p.returncode)
elif "killed by SIGTERM before its end" not in p.stderr:
    bad("no reason for refusing a killed command: %r" % p.stderr)

# a pair that does not match is refused; a golden without an id is not checked
probe = read(G + "/probe_summary.txt")
with open(G + "/t_summary.txt", "wb") as f:
    f.write(probe)
p = run(["validate", "--golden", G + "/t.json", "--"] + old_cmd)
if p.returncode != 3 or "do not match" not in p.stderr:
    bad("a mismatched pair: exit %d, %r" % (p.returncode, p.stderr))
os.unlink(G + "/t_summary.txt")
p = run(["validate", "--golden", G + "/t.json", "--"] + old_cmd)
if p.returncode != 3 or "no matching summary" not in p.stderr:
    bad("a golden without its summary: exit %d, %r" % (p.returncode, p.stderr))
sys.exit(1 if fails else 0)
EOF
