/* perf_event ioctls ('$', linux/perf_event.h). */
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "sys/ioc.h"
#include "xlat/perf_ioctl_flags.h"

#include "util/banned.h"

static void u32_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint32_t x;

	memcpy(&x, elem, sizeof(x));
	val_set_uint(item, NULL, x);
}

/* {ids_len=N, at entry; prog_cnt=N, ids=[...]} at exit, "..." when the
 * call failed */
static int query_bpf(struct ioc *io)
{
	struct dctx *c = io->c;
	uint32_t x;
	struct val *v, *f;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &x, sizeof(x)))
			return IOC_DONE;
		f = val_new_array(c, 3);
		val_set_uint(&f[0], "ids_len", x);
		val_set_struct(v, v->name, f, 1, false);
		v->flags |= VF_OPEN;
		return IOC_EXIT;
	}
	v = ioc_reopen(io);
	if (!v)
		return IOC_DONE;
	f = v->c.items;
	if (io->ev->err ||
	    !tread(c, io->arg + offsetof(struct perf_event_query_bpf, prog_cnt), &x, sizeof(x))) {
		v->flags |= VF_MORE;
		return IOC_DONE;
	}
	val_set_uint(&f[1], "prog_cnt", x);
	decode_array(c, &f[2], "ids", io->arg + offsetof(struct perf_event_query_bpf, ids), x,
		     sizeof(uint32_t), u32_elem, NULL);
	v->c.n = 3;
	return IOC_DONE;
}

int ioctl_perf(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case PERF_EVENT_IOC_ENABLE: case PERF_EVENT_IOC_DISABLE: case PERF_EVENT_IOC_RESET:
		v = ioc_val(io);
		val_set_flags(v, v->name, (unsigned int)io->arg, perf_ioctl_flags, NULL);
		return IOC_DONE;
	case PERF_EVENT_IOC_REFRESH:
		v = ioc_val(io);
		val_set_int(v, v->name, (int)io->arg);
		return IOC_DONE;
	case PERF_EVENT_IOC_PERIOD:
		return ioc_arg_num(io, 8, NUM_U);
	case PERF_EVENT_IOC_SET_OUTPUT: case PERF_EVENT_IOC_SET_BPF:
		v = ioc_val(io);
		val_set_fd(io->c, v, v->name, (int)io->arg);
		return IOC_DONE;
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		return ioc_arg_val(io, NUM_U);
	case PERF_EVENT_IOC_SET_FILTER:
		v = ioc_val(io);
		ioc_read_cstr_n(io, v, v->name, io->arg, (uint64_t)sysconf(_SC_PAGESIZE), false);
		return IOC_DONE;
	case PERF_EVENT_IOC_ID:
		if (!io->exiting)
			return IOC_EXIT;
		return ioc_arg_num(io, 8, NUM_U);
	case PERF_EVENT_IOC_QUERY_BPF:
		return query_bpf(io);
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		v = ioc_val(io);
		decode_perf_attr(io->c, v, v->name, io->arg);
		return IOC_DONE;
	}
	return IOC_DEFAULT;
}
