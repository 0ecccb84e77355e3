#!/usr/bin/python3
"""The OTLP receiver and checks of renacer's tests (tests/t/otlp_*.sh).

  otlptest.py serve --protocol grpc|http --out FILE --port-file FILE
                    [--script SPEC] [--tls CERT KEY] [--lifetime S]
      A collector: decodes every request with the official OpenTelemetry
      .proto definitions (compiled by Debian's protoc, decoded by
      python3-protobuf; gRPC by python3-grpcio) and writes one JSON line per
      request.  SPEC is a comma list of answers, one per request (the last
      one repeats): ok, slow=SECONDS, partial=N:MESSAGE, or an HTTP status
      (503, 429, 400, ...) / a gRPC code name (unavailable, exhausted,
      invalid), optionally with :ra=SECONDS (Retry-After / RetryInfo).
      --count-only logs only how many spans each request held.
  otlptest.py check --spans FILE --json TRACE [--min-duration-us N]
                    [--parent TRACEPARENT] [--service NAME] [--env FILE]
      Checks the spans renacer sent against the JSON trace of the same run.
  otlptest.py file FILE
      Decodes an --otlp-file (OTLP JSON lines) into the receiver's format.
  otlptest.py tree FILE
      Prints the process and thread tree of the spans a receiver got.
  otlptest.py jaeger FILE [--service NAME]
      Prints what Jaeger's query API (GET /api/traces?service=NAME) returns
      for the spans a receiver got: every trace holding a span of the
      service, in Jaeger's JSON model (the seeds' curl of localhost:16686).

The .proto files come from the npm package
@opentelemetry/otlp-grpc-exporter-base@0.38.0 (tests/npm/otel, pinned by
package-lock.json); their 2022 versions lack Span.flags, Span.Link.flags,
the scope's attributes and the export response's partial success, which
are added here before compiling.
"""
import argparse
import base64
import binascii
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
PROTO_PKG = os.path.join(TOP, "tests", "npm", "otel", "node_modules", "@opentelemetry",
                         "otlp-grpc-exporter-base", "build", "protos")
KEEP = []
EXPORT_PATH = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"

RPC_STATUS_PROTO = """
syntax = "proto3";
package testrpc;
message Any { string type_url = 1; bytes value = 2; }
message Status { int32 code = 1; string message = 2; repeated Any details = 3; }
message Duration { int64 seconds = 1; int32 nanos = 2; }
message RetryInfo { Duration retry_delay = 1; }
"""


def patch(path, pattern, new):
    """Replaces the first match of the regular expression pattern."""
    with open(path) as f:
        text = f.read()
    text, n = re.subn(pattern, new, text, count=1, flags=re.S)
    if n != 1:
        sys.exit("otlptest: cannot patch %s: %r not found" % (path, pattern))
    with open(path, "w") as f:
        f.write(text)


def compile_protos():
    """Compiles the (amended) .proto files; returns the generated modules."""
    if not os.path.isdir(PROTO_PKG):
        sys.exit("otlptest: %s is missing (make deps installs tests/npm/otel)" % PROTO_PKG)
    cache = os.environ.get("OTLPTEST_CACHE") or tempfile.mkdtemp(prefix="otlpproto.")
    out = os.path.join(cache, "py")
    if not os.path.exists(os.path.join(out, "done")):
        src = os.path.join(cache, "src")
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(PROTO_PKG, src)
        base = os.path.join(src, "opentelemetry", "proto")
        patch(os.path.join(base, "trace", "v1", "trace.proto"),
              r"(Status status = 15;\n)", r"\1  fixed32 flags = 16;\n")
        patch(os.path.join(base, "trace", "v1", "trace.proto"),
              r"(message Link \{.*?uint32 dropped_attributes_count = 5;\n)",
              r"\1    fixed32 flags = 6;\n")
        patch(os.path.join(base, "common", "v1", "common.proto"),
              r"(message InstrumentationScope \{.*?string version = 2;\n)",
              r"\1  repeated KeyValue attributes = 3;\n  uint32 dropped_attributes_count = 4;\n")
        patch(os.path.join(base, "collector", "trace", "v1", "trace_service.proto"),
              r"message ExportTraceServiceResponse \{.*?\n\}",
              "message ExportTraceServiceResponse {\n"
              "  ExportTracePartialSuccess partial_success = 1;\n}\n"
              "message ExportTracePartialSuccess {\n"
              "  int64 rejected_spans = 1;\n  string error_message = 2;\n}")
        with open(os.path.join(src, "testrpc.proto"), "w") as f:
            f.write(RPC_STATUS_PROTO)
        os.makedirs(out, exist_ok=True)
        files = ["opentelemetry/proto/common/v1/common.proto",
                 "opentelemetry/proto/resource/v1/resource.proto",
                 "opentelemetry/proto/trace/v1/trace.proto",
                 "opentelemetry/proto/collector/trace/v1/trace_service.proto",
                 "testrpc.proto"]
        subprocess.run(["protoc", "-I", src, "--python_out=" + out] + files, check=True)
        open(os.path.join(out, "done"), "w").close()
    sys.path.insert(0, out)
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
    import testrpc_pb2
    return trace_service_pb2, testrpc_pb2


# ---- decoding into plain data ----

def anyvalue(v):
    kind = v.WhichOneof("value")
    if kind == "string_value":
        return v.string_value
    if kind == "bool_value":
        return v.bool_value
    if kind == "int_value":
        return v.int_value
    if kind == "double_value":
        return v.double_value
    if kind == "array_value":
        return [anyvalue(x) for x in v.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: anyvalue(kv.value) for kv in v.kvlist_value.values}
    if kind == "bytes_value":
        return v.bytes_value.hex()
    return None


def attrs(kvs):
    out = {}
    for kv in kvs:
        if kv.key in out:
            raise ValueError("attribute %r given twice" % kv.key)
        out[kv.key] = anyvalue(kv.value)
    return out


def request_to_data(req):
    """An ExportTraceServiceRequest as JSON-able data."""
    out = []
    for rs in req.resource_spans:
        res = attrs(rs.resource.attributes)
        for ss in rs.scope_spans:
            for sp in ss.spans:
                out.append({
                    "resource": res,
                    "scope": [ss.scope.name, ss.scope.version],
                    "schema_url": ss.schema_url or rs.schema_url,
                    "trace_id": sp.trace_id.hex(),
                    "span_id": sp.span_id.hex(),
                    "parent": sp.parent_span_id.hex(),
                    "trace_state": sp.trace_state,
                    "name": sp.name,
                    "kind": sp.kind,
                    "start": sp.start_time_unix_nano,
                    "end": sp.end_time_unix_nano,
                    "flags": sp.flags,
                    "attrs": attrs(sp.attributes),
                    "status": [sp.status.code, sp.status.message],
                    "events": [{"time": e.time_unix_nano, "name": e.name,
                                "attrs": attrs(e.attributes)} for e in sp.events],
                    "dropped_events": sp.dropped_events_count,
                })
    return out


HEXKEYS = ("traceId", "spanId", "parentSpanId")


def hex_ids_to_base64(obj):
    """OTLP JSON writes ids in hex; protobuf's JSON mapping wants base64."""
    if isinstance(obj, dict):
        for k, v in list(obj.items()):
            if k in HEXKEYS and isinstance(v, str):
                if v and not re.fullmatch(r"[0-9a-f]+", v):
                    raise ValueError("%s %r is not lowercase hex" % (k, v))
                obj[k] = base64.b64encode(binascii.unhexlify(v)).decode()
            else:
                hex_ids_to_base64(v)
    elif isinstance(obj, list):
        for v in obj:
            hex_ids_to_base64(v)
    return obj


def parse_otlp_json(pb2, text):
    from google.protobuf import json_format
    data = hex_ids_to_base64(json.loads(text))
    req = pb2.ExportTraceServiceRequest()
    json_format.ParseDict(data, req, ignore_unknown_fields=False)
    return req


# ---- the collector ----

class Script:
    def __init__(self, spec):
        self.items = [s for s in (spec or "ok").split(",") if s]
        self.n = 0
        self.lock = threading.Lock()

    def next(self):
        with self.lock:
            item = self.items[min(self.n, len(self.items) - 1)]
            self.n += 1
        name, _, rest = item.partition(":")
        opts = {}
        if name.startswith("slow="):
            opts["slow"] = float(name[5:])
            name = "ok"
        if name.startswith("partial="):
            opts["rejected"] = int(name[8:])
            opts["message"] = rest
            return "ok", opts
        for part in filter(None, rest.split(":")):
            k, _, v = part.partition("=")
            opts[k] = v
        return name, opts


class Log:
    def __init__(self, path):
        self.f = open(path, "a")
        self.lock = threading.Lock()

    def write(self, rec):
        with self.lock:
            self.f.write(json.dumps(rec) + "\n")
            self.f.flush()


def serve_http(args, pb2, rpc, log, script):
    import http.server
    import ssl

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def setup(self):
            super().setup()
            # headers and body go out in two writes: without NODELAY the
            # body waits for the client's delayed ACK (40 ms a request),
            # which is this receiver's cost, not the exporter's
            import socket
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def reply(self, code, body=b"", ctype="application/x-protobuf", extra=()):
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in extra:
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            t = time.time()
            n = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(n)
            rec = {"t": t, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}}
            answer, opts = script.next()
            rec["answer"] = answer
            ctype = self.headers.get("Content-Type", "")
            is_json = ctype.startswith("application/json")
            try:
                if self.path != "/v1/traces":
                    raise ValueError("wrong path %s" % self.path)
                body = gzip.decompress(raw) if self.headers.get("Content-Encoding") == "gzip" else raw
                if is_json and args.count_only:
                    req = None
                    data = json.loads(body)
                    rec["nspans"] = sum(len(ss["spans"]) for rs in data["resourceSpans"]
                                        for ss in rs["scopeSpans"])
                elif is_json:
                    req = parse_otlp_json(pb2, body.decode("utf-8"))
                elif ctype == "application/x-protobuf":
                    req = pb2.ExportTraceServiceRequest.FromString(body)
                else:
                    raise ValueError("unexpected content type %r" % ctype)
                if req is not None:
                    rec["spans"] = request_to_data(req) if not args.count_only else []
                    rec["nspans"] = sum(len(ss.spans) for rs in req.resource_spans for ss in rs.scope_spans)
            except Exception as e:  # a decoding failure is the test's failure
                rec["decode_error"] = repr(e)
                log.write(rec)
                self.reply(400, b"cannot decode: " + repr(e).encode(), "text/plain")
                return
            log.write(rec)
            if "slow" in opts:
                time.sleep(opts["slow"])
            if answer == "ok":
                resp = pb2.ExportTraceServiceResponse()
                if "rejected" in opts:
                    resp.partial_success.rejected_spans = opts["rejected"]
                    resp.partial_success.error_message = opts["message"]
                if is_json:
                    from google.protobuf import json_format
                    self.reply(200, json_format.MessageToJson(resp).encode(), "application/json")
                else:
                    self.reply(200, resp.SerializeToString())
                return
            code = int(answer)
            st = rpc.Status(code=3 if code == 400 else 14, message="test collector says %d" % code)
            extra = [("Retry-After", opts["ra"])] if "ra" in opts else []
            if is_json:
                from google.protobuf import json_format
                self.reply(code, json_format.MessageToJson(st).encode(), "application/json", extra)
            else:
                self.reply(code, st.SerializeToString(), "application/x-protobuf", extra)

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    srv.daemon_threads = True
    if args.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls[0], args.tls[1])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    KEEP.append(srv)
    return srv.server_address[1]


def serve_grpc(args, pb2, rpc, log, script):
    import grpc
    from concurrent import futures

    codes = {"unavailable": grpc.StatusCode.UNAVAILABLE,
             "exhausted": grpc.StatusCode.RESOURCE_EXHAUSTED,
             "invalid": grpc.StatusCode.INVALID_ARGUMENT}
    numbers = {"unavailable": 14, "exhausted": 8, "invalid": 3}

    def export(req, ctx):
        t = time.time()
        md = {k: v for k, v in ctx.invocation_metadata()}
        answer, opts = script.next()
        log.write({"t": t, "path": EXPORT_PATH, "headers": md, "answer": answer,
                   "spans": request_to_data(req) if not args.count_only else [],
                   "nspans": sum(len(ss.spans) for rs in req.resource_spans for ss in rs.scope_spans)})
        if "slow" in opts:
            time.sleep(opts["slow"])
        if answer == "ok":
            resp = pb2.ExportTraceServiceResponse()
            if "rejected" in opts:
                resp.partial_success.rejected_spans = opts["rejected"]
                resp.partial_success.error_message = opts["message"]
            return resp
        st = rpc.Status(code=numbers[answer], message="test collector says " + answer)
        if "ra" in opts:
            ri = rpc.RetryInfo()
            ri.retry_delay.seconds = int(float(opts["ra"]))
            st.details.add(type_url="type.googleapis.com/google.rpc.RetryInfo",
                           value=ri.SerializeToString())
        ctx.set_trailing_metadata((("grpc-status-details-bin", st.SerializeToString()),))
        ctx.abort(codes[answer], st.message)

    def deserialize(b):
        try:
            return pb2.ExportTraceServiceRequest.FromString(b)
        except Exception as e:
            log.write({"t": time.time(), "decode_error": repr(e)})
            raise

    handler = grpc.method_handlers_generic_handler(
        "opentelemetry.proto.collector.trace.v1.TraceService",
        {"Export": grpc.unary_unary_rpc_method_handler(
            export, request_deserializer=deserialize,
            response_serializer=lambda m: m.SerializeToString())})
    # a fixed --port is ours alone: without SO_REUSEPORT, another receiver
    # on it makes the bind fail instead of taking half the connections
    srv = grpc.server(futures.ThreadPoolExecutor(max_workers=4),
                      options=[("grpc.max_receive_message_length", 64 << 20),
                               ("grpc.so_reuseport", 0 if args.port else 1)])
    srv.add_generic_rpc_handlers((handler,))
    if args.tls:
        with open(args.tls[0], "rb") as c, open(args.tls[1], "rb") as k:
            creds = grpc.ssl_server_credentials(((k.read(), c.read()),))
        port = srv.add_secure_port("127.0.0.1:%d" % args.port, creds)
    else:
        port = srv.add_insecure_port("127.0.0.1:%d" % args.port)
    if not port:    # older grpcio returns 0 when the port is taken
        raise OSError("cannot listen on port %d" % args.port)
    srv.start()
    KEEP.append(srv)     # a grpc server that is garbage collected stops
    return port


def cmd_serve(args):
    pb2, rpc = compile_protos()
    log = Log(args.out)
    script = Script(args.script)
    try:
        port = (serve_grpc if args.protocol == "grpc" else serve_http)(args, pb2, rpc, log, script)
    except (OSError, RuntimeError) as e:   # --port N taken: the caller picks another
        print("otlptest: cannot serve on port %d: %s" % (args.port, e), file=sys.stderr)
        sys.exit(3)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, args.port_file)
    time.sleep(args.lifetime)   # bounded: the test kills it long before


# ---- checks ----

def load_requests(path):
    reqs = []
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if "decode_error" in rec:
                sys.exit("FAIL: the receiver could not decode a request: " + rec["decode_error"])
            reqs.append(rec)
    return reqs


def spans_of(path):
    spans = []
    for rec in load_requests(path):
        if rec.get("answer", "ok") == "ok":
            spans.extend(rec["spans"])
    return spans


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def cmd_check(args):
    spans = spans_of(args.spans)
    with open(args.json) as f:
        trace = json.load(f)
    if not spans:
        fail("no spans received")
    base = trace["start_unix_ns"]
    ids = {}
    for s in spans:
        if s["span_id"] in ids:
            fail("span id %s sent twice" % s["span_id"])
        ids[s["span_id"]] = s
        if s["end"] < s["start"]:
            fail("span %s (%s) ends before it starts" % (s["span_id"], s["name"]))
        if s["kind"] != 1:
            fail("span %s has kind %d, not INTERNAL" % (s["name"], s["kind"]))
        if s["flags"] & 0xff != 1 or not s["flags"] & 0x100:
            fail("span %s has flags %#x" % (s["name"], s["flags"]))
    tids = {s["trace_id"] for s in spans}
    if len(tids) != 1:
        fail("spans of %d traces, not one" % len(tids))
    trace_id = tids.pop()
    res = spans[0]["resource"]
    for s in spans:
        if s["resource"] != res:
            fail("resources differ between requests")
        if s["scope"][0] != "renacer":
            fail("scope %r" % s["scope"])
    for k in ("service.name", "host.name", "host.arch", "os.type"):
        if k not in res:
            fail("resource attribute %s missing" % k)
    if args.service and res["service.name"] != args.service:
        fail("service.name %r, want %r" % (res["service.name"], args.service))
    for kv in args.resource or []:
        k, _, v = kv.partition("=")
        if res.get(k) != v:
            fail("resource %s=%r, want %r" % (k, res.get(k), v))

    procs = {s["attrs"]["process.pid"]: s for s in spans
             if "process.pid" in s["attrs"] and "syscall.name" not in s["attrs"]
             and "thread.id" not in s["attrs"]}
    threads = {s["attrs"]["thread.id"]: s for s in spans
               if s["name"] == "thread" and "thread.id" in s["attrs"]}
    sysspans = [s for s in spans if "syscall.name" in s["attrs"]]

    # processes: each under the process that created it
    jprocs = {p["tid"]: p for p in trace["processes"]}
    roots = 0
    for p in trace["processes"]:
        if p["is_thread"]:
            t = threads.get(p["tid"])
            if t is None:
                fail("no thread span for thread %d" % p["tid"])
            if t["parent"] != procs[p["pid"]]["span_id"]:
                fail("thread %d is not under its process span" % p["tid"])
            continue
        s = procs.get(p["pid"])
        if s is None:
            fail("no process span for pid %d" % p["pid"])
        parent = jprocs.get(p["ppid"])
        if parent is None:
            roots += 1
            want = args.parent.split("-")[2] if args.parent else ""
            if s["parent"] != want:
                fail("root process %d has parent %r, want %r" % (p["pid"], s["parent"], want))
            if args.parent and trace_id != args.parent.split("-")[1]:
                fail("trace id %s is not the parent's" % trace_id)
        else:
            ppid = parent["pid"]
            if s["parent"] != procs[ppid]["span_id"]:
                fail("process %d is not under its parent %d's span" % (p["pid"], ppid))
            if s["attrs"].get("process.parent_pid") != ppid and parent["tid"] == ppid:
                fail("process %d: process.parent_pid %r, want %d" %
                     (p["pid"], s["attrs"].get("process.parent_pid"), ppid))
        want_start = base + round(p["start_us"] * 1000)
        if s["start"] != want_start:
            fail("process %d span starts at %d, the JSON trace says %d" % (p["pid"], s["start"], want_start))
        if p["end_us"] is not None and s["end"] != base + round(p["end_us"] * 1000):
            fail("process %d span ends at %d, the JSON trace says %d" %
                 (p["pid"], s["end"], base + round(p["end_us"] * 1000)))
        if p.get("exec"):
            exe = os.path.basename(p["exec"][-1]["path"])
            if s["name"] != exe or s["attrs"].get("process.executable.name") != exe:
                fail("process %d span named %r, want %r" % (p["pid"], s["name"], exe))
            if s["attrs"].get("process.executable.path") != p["exec"][-1]["path"]:
                fail("process %d executable.path %r" % (p["pid"], s["attrs"].get("process.executable.path")))
        if "exit_code" in p:
            if s["attrs"].get("process.exit.code") != p["exit_code"]:
                fail("process %d exit code %r, want %d" % (p["pid"], s["attrs"].get("process.exit.code"), p["exit_code"]))
            if (s["status"][0] == 2) != (p["exit_code"] != 0):
                fail("process %d status %r for exit code %d" % (p["pid"], s["status"], p["exit_code"]))
        if not isinstance(s["attrs"].get("process.command_args"), list):
            fail("process %d has no process.command_args" % p["pid"])
        # totals on the process span, never lost to --otlp-min-duration
        mine = [c for c in trace["syscalls"] if c["pid"] == p["pid"]]
        if s["attrs"].get("syscall.count") != len(mine):
            fail("process %d syscall.count %r, the JSON trace has %d" % (p["pid"], s["attrs"].get("syscall.count"), len(mine)))
        for name in {c["name"] for c in mine}:
            n = sum(1 for c in mine if c["name"] == name)
            if s["attrs"].get("syscall.count." + name) != n:
                fail("process %d syscall.count.%s %r, want %d" % (p["pid"], name, s["attrs"].get("syscall.count." + name), n))
    if roots != 1:
        fail("%d root processes" % roots)
    # signals: span events of the thread or process they were delivered to
    for sig in trace.get("signals", []):
        owner = threads.get(sig["tid"]) if sig["tid"] != sig["pid"] else procs.get(sig["pid"])
        if owner is None:
            continue
        t = base + round(sig["ts_us"] * 1000)
        evs = [e for e in owner["events"] if e["time"] == t and e["name"] == sig["signal"]]
        if len(evs) != 1 or evs[0]["attrs"].get("renacer.signo") != sig["signo"] or \
                evs[0]["attrs"].get("renacer.siginfo") != sig.get("siginfo"):
            fail("signal %s of %d at %d: span events %r" % (sig["signal"], sig["tid"], t, owner["events"]))
        nsig = getattr(cmd_check, "nsig", 0) + 1
        cmd_check.nsig = nsig
    if trace.get("signals") and not getattr(cmd_check, "nsig", 0):
        fail("no signal became a span event")
    if len(procs) != sum(1 for p in trace["processes"] if not p["is_thread"]):
        fail("%d process spans for %d processes" % (len(procs), sum(1 for p in trace["processes"] if not p["is_thread"])))

    # syscalls: each under its thread or process, at the JSON trace's times
    by_start = {}
    for s in sysspans:
        by_start.setdefault((s["start"], s["name"]), []).append(s)
    min_ns = args.min_duration_us * 1000
    want_n = 0
    for c in trace["syscalls"]:
        start = base + round(c["ts_us"] * 1000)
        dur = round(c["duration_us"] * 1000)
        cands = by_start.get((start, c["name"]), [])
        if dur < min_ns:
            if cands:
                fail("%s of %.3f us was sent under --otlp-min-duration %d" % (c["name"], c["duration_us"], args.min_duration_us))
            continue
        want_n += 1
        if len(cands) != 1:
            fail("%d spans for %s at %d (pid %d)" % (len(cands), c["name"], start, c["pid"]))
        s = cands[0]
        a = s["attrs"]
        if s["end"] != start + dur:
            fail("%s span ends at %d, the JSON trace says %d" % (c["name"], s["end"], start + dur))
        owner = threads[c["tid"]] if c["tid"] != c["pid"] else procs[c["pid"]]
        if s["parent"] != owner["span_id"]:
            fail("%s of tid %d is not under its %s span" % (c["name"], c["tid"], "thread" if c["tid"] != c["pid"] else "process"))
        if a["syscall.name"] != c["name"] or a["syscall.number"] != c["nr"]:
            fail("%s span attributes %r" % (c["name"], a))
        if a["syscall.args"] != [x[1] for x in c["args"]]:
            fail("%s syscall.args %r, the JSON trace has %r" % (c["name"], a["syscall.args"], [x[1] for x in c["args"]]))
        if c.get("result") is not None and c.get("rv_fmt") != "none" and a.get("syscall.return") != c["result"]:
            fail("%s syscall.return %r, want %r" % (c["name"], a.get("syscall.return"), c["result"]))
        src = c.get("source")
        if src:
            if a.get("code.file.path") != src.get("file") or a.get("code.function.name") != src.get("function") \
                    or (src.get("line") and a.get("code.line.number") != src["line"]):
                fail("%s: code.* %r, the JSON trace's source is %r" % (c["name"], {k: v for k, v in a.items() if k.startswith("code.")}, src))
            nsrc = getattr(cmd_check, "nsrc", 0) + 1
            cmd_check.nsrc = nsrc
        elif "code.file.path" in a:
            fail("%s has code.file.path but the JSON trace has no source" % c["name"])
        if "errno" in c:
            if a.get("error.type") != c["errno"] or s["status"][0] != 2 or not s["status"][1]:
                fail("%s failed with %s but the span has %r %r" % (c["name"], c["errno"], a.get("error.type"), s["status"]))
        elif "error.type" in a or s["status"][0] != 0:
            fail("%s succeeded but the span has %r %r" % (c["name"], a.get("error.type"), s["status"]))
    if len(sysspans) != want_n:
        fail("%d syscall spans, want %d" % (len(sysspans), want_n))
    if args.env:
        with open(args.env) as f:
            got = f.read().strip()
        root = [s for s in procs.values() if s["parent"] == (args.parent.split("-")[2] if args.parent else "")][0]
        want = "00-%s-%s-01" % (trace_id, root["span_id"])
        if args.no_propagate:
            want = args.parent or "-"
        if got != want:
            fail("TRACEPARENT in the command was %r, want %r" % (got, want))
    if args.want_source and not getattr(cmd_check, "nsrc", 0):
        fail("no syscall span has code.* attributes")
    print("ok: %d spans (%d processes, %d threads, %d syscalls, %d with source) in trace %s" %
          (len(spans), len(procs), len(threads), len(sysspans), getattr(cmd_check, "nsrc", 0), trace_id))


def cmd_file(args):
    pb2, _ = compile_protos()
    with open(args.path) as f:
        for n, line in enumerate(f, 1):
            try:
                req = parse_otlp_json(pb2, line)
            except Exception as e:
                sys.exit("otlptest: %s:%d: %r" % (args.path, n, e))
            print(json.dumps({"t": 0, "answer": "ok", "spans": request_to_data(req)}))


def cmd_tree(args):
    """Prints the process/thread tree of the received spans (make demo)."""
    reqs = load_requests(args.spans)
    spans = [s for r in reqs if r.get("answer", "ok") == "ok" for s in r["spans"]]
    if not spans:
        print("no spans received")
        return
    byparent = {}
    for s in spans:
        byparent.setdefault(s["parent"], []).append(s)
    ids = {s["span_id"] for s in spans}
    t0 = min(s["start"] for s in spans)
    print("trace %s: %d requests, %d spans, service %r" % (
        spans[0]["trace_id"], len(reqs), len(spans), spans[0]["resource"].get("service.name")))

    def show(s, depth):
        kids = sorted(byparent.get(s["span_id"], []), key=lambda k: k["start"])
        calls = [k for k in kids if "syscall.name" in k["attrs"]]
        a = s["attrs"]
        what = "thread %s" % a["thread.id"] if "thread.id" in a and "syscall.name" not in a else \
            "%s pid %s" % (s["name"], a.get("process.pid"))
        extra = ""
        if "process.exit.code" in a:
            extra = ", exit %d" % a["process.exit.code"]
        top = {}
        for k in calls:
            top[k["name"]] = top.get(k["name"], 0) + 1
        common = ", ".join("%s %d" % kv for kv in sorted(top.items(), key=lambda kv: -kv[1])[:4])
        print("%s%s  [%.3f .. %.3f ms%s]  %d syscall spans (%s)" % (
            "  " * depth, what, (s["start"] - t0) / 1e6, (s["end"] - t0) / 1e6, extra,
            len(calls), common))
        for k in kids:
            if "syscall.name" not in k["attrs"]:
                show(k, depth + 1)
    for s in sorted(spans, key=lambda s: s["start"]):
        if s["parent"] not in ids and "syscall.name" not in s["attrs"]:
            show(s, 0)


def jaeger_tags(kvs):
    """Attributes as Jaeger's model has them (arrays become JSON strings)."""
    tags = []
    for k, v in kvs.items():
        if isinstance(v, bool):
            tags.append({"key": k, "type": "bool", "value": v})
        elif isinstance(v, int):
            tags.append({"key": k, "type": "int64", "value": v})
        elif isinstance(v, float):
            tags.append({"key": k, "type": "float64", "value": v})
        elif isinstance(v, str):
            tags.append({"key": k, "type": "string", "value": v})
        else:
            tags.append({"key": k, "type": "string", "value": json.dumps(v)})
    return tags


def jaeger_trace_id(h):
    """Jaeger prints a 128-bit id without the high half's leading zeros."""
    hi, lo = int(h[:16], 16), h[16:]
    return lo if hi == 0 else "%x%s" % (hi, lo)


def cmd_jaeger(args):
    """GET /api/traces?service=NAME of a Jaeger that received these spans."""
    spans = spans_of(args.spans)
    traces = {}
    for s in spans:
        traces.setdefault(s["trace_id"], []).append(s)
    kinds = {0: "unspecified", 1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer"}
    data = []
    for tid, tspans in traces.items():
        if args.service and not any(s["resource"].get("service.name") == args.service for s in tspans):
            continue
        procs, pids, out = {}, {}, []
        for s in sorted(tspans, key=lambda s: s["start"]):
            res = s["resource"]
            key = json.dumps(res, sort_keys=True)
            if key not in pids:
                pids[key] = "p%d" % (len(pids) + 1)
                procs[pids[key]] = {"serviceName": res.get("service.name", ""),
                                    "tags": jaeger_tags({k: v for k, v in res.items() if k != "service.name"})}
            tags = jaeger_tags(s["attrs"])
            tags.append({"key": "otel.scope.name", "type": "string", "value": s["scope"][0]})
            tags.append({"key": "span.kind", "type": "string", "value": kinds.get(s["kind"], "unspecified")})
            if s["status"][0] == 2:
                tags.append({"key": "error", "type": "bool", "value": True})
                tags.append({"key": "otel.status_code", "type": "string", "value": "ERROR"})
                if s["status"][1]:
                    tags.append({"key": "otel.status_description", "type": "string", "value": s["status"][1]})
            out.append({
                "traceID": jaeger_trace_id(tid), "spanID": s["span_id"], "flags": s["flags"] & 0xff,
                "operationName": s["name"],
                "references": [{"refType": "CHILD_OF", "traceID": jaeger_trace_id(tid), "spanID": s["parent"]}]
                if s["parent"] else [],
                "startTime": s["start"] // 1000, "duration": (s["end"] - s["start"]) // 1000,
                "tags": tags,
                "logs": [{"timestamp": e["time"] // 1000,
                          "fields": [{"key": "event", "type": "string", "value": e["name"]}] +
                          jaeger_tags(e["attrs"])} for e in s["events"]],
                "processID": pids[key], "warnings": None})
        data.append({"traceID": jaeger_trace_id(tid), "spans": out, "processes": procs, "warnings": None})
    json.dump({"data": data, "total": 0, "limit": 0, "offset": 0, "errors": None}, sys.stdout)
    sys.stdout.write("\n")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--protocol", choices=["grpc", "http"], required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--port-file", required=True)
    s.add_argument("--script")
    s.add_argument("--tls", nargs=2)
    s.add_argument("--lifetime", type=float, default=240)
    s.add_argument("--port", type=int, default=0, help="listen on this port (default: any free one)")
    s.add_argument("--count-only", action="store_true",
                   help="decode every request but log only its span count (make bench)")
    c = sub.add_parser("check")
    c.add_argument("--spans", required=True)
    c.add_argument("--json", required=True)
    c.add_argument("--min-duration-us", type=int, default=0)
    c.add_argument("--parent")
    c.add_argument("--service")
    c.add_argument("--resource", action="append")
    c.add_argument("--env")
    c.add_argument("--no-propagate", action="store_true")
    c.add_argument("--want-source", action="store_true")
    f = sub.add_parser("file")
    f.add_argument("path")
    t = sub.add_parser("tree")
    t.add_argument("spans")
    j = sub.add_parser("jaeger")
    j.add_argument("spans")
    j.add_argument("--service")
    args = ap.parse_args()
    {"serve": cmd_serve, "check": cmd_check, "file": cmd_file, "tree": cmd_tree,
     "jaeger": cmd_jaeger}[args.cmd](args)


if __name__ == "__main__":
    main()
