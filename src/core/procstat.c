/* Scheduler statistics of a task (see procstat.h). */
#include "core/procstat.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/banned.h"

int proc_schedstat(pid_t tid, uint64_t *run_ns, uint64_t *wait_ns)
{
	char path[64];
	FILE *f;
	int n;

	*run_ns = *wait_ns = 0;
	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/schedstat");
	if (!(f = fopen(path, "re")))
		return -1;
	n = fscanf(f, "%" SCNu64 " %" SCNu64, run_ns, wait_ns);
	fclose(f);
	if (n != 2) {
		*run_ns = *wait_ns = 0;
		return -1;
	}
	return 0;
}

int proc_schedstat_open(void)
{
	return open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

int proc_schedstat_fd(int fd, uint64_t *run_ns, uint64_t *wait_ns)
{
	char buf[128], *end;
	ssize_t n;

	*run_ns = *wait_ns = 0;
	if (fd < 0 || (n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return -1;
	buf[n] = '\0';
	*run_ns = strtoull(buf, &end, 10);
	*wait_ns = strtoull(end, NULL, 10);
	return 0;
}
