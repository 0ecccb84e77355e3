/*
 * KVM ioctls (0xae) for tests/t/decode_ioctl_kvm.sh.  Without arguments:
 * filled, short and bad arguments on a bad descriptor.  With "real": a
 * virtual machine on /dev/kvm (nothing when it cannot be opened) whose one
 * vCPU runs "out %al, $0x10; hlt" in real mode, so that KVM_RUN stops with
 * KVM_EXIT_IO, then KVM_EXIT_HLT.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <linux/kvm.h>

#include "ioctl_test.h"

static void bad_fd(void)
{
	struct kvm_userspace_memory_region *mr = TAIL(struct kvm_userspace_memory_region);
	struct kvm_regs *regs = TAIL(struct kvm_regs);
	struct kvm_sregs *sregs = TAIL(struct kvm_sregs);
	size_t cpuid_size = sizeof(struct kvm_cpuid2) + 3 * sizeof(struct kvm_cpuid_entry2);
	struct kvm_cpuid2 *cpuid = tail_alloc(cpuid_size);
	struct kvm_cpuid2 *cpuid0 = TAIL(struct kvm_cpuid2);

	IOC(KVM_GET_API_VERSION, 0);
	IOC(KVM_CREATE_VM, 0);
	IOC(KVM_CREATE_VM, 0x123456789ULL);
	IOC(KVM_CREATE_VCPU, 0);
	IOC(KVM_CREATE_VCPU, 0xfedcba9800000007ULL);
	IOC(KVM_GET_VCPU_MMAP_SIZE, 0);
	IOC(KVM_CHECK_EXTENSION, KVM_CAP_USER_MEMORY);
	IOC(KVM_CHECK_EXTENSION, KVM_CAP_IRQCHIP);
	IOC(KVM_CHECK_EXTENSION, 0xbadc0de);
	IOC(KVM_RUN, 0);

	fill(mr, sizeof(*mr), 1);
	mr->flags = KVM_MEM_LOG_DIRTY_PAGES | KVM_MEM_READONLY | 0x80;
	IOC(KVM_SET_USER_MEMORY_REGION, mr);
	mr->flags = 0;
	IOC(KVM_SET_USER_MEMORY_REGION, mr);
	IOC(KVM_SET_USER_MEMORY_REGION, (char *)mr + 1);
	IOC(KVM_SET_USER_MEMORY_REGION, NULL);

	fill(regs, sizeof(*regs), 0x20);
	IOC(KVM_SET_REGS, regs);
	IOC(KVM_GET_REGS, regs);
	IOC(KVM_SET_REGS, (char *)regs + 1);
	IOC(KVM_GET_REGS, BAD_PTR);

	fill(sregs, sizeof(*sregs), 0x40);
	IOC(KVM_SET_SREGS, sregs);
	IOC(KVM_GET_SREGS, sregs);
	IOC(KVM_SET_SREGS, (char *)sregs + 8);
	IOC(KVM_GET_SREGS, NULL);

	fill(cpuid, cpuid_size, 0x60);
	cpuid->nent = 3;
	cpuid->entries[0].flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX;
	cpuid->entries[1].flags = KVM_CPUID_FLAG_STATEFUL_FUNC | 0x100;
	cpuid->entries[2].flags = 0;
	IOC(KVM_SET_CPUID2, cpuid);
	IOC(KVM_GET_SUPPORTED_CPUID, cpuid);
	IOC(KVM_GET_EMULATED_CPUID, cpuid);
	cpuid->nent = 4;                        /* the fourth is unreadable */
	IOC(KVM_SET_CPUID2, cpuid);
	cpuid->nent = 40;
	IOC(KVM_SET_CPUID2, cpuid);
	cpuid0->nent = 0;
	IOC(KVM_SET_CPUID2, cpuid0);
	cpuid0->nent = 1;                       /* no entry readable */
	IOC(KVM_SET_CPUID2, cpuid0);
	IOC(KVM_SET_CPUID2, (char *)cpuid0 + 4);
	IOC(KVM_GET_SUPPORTED_CPUID, NULL);
	IOC(_IOWR(KVMIO, 0xfe, int), 0);
}

static void real(void)
{
	static const unsigned char code[] = { 0xe6, 0x10, 0xf4 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct kvm_userspace_memory_region mr = { 0 };
	struct kvm_sregs sregs;
	struct kvm_regs regs;
	struct kvm_run *run;
	int kvm, vm, vcpu, size;
	unsigned char *mem;

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0 || ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION)
		return;
	ioctl(kvm, KVM_CHECK_EXTENSION, KVM_CAP_USER_MEMORY);
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return;
	mem = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return;
	memcpy(mem, code, sizeof(code));
	mr.guest_phys_addr = 0x1000;
	mr.memory_size = page;
	mr.userspace_addr = (uintptr_t)mem;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &mr) < 0)
		return;
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (vcpu < 0 || size < (int)sizeof(*run))
		return;
	run = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		return;
	if (ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0)
		return;
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	ioctl(vcpu, KVM_SET_SREGS, &sregs);
	memset(&regs, 0, sizeof(regs));
	regs.rip = 0x1000;
	regs.rax = 'x';
	regs.rflags = 2;
	ioctl(vcpu, KVM_SET_REGS, &regs);
	ioctl(vcpu, KVM_GET_REGS, &regs);
	for (int i = 0; i < 4; i++) {
		if (ioctl(vcpu, KVM_RUN, 0) < 0 || run->exit_reason != KVM_EXIT_IO)
			break;
	}
	/* not a vCPU: no exit reason */
	ioctl(vm, KVM_RUN, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "real"))
		real();
	else
		bad_fd();
	return 0;
}
