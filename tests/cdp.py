"""Headless Debian Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe): no network, no extra package.  Used by the
tests of renacer's HTML pages (tests/t/report_html.sh):

    with Browser(workdir) as b:
        b.open("file:///.../report.html")
        b.eval("document.title")
        b.click_at(x, y)
        png = b.screenshot()
        b.errors   # console errors, exceptions and failed loads seen so far

Chromium runs as the machine notes say it must here: --headless
--no-sandbox --disable-gpu and without its background networking, with a
fresh --user-data-dir.
"""
import base64
import json
import os
import select
import subprocess
import time


class CDPError(Exception):
    pass


class Browser:
    def __init__(self, workdir, width=1280, height=900, timeout=60):
        self.workdir = workdir
        self.width, self.height = width, height
        self.timeout = timeout
        self.errors = []
        self.console = []
        self._id = 0
        self._buf = b""
        self._events = []

    def __enter__(self):
        to_chrome_r, self._to_w = os.pipe()
        self._from_r, from_chrome_w = os.pipe()

        def child():
            # out of the way first: either may already be 3 or 4
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            a, b = os.dup2(a, 100), os.dup2(b, 101)
            os.dup2(100, 3)
            os.dup2(101, 4)

        udd = os.path.join(self.workdir, "chromium-profile")
        os.makedirs(udd, exist_ok=True)
        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-quic", "--disable-default-apps", "--disable-extensions",
             "--hide-scrollbars", "--force-device-scale-factor=1", "--mute-audio",
             "--user-data-dir=" + udd, "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(self.workdir, "chromium.log"), "wb"),
            preexec_fn=child, pass_fds=(3, 4), close_fds=True)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for m in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
            self.call(m, session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1,
                   "mobile": False}, session=True)
        return self

    def __exit__(self, *exc):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_w)
        os.close(self._from_r)

    # --- the protocol ---

    def _read_message(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.time()
            if left <= 0:
                raise CDPError("no answer from chromium in %ds" % self.timeout)
            r, _, _ = select.select([self._from_r], [], [], left)
            if not r:
                continue
            chunk = os.read(self._from_r, 1 << 20)
            if not chunk:
                raise CDPError("chromium closed its pipe (see chromium.log)")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def _note(self, ev):
        m, p = ev.get("method"), ev.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.errors.append("exception: %s %s" % (
                d.get("text"), d.get("exception", {}).get("description", "")))
        elif m == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            self.console.append((p["type"], text))
            if p["type"] in ("error", "assert"):
                self.errors.append("console.%s: %s" % (p["type"], text))
        elif m == "Log.entryAdded":
            e = p["entry"]
            self.console.append((e["level"], e.get("text", "")))
            if e["level"] == "error":
                self.errors.append("log: %s %s" % (e.get("text"), e.get("url", "")))
        elif m == "Network.loadingFailed":
            self.errors.append("load failed: %s" % p.get("errorText"))
        elif m == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if not url.startswith(("file:", "data:", "about:")):
                self.errors.append("network request: %s" % url)
        self._events.append(ev)

    def call(self, method, params=None, session=False):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self._to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + self.timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self._id:
                if "error" in m:
                    raise CDPError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self._note(m)

    def wait_event(self, method, timeout=None):
        deadline = time.time() + (timeout or self.timeout)
        for i, ev in enumerate(self._events):
            if ev.get("method") == method:
                del self._events[i]
                return ev
        while True:
            m = self._read_message(deadline)
            if "id" in m:
                continue
            self._note(m)
            if m.get("method") == method:
                self._events.remove(m)
                return m

    # --- what the tests do ---

    def open(self, url):
        self._events = []
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_event("Page.loadEventFired")

    def eval(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": True}, session=True)
        if "exceptionDetails" in r:
            raise CDPError("%s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def click_at(self, x, y):
        for t in ("mouseMoved", "mousePressed", "mouseReleased"):
            p = {"type": t, "x": x, "y": y}
            if t != "mouseMoved":
                p.update({"button": "left", "clickCount": 1})
            self.call("Input.dispatchMouseEvent", p, session=True)

    def click(self, selector):
        """Scrolls the element into view and clicks its centre; returns (x, y)."""
        box = self.eval("""(function () {
            var e = document.querySelector(%s);
            if (!e) return null;
            e.scrollIntoView({block: 'center'});
            var r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height];
        })()""" % json.dumps(selector))
        if not box:
            raise CDPError("nothing matches %s" % selector)
        self.click_at(box[0], box[1])
        return box

    def type_text(self, selector, text):
        self.eval("document.querySelector(%s).focus()" % json.dumps(selector))
        self.call("Input.insertText", {"text": text}, session=True)

    def screenshot(self, full=False):
        p = {"format": "png"}
        if full:
            p["captureBeyondViewport"] = True
        return base64.b64decode(self.call("Page.captureScreenshot", p, session=True)["data"])
