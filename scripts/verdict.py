#!/usr/bin/python3
# The verdict benchmark's driver (run by scripts/verdict.sh; docs/benchmarks.md,
# "Verdict benchmark"): measures renacer's golden verdict as a classifier.
# For each case of tests/verdict/manifest.toml it captures a golden of the
# unchanged build in a fresh directory, puts the changed build at the same
# path and validates it as CI would (CI=1, --format json), with CPU hogs
# beside; a planted change must fail with a regression finding that names
# what the manifest says, a harmless one must pass.  Then it validates the
# unchanged programs many times against fresh goldens, beside the hogs, and
# counts false alarms.  It prints recall, the harmless pass rate and the
# false-alarm rate, with a line per failing case.
import argparse
import glob
import hashlib
import json
import math
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VDIR = os.path.join(TOP, "tests", "verdict")
RUN_TIMEOUT = 600


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---- machine load ----------------------------------------------------------

class Hogs:
    """CPU hogs (sh -c 'while :; do :; done') started and stopped on demand."""

    def __init__(self):
        self.procs = []

    def set(self, n):
        while len(self.procs) > n:
            p = self.procs.pop()
            p.kill()
            p.wait()
        while len(self.procs) < n:
            self.procs.append(subprocess.Popen(["sh", "-c", "while :; do :; done"],
                                               stdin=subprocess.DEVNULL))

    def stop(self):
        self.set(0)


class Load:
    """Samples of the 1-minute load average and of the CPUs' idle share."""

    def __init__(self):
        self.samples = []
        self.stat0 = self.cpu_stat()

    @staticmethod
    def cpu_stat():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]  # total, idle + iowait

    def sample(self, hogs):
        with open("/proc/loadavg") as f:
            self.samples.append((float(f.read().split()[0]), hogs))

    def summary(self):
        t1, i1 = self.cpu_stat()
        t0, i0 = self.stat0
        idle = 100.0 * (i1 - i0) / max(1, t1 - t0)
        if not self.samples:
            return "no samples"
        la = [s[0] for s in self.samples]
        other = [max(0.0, s[0] - s[1]) for s in self.samples]
        return ("load average (1 min) %.2f mean, %.2f max, %.2f min; without our hogs %.2f mean;"
                " CPUs idle %.1f%% of the run" % (sum(la) / len(la), max(la), min(la),
                                                   sum(other) / len(other), idle))


# ---- data files --------------------------------------------------------------

def gen_text(rng, n):
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
             for _ in range(3000)]
    out, size = [], 0
    while size < n:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(4, 14))) + "\n"
        out.append(line)
        size += len(line)
    return "".join(out).encode()[:n]


def make_files(specs, where, cache):
    """Creates each NAME:KIND[:ARG] of specs in directory where (data from cache)."""
    for spec in specs:
        name, kind, arg = (spec.split(":", 2) + [""])[:3]
        dst = os.path.join(where, name)
        if kind == "empty":
            open(dst, "wb").close()
        elif kind == "line":
            with open(dst, "w") as f:
                f.write(arg + "\n")
        elif kind in ("text", "bytes", "tree"):
            src = os.path.join(cache, "%s-%s-%s" % (kind, arg, hashlib.sha1(name.encode()).hexdigest()[:8]))
            if not os.path.exists(src):
                rng = random.Random("%s:%s" % (name, arg))
                tmp = src + ".tmp"
                if kind == "text":
                    with open(tmp, "wb") as f:
                        f.write(gen_text(rng, int(arg)))
                elif kind == "bytes":
                    with open(tmp, "wb") as f:
                        f.write(bytes(rng.getrandbits(8) for _ in range(int(arg))))
                else:
                    os.makedirs(tmp)
                    for i in range(int(arg)):
                        with open(os.path.join(tmp, "f%03d.txt" % i), "wb") as f:
                            f.write(gen_text(rng, 200 + (i * 997) % 24000))
                os.rename(tmp, src)
            if kind == "tree":
                shutil.copytree(src, dst)
            else:
                shutil.copyfile(src, dst)
        else:
            raise SystemExit("renacer: verdict: unknown file kind '%s' in '%s'" % (kind, spec))


# ---- builds --------------------------------------------------------------------

class Builder:
    """Builds every program once per (patch, defines, cflags); caches the binaries."""

    def __init__(self, manifest, work):
        self.m = manifest
        self.work = work  # $BUILD/verdict
        self.bindir = os.path.join(work, "bin")
        os.makedirs(self.bindir, exist_ok=True)

    def source_tree(self, prog):
        pkg = self.m["program"][prog]["debian"]
        src = os.path.join(self.work, "src")
        r = subprocess.run(["sh", os.path.join(TOP, "scripts", "verdict_src.sh"), src, pkg])
        if r.returncode != 0:
            raise SystemExit("renacer: verdict: cannot fetch the Debian source of '%s'" % pkg)
        dirs = sorted(d for d in glob.glob(os.path.join(src, pkg + "-*")) if os.path.isdir(d))
        return dirs[-1]

    def run_build(self, prog, tree, cflags, logname):
        p = self.m["program"][prog]
        env = dict(os.environ)
        mf = "-j2"
        if cflags:
            mf += " CFLAGS=" + cflags.replace(" ", "\\ ")
        env["MAKEFLAGS"] = mf
        env.pop("MAKELEVEL", None)
        env.pop("MFLAGS", None)
        logf = os.path.join(self.work, "logs", logname + ".log")
        os.makedirs(os.path.dirname(logf), exist_ok=True)
        with open(logf, "w") as f:
            r = subprocess.run(["sh", "-c", p["build"]], cwd=tree, env=env, stdout=f, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise SystemExit("renacer: verdict: the build of %s failed, see %s" % (logname, logf))

    def get(self, prog, patch=None, defines=(), cflags=None):
        """Path of the binary of prog with the change applied (None: unchanged)."""
        prog = self.m["program"][prog].get("build_of", prog)
        p = self.m["program"][prog]
        if "system" in p:
            return p["system"]
        key = hashlib.sha1()
        pdata = b""
        if patch:
            with open(os.path.join(VDIR, "patches", patch), "rb") as f:
                pdata = f.read()
        key.update(pdata + b"\0" + " ".join(defines).encode() + b"\0" + (cflags or "").encode())
        if "source" in p:
            with open(os.path.join(VDIR, p["source"]), "rb") as f:
                key.update(f.read())
        name = "%s-%s" % (prog, key.hexdigest()[:12])
        out = os.path.join(self.bindir, name)
        if os.path.exists(out):
            return out
        tag = "%s%s%s%s" % (prog, " +" + patch if patch else "", " " + " ".join(defines) if defines else "",
                            " cflags=" + cflags if cflags else "")
        log("renacer: verdict: building %s" % tag)
        if "source" in p:
            cmd = (["cc", "-std=gnu11", "-Wall", "-Wextra", "-D_GNU_SOURCE"] + (cflags or p.get("cflags", "-O2 -g")).split()
                   + list(defines) + ["-o", out + ".tmp", os.path.join(VDIR, p["source"])])
            if "-pthread" in p.get("cflags", "") and "-pthread" not in cmd:
                cmd.append("-pthread")
            r = subprocess.run(cmd)
            if r.returncode != 0:
                raise SystemExit("renacer: verdict: cannot build %s" % tag)
            os.rename(out + ".tmp", out)
            return out
        pristine = self.source_tree(prog)
        base = os.path.join(self.work, "tree", prog + "-base")
        if not os.path.exists(os.path.join(base, p["binary"])):
            shutil.rmtree(base, ignore_errors=True)
            shutil.copytree(pristine, base, symlinks=True)
            self.run_build(prog, base, None, prog + "-base")
        if not patch and not cflags:
            shutil.copy2(os.path.join(base, p["binary"]), out)
            return out
        # a patch is built incrementally from the base tree; other flags from scratch
        tree = os.path.join(self.work, "tree", name)
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(pristine if cflags else base, tree, symlinks=True)
        try:
            if patch:
                with open(logf_path(self.work, name), "w") as f:
                    r = subprocess.run(["patch", "-p1", "--batch", "--no-backup-if-mismatch"], cwd=tree,
                                       input=pdata, stdout=f, stderr=subprocess.STDOUT)
                if r.returncode != 0:
                    raise SystemExit("renacer: verdict: %s does not apply to %s" % (patch, pristine))
            self.run_build(prog, tree, cflags, name)
            shutil.copy2(os.path.join(tree, p["binary"]), out + ".tmp")
            os.rename(out + ".tmp", out)
        finally:
            shutil.rmtree(tree, ignore_errors=True)
        return out


def logf_path(work, name):
    d = os.path.join(work, "logs")
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, name + ".patch.log")


# ---- running renacer -----------------------------------------------------------

def run(cmd, cwd, env, timeout=RUN_TIMEOUT):
    """Runs cmd in its own session; returns (rc, stdout, stderr, seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return 124, out.decode(errors="replace"), err.decode(errors="replace") + "\n(timed out)", timeout
    return p.returncode, out.decode(errors="replace"), err.decode(errors="replace"), time.monotonic() - t0


def env_words(base, extra):
    env = dict(base)
    env.update(extra or {})
    return "".join("%s=%s " % (k, shlex.quote(v)) for k, v in sorted(env.items()))


def finding_text(f):
    proc = "[%s] " % f["process"] if f.get("process") else ""
    return "%s %s: %s%s" % ("✗" if f.get("regression") else "note", f.get("kind"), proc, f.get("message"))


class Bench:
    def __init__(self, args, manifest):
        self.a = args
        self.m = manifest
        self.renacer = os.path.join(TOP, args.build, "renacer")
        self.work = os.path.join(TOP, args.build, "verdict")
        self.builder = Builder(manifest, self.work)
        self.hogs = Hogs()
        self.load = Load()
        self.root = tempfile.mkdtemp(prefix="renacer-verdict.", dir=os.environ.get("TMPDIR", "/tmp"))
        self.cache = os.path.join(self.work, "data")
        os.makedirs(self.cache, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.out = args.out or os.path.join(self.work, "results", stamp + ("-fast" if args.fast else ""))
        os.makedirs(self.out, exist_ok=True)
        self.records = []

    def base_env(self, prog, extra=None):
        env = {k: v for k, v in os.environ.items()
               if k not in ("CI", "RENACER_UPDATE_GOLDEN", "NO_COLOR", "GITHUB_ACTIONS")}
        env["LC_ALL"] = "C"
        env["LANG"] = "C"
        env.update(self.m["program"][prog].get("env", {}))
        env.update(extra or {})
        return env

    def binname(self, prog):
        """The name of prog's binary in a case's bin/."""
        p = self.m["program"][prog]
        b = self.m["program"][p.get("build_of", prog)]
        return os.path.basename(b.get("system") or b.get("binary") or prog)

    def command(self, prog, cmd, casedir):
        p = self.m["program"][prog]
        binname = self.binname(prog)
        words = []
        for w in cmd:
            w = w.replace("@bin", os.path.join(casedir, "bin", binname))
            if "helper" in p:
                w = w.replace("@helper", os.path.join(casedir, "bin", p["helper"]))
            words.append(w)
        return words

    def install(self, prog, casedir, binary, helper_binary=None):
        """Puts the build at its fixed path in casedir/bin (the same for both builds)."""
        p = self.m["program"][prog]
        bindir = os.path.join(casedir, "bin")
        os.makedirs(bindir, exist_ok=True)
        pairs = [(binary, self.binname(prog))]
        if helper_binary:
            pairs.append((helper_binary, p["helper"]))
        for src, name in pairs:
            dst = os.path.join(bindir, name)
            shutil.copy2(src, dst + ".new")
            os.rename(dst + ".new", dst)

    def builds(self, case):
        """(unchanged binary, unchanged helper, changed binary, changed helper) of a case."""
        prog = case["program"]
        p = self.m["program"][prog]
        defines = case.get("defines", [])
        cflags = case.get("cflags")
        if "helper" in p:
            hb = self.builder.get(p["helper"])
            hc = self.builder.get(p["helper"], case.get("patch"), defines, cflags)
            b = self.builder.get(prog)
            return b, hb, b, hc
        b = self.builder.get(prog)
        c = self.builder.get(prog, case.get("patch"), defines, cflags)
        return b, None, c, None

    def capture(self, prog, casedir, cmd, env):
        self.hogs.stop()
        rc, out, err, secs = run([self.renacer, "capture", "-q", "--dir", "golden", "g", "--"] + cmd,
                                 casedir, env)
        return rc, out + err, secs

    def validate(self, prog, casedir, cmd, env, hogs):
        self.hogs.set(hogs)
        self.load.sample(hogs)
        env = dict(env)
        env["CI"] = "1"
        rc, out, err, secs = run([self.renacer, "validate", "--format", "json", "--golden",
                                  "golden/g.json", "--"] + cmd, casedir, env)
        doc = None
        try:
            doc = json.loads(out)
        except ValueError:
            pass
        findings = []
        runtime = {}
        if doc and doc.get("traces"):
            t = doc["traces"][0]
            findings = t.get("findings") or []
            runtime = t.get("runtime") or {}
        return {"rc": rc, "seconds": round(secs, 3), "findings": findings, "runtime": runtime,
                "stderr": err[-2000:] if rc not in (0, 1) or doc is None else ""}

    # -- the cases -------------------------------------------------------------

    def judge(self, kind, v, names):
        reg = [f for f in v["findings"] if f.get("regression")]
        if v["rc"] not in (0, 1) or (v["rc"] == 1 and not reg and not v["findings"]):
            return "error"
        if kind == "plant":
            if v["rc"] == 0:
                return "missed"
            rx = re.compile(names, re.I)
            for f in reg:
                if rx.search("%s %s %s" % (f.get("kind"), f.get("subject") or "", f.get("message") or "")):
                    return "caught"
            return "misnamed"
        return "pass" if v["rc"] == 0 else "flagged"

    def run_case(self, case):
        prog = case["program"]
        p = self.m["program"][prog]
        casedir = os.path.join(self.root, case["id"])
        os.makedirs(casedir)
        make_files(p.get("files", []) + case.get("files", []), casedir, self.cache)
        b, hb, c, hc = self.builds(case)
        self.install(prog, casedir, b, hb)
        base_cmd = self.command(prog, case.get("base_command", p["command"]), casedir)
        cmd = self.command(prog, case.get("command", p["command"]), casedir)
        rc, text, secs = self.capture(prog, casedir, base_cmd, self.base_env(prog, case.get("base_env")))
        rec = {"id": case["id"], "program": prog, "kind": case["kind"], "change": case["change"],
               "names": case.get("names"), "capture_rc": rc, "capture_seconds": round(secs, 3),
               "validations": [], "dir": casedir,
               "builds": {"unchanged": b, "changed": c, "unchanged_helper": hb, "changed_helper": hc},
               "capture": env_words(p.get("env", {}), case.get("base_env")) +
               "renacer capture -q --dir golden g -- " + shlex.join(base_cmd),
               "validate": env_words(p.get("env", {}), case.get("env")) +
               "CI=1 renacer validate --golden golden/g.json -- " + shlex.join(cmd)}
        if rc != 0:
            rec["outcome"] = "error"
            rec["error"] = "capture failed (exit %d): %s" % (rc, text.strip()[-500:])
            return rec
        self.install(prog, casedir, c, hc)
        for name in case.get("touch", []):
            os.utime(os.path.join(casedir, name))
        hogs = case.get("hogs", self.a.hogs)
        for _ in range(self.a.reps):
            v = self.validate(prog, casedir, cmd, self.base_env(prog, case.get("env")), hogs)
            v["verdict"] = self.judge(case["kind"], v, case.get("names", ""))
            rec["validations"].append(v)
        self.hogs.stop()
        good = "caught" if case["kind"] == "plant" else "pass"
        verdicts = [v["verdict"] for v in rec["validations"]]
        rec["outcome"] = good if all(x == good for x in verdicts) else \
            next(x for x in ("error", "missed", "misnamed", "flagged", "caught", "pass") if x in verdicts)
        if not self.a.keep:
            shutil.rmtree(casedir, ignore_errors=True)
        return rec

    def run_unchanged(self, prog, n):
        """n validations of the unchanged prog, against self.a.goldens fresh goldens."""
        p = self.m["program"][prog]
        goldens = max(1, min(self.a.goldens, n))
        per = [n // goldens + (1 if i < n % goldens else 0) for i in range(goldens)]
        recs = []
        b, hb, _, _ = self.builds({"program": prog})
        for gi, count in enumerate(per):
            casedir = os.path.join(self.root, "unchanged-%s-%d" % (prog, gi))
            os.makedirs(casedir)
            make_files(p.get("files", []), casedir, self.cache)
            self.install(prog, casedir, b, hb)
            cmd = self.command(prog, p["command"], casedir)
            env = self.base_env(prog)
            rc, text, secs = self.capture(prog, casedir, cmd, env)
            if rc != 0:
                recs.append({"program": prog, "golden": gi, "rc": rc, "verdict": "error", "findings": [],
                             "stderr": "capture failed: " + text.strip()[-500:]})
                continue
            for _ in range(count):
                v = self.validate(prog, casedir, cmd, env, self.a.hogs)
                v["program"] = prog
                v["golden"] = gi
                v["verdict"] = "pass" if v["rc"] == 0 else ("flagged" if v["rc"] == 1 else "error")
                recs.append(v)
            self.hogs.stop()
            if not self.a.keep:
                shutil.rmtree(casedir, ignore_errors=True)
            bad = sum(1 for r in recs if r["verdict"] != "pass")
            log("renacer: verdict: unchanged %-8s golden %d/%d: %d validations so far, %d flagged"
                % (prog, gi + 1, goldens, len(recs), bad))
        return recs


def needs_download(m, prog):
    p = m["program"][prog]
    if "build_of" in p:
        return needs_download(m, p["build_of"])
    return "debian" in p or ("helper" in p and needs_download(m, p["helper"]))


def short(v, limit=3):
    reg = [f for f in v["findings"] if f.get("regression")]
    if v["verdict"] == "error":
        return "exit %d: %s" % (v["rc"], (v.get("stderr") or "").strip().replace("\n", " | ")[-300:])
    if not reg:
        return "exit %d, no regression finding" % v["rc"]
    s = "; ".join(finding_text(f) for f in reg[:limit])
    if len(reg) > limit:
        s += "; ... %d more" % (len(reg) - limit)
    return s


def main():
    ap = argparse.ArgumentParser(description="renacer's verdict benchmark (docs/benchmarks.md)")
    ap.add_argument("--build", default=os.environ.get("BUILD", "build"), help="renacer's build directory")
    ap.add_argument("--fast", action="store_true", help="the fast subset (cases marked fast, small programs)")
    ap.add_argument("--only", default=None, help="regex: only the cases (and unchanged programs) it matches")
    ap.add_argument("--reps", type=int, default=None, help="validations per case (default 5, fast 1)")
    ap.add_argument("--unchanged", type=int, default=None,
                    help="validations of unchanged programs in all (default 1000, fast 30)")
    ap.add_argument("--goldens", type=int, default=10, help="fresh goldens per unchanged program (default 10)")
    ap.add_argument("--hogs", type=int, default=1, help="CPU hogs beside every validation (default 1)")
    ap.add_argument("--keep", action="store_true", help="keep the case directories")
    ap.add_argument("--out", default=None, help="results directory (default BUILD/verdict/results/STAMP)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--manifest", default=os.path.join(VDIR, "manifest.toml"),
                    help="the cases (default tests/verdict/manifest.toml; sources and patches stay there)")
    a = ap.parse_args()
    if a.reps is None:
        a.reps = 1 if a.fast else 5
    if a.unchanged is None:
        a.unchanged = 30 if a.fast else 1000
    with open(a.manifest, "rb") as f:
        m = tomllib.load(f)
    cases = m["case"]
    progs = [k for k, v in m["program"].items() if v.get("unchanged", 0) > 0]
    if a.fast:
        cases = [c for c in cases if c.get("fast")]
        progs = [p for p in progs if not needs_download(m, p)]
    if a.only:
        rx = re.compile(a.only)
        cases = [c for c in cases if rx.search(c["id"])]
        progs = [p for p in progs if rx.search(p)]
    if a.list:
        for c in cases:
            print("%-8s %-26s %s%s" % (c["kind"], c["id"], c["change"],
                                       "   [names /%s/]" % c["names"] if c.get("names") else ""))
        return 0
    renacer = os.path.join(TOP, a.build, "renacer")
    if not os.access(renacer, os.X_OK):
        log("renacer: verdict: no %s: run make first" % renacer)
        return 2
    b = Bench(a, m)
    start = time.monotonic()
    t_cases = t_unch = 0.0
    try:
        # builds first, so that their time and load stay out of the measurements
        for c in cases:
            b.builds(c)
        for pr in progs:
            b.builds({"program": pr})
        t0 = time.monotonic()
        for c in cases:
            rec = b.run_case(c)
            b.records.append(rec)
            vs = rec["validations"]
            log("renacer: verdict: %-8s %-26s %-8s %s" % (c["kind"], c["id"], rec["outcome"],
                                                         " ".join(v["verdict"] for v in vs) or rec.get("error", "")))
        t_cases = time.monotonic() - t0
        t0 = time.monotonic()
        unchanged = []
        weights = sum(m["program"][p]["unchanged"] for p in progs)
        left = a.unchanged
        for i, pr in enumerate(progs):
            n = left if i == len(progs) - 1 else round(a.unchanged * m["program"][pr]["unchanged"] / weights)
            left -= n
            if n > 0:
                unchanged += b.run_unchanged(pr, n)
        t_unch = time.monotonic() - t0
    finally:
        b.hogs.stop()
        if not a.keep:
            shutil.rmtree(b.root, ignore_errors=True)
    return report(a, m, b, unchanged, progs, time.monotonic() - start, t_cases, t_unch)


def report(a, m, b, unchanged, progs, total, t_cases, t_unch):
    lines = []
    say = lines.append
    plants = [r for r in b.records if r["kind"] == "plant"]
    harmless = [r for r in b.records if r["kind"] == "harmless"]
    pv = [v for r in plants for v in r["validations"]]
    hv = [v for r in harmless for v in r["validations"]]
    caught = sum(1 for r in plants if r["outcome"] == "caught")
    passed = sum(1 for r in harmless if r["outcome"] == "pass")
    fa = sum(1 for v in unchanged if v["verdict"] != "pass")
    pct = lambda x, n: "%.1f%%" % (100.0 * x / n) if n else "n/a"

    rev = subprocess.run(["git", "-C", TOP, "describe", "--always", "--dirty"], capture_output=True, text=True)
    say("renacer verdict benchmark%s: renacer %s (%s), %d CPUs, kernel %s" % (
        " (fast subset)" if a.fast else "", rev.stdout.strip() or "?",
        subprocess.run([b.renacer, "--version"], capture_output=True, text=True).stdout.strip(),
        os.cpu_count(), os.uname().release))
    say("conditions: %d CPU hog(s) beside every validation (cases marked load: more); goldens captured"
        " without our hogs; %d validation(s) per case; %s" % (a.hogs, a.reps, b.load.summary()))
    say("")
    for r in b.records:
        good = "caught" if r["kind"] == "plant" else "pass"
        if r["outcome"] == good:
            continue
        vs = r["validations"]
        tally = ", ".join("%d %s" % (sum(1 for v in vs if v["verdict"] == k), k)
                          for k in ("caught", "misnamed", "missed", "pass", "flagged", "error")
                          if any(v["verdict"] == k for v in vs))
        if r["outcome"] == "error" and not vs:
            say("FAIL %-8s %-26s %s" % (r["kind"], r["id"], r.get("error")))
            continue
        worst = next(v for v in vs if v["verdict"] != good)
        what = {"missed": "passed as equivalent", "misnamed": "failed without naming /%s/" % r["names"],
                "flagged": "failed", "error": "error"}.get(worst["verdict"], worst["verdict"])
        say("FAIL %-8s %-26s %s (%s): %s" % (r["kind"], r["id"], what, tally, r["change"]))
        if worst["verdict"] != "missed":
            say("     %s" % short(worst))
        if worst["verdict"] in ("missed", "misnamed") and r.get("names"):
            rx = re.compile(r["names"], re.I)
            notes = [f for f in worst["findings"] if not f.get("regression") and
                     rx.search("%s %s %s" % (f.get("kind"), f.get("subject") or "", f.get("message") or ""))]
            if notes:
                say("     named only in a note: %s" % "; ".join(finding_text(f) for f in notes[:2]))
        if worst["verdict"] == "missed" and worst.get("runtime"):
            rt = worst["runtime"]
            say("     runtime %s ms, golden %s ms, limit %s ms (net %s / %s)" % (
                rt.get("current_ms"), rt.get("golden_ms"), rt.get("limit_ms"),
                rt.get("current_net_ms"), rt.get("golden_net_ms")))
    byprog = {}
    for v in unchanged:
        byprog.setdefault(v["program"], []).append(v)
    for pr, vs in byprog.items():
        bad = [v for v in vs if v["verdict"] != "pass"]
        if bad:
            say("FAIL unchanged %-19s %d of %d validations flagged; first: %s" % (pr, len(bad), len(vs), short(bad[0])))
    say("")
    say("recall (caught and named): %d/%d plants (%s); %d/%d validations caught and named, %d caught but misnamed, %d missed" % (
        caught, len(plants), pct(caught, len(plants)), sum(1 for v in pv if v["verdict"] == "caught"), len(pv),
        sum(1 for v in pv if v["verdict"] == "misnamed"), sum(1 for v in pv if v["verdict"] == "missed")))
    say("harmless pass rate: %d/%d changes (%s); %d/%d validations passed" % (
        passed, len(harmless), pct(passed, len(harmless)), sum(1 for v in hv if v["verdict"] == "pass"), len(hv)))
    say("false alarms: %d/%d validations of unchanged programs (%s) beside %d CPU hog(s): %s" % (
        fa, len(unchanged), pct(fa, len(unchanged)), a.hogs,
        ", ".join("%s %d/%d" % (pr, sum(1 for v in vs if v["verdict"] != "pass"), len(vs)) for pr, vs in byprog.items())))
    errors = sum(1 for r in b.records if r["outcome"] == "error") + sum(1 for v in unchanged if v["verdict"] == "error")
    if errors:
        say("errors (renacer did not answer 0 or 1, or a capture failed): %d" % errors)
    say("time: %.0f s in all (cases %.0f s, unchanged %.0f s); results in %s" % (total, t_cases, t_unch, b.out))
    if any(r["outcome"] not in ("caught", "pass") for r in b.records):
        say("reproduce a case: scripts/verdict.sh --only '^ID$' --reps 1 --unchanged 0 --keep"
            " (results.json has its directory, both builds and the commands)")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(b.out, "report.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(b.out, "results.json"), "w") as f:
        json.dump({"cases": b.records, "unchanged": unchanged,
                   "summary": {"plants": len(plants), "caught": caught, "harmless": len(harmless),
                               "harmless_passed": passed, "unchanged": len(unchanged), "false_alarms": fa,
                               "hogs": a.hogs, "reps": a.reps, "load": b.load.summary(),
                               "seconds": round(total)}}, f, indent=1)
    if not a.out:  # results/latest: the last run's results
        latest = os.path.join(os.path.dirname(b.out), "latest")
        try:
            if os.path.islink(latest):
                os.unlink(latest)
            os.symlink(os.path.basename(b.out), latest)
        except OSError:
            pass
    ok = caught == len(plants) and passed == len(harmless) and fa == 0 and not errors
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
