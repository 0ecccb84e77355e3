#!/usr/bin/python3
# Writes the synthetic GPU traces tests/data/ap_pcie_{bottleneck,compute,dri}.json
# (renacer-json-v1): a CUDA-like program opening /dev/nvidiactl, /dev/nvidia0
# and /dev/nvidia-uvm, mapping device memory, and making ioctl/read/write
# transfers.  "bottleneck": the GPU calls take 90% of a 50 ms run (45 ms);
# "compute": the same calls take 5 ms of a 50 ms run; "dri": a render node
# (/dev/dri/renderD128) used through ioctls that take 80% of the run.
# Run it from the repository root to regenerate them.
import json

def trace(kind):
    sc = []
    t = [0.0]
    def call(name, args, result, dur, errno=None, rv_fmt=None):
        rec = {"name": name, "args": args, "result": result, "pid": 4242, "tid": 4242,
               "nr": -1, "ts_us": round(t[0], 3), "duration_us": round(dur, 3), "lamport": 0}
        if errno:
            rec["errno"] = errno
        if rv_fmt:
            rec["rv_fmt"] = rv_fmt
        sc.append(rec)
        t[0] += dur + 1.0
    call("execve", [["filename", "\"./gpu_app\""], ["argv", "0x7ffc0000"], ["envp", "0x7ffc0100"]], 0, 200)
    call("brk", [["brk", "NULL"]], 0x55d000000000, 1, rv_fmt="hex")
    devs = ["/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm"] if kind != "dri" else ["/dev/dri/renderD128"]
    for i, d in enumerate(devs):
        call("openat", [["dfd", "AT_FDCWD"], ["filename", json.dumps(d)], ["flags", "O_RDWR|O_CLOEXEC"]], 3 + i, 20)
    main = 3 if kind == "dri" else 4
    call("mmap", [["addr", "NULL"], ["len", "2097152"], ["prot", "PROT_READ|PROT_WRITE"],
                  ["flags", "MAP_SHARED"], ["fd", str(main)], ["off", "0"]], 0x7f1000000000, 30, rv_fmt="hex")
    n = 200
    gpu_total = {"bottleneck": 45000.0, "compute": 5000.0, "dri": 40000.0}[kind]
    per = (gpu_total - 30) / n
    gap = (50000.0 - gpu_total - 1000) / n   # leaves room: the process ends at 50 ms
    for i in range(n):
        fd = str(3 + (i % len(devs)))
        if i % 10 == 3:
            call("write", [["fd", str(main)], ["buf", "\"\\x01\\x02...\""], ["count", "65536"]], 65536, per)
        elif i % 10 == 7:
            call("read", [["fd", str(main)], ["buf", "\"\\x00...\""], ["count", "16384"]], 16384, per)
        else:
            call("ioctl", [["fd", fd], ["cmd", "_IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20)"], ["arg", "0x7ffc1000"]], 0, per)
        t[0] += gap
    for i in range(len(devs)):
        call("close", [["fd", str(3 + i)]], 0, 2)
    call("exit_group", [["error_code", "0"]], None, 0)
    sc[-1]["unfinished"] = True
    wall = 50000.0
    assert t[0] < wall
    return {
        "version": "0.9.0", "format": "renacer-json-v1", "command": ["./gpu_app"], "follow": True,
        "start_unix_ns": 1700000000000000000, "syscalls": sc,
        "processes": [{"pid": 4242, "tid": 4242, "ppid": 1, "is_thread": False, "start_us": 0.0,
                       "end_us": wall, "exit_code": 0, "max_rss_kb": 20480,
                       "exec": [{"path": "/opt/gpu_app", "ts_us": 100.0}]}],
        "signals": [],
        "summary": {"total_syscalls": len(sc), "total_errors": 0, "total_unfinished": 1,
                    "total_time_us": round(sum(s["duration_us"] for s in sc), 3),
                    "wall_time_us": wall, "exit_code": 0},
    }

for kind in ("bottleneck", "compute", "dri"):
    with open("tests/data/ap_pcie_%s.json" % kind, "w") as f:
        doc = trace(kind)
        f.write("{\n")
        keys = list(doc)
        for k in keys:
            v = doc[k]
            if k in ("syscalls", "processes", "signals") and v:
                f.write('  "%s": [\n' % k)
                f.write(",\n".join("    " + json.dumps(x) for x in v))
                f.write("\n  ]")
            else:
                f.write('  "%s": %s' % (k, json.dumps(v)))
            f.write(",\n" if k != keys[-1] else "\n")
        f.write("}\n")
