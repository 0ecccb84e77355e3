/*
 * Makes the memory syscalls renacer decodes (mmap with every kind of flag,
 * munmap, mprotect, brk, mremap, madvise, msync, mlock*, mincore), with
 * successes and failures.  Prints nothing, exits 0.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

/* NUMA memory policy calls: modes with and without mode flags, unknown
 * modes, node masks of one and several words and past the string limit,
 * failures (bad pointers, bad flags).  Every mask is fully initialised. */
static void numa(void)
{
	unsigned long mask[80] = { 0 }, one[2] = { 1, 0 }, two[2] = { 5, 3 };
	int mode;
	long pg = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	syscall(SYS_get_mempolicy, &mode, mask, 1025UL, NULL, 0UL);
	syscall(SYS_set_mempolicy, 2 /* MPOL_BIND */, one, 64UL);
	syscall(SYS_get_mempolicy, &mode, mask, 64UL, NULL, 0UL);
	syscall(SYS_set_mempolicy, 1 | (1 << 15) /* MPOL_PREFERRED|STATIC */, one, 2UL);
	syscall(SYS_set_mempolicy, 2 | (1 << 13), one, 64UL);
	syscall(SYS_set_mempolicy, 2 | (1 << 15) | (1 << 14), one, 64UL);
	syscall(SYS_set_mempolicy, 6, one, 64UL);
	syscall(SYS_set_mempolicy, 6 | (1 << 15), one, 64UL);
	syscall(SYS_set_mempolicy, (1 << 13) | (1 << 12), one, 64UL);
	syscall(SYS_set_mempolicy, -1, one, 64UL);
	syscall(SYS_set_mempolicy, 3 /* MPOL_INTERLEAVE */, two, 128UL);
	syscall(SYS_set_mempolicy, 3, (void *)8, 128UL);
	syscall(SYS_set_mempolicy, 2, mask, 64UL * 80);    /* 80 words: cut */
	syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0UL);
	syscall(SYS_get_mempolicy, &mode, NULL, 0UL, NULL, 0UL);
	syscall(SYS_get_mempolicy, (void *)8, mask, 64UL, NULL, 0UL);
	syscall(SYS_get_mempolicy, &mode, mask, 64UL, NULL, 0x40UL);
	syscall(SYS_get_mempolicy, &mode, NULL, 0UL, NULL, 4UL /* MEMS_ALLOWED */);
	if (p != MAP_FAILED) {
		syscall(SYS_mbind, p, (unsigned long)pg, 2, one, 64UL, 3UL /* STRICT|MOVE */);
		syscall(SYS_mbind, p, (unsigned long)pg, 77, one, 64UL, 0UL);
		syscall(SYS_mbind, NULL, (unsigned long)pg, 2, one, 64UL, 0xffUL);
		syscall(SYS_get_mempolicy, &mode, mask, 64UL, p, 2UL /* ADDR */);
		syscall(SYS_get_mempolicy, &mode, mask, 64UL, p, 3UL /* NODE|ADDR */);
		munmap(p, (size_t)pg);
	}
	syscall(SYS_migrate_pages, 0, 64UL, one, one);
	syscall(SYS_migrate_pages, 0, 128UL, two, (void *)8);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char vec[8];
	char *p, *q, *r;
	int fd;

	p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(p, pg, PROT_NONE);
	mprotect(p, pg, PROT_READ | PROT_EXEC);
	mprotect(p, pg, PROT_READ | 0x100);
	mprotect(p + 1, pg, PROT_READ);
	madvise(p, pg, MADV_DONTNEED);
	madvise(p, pg, MADV_WILLNEED);
	madvise(p, pg, MADV_HUGEPAGE);
	madvise(p, pg, 12345);
	msync(p, pg, MS_SYNC | MS_INVALIDATE);
	msync(p, pg, MS_ASYNC);
	mlock(p, pg);
	munlock(p, pg);
	mlockall(MCL_CURRENT | MCL_FUTURE);
	munlockall();
	syscall(SYS_mlock2, p, pg, MLOCK_ONFAULT);
	munlock(p, pg);
	mincore(p + 2 * pg, 2 * pg, vec);
	mincore(p + 1, pg, vec);
	munmap(p, 4 * pg);
	q = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	q = mremap(q, 2 * pg, 8 * pg, MREMAP_MAYMOVE);
	q = mremap(q, 8 * pg, 2 * pg, 0);
	/* targets of MREMAP_FIXED inside a reserved range */
	r = mmap(NULL, 16 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mremap(q, pg, pg, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, r);
	mremap(q, 2 * pg, 4 * pg, MREMAP_MAYMOVE | MREMAP_FIXED, r + 8 * pg);
	munmap(q + 1, pg);
	munmap(r, 16 * pg);

	fd = open("/proc/self/exe", O_RDONLY);
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	munmap(p, pg);
	p = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, fd, pg);
	munmap(p, pg);
	mmap(NULL, pg, PROT_READ, MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	mmap(NULL, pg, PROT_READ, MAP_PRIVATE, 99, 0);
	close(fd);
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_GROWSDOWN | MAP_32BIT, -1, 0);
	munmap(p, pg);
	mmap((void *)0x10000, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE |
	     MAP_HUGETLB | (21 << MAP_HUGE_SHIFT), -1, 0);
	mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | (30U << MAP_HUGE_SHIFT), -1, 0);
	mmap(NULL, pg, 0x100, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mmap(NULL, pg, PROT_READ, 0xf, -1, 0);
	mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p = sbrk(0);
	brk(p + 2 * pg);
	brk(p);
	syscall(SYS_brk, 0);
	numa();
	return 0;
}
