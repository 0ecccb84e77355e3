/*
 * Shared by the ioctl test programs (tests/progs/ioctl_*.c): memory that
 * ends at an unmapped page (a structure read one byte short fails, as
 * strace's tests' tail_alloc), filled with bytes that differ field to field.
 */
#ifndef IOCTL_TEST_H
#define IOCTL_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* size bytes that end where an inaccessible page begins. */
static inline void *tail_alloc(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (size + page - 1) / page * page;
	char *p = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		_exit(77);
	munmap(p + len, page);
	return p + len - size;
}

/* Fills n bytes with seed, seed + 1, ... */
static inline void fill(void *p, size_t n, unsigned seed)
{
	unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seed + i);
}

/* A typed object at the end of its page: TAIL(struct foo) */
#define TAIL(type) ((type *)tail_alloc(sizeof(type)))

/* An address no mapping has. */
#define BAD_PTR ((void *)(uintptr_t)0xfffffffffffff000ULL)

/* A request on a bad descriptor: fails with EBADF (or the injected result). */
#define IOC(req, arg) ioctl(-1, (unsigned long)(req), (arg))

#endif
