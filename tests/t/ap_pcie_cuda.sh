#!/bin/sh
# PCIeBottleneck on a real CUDA program, wherever a GPU is available
# (skipped otherwise): a run made of synchronized transfers is detected, with
# the /dev/nvidia* devices it used in the evidence; the same set-up followed
# by long CPU work is not.
set -u
. "$TOP/tests/lib.sh"
. "$TOP/tests/assert_lib.sh"
P=$PROGS

ls /dev/nvidia* >/dev/null 2>&1 || skip "no NVIDIA GPU device files (/dev/nvidia*)"
"$P/ap_cuda" transfer 1 >/dev/null 2>&1
[ $? -eq 77 ] && skip "no usable CUDA driver (libcuda.so.1) or device"

capture "$TMPDIR/xfer.json" "$P/ap_cuda" transfer 2000
analyze "$TMPDIR/xfer.json"
finding PCIeBottleneck evidence | grep -q '^/dev/nvidia[a-z0-9-]*: [1-9][0-9]* calls' ||
	bad "no /dev/nvidia* calls in the evidence: $(finding PCIeBottleneck evidence)"
[ "$(finding PCIeBottleneck detected)" = True ] ||
	bad "transfer-bound CUDA run not detected: $(finding PCIeBottleneck confidence): $(finding PCIeBottleneck evidence)"

capture "$TMPDIR/compute.json" "$P/ap_cuda" compute 5000
analyze "$TMPDIR/compute.json"
[ "$(finding PCIeBottleneck detected)" = False ] ||
	bad "compute-bound CUDA run flagged: $(finding PCIeBottleneck evidence)"
finish
