/* seccomp user notification ioctls ('!') with filled, short and bad
 * arguments on a bad descriptor, for tests/t/decode_ioctl_seccomp.sh. */
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include "ioctl_test.h"

int main(void)
{
	struct seccomp_notif *n = TAIL(struct seccomp_notif);
	struct seccomp_notif_resp *r = TAIL(struct seccomp_notif_resp);
	struct seccomp_notif_addfd *a = TAIL(struct seccomp_notif_addfd);
	uint64_t *id = TAIL(uint64_t);

	memset(n, 0, sizeof(*n));
	IOC(SECCOMP_IOCTL_NOTIF_RECV, n);
	n->id = 0x1234;
	n->pid = 77;
	n->data.nr = SYS_getpid;
	n->data.arch = AUDIT_ARCH_X86_64;
	n->data.instruction_pointer = 0x401000;
	n->data.args[0] = 1;
	IOC(SECCOMP_IOCTL_NOTIF_RECV, n);
	n->data.nr = 20;     /* i386 writev */
	n->data.arch = AUDIT_ARCH_I386;
	IOC(SECCOMP_IOCTL_NOTIF_RECV, n);
	n->data.nr = 0xbad;
	n->data.arch = 0x77;
	IOC(SECCOMP_IOCTL_NOTIF_RECV, n);
	IOC(SECCOMP_IOCTL_NOTIF_RECV, (char *)n + 1);
	r->id = 0x1234;
	r->val = -7;
	r->error = -1;  /* -EPERM */
	r->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	IOC(SECCOMP_IOCTL_NOTIF_SEND, r);
	r->error = 3;
	r->flags = 0x10;
	IOC(SECCOMP_IOCTL_NOTIF_SEND, r);
	r->error = -9999;
	IOC(SECCOMP_IOCTL_NOTIF_SEND, r);
	*id = 0xfeedface;
	IOC(SECCOMP_IOCTL_NOTIF_ID_VALID, id);
	IOC(_IOR(SECCOMP_IOC_MAGIC, 2, __u64), id);
	IOC(SECCOMP_IOCTL_NOTIF_ID_VALID, NULL);
	a->id = 1;
	a->flags = SECCOMP_ADDFD_FLAG_SETFD;
	a->srcfd = 0;
	a->newfd = 5;
	a->newfd_flags = O_CLOEXEC;
	IOC(SECCOMP_IOCTL_NOTIF_ADDFD, a);
	a->flags = 0x80;
	a->newfd = 0xffffffff;
	IOC(SECCOMP_IOCTL_NOTIF_ADDFD, a);
	return 0;
}
