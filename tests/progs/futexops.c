/*
 * Makes futex(2) calls with every operation renacer names, each with a
 * deterministic outcome (no other thread: waits fail with EAGAIN or time
 * out, wakes wake nobody, PI locks are taken and released), and bad ones.
 * Prints nothing, exits 0.
 */
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

static long fx(uint32_t *u, int op, uint32_t val, const void *t, uint32_t *u2, uint32_t v3)
{
	return syscall(SYS_futex, u, op, val, t, u2, v3);
}

int main(void)
{
	static uint32_t f = 1, g = 0;
	/* a fixed absolute time (in the past: the call fails at once on the
	 * value anyway), so strace's and renacer's runs print the same line */
	struct timespec ts = { 0, 1000 }, abs = { 1, 234567 };

	fx(&f, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	fx(&f, FUTEX_WAIT, 1, &ts, NULL, 0);
	fx(&f, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, &ts, NULL, 0);
	fx(&f, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	fx(&f, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
	fx(&f, FUTEX_WAIT_BITSET_PRIVATE, 0, &abs, NULL, FUTEX_BITSET_MATCH_ANY);
	fx(&f, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 7, NULL, NULL, 0x3);
	fx(&f, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, FUTEX_BITSET_MATCH_ANY);
	fx(&f, FUTEX_WAKE_BITSET, 1, NULL, NULL, 0x10);
	fx(&f, FUTEX_REQUEUE_PRIVATE, 1, (void *)2, &g, 0);
	fx(&f, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2, &g, 1);
	fx(&f, FUTEX_CMP_REQUEUE, 1, (void *)2, &g, 5);
	fx(&f, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &g,
	   FUTEX_OP(FUTEX_OP_SET, 1, FUTEX_OP_CMP_GT, 0));
	fx(&f, FUTEX_WAKE_OP, 1, (void *)1, &g,
	   FUTEX_OP((FUTEX_OP_ADD | FUTEX_OP_OPARG_SHIFT), 3, FUTEX_OP_CMP_EQ, 7));
	fx(&f, FUTEX_WAKE_OP, 1, (void *)1, &g, (7U << 28) | (9U << 24));
	f = 0;
	fx(&f, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	fx(&f, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	fx(&f, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0);
	fx(&f, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	fx(&f, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 77, NULL, &g, 0);
	fx(&f, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, (void *)1, &g, 0);
	fx(&f, FUTEX_LOCK_PI2_PRIVATE, 0, &ts, NULL, 0);
	fx(&f, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	fx(&f, 99, 1, NULL, NULL, 0);
	fx(&f, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0);
	fx(NULL, FUTEX_FD, 1, NULL, NULL, 0);
	fx((uint32_t *)8, FUTEX_WAIT, 0, (void *)16, NULL, 0);
	return 0;
}
