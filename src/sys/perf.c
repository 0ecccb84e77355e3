/*
 * perf_event_open: the attribute structure as strace 6.1 prints it by
 * default ({type, size, config, sample_period, sample_type, read_format,
 * precise_ip, ...}; -v shows the same form here, not strace's every
 * field), pid, cpu, group fd and PERF_FLAG_* flags.  The size the kernel
 * writes back on E2BIG is shown as "size=A => B".
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/perf_attr_size.h"
#include "xlat/perf_event_read_format.h"
#include "xlat/perf_event_sample_format.h"
#include "xlat/perf_event_open_flags.h"
#include "xlat/perf_hw_cache_id.h"
#include "xlat/perf_hw_cache_op_id.h"
#include "xlat/perf_hw_cache_op_result_id.h"
#include "xlat/perf_hw_id.h"
#include "xlat/perf_sw_ids.h"
#include "xlat/perf_type_id.h"
#include "util/banned.h"

/* config of a PERF_TYPE_HW_CACHE event as strace 6.1 prints it, the
 * highest part first: [0x7<<24|]RESULT<<16|OP<<8|ID */
static void hw_cache_config(struct dctx *c, struct val *v, uint64_t cfg)
{
	struct val *it = val_new_array(c, 7);
	unsigned n = 0;
	char buf[48];

	if (cfg >> 24) {
		snprintf(buf, sizeof(buf), "%#llx<<24|", (unsigned long long)(cfg >> 24));
		val_set_text(c, &it[n++], NULL, buf);
	}
	val_set_enum(&it[n++], NULL, (cfg >> 16) & 0xff, perf_hw_cache_op_result_id);
	val_set_text(c, &it[n++], NULL, "<<16|");
	val_set_enum(&it[n++], NULL, (cfg >> 8) & 0xff, perf_hw_cache_op_id);
	val_set_text(c, &it[n++], NULL, "<<8|");
	val_set_enum(&it[n++], NULL, cfg & 0xff, perf_hw_cache_id);
	val_set_op(v, "config", it, n, NULL);
}

SYS_FUNC(perf_event_open)
{
	struct perf_event_attr a;
	uint32_t size;
	struct val *v, *f;
	unsigned n = 0;

	if (!exiting) {
		arg_count(ev, 5);
		arg_int(ctx, ev, 1);
		arg_int(ctx, ev, 2);
		arg_fd(ctx, ev, 3);
		arg_flags(ctx, ev, 4, perf_event_open_flags, NULL);
		ev->rv_fmt = RV_FD;
		/* the structure is read at entry and shown at exit (the
		 * kernel may rewrite its size) */
		v = arg_slot(ctx, ev, 0);
		if (!tread(ctx, ev->karg[0] + 4, &size, sizeof(size)))
			goto addr;
		if (!size)
			size = 64;
		if (size < 64)
			goto addr;
		memset(&a, 0, sizeof(a));
		if (!tread(ctx, ev->karg[0], &a, size < sizeof(a) ? size : sizeof(a)))
			goto addr;
		f = val_new_array(ctx, 8);
		val_set_enum(&f[n++], "type", a.type, perf_type_id);
		val_set_enum(&f[n++], "size", a.size, perf_attr_size);
		switch (a.type) {
		case PERF_TYPE_HARDWARE:
			val_set_enum(&f[n++], "config", a.config, perf_hw_id);
			break;
		case PERF_TYPE_SOFTWARE:
			val_set_enum(&f[n++], "config", a.config, perf_sw_ids);
			break;
		case PERF_TYPE_TRACEPOINT:
			val_set_uint(&f[n++], "config", a.config);
			break;
		case PERF_TYPE_HW_CACHE:
			hw_cache_config(ctx, &f[n++], a.config);
			break;
		default:
			val_set_hex(&f[n++], "config", a.config);
			break;
		}
		if (a.freq)
			val_set_uint(&f[n++], "sample_freq", a.sample_freq);
		else
			val_set_uint(&f[n++], "sample_period", a.sample_period);
		val_set_flags(&f[n++], "sample_type", a.sample_type, perf_event_sample_format, NULL);
		val_set_flags(&f[n++], "read_format", a.read_format, perf_event_read_format, NULL);
		{
			static const char *const skid[] = { "arbitrary skid", "constant skid",
				"requested to have 0 skid", "must have 0 skid" };
			struct val x;

			val_set_uint(&x, NULL, a.precise_ip);
			val_set_commented(ctx, &f[n++], "precise_ip", &x, skid[a.precise_ip & 3]);
		}
		val_set_struct(v, v->name, f, n, true);
		return RVAL_EXIT;
addr:
		val_set_ptr(v, v->name, ev->karg[0]);
		return RVAL_EXIT;
	}
	if (!ev->err)
		ret_set_fd(ctx, ev);
	v = &ev->args[0];
	if (v->kind == V_STRUCT && ev->err == 7 /* E2BIG */) {
		uint32_t nsize;
		struct val b, a2 = v->c.items[1];

		a2.name = NULL;
		if (tread(ctx, ev->karg[0] + 4, &nsize, sizeof(nsize)))
			val_set_enum(&b, NULL, nsize, perf_attr_size);
		else
			val_set_text(ctx, &b, NULL, "???");
		val_set_changed(ctx, &v->c.items[1], "size", &a2, &b);
	}
	return RVAL_DONE;
}
