/*
 * Syscalls whose arguments strace 6.1 decodes in detail, for
 * tests/t/decode_sysgaps.sh: io_uring_register opcodes, keyctl commands,
 * memory policy calls, POSIX message queues, fanotify, the new mount API,
 * kexec, quotactl, syslog, personality and others, each with good, bad,
 * NULL and unreadable arguments.  Most calls fail (no privilege, bad fds,
 * bad values); strace decodes their arguments all the same.
 *
 * Buffers live at a fixed address (two readable pages, then an unmapped
 * one) so the traces compare without masking addresses.  Nothing here
 * changes the machine.  Each call is preceded by nothing else: the test
 * compares whole traces restricted to the calls named.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Warray-bounds"

#define BASE 0x5f000000UL
#define PG 4096UL

static char *page;   /* BASE: two readable pages, then an unmapped one */
static char *end;    /* BASE + 2 * PG: the first unmapped byte */

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	return syscall(nr, a, b, c, d, e, f);
}
#define S1(nr, a) sc(nr, (long)(a), 0, 0, 0, 0, 0)
#define S2(nr, a, b) sc(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define S3(nr, a, b, c) sc(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define S4(nr, a, b, c, d) sc(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define S5(nr, a, b, c, d, e) sc(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)
#define S6(nr, a, b, c, d, e, f) sc(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

static void uring(void)
{
	uint64_t *b = (uint64_t *)(page + 256);
	int *fds = (int *)(page + 512);
	int fd;
	unsigned op;

	memset(page, 0, 2048);
	/* iovecs for IORING_REGISTER_BUFFERS */
	b[0] = BASE + 1024;
	b[1] = 16;
	b[2] = BASE + 2048;
	b[3] = 32;
	fds[0] = 0;
	fds[1] = -1;
	fds[2] = 2;
	fd = (int)S2(SYS_io_uring_setup, 4, page + 3072);
	if (fd < 0)
		fd = 1000;
	for (op = 0; op < 30; op++) {
		S4(SYS_io_uring_register, -1, op, b, 2);
		S4(SYS_io_uring_register, -1, op, NULL, 0);
		S4(SYS_io_uring_register, -1, op, end - 8, 3);
	}
	S4(SYS_io_uring_register, fd, 0 /* BUFFERS */, b, 2);
	S4(SYS_io_uring_register, fd, 1 /* UNREGISTER_BUFFERS */, NULL, 0);
	S4(SYS_io_uring_register, fd, 2 /* FILES */, fds, 3);
	S4(SYS_io_uring_register, fd, 3 /* UNREGISTER_FILES */, NULL, 0);
	S4(SYS_io_uring_register, fd, 4 /* EVENTFD */, fds + 2, 1);
	S4(SYS_io_uring_register, fd, 5 /* UNREGISTER_EVENTFD */, NULL, 0);
	S4(SYS_io_uring_register, fd, 6 /* FILES_UPDATE */, page + 1536, 1);
	S4(SYS_io_uring_register, fd, 7 /* EVENTFD_ASYNC */, fds + 2, 1);
	S4(SYS_io_uring_register, fd, 8 /* PROBE */, page + 1024, 8);
	S4(SYS_io_uring_register, fd, 9 /* PERSONALITY */, NULL, 0);
	S4(SYS_io_uring_register, fd, 10 /* UNREGISTER_PERSONALITY */, NULL, 3);
	S4(SYS_io_uring_register, fd, 11 /* RESTRICTIONS */, page + 1280, 2);
	S4(SYS_io_uring_register, fd, 12 /* ENABLE_RINGS */, NULL, 0);
	S4(SYS_io_uring_register, fd, 13 /* FILES2 */, page + 1536, 32);
	S4(SYS_io_uring_register, fd, 17 /* IOWQ_AFF */, page + 1024, 8);
	S4(SYS_io_uring_register, fd, 18 /* UNREGISTER_IOWQ_AFF */, NULL, 0);
	S4(SYS_io_uring_register, fd, 19 /* IOWQ_MAX_WORKERS */, fds, 2);
	S4(SYS_io_uring_register, fd, 20 /* RING_FDS */, page + 1536, 1);
	S4(SYS_io_uring_register, fd, 0x80000000u | 2, fds, 3);
	if (fd != 1000)
		S1(SYS_close, fd);
	/* io_uring_setup: every flag bit (with unknown ones), the other
	 * fields set; io_uring_enter's flags and its argument by size */
	for (unsigned i = 0; i < 120; i++)
		page[3072 + i] = (char)i;
	((uint32_t *)(page + 3072))[2] = 0xffff;
	S2(SYS_io_uring_setup, 4, page + 3072);
	((uint32_t *)(page + 3072))[2] = 0x20;
	S2(SYS_io_uring_setup, 4, page + 3072);
	b[0] = 1 << 9;
	S6(SYS_io_uring_enter, -1, 1, 0, 0xff, b, 8);
	S6(SYS_io_uring_enter, -1, 0, 1, 0x8, b, 24);
}

/* Keys: only this thread's and process's own keyrings (-1, -2) and a
 * serial that names no key are ever changed; the user and session keyrings
 * (shared with the rest of the machine) are only looked up. */
#define NOKEY 0x7fff1234
static void keys(void)
{
	unsigned cmd;
	uint32_t *w = (uint32_t *)(page + 768);
	uint64_t *kdf = (uint64_t *)(page + 832);

	strcpy(page + 64, "user");
	strcpy(page + 96, "desc");
	strcpy(page + 128, "payload");
	for (cmd = 0; cmd < 34; cmd++) {
		if (cmd == KEYCTL_SESSION_TO_PARENT)
			continue;
		S5(SYS_keyctl, cmd, -1, page + 64, page + 96, 7);
		S5(SYS_keyctl, cmd, -8, 0, 0, 0);
		S5(SYS_keyctl, cmd, NOKEY, end - 4, 100, -3);
	}
	S5(SYS_keyctl, KEYCTL_GET_KEYRING_ID, -4, 0, 0, 0);
	S5(SYS_keyctl, KEYCTL_READ, -2, page + 512, 64, 0);
	S5(SYS_keyctl, KEYCTL_DESCRIBE, -2, page + 512, 64, 0);
	S5(SYS_keyctl, KEYCTL_GET_SECURITY, -2, page + 512, 64, 0);
	S5(SYS_keyctl, KEYCTL_CHOWN, NOKEY, 1000, 1000, 0);
	S5(SYS_keyctl, KEYCTL_CHOWN, NOKEY, -1, -1, 0);
	S5(SYS_keyctl, KEYCTL_SETPERM, NOKEY, 0x3f3f3f3f, 0, 0);
	S5(SYS_keyctl, KEYCTL_INSTANTIATE, NOKEY, page + 128, 7, -4);
	S5(SYS_keyctl, KEYCTL_NEGATE, NOKEY, 60, -4, 0);
	S5(SYS_keyctl, KEYCTL_REJECT, NOKEY, 60, 22, -4);
	S5(SYS_keyctl, KEYCTL_INSTANTIATE_IOV, NOKEY, page + 256, 2, -4);
	S5(SYS_keyctl, KEYCTL_SET_TIMEOUT, NOKEY, 60, 0, 0);
	S5(SYS_keyctl, KEYCTL_ASSUME_AUTHORITY, 0, 0, 0, 0);
	w[0] = 1;
	w[1] = 2;
	w[2] = -4;
	S5(SYS_keyctl, KEYCTL_DH_COMPUTE, w, page + 512, 64, 0);
	kdf[0] = (uint64_t)(uintptr_t)"sha256";
	kdf[1] = (uint64_t)(uintptr_t)(page + 128);
	kdf[2] = 7;
	S5(SYS_keyctl, KEYCTL_DH_COMPUTE, w, page + 512, 64, kdf);
	kdf[3] = 0x100000000ULL;
	S5(SYS_keyctl, KEYCTL_DH_COMPUTE, w, NULL, 0, kdf);
	S5(SYS_keyctl, KEYCTL_DH_COMPUTE, end - 8, page + 512, 64, end - 16);
	S5(SYS_keyctl, KEYCTL_RESTRICT_KEYRING, -2, page + 64, NULL, 0);
	S5(SYS_keyctl, KEYCTL_PKEY_QUERY, NOKEY, 0, page + 96, page + 512);
	S5(SYS_keyctl, KEYCTL_PKEY_QUERY, -4, 5, NULL, NULL);
	w[0] = NOKEY;
	w[1] = 5;
	w[2] = 6;
	w[3] = 0;
	for (cmd = KEYCTL_PKEY_ENCRYPT; cmd <= KEYCTL_PKEY_VERIFY; cmd++)
		S5(SYS_keyctl, cmd, w, page + 96, page + 128, page + 512);
	w[0] = -4;
	w[4] = 9;
	S5(SYS_keyctl, KEYCTL_PKEY_SIGN, w, NULL, NULL, NULL);
	S5(SYS_keyctl, KEYCTL_PKEY_VERIFY, w, "x", end - 2, end - 3);
	S5(SYS_keyctl, KEYCTL_PKEY_DECRYPT, end - 16, "x", page, page);
	S5(SYS_keyctl, KEYCTL_WATCH_KEY, NOKEY, -1, 1, 0);
	S5(SYS_keyctl, KEYCTL_CAPABILITIES, page + 512, 4, 0, 0);
	S5(SYS_keyctl, KEYCTL_CAPABILITIES, page + 512, 1, 0, 0);
	S5(SYS_keyctl, KEYCTL_CAPABILITIES, NULL, 0, 0, 0);
	S5(SYS_keyctl, KEYCTL_CAPABILITIES, end - 1, 8, 0, 0);
	S5(SYS_keyctl, KEYCTL_MOVE, NOKEY, -2, -1, 1);
	S5(SYS_keyctl, KEYCTL_MOVE, NOKEY, -2, -1, 0x80000003);
}

static void mempol(void)
{
	unsigned long *mask = (unsigned long *)(page + 64);

	mask[0] = 0x5;
	mask[1] = 0;
	S6(SYS_mbind, BASE, PG, 1 /* MPOL_PREFERRED */, mask, 64, 0x3);
	S6(SYS_mbind, BASE, PG, 2 | 0x8000, mask, 2, 0x4);
	S6(SYS_mbind, BASE, PG, 0x77, end - 4, 1000, 0xf0);
	S6(SYS_mbind, BASE, PG, 0, NULL, 0, 0);
	S3(SYS_set_mempolicy, 2 | 0x4000, mask, 3);
	S3(SYS_set_mempolicy, 5, mask, 128);
	S3(SYS_set_mempolicy, 0, NULL, 0);
	S3(SYS_set_mempolicy, 3, end - 4, 1000);
	S5(SYS_get_mempolicy, page + 32, mask, 64, BASE, 0x3);
	S5(SYS_get_mempolicy, NULL, NULL, 0, 0, 0);
	S5(SYS_get_mempolicy, end - 2, end - 4, 1000, 0, 0x10);
	S5(SYS_get_mempolicy, page + 32, mask, 64, 0, 0);
	{
		void **pages = (void **)(page + 256);
		int *nodes = (int *)(page + 512);
		int *status = (int *)(page + 640);

		pages[0] = page;
		pages[1] = page + PG;
		nodes[0] = 0;
		nodes[1] = 0;
		S6(SYS_move_pages, 0, 2, pages, NULL, status, 0);
		S6(SYS_move_pages, 0, 2, pages, nodes, status, 2);
		S6(SYS_move_pages, 0, 2, end - 8, NULL, status, 6);
		S6(SYS_move_pages, -1, 1, pages, nodes, end - 4, 0x10);
	}
	S4(SYS_set_mempolicy_home_node, BASE, PG, 0, 0);
	S4(SYS_set_mempolicy_home_node, BASE, PG, 3, 7);
	S4(SYS_migrate_pages, 0, 64, mask, mask);
	S4(SYS_migrate_pages, -1, 1000, end - 4, NULL);
}

static void mqueue(void)
{
	long *attr = (long *)(page + 256);
	uint32_t *sev = (uint32_t *)(page + 512);
	int fd;

	attr[0] = 0x800;
	attr[1] = 4;
	attr[2] = 64;
	attr[3] = 0;
	fd = (int)S4(SYS_mq_open, "/renacer-sysgaps", O_RDWR | O_CREAT | O_EXCL, 0600, attr);
	S4(SYS_mq_open, "/renacer-sysgaps-none", O_RDONLY, 0, NULL);
	S4(SYS_mq_open, end - 2, O_WRONLY | O_CREAT, 0644, end - 16);
	S4(SYS_mq_open, "/renacer-sysgaps-none", O_WRONLY | O_CREAT | 0x10000000, 0644, NULL);
	if (fd >= 0) {
		struct { long s, ns; } *ts = (void *)(page + 1024);

		ts->s = 0;
		ts->ns = 1000;
		S5(SYS_mq_timedsend, fd, "hello", 5, 3, NULL);
		S5(SYS_mq_timedsend, fd, "again", 5, 0, ts);
		S5(SYS_mq_timedreceive, fd, page + 2048, 64, page + 128, NULL);
		S5(SYS_mq_timedreceive, fd, page + 2048, 64, page + 128, ts);
		S5(SYS_mq_timedreceive, fd, page + 2048, 64, NULL, ts);
		S3(SYS_mq_getsetattr, fd, attr, page + 384);
		S3(SYS_mq_getsetattr, fd, NULL, page + 384);
		S3(SYS_mq_getsetattr, fd, end - 16, NULL);
		memset(sev, 0, 64);
		sev[0] = 0x1234;    /* sigev_value */
		sev[2] = SIGUSR1;   /* sigev_signo */
		sev[3] = 0;         /* SIGEV_SIGNAL */
		S2(SYS_mq_notify, fd, sev);
		S2(SYS_mq_notify, fd, NULL);
		sev[3] = 1;         /* SIGEV_NONE */
		S2(SYS_mq_notify, fd, sev);
		sev[3] = 4;         /* SIGEV_THREAD_ID */
		sev[4] = 1;
		S2(SYS_mq_notify, fd, sev);
		sev[3] = 2;         /* SIGEV_THREAD */
		S2(SYS_mq_notify, fd, sev);
		sev[3] = 99;
		S2(SYS_mq_notify, fd, sev);
		S2(SYS_mq_notify, fd, end - 8);
		S1(SYS_close, fd);
		S1(SYS_mq_unlink, "/renacer-sysgaps");
	}
	S5(SYS_mq_timedsend, -1, end - 2, 5, 1, end - 8);
	S5(SYS_mq_timedreceive, -1, NULL, 5, end - 2, end - 8);
}

static void fsapi(void)
{
	int i;

	S3(SYS_open_tree, AT_FDCWD, "/nonexistent", 0x1 | 0x8000 | 0x100 | 0x80000);
	S3(SYS_open_tree, -1, NULL, 0xfff);
	S5(SYS_move_mount, AT_FDCWD, "/a", -1, "/b", 0x777);
	S5(SYS_move_mount, -1, NULL, -100, end - 1, 0);
	S2(SYS_fsopen, "ext4", 0x1);
	S2(SYS_fsopen, NULL, 0x2);
	for (i = 0; i < 9; i++)
		S5(SYS_fsconfig, -1, i, "k", "v", 3);
	S5(SYS_fsconfig, -1, 4 /* BINARY */, "k", page, 16);
	S5(SYS_fsconfig, -1, 4, "k", end - 4, 16);
	S3(SYS_fsmount, -1, 1, 0x1 | 0x2 | 0x4 | 0x8 | 0x20 | 0x100000);
	S3(SYS_fsmount, -1, 0xff, 0xffffffff);
	S3(SYS_fspick, -1, "", 0xf);
	S3(SYS_fspick, AT_FDCWD, NULL, 0x10);
	{
		uint64_t *a = (uint64_t *)(page + 256);

		a[0] = 0x1 | 0x2 | 0x100000;   /* attr_set */
		a[1] = 0x8 | 0x70;             /* attr_clr */
		a[2] = 0x100000;               /* propagation MS_PRIVATE */
		a[3] = 5;                      /* userns_fd */
		S5(SYS_mount_setattr, AT_FDCWD, "/nonexistent", 0x1 | 0x8000, a, 32);
		a[0] = 0xff000000;
		a[2] = 0x12345;
		S5(SYS_mount_setattr, -1, "", 0x1000, a, 40);
		S5(SYS_mount_setattr, -1, "", 0, NULL, 32);
	}
}

static void fanot(void)
{
	S2(SYS_fanotify_init, 0x8 | 0x200 | 0x400 | 0x800, O_RDWR | O_CLOEXEC | O_NOATIME);
	S2(SYS_fanotify_init, 0xffffffff, 0xffffffff);
	S2(SYS_fanotify_init, 0x4, O_RDONLY);
	S5(SYS_fanotify_mark, -1, 0x1 | 0x10 | 0x100, 0x3f | 0x4000000 | 0x40000000, -100, "/tmp");
	S5(SYS_fanotify_mark, -1, 0x2 | 0x20 | 0x200, 0x1000 | 0x80000 | 0x8000000, -1, NULL);
	S5(SYS_fanotify_mark, -1, 0x4 | 0x40, 0x100000000ULL, 5, end - 2);
	S5(SYS_fanotify_mark, -1, 0x80 | 0x400, 0x00010000 | 0x00020000 | 0x00040000, 3, "x");
	S5(SYS_fanotify_mark, -1, 0xffffffff, ~0ULL, 3, "x");
}

static void admin(void)
{
	/* (nothing that reads the kernel's log, which other programs write
	 * between the two runs, waits for it, or changes the console's level) */
	S3(SYS_syslog, 3, page, 0);
	S3(SYS_syslog, 10, NULL, 0);
	S3(SYS_syslog, 8, NULL, 99);
	S3(SYS_syslog, 99, NULL, -1);
	S3(SYS_syslog, 2, NULL, 100);
	S1(SYS_personality, 0xffffffff);
	S1(SYS_personality, 0x0400000 | 0x0040000);
	S1(SYS_personality, 0x0008 | 0x0800000);
	S1(SYS_personality, 0x1234);
	S1(SYS_personality, 0xffff0000);
	S4(SYS_kexec_load, 0, 0, NULL, 0);
	{
		uint64_t *seg = (uint64_t *)(page + 256);

		seg[0] = BASE;
		seg[1] = 16;
		seg[2] = 0x100000;
		seg[3] = PG;
		S4(SYS_kexec_load, 0x1000000, 1, seg, 0x1 | 0x2 | (62 << 16));
		S4(SYS_kexec_load, 0x1000000, 2, end - 8, 0x3e0000);
		S4(SYS_kexec_load, 0, 100000, seg, 0xff);
	}
	S5(SYS_kexec_file_load, -1, -1, 5, "cmd", 0x1 | 0x2 | 0x4);
	S5(SYS_kexec_file_load, 3, 4, 0, NULL, 0xf0);
	S5(SYS_kexec_file_load, 3, 4, 10, end - 2, 0);
	/* quotactl: QCMD(cmd, type) = cmd << 8 | type */
	{
		static const unsigned cmds[] = {
			0x800001, 0x800002, 0x800003, 0x800004, 0x800005,
			0x800006, 0x800007, 0x800008, 0x800009,
			0x5801, 0x5802, 0x5803, 0x5804, 0x5805, 0x5806,
			0x5807, 0x5808, 0x5809, 0x580a, 0x5815,
		};
		unsigned i, t;

		for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			for (t = 0; t < 3; t++)
				S4(SYS_quotactl, cmds[i] << 8 | t, "/nonexistent", 1000, page + 1024);
		S4(SYS_quotactl, 0x800008 << 8, "/dev/null", 0, end - 8);
		S4(SYS_quotactl, 0x5803 << 8 | 1, NULL, 0, end - 8);
		S4(SYS_quotactl, 0x5802 << 8, "/dev/null", 0, page + 1024);
	}
	S5(SYS_remap_file_pages, BASE, PG, 0, 1, 0x10000);
	S5(SYS_remap_file_pages, BASE, PG, 3, 0, 0);
}

static void misc(void)
{
	S2(SYS_memfd_create, "gap", 0x1 | 0x2 | 0x4 | 0x8 | 0x10);
	S2(SYS_memfd_create, "gap2", 0x4 | (21 << 26));
	S2(SYS_memfd_create, "gap3", 0x4 | (30 << 26));
	S2(SYS_memfd_create, end - 2, 0xffffffff);
	S2(SYS_memfd_create, NULL, 0);
	S1(SYS_memfd_secret, 0x80000);
	S1(SYS_memfd_secret, 0xffffffff);
	S2(SYS_arch_prctl, 0x1001, 0x1234);
	S2(SYS_arch_prctl, 0x1003, page);
	S2(SYS_arch_prctl, 0x1004, end - 4);
	S2(SYS_arch_prctl, 0x1011, page);
	S2(SYS_arch_prctl, 0x1012, 0);
	S2(SYS_arch_prctl, 0x2001, 1);
	S2(SYS_arch_prctl, 0x2002, 0);
	S2(SYS_arch_prctl, 0x3001, page);
	S2(SYS_arch_prctl, 0x4001, 0);
	S2(SYS_arch_prctl, 0x4022, page);
	S2(SYS_arch_prctl, 0x7777, 0);
	S3(SYS_membarrier, 0, 0, 0);
	S3(SYS_membarrier, 0x80, 0x1, 3);
	S3(SYS_membarrier, 0x7777, 0x7, 0);
	S5(SYS_kcmp, 0, 0, 0, 3, 4);
	S5(SYS_kcmp, 0, 0, 7, page, 0);
	S5(SYS_kcmp, 0, 0, 5, 0, 0);
	S1(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | 1);
	S1(SYS_userfaultfd, 0xff);
	S3(SYS_process_madvise, -1, page, 1);
	S5(SYS_process_madvise, -1, NULL, 0, 8, 0);
	S5(SYS_process_madvise, -1, end - 8, 1, 0x77, 1);
	S2(SYS_process_mrelease, 3, 5);
	S2(SYS_pidfd_open, 0, 0x800);
	S2(SYS_pidfd_open, 0, 0xffffffff);
	S3(SYS_pidfd_getfd, -1, 3, 0);
	S3(SYS_pidfd_getfd, -1, 3, 7);
	S4(SYS_pidfd_send_signal, -1, SIGUSR1, NULL, 0);
	S4(SYS_pidfd_send_signal, -1, 0, end - 8, 1);
}

/* mq_* on a descriptor that is no queue: the arguments still decode */
static void mqbad(void)
{
	long *attr = (long *)(page + 256);
	uint32_t *sev = (uint32_t *)(page + 512);
	struct { long s, ns; } *ts = (void *)(page + 1024);

	attr[0] = 0x800;
	attr[1] = 4;
	attr[2] = 64;
	attr[3] = 1;
	ts->s = 1;
	ts->ns = 1000;
	S5(SYS_mq_timedsend, -1, "hello", 5, 3, ts);
	S5(SYS_mq_timedreceive, -1, page + 2048, 64, page + 128, ts);
	S3(SYS_mq_getsetattr, -1, attr, page + 384);
	S3(SYS_mq_getsetattr, -1, end - 16, NULL);
	memset(sev, 0, 64);
	sev[0] = 0x1234;
	sev[2] = SIGUSR1;
	sev[3] = 0;
	S2(SYS_mq_notify, -1, sev);
	S2(SYS_mq_notify, -1, NULL);
	sev[3] = 1;
	S2(SYS_mq_notify, -1, sev);
	sev[3] = 4;
	sev[4] = 1;
	S2(SYS_mq_notify, -1, sev);
	sev[3] = 2;
	sev[4] = 0x5f000400;
	sev[6] = 0x5f000800;
	S2(SYS_mq_notify, -1, sev);
	sev[3] = 99;
	S2(SYS_mq_notify, -1, sev);
	S2(SYS_mq_notify, -1, end - 8);
}

static void more(void)
{
	uint32_t *sa = (uint32_t *)(page + 256);
	uint64_t *ca = (uint64_t *)(page + 512);
	unsigned long *fds = (unsigned long *)(page + 1024);
	struct { long s, ns; } *ts = (void *)(page + 1536);

	/* sched_setattr/getattr */
	memset(sa, 0, 64);
	sa[0] = 48;
	sa[1] = 6;          /* SCHED_DEADLINE */
	((uint64_t *)sa)[1] = 0x5;
	((uint64_t *)sa)[2] = 1000;
	((uint64_t *)sa)[3] = 2000;
	((uint64_t *)sa)[4] = 3000;
	S3(SYS_sched_setattr, 0, sa, 0);
	sa[1] = 0;
	sa[4] = 5;
	((uint64_t *)sa)[1] = 0;
	S3(SYS_sched_setattr, 0, sa, 0x1);
	sa[0] = 56;
	S3(SYS_sched_setattr, -1, sa, 0);
	sa[2] = 0x8;        /* SCHED_FLAG_KEEP_POLICY */
	S3(SYS_sched_setattr, -1, sa, 0);
	sa[2] = 0x10 | 0x60;        /* KEEP_PARAMS, UTIL_CLAMP_MIN/MAX */
	S3(SYS_sched_setattr, -1, sa, 0);
	sa[2] = 0xff;
	S3(SYS_sched_setattr, -1, sa, 0);
	sa[2] = 0;
	S3(SYS_sched_setattr, 0, end - 8, 0);
	S4(SYS_sched_getattr, 0, sa, 56, 0);
	S4(SYS_sched_getattr, 0, sa, 48, 1);
	S4(SYS_sched_getattr, 0, sa, 8, 0);
	S4(SYS_sched_getattr, 0, end - 8, 48, 0);
	/* select / pselect6 */
	fds[0] = 0x7;
	fds[1] = 0;
	S5(SYS_select, 3, fds, NULL, NULL, NULL);
	ts->s = 0;
	ts->ns = 0;
	S5(SYS_select, 70, fds, fds, NULL, ts);
	S5(SYS_select, -1, fds, NULL, NULL, NULL);
	S5(SYS_select, 1025, end - 8, NULL, NULL, NULL);
	S6(SYS_pselect6, 3, fds, NULL, NULL, ts, NULL);
	ca[0] = 0;
	ca[1] = 8;
	S6(SYS_pselect6, 3, fds, NULL, fds, ts, ca);
	S6(SYS_pselect6, 3, NULL, NULL, NULL, end - 8, end - 8);
	/* waitid */
	S5(SYS_waitid, 0 /* P_ALL */, 0, page + 2048, 4 /* WEXITED */ | 1 /* WNOHANG */, NULL);
	S5(SYS_waitid, 1, 1, page + 2048, 0x7, page + 3072);
	S5(SYS_waitid, 3 /* P_PIDFD */, -1, NULL, 0x1000000 | 4, NULL);
	S5(SYS_waitid, 99, 0, end - 8, 0, end - 8);
	/* clone3 with bad sizes and fields (all fail) */
	memset(ca, 0, 88);
	ca[0] = 0x10000;        /* CLONE_THREAD without CLONE_SIGHAND: EINVAL */
	ca[4] = SIGCHLD;
	S2(SYS_clone3, ca, 8);
	S2(SYS_clone3, ca, 88 + 8);
	S2(SYS_clone3, NULL, 64);
	S2(SYS_clone3, end - 8, 64);
	ca[0] = ~0ULL;
	S2(SYS_clone3, ca, 64);
	/* bytes past the clone_args strace 6.1 knows: set (E2BIG), or
	 * running into the unmapped page (EFAULT) */
	memset(ca, 0, 104);
	ca[4] = SIGCHLD;
	ca[11] = 5;
	S2(SYS_clone3, ca, 96);
	memset(end - 96, 0, 96);
	((uint64_t *)(end - 96))[4] = SIGCHLD;
	S2(SYS_clone3, end - 96, 128);
	/* statx */
	S5(SYS_statx, AT_FDCWD, "/nonexistent", 0x100 | 0x2000, 0xfff, page + 2048);
	S5(SYS_statx, -1, NULL, 0x6000, 0x80000000, NULL);
	S5(SYS_statx, AT_FDCWD, "/", 0, 0x7ff, page + 2048);
	/* epoll_pwait2, futex_waitv */
	S6(SYS_epoll_pwait2, -1, page, 4, ts, NULL, 8);
	S6(SYS_epoll_pwait2, -1, page, 4, end - 8, page, 8);
	{
		uint64_t *wv = (uint64_t *)(page + 3072);

		wv[0] = 1;
		wv[1] = BASE;
		wv[2] = 0x2 | 0x80;   /* FUTEX_32 | FUTEX_PRIVATE_FLAG */
		wv[3] = 0;
		S5(SYS_futex_waitv, wv, 1, 0, ts, 1);
		S5(SYS_futex_waitv, wv, 1, 1, NULL, 0);
	}
	/* rseq, membarrier, memfd */
	S4(SYS_rseq, page + 64, 32, 0, 0x53053053);
	S4(SYS_rseq, page + 64, 20, 1, 0);
	/* perf_event_open */
	{
		uint32_t *pa = (uint32_t *)(page + 3072);

		memset(pa, 0, 128);
		pa[0] = 2;      /* PERF_TYPE_TRACEPOINT */
		pa[1] = 128;
		((uint64_t *)pa)[1] = 1;
		((uint64_t *)pa)[3] = 0x7;   /* sample_type */
		((uint64_t *)pa)[5] = 0x3;   /* bits */
		S5(SYS_perf_event_open, pa, -1, 0, -1, 0);
		/* every byte set (reserved bits too: EINVAL), a size past
		 * what strace 6.1 knows */
		for (unsigned t = 0; t < 6; t++) {
			for (unsigned i = 0; i < 136; i++)
				((unsigned char *)pa)[i] = (unsigned char)(i * 13 + t);
			pa[0] = t;
			pa[1] = 136;
			S5(SYS_perf_event_open, pa, -1, 0, -1, 0xf);
		}
		/* an extended type in config's upper half (a hybrid PMU) */
		memset(pa, 0, 136);
		pa[1] = 128;
		((uint64_t *)pa)[1] = 0x100000001ULL;
		S5(SYS_perf_event_open, pa, -1, 0, -1, 0);
		pa[0] = 3;
		((uint64_t *)pa)[1] = 0x107010203ULL;
		S5(SYS_perf_event_open, pa, -1, 0, -1, 0);
	}
	/* landlock */
	{
		uint64_t *ra = (uint64_t *)(page + 3200);

		ra[0] = 0x1fff;
		S3(SYS_landlock_create_ruleset, ra, 8, 0);
		S3(SYS_landlock_create_ruleset, NULL, 0, 1);
		ra[0] = 0x3;
		((int32_t *)ra)[2] = 5;
		S4(SYS_landlock_add_rule, -1, 1, ra, 0);
	}
	/* name_to_handle_at / open_by_handle_at */
	{
		uint32_t *fh = (uint32_t *)(page + 3300);

		fh[0] = 8;
		fh[1] = 1;
		S5(SYS_name_to_handle_at, AT_FDCWD, "/", fh, page + 3400, 0x400);
		S5(SYS_name_to_handle_at, AT_FDCWD, "/", fh, page + 3400, 0x1000);
		fh[0] = 8;
		S3(SYS_open_by_handle_at, -1, fh, O_RDONLY);
	}
}

/* socket()'s protocol for every family strace 6.1 names protocols of (the
 * socket type is invalid: nothing is created) */
static void proto(void)
{
	static const int fams[] = { 3 /* AX25 */, 17 /* PACKET */, 23 /* IRDA */,
		29 /* CAN */, 31 /* BLUETOOTH */, 33 /* RXRPC */, 34 /* ISDN */,
		35 /* PHONET */, 37 /* CAIF */, 39 /* NFC */, 41 /* KCM */, 43 /* SMC */ };
	static const unsigned eth[] = { 0x0600, 0x0a00, 0x08ff, 0x6000, 0x8892, 0x88a4,
		0x88b5, 0x88f7, 0x9000, 0x9100, 0x9200, 0x9300, 0xdada, 0xfbfb, 0xffff };

	for (unsigned f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		for (int p = 0; p < 48; p++)
			S3(SYS_socket, fams[f], 0x7f, p);
		S3(SYS_socket, fams[f], 0x7f, 0xcc);
		S3(SYS_socket, fams[f], 0x7f, 300);
	}
	for (unsigned e = 0; e < sizeof(eth) / sizeof(eth[0]); e++)
		S3(SYS_socket, 17, 0x7f, (eth[e] >> 8) | (eth[e] & 0xff) << 8);
}

/* getsockopt/setsockopt option names of every level strace 6.1 knows
 * (on no descriptor: EBADF) */
static void sockopts(void)
{
	static const int levels[] = { 0, 41, 101, 132 };

	for (int l = -4; l <= 286 - 256; l++) {
		int level = l < 0 ? levels[l + 4] : 256 + l;

		for (int o = 0; o < 136; o++) {
			S5(SYS_getsockopt, -1, level, o, NULL, NULL);
			S5(SYS_setsockopt, -1, level, o, NULL, 0);
		}
	}
}

/* Flag and command values past what strace 6.1 names, and names it gives
 * where the kernel's headers would not */
static void bits(void)
{
	uint64_t *how = (uint64_t *)(page + 256);

	for (int i = 0; i <= 0x20; i++)
		S1(SYS_personality, i);
	S1(SYS_personality, 0x04100001);
	S1(SYS_personality, 0);
	for (int i = 1030; i < 1040; i++)
		S3(SYS_fcntl, -1, i, 0);
	for (int i = 11; i < 16; i++)
		S3(SYS_fcntl, -1, i, page);
	for (int i = 0; i < 32; i += 3)
		S1(SYS_memfd_secret, 1u << i);
	/* negative si_codes (pid -1: no process gets anything) */
	for (int i = 0; i < 8; i++) {
		int *si = (int *)(page + 1024);

		memset(si, 0, 128);
		si[0] = 9 + i;
		si[2] = i - 7;
		S3(SYS_rt_sigqueueinfo, -1, SIGUSR1, si);
	}
	S6(SYS_mmap, 0, 0, 0, 0x80, -1, 0);
	S6(SYS_mmap, 0, 0, 0, 0x81, -1, 0);
	S6(SYS_mmap, 0, 0, 0, 0x80 | (21 << 26), -1, 0);
	S5(SYS_statx, -1, "", 0x80, 0, NULL);
	S5(SYS_statx, -1, "", 0x2180, 0, NULL);
	S4(SYS_openat, -1, "", 0x400000, 0644);
	S4(SYS_openat, -1, "", 0x410002, 0644);
	how[0] = 0x400000;
	how[1] = 0;
	how[2] = 0;
	S4(SYS_openat2, -1, "", how, 24);
	S3(SYS_fcntl, -1, 4 /* F_SETFL */, 0x400000);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } sections[] = {
		{ "uring", uring }, { "keys", keys }, { "mempol", mempol },
		{ "mqueue", mqueue }, { "fsapi", fsapi }, { "fanot", fanot },
		{ "admin", admin }, { "misc", misc }, { "mqbad", mqbad },
		{ "more", more }, { "proto", proto }, { "bits", bits },
		{ "sockopts", sockopts },
	};
	void *m;

	m = mmap((void *)BASE, 3 * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m != (void *)BASE) {
		fprintf(stderr, "sysgaps: cannot map %#lx\n", BASE);
		return 2;
	}
	page = m;
	end = page + 2 * PG;
	munmap(end, PG);
	syscall(SYS_sched_yield);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (argc > 1 && !strcmp(argv[1], sections[i].name)) {
			sections[i].fn();
			return 0;
		}
	fprintf(stderr, "usage: sysgaps SECTION\n");
	return 2;
}
