#!/bin/sh
# KVM ioctls (tests/progs/ioctl_kvm): memory regions, registers, segment
# registers, CPUID tables, capabilities, with -v, -X raw/verbose, failing
# calls and injected successes, against strace; where /dev/kvm opens, a
# real virtual machine: the new descriptors (-y), the registers read back
# and, with -e kvm=vcpu, the exit reason of each KVM_RUN.
. "$TOP/tests/lib.sh"
. "$TOP/tests/lib_ioctl.sh"
need_strace
prog=$(need_prog ioctl_kvm) || exit 1
rc=0
ioctl_compare "$prog" || rc=1
for opts in "-y" "-y -v"; do
	# shellcheck disable=SC2086
	compare_with_strace $opts -e trace=ioctl -- "$prog" real || rc=1
done
# -e kvm=vcpu: the exit reason is read from the vCPU's mapped struct
# kvm_run at KVM_RUN's exit, which only a tracer that stops the program
# can (docs/architecture.md, "Where it differs")
for opts in "-y -e kvm=vcpu" "-y --kvm=vcpu -X verbose"; do
	# shellcheck disable=SC2086
	(export RENACER_BACKEND=ptrace; compare_with_strace $opts -e trace=ioctl -- "$prog" real) || rc=1
done
exit $rc
