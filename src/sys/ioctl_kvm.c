/*
 * KVM ioctls (0xae, linux/kvm.h with x86's asm/kvm.h): new VM and vCPU
 * descriptors, memory regions, registers, segment registers, CPUID tables
 * and capabilities; with -e kvm=vcpu the exit reason of KVM_RUN, read from
 * the vCPU's mapped struct kvm_run.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "sys/ioc.h"
#include "xlat/kvm_cap.h"
#include "xlat/kvm_cpuid_flags.h"
#include "xlat/kvm_exit_reason.h"
#include "xlat/kvm_mem_flags.h"

#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int memory_region(struct ioc *io)
{
	struct kvm_userspace_memory_region r;
	struct val *v = ioc_val(io), *f;

	if (!ioc_read(io, v, io->arg, &r, sizeof(r)))
		return IOC_DONE;
	f = val_new_array(io->c, 5);
	FLD_U(&f[0], r, slot);
	val_set_flags(&f[1], "flags", r.flags, kvm_mem_flags, NULL);
	FLD_X(&f[2], r, guest_phys_addr);
	FLD_U(&f[3], r, memory_size);
	FLD_X(&f[4], r, userspace_addr);
	val_set_struct(v, v->name, f, 5, false);
	return IOC_DONE;
}

#if defined __x86_64__ || defined __i386__
/* struct kvm_regs: without -v the general registers but rax, rsp and rbp
 * are "..." */
static int regs(struct ioc *io)
{
	struct kvm_regs r;
	struct val *v, *f;
	unsigned n = 0;
	bool ab = ioc_abbrev(io);

	if (io->code == KVM_GET_REGS && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &r, sizeof(r)))
		return IOC_DONE;
	f = val_new_array(io->c, 18);
	FLD_X(&f[n++], r, rax);
	if (ab) {
		ioc_more(io->c, &f[n++]);
	} else {
		FLD_X(&f[n++], r, rbx);
		FLD_X(&f[n++], r, rcx);
		FLD_X(&f[n++], r, rdx);
		FLD_X(&f[n++], r, rsi);
		FLD_X(&f[n++], r, rdi);
	}
	FLD_X(&f[n++], r, rsp);
	FLD_X(&f[n++], r, rbp);
	if (ab) {
		ioc_more(io->c, &f[n++]);
	} else {
		FLD_X(&f[n++], r, r8);
		FLD_X(&f[n++], r, r9);
		FLD_X(&f[n++], r, r10);
		FLD_X(&f[n++], r, r11);
		FLD_X(&f[n++], r, r12);
		FLD_X(&f[n++], r, r13);
		FLD_X(&f[n++], r, r14);
		FLD_X(&f[n++], r, r15);
	}
	FLD_X(&f[n++], r, rip);
	FLD_X(&f[n++], r, rflags);
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

static void segment(struct dctx *c, struct val *v, const char *name,
		    const struct kvm_segment *s)
{
	struct val *f = val_new_array(c, 11);

	FLD_X(&f[0], *s, base);
	FLD_U(&f[1], *s, limit);
	FLD_U(&f[2], *s, selector);
	FLD_U(&f[3], *s, type);
	FLD_U(&f[4], *s, present);
	FLD_U(&f[5], *s, dpl);
	FLD_U(&f[6], *s, db);
	FLD_U(&f[7], *s, s);
	FLD_U(&f[8], *s, l);
	FLD_U(&f[9], *s, g);
	FLD_U(&f[10], *s, avl);
	val_set_struct(v, name, f, 11, false);
}

static void dtable(struct dctx *c, struct val *v, const char *name, const struct kvm_dtable *t)
{
	struct val *f = val_new_array(c, 2);

	FLD_X(&f[0], *t, base);
	FLD_U(&f[1], *t, limit);
	val_set_struct(v, name, f, 2, false);
}

/* struct kvm_sregs: only cs without -v */
static int sregs(struct ioc *io)
{
	struct dctx *c = io->c;
	struct kvm_sregs s;
	struct val *v, *f;
	unsigned n = 0;

	if (io->code == KVM_GET_SREGS && !io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &s, sizeof(s)))
		return IOC_DONE;
	f = val_new_array(c, 19);
	segment(c, &f[n++], "cs", &s.cs);
	if (ioc_abbrev(io)) {
		ioc_more(c, &f[n++]);
		val_set_struct(v, v->name, f, n, false);
		return IOC_DONE;
	}
	segment(c, &f[n++], "ds", &s.ds);
	segment(c, &f[n++], "es", &s.es);
	segment(c, &f[n++], "fs", &s.fs);
	segment(c, &f[n++], "gs", &s.gs);
	segment(c, &f[n++], "ss", &s.ss);
	segment(c, &f[n++], "tr", &s.tr);
	segment(c, &f[n++], "ldt", &s.ldt);
	dtable(c, &f[n++], "gdt", &s.gdt);
	dtable(c, &f[n++], "idt", &s.idt);
	FLD_U(&f[n++], s, cr0);
	FLD_U(&f[n++], s, cr2);
	FLD_U(&f[n++], s, cr3);
	FLD_U(&f[n++], s, cr4);
	FLD_U(&f[n++], s, cr8);
	FLD_U(&f[n++], s, efer);
	FLD_X(&f[n++], s, apic_base);
	ioc_set_int_array(c, &f[n++], "interrupt_bitmap", s.interrupt_bitmap,
			  NELEM(s.interrupt_bitmap), sizeof(s.interrupt_bitmap[0]), NUM_X);
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

static void cpuid_entry(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct kvm_cpuid_entry2 e;
	struct val *f = val_new_array(c, 7);

	(void)arg;
	memcpy(&e, elem, sizeof(e));
	FLD_X(&f[0], e, function);
	FLD_X(&f[1], e, index);
	val_set_flags(&f[2], "flags", e.flags, kvm_cpuid_flags, NULL);
	FLD_X(&f[3], e, eax);
	FLD_X(&f[4], e, ebx);
	FLD_X(&f[5], e, ecx);
	FLD_X(&f[6], e, edx);
	val_set_struct(item, NULL, f, 7, false);
}

/* struct kvm_cpuid2: without -v its entries are "[...]" ("[]" when none) */
static int cpuid2(struct ioc *io)
{
	struct dctx *c = io->c;
	struct kvm_cpuid2 cp;
	struct val *v, *f;

	if (!io->exiting && io->code != KVM_SET_CPUID2)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &cp, sizeof(cp)))
		return IOC_DONE;
	f = val_new_array(c, 2);
	FLD_U(&f[0], cp, nent);
	if (ioc_abbrev(io)) {
		struct val *more = NULL;

		if (cp.nent) {
			more = val_new_array(c, 1);
			val_set_text(c, more, NULL, "...");
		}
		val_set_array(&f[1], "entries", more, more ? 1 : 0, false);
	} else if (!ioc_array(io, &f[1], "entries", io->arg + sizeof(cp), cp.nent,
			      sizeof(struct kvm_cpuid_entry2), UINT64_MAX, cpuid_entry, NULL) &&
		   f[1].kind == V_NONE) {
		val_set_array(&f[1], "entries", NULL, 0, false);
	}
	val_set_struct(v, v->name, f, 2, false);
	return IOC_DONE;
}
#endif

/*
 * -e kvm=vcpu: the exit reason in the struct kvm_run that the vCPU
 * descriptor fd maps ("anon_inode:kvm-vcpu:N"), found in the tracee's
 * mappings by that name, as strace; nothing when fd is not a mapped vCPU.
 */
static const char *exit_reason(struct dctx *c, int fd)
{
	char path[64], link[256], line[512];
	unsigned long long start = 0, end = 0;
	unsigned maj, min;
	bool found = false;
	ssize_t len;
	uint32_t reason;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)c->tid, fd);
	len = readlink(path, link, sizeof(link) - 1);
	if (len <= 0)
		return NULL;
	link[len] = '\0';
	if (strncmp(link, "anon_inode:kvm-vcpu:", 20))
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)c->pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		int off = -1;
		size_t l;

		if (sscanf(line, "%llx-%llx %*s %*s %x:%x %*u %n", &start, &end, &maj, &min,
			   &off) < 4 || off < 0)
			continue;
		l = strlen(line + off);
		if (l && line[off + l - 1] == '\n')
			line[off + --l] = '\0';
		found = maj == 0 && !strcmp(line + off, link);
	}
	fclose(f);
	if (!found || end - start < sizeof(struct kvm_run) ||
	    !tread(c, start + offsetof(struct kvm_run, exit_reason), &reason, sizeof(reason)))
		return NULL;
	const char *name = xlat_name(kvm_exit_reason, reason);

	return name ? name : "KVM_EXIT_???";
}

static int run(struct ioc *io)
{
	const char *reason;

	if (!io->exiting)
		return IOC_EXIT;
	if (io->ev->err || !io->c->opts->kvm_vcpu)
		return IOC_DEFAULT;
	reason = exit_reason(io->c, (int)io->ev->karg[0]);
	if (reason) {
		struct val *aux = val_new_array(io->c, 1);

		val_set_text(io->c, aux, NULL, reason);
		io->ev->ret_aux = aux;
	}
	return IOC_DEFAULT;
}

int ioctl_kvm(struct ioc *io)
{
	switch (io->code) {
	case KVM_CREATE_VCPU:
		if (!io->exiting) {
			struct val *v = ioc_val(io);

			ioc_set_num(v, v->name, io->arg, 4, NUM_U);
			return IOC_EXIT;
		}
		if (!io->ev->err)
			ret_set_fd(io->c, io->ev);
		return IOC_DONE;
	case KVM_CREATE_VM:
		if (!io->exiting) {
			ioc_arg_val(io, NUM_X);
			return IOC_EXIT;
		}
		if (!io->ev->err)
			ret_set_fd(io->c, io->ev);
		return IOC_DONE;
	case KVM_SET_USER_MEMORY_REGION:
		return memory_region(io);
#if defined __x86_64__ || defined __i386__
	case KVM_GET_REGS: case KVM_SET_REGS:
		return regs(io);
	case KVM_GET_SREGS: case KVM_SET_SREGS:
		return sregs(io);
	case KVM_SET_CPUID2: case KVM_GET_SUPPORTED_CPUID: case KVM_GET_EMULATED_CPUID:
		return cpuid2(io);
#endif
	case KVM_CHECK_EXTENSION: {
		struct val *v = ioc_val(io);

		val_set_enum(v, v->name, io->arg, kvm_cap);
		return IOC_DONE;
	}
	case KVM_RUN:
		return run(io);
	}
	return IOC_DEFAULT;
}
