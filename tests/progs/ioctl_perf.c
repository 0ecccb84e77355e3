/* perf_event ioctls ('$') with filled, short and bad arguments on a bad
 * descriptor, for tests/t/decode_ioctl_perf.sh. */
#include <linux/perf_event.h>

#include "ioctl_test.h"

int main(void)
{
	struct perf_event_query_bpf *q = tail_alloc(sizeof(*q) + 3 * sizeof(uint32_t));
	struct perf_event_attr *attr = TAIL(struct perf_event_attr);
	uint64_t *p64 = TAIL(uint64_t);
	char *filter = tail_alloc(8);

	IOC(PERF_EVENT_IOC_ENABLE, 0);
	IOC(PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	IOC(PERF_EVENT_IOC_RESET, 0x10);
	IOC(PERF_EVENT_IOC_REFRESH, -1);
	*p64 = 123456;
	IOC(PERF_EVENT_IOC_PERIOD, p64);
	IOC(PERF_EVENT_IOC_SET_OUTPUT, 0);
	IOC(PERF_EVENT_IOC_SET_BPF, 0xffffffffUL);
	IOC(PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	memcpy(filter, "tid == 1", 8);
	IOC(PERF_EVENT_IOC_SET_FILTER, filter);
	IOC(PERF_EVENT_IOC_SET_FILTER, "x");
	IOC(PERF_EVENT_IOC_ID, p64);
	IOC(PERF_EVENT_IOC_ID, NULL);
	q->ids_len = 3;
	q->prog_cnt = 2;
	q->ids[0] = 7;
	q->ids[1] = 8;
	IOC(PERF_EVENT_IOC_QUERY_BPF, q);
	IOC(PERF_EVENT_IOC_QUERY_BPF, NULL);
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = PERF_COUNT_SW_TASK_CLOCK;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->precise_ip = 2;
	IOC(PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr);
	IOC(PERF_EVENT_IOC_MODIFY_ATTRIBUTES, (char *)attr + 64);
	return 0;
}
