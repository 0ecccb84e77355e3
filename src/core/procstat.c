/* Scheduler statistics of a task (see procstat.h). */
#include "core/procstat.h"

#include <inttypes.h>
#include <stdio.h>

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
