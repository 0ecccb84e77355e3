/*
 * Lookups over the generated syscall table (build/gen/sysent.c): by number,
 * by name (a sorted index built once), class names, names of unknown numbers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysent.h"
#include "util/xmalloc.h"
#include "util/banned.h"

const struct sysent *sysent_get(long nr)
{
	if (nr < 0 || (unsigned long)nr >= sysent_count || !sysent_table[nr].name)
		return NULL;
	return &sysent_table[nr];
}

void sysent_kernel_args(const struct sysent *se, const uint64_t raw[6], uint64_t karg[6])
{
	for (unsigned i = 0; i < 6; i++) {
		unsigned bits = se ? arg_type_bits(se->argtype[i]) : 64;

		karg[i] = bits == 64 ? raw[i] : raw[i] & ((UINT64_C(1) << bits) - 1);
	}
}

static unsigned *name_index;    /* row numbers sorted by name */
static unsigned name_index_len;
static pthread_once_t name_index_once = PTHREAD_ONCE_INIT;

static int cmp_rows(const void *a, const void *b)
{
	return strcmp(sysent_table[*(const unsigned *)a].name,
		      sysent_table[*(const unsigned *)b].name);
}

static void build_name_index(void)
{
	name_index = xcalloc(sysent_count ? sysent_count : 1, sizeof(*name_index));
	for (unsigned i = 0; i < sysent_count; i++)
		if (sysent_table[i].name)
			name_index[name_index_len++] = i;
	QSORT(name_index, name_index_len, cmp_rows);
}

const char *fd_kind_name(int kind)
{
	static const char *const names[FDK_NKINDS] = {
		"unknown", "file", "dir", "device", "tty", "pipe", "socket", "eventfd",
		"timerfd", "signalfd", "epoll", "inotify", "pidfd", "anon",
	};
	return kind >= 0 && kind < FDK_NKINDS ? names[kind] : "unknown";
}

long sysent_lookup(const char *name)
{
	if (!name)
		return -1;
	pthread_once(&name_index_once, build_name_index);
	unsigned lo = 0, hi = name_index_len;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		int c = strcmp(name, sysent_table[name_index[mid]].name);
		if (c == 0)
			return name_index[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* strace 6.1's lookup_class(), less "all" (which the filter handles). */
static const struct {
	const char *name;
	uint32_t bit;
} classes[] = {
	{ "%desc", TRACE_DESC },
	{ "%file", TRACE_FILE },
	{ "%memory", TRACE_MEMORY },
	{ "%process", TRACE_PROCESS },
	{ "%signal", TRACE_SIGNAL },
	{ "%ipc", TRACE_IPC },
	{ "%net", TRACE_NETWORK },
	{ "%network", TRACE_NETWORK },
	{ "%stat", TRACE_STAT },
	{ "%lstat", TRACE_LSTAT },
	{ "%fstat", TRACE_FSTAT },
	{ "%%stat", TRACE_STAT_LIKE },
	{ "%statfs", TRACE_STATFS },
	{ "%fstatfs", TRACE_FSTATFS },
	{ "%%statfs", TRACE_STATFS_LIKE },
	{ "%pure", TRACE_PURE },
	{ "%creds", TRACE_CREDS },
	{ "%clock", TRACE_CLOCK },
	/* legacy names */
	{ "desc", TRACE_DESC },
	{ "file", TRACE_FILE },
	{ "memory", TRACE_MEMORY },
	{ "process", TRACE_PROCESS },
	{ "signal", TRACE_SIGNAL },
	{ "ipc", TRACE_IPC },
	{ "network", TRACE_NETWORK },
};

uint32_t sysent_class_by_name(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(name, classes[i].name))
			return classes[i].bit;
	return 0;
}

const char *sysent_name(long nr, char buf[32])
{
	const struct sysent *se = sysent_get(nr);
	if (se)
		return se->name;
	snprintf(buf, 32, "syscall_0x%lx", (unsigned long)nr);
	return buf;
}
