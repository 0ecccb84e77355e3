/*
 * perf_event_open: the attribute structure as strace 6.1 prints it by
 * default ({type, size, config, sample_period, sample_type, read_format,
 * precise_ip, ...}; with -v every field the structure's size holds),
 * pid, cpu, group fd and PERF_FLAG_* flags.  The size the kernel
 * writes back on E2BIG is shown as "size=A => B".
 */
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "xlat/clocknames.h"
#include "xlat/hw_breakpoint_type.h"
#include "xlat/perf_attr_size.h"
#include "xlat/perf_branch_sample_type.h"
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

/* The extended type in config's upper 32 bits (a hybrid CPU's PMU), as
 * strace 6.1 prints it before the rest: "0x1<<32|" */
static void ext_type_text(struct dctx *c, struct val *v, uint64_t cfg)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%#llx<<32|", (unsigned long long)(cfg >> 32));
	val_set_text(c, v, NULL, buf);
}

/* config of a PERF_TYPE_HARDWARE event: [0x1<<32|]PERF_COUNT_HW_... */
static void hw_config(struct dctx *c, struct val *v, uint64_t cfg)
{
	struct val *it;

	if (!(cfg >> 32)) {
		val_set_enum(v, "config", cfg, perf_hw_id);
		return;
	}
	it = val_new_array(c, 2);
	ext_type_text(c, &it[0], cfg);
	val_set_enum(&it[1], NULL, (uint32_t)cfg, perf_hw_id);
	val_set_op(v, "config", it, 2, NULL);
}

/* config of a PERF_TYPE_HW_CACHE event as strace 6.1 prints it, the
 * highest part first: [0x1<<32|][0x7<<24|]RESULT<<16|OP<<8|ID */
static void hw_cache_config(struct dctx *c, struct val *v, uint64_t cfg)
{
	struct val *it = val_new_array(c, 8);
	unsigned n = 0;
	char buf[48];

	if (cfg >> 32)
		ext_type_text(c, &it[n++], cfg);
	if ((cfg >> 24) & 0xff) {
		snprintf(buf, sizeof(buf), "%#llx<<24|", (unsigned long long)((cfg >> 24) & 0xff));
		val_set_text(c, &it[n++], NULL, buf);
	}
	val_set_enum(&it[n++], NULL, (cfg >> 16) & 0xff, perf_hw_cache_op_result_id);
	val_set_text(c, &it[n++], NULL, "<<16|");
	val_set_enum(&it[n++], NULL, (cfg >> 8) & 0xff, perf_hw_cache_op_id);
	val_set_text(c, &it[n++], NULL, "<<8|");
	val_set_enum(&it[n++], NULL, cfg & 0xff, perf_hw_cache_id);
	val_set_op(v, "config", it, n, NULL);
}

static void val_set_precise_ip(struct dctx *c, struct val *v, unsigned ip)
{
	static const char *const skid[] = { "arbitrary skid", "constant skid",
		"requested to have 0 skid", "must have 0 skid" };
	struct val x;

	val_set_uint(&x, NULL, ip);
	val_set_commented(c, v, "precise_ip", &x, skid[ip & 3]);
}

/* A comment's text with one number, in c->arena. */
static const char *ioc_hex_comment(struct dctx *c, const char *fmt, unsigned x)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, x);
	return arena_strndup(c->arena, buf, strlen(buf));
}

/* The bit fields after read_format, in the order of the structure. */
static const char *const attr_bits[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat",
	"enable_on_exec", "task", "watermark", "precise_ip", NULL, "mmap_data",
	"sample_id_all", "exclude_host", "exclude_guest", "exclude_callchain_kernel",
	"exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch",
	"write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
	"text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap",
};

/* -v: every field after read_format that the structure's size holds, as
 * strace's print_perf_event_attr; returns the new field count. */
static unsigned attr_verbose(struct dctx *c, struct val *f, unsigned n,
			     const struct perf_event_attr *a, uint32_t size)
{
	uint64_t bits;

	memcpy(&bits, (const char *)a + 40, sizeof(bits));
	for (unsigned i = 0; i < sizeof(attr_bits) / sizeof(attr_bits[0]); i++) {
		if (!attr_bits[i])
			continue;
		if (i == 15)
			val_set_precise_ip(c, &f[n++], (unsigned)(bits >> 15) & 3);
		else
			val_set_uint(&f[n++], attr_bits[i], (bits >> i) & 1);
	}
	if (bits >> 38) {
		struct val x;
		char buf[32];

		snprintf(buf, sizeof(buf), "%#llx", (unsigned long long)(bits >> 38));
		val_set_text(c, &x, NULL, buf);
		val_set_commented(c, &f[n++], "__reserved_1", &x, "Bits 63..38");
	}
	if (a->watermark)
		val_set_uint(&f[n++], "wakeup_watermark", a->wakeup_watermark);
	else
		val_set_uint(&f[n++], "wakeup_events", a->wakeup_events);
	if (a->type == PERF_TYPE_BREAKPOINT) {
		const char *s = xlat_name(hw_breakpoint_type, a->bp_type);

		if (s) {
			val_set_text(c, &f[n++], "bp_type", s);
		} else {
			struct val x;

			val_set_hex(&x, NULL, a->bp_type);
			val_set_commented(c, &f[n++], "bp_type", &x,
					  a->bp_type <= 7 ? "HW_BREAKPOINT_INVALID"
							  : "HW_BREAKPOINT_???");
		}
		val_set_hex(&f[n++], "bp_addr", a->bp_addr);
	} else {
		val_set_hex(&f[n++], "config1", a->config1);
	}
#define CHECK(field) do { if (offsetof(struct perf_event_attr, field) >= size) return n; } while (0)
	CHECK(bp_len);
	if (a->type == PERF_TYPE_BREAKPOINT)
		val_set_uint(&f[n++], "bp_len", a->bp_len);
	else
		val_set_hex(&f[n++], "config2", a->config2);
	CHECK(branch_sample_type);
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK)
		val_set_flags(&f[n++], "branch_sample_type", a->branch_sample_type,
			      perf_branch_sample_type, NULL);
	CHECK(sample_regs_user);
	val_set_hex(&f[n++], "sample_regs_user", a->sample_regs_user);
	CHECK(sample_stack_user);
	if (a->sample_type & PERF_SAMPLE_STACK_USER)
		val_set_hex(&f[n++], "sample_stack_user", a->sample_stack_user);
	if (a->use_clockid) {
		CHECK(clockid);
		val_set_enum(&f[n++], "clockid", (uint32_t)a->clockid, clocknames);
	}
	CHECK(sample_regs_intr);
	val_set_hex(&f[n++], "sample_regs_intr", a->sample_regs_intr);
	CHECK(aux_watermark);
	val_set_uint(&f[n++], "aux_watermark", a->aux_watermark);
	CHECK(sample_max_stack);
	val_set_uint(&f[n++], "sample_max_stack", a->sample_max_stack);
	CHECK(__reserved_2);
	if (a->__reserved_2) {
		struct val x = f[n - 1];

		val_set_commented(c, &f[n - 1], x.name, &x,
				  ioc_hex_comment(c, "bytes 110..111: %#x", a->__reserved_2));
	}
	CHECK(aux_sample_size);
	val_set_uint(&f[n++], "aux_sample_size", a->aux_sample_size);
	CHECK(__reserved_3);
	if (a->__reserved_3) {
		struct val x = f[n - 1];

		val_set_commented(c, &f[n - 1], x.name, &x,
				  ioc_hex_comment(c, "bytes 116..119: %#x", a->__reserved_3));
	}
	CHECK(sig_data);
	val_set_hex(&f[n++], "sig_data", a->sig_data);
#undef CHECK
	return n;
}

void decode_perf_attr(struct dctx *ctx, struct val *v, const char *name, uint64_t addr)
{
	struct perf_event_attr a;
	uint32_t size;
	struct val *f;
	unsigned n = 0;

	if (!tread(ctx, addr + 4, &size, sizeof(size)))
		goto addr;
	if (!size)
		size = 64;
	if (size < 64)
		goto addr;
	memset(&a, 0, sizeof(a));
	if (!tread(ctx, addr, &a, size < sizeof(a) ? size : sizeof(a)))
		goto addr;
	f = val_new_array(ctx, 64);
	val_set_enum(&f[n++], "type", a.type, perf_type_id);
	val_set_enum(&f[n++], "size", a.size, perf_attr_size);
	switch (a.type) {
	case PERF_TYPE_HARDWARE:
		hw_config(ctx, &f[n++], a.config);
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
	if (!ctx->opts->verbose) {
		/* without -v, the bit fields that are set and precise_ip */
		uint64_t bits;

		memcpy(&bits, (const char *)&a + 40, sizeof(bits));
		for (unsigned i = 0; i < sizeof(attr_bits) / sizeof(attr_bits[0]); i++) {
			if (i == 15)
				val_set_precise_ip(ctx, &f[n++], a.precise_ip);
			else if (attr_bits[i] && (bits >> i) & 1)
				val_set_uint(&f[n++], attr_bits[i], 1);
		}
		if (bits >> 38) {
			struct val x;
			char buf[32];

			snprintf(buf, sizeof(buf), "%#llx",
				 (unsigned long long)(bits >> 38));
			val_set_text(ctx, &x, NULL, buf);
			val_set_commented(ctx, &f[n++], "__reserved_1", &x, "Bits 63..38");
		}
		val_set_struct(v, name, f, n, true);
		return;
	}
	n = attr_verbose(ctx, f, n, &a, size);
	/* "..." for the bytes past what strace 6.1 knows (PERF_ATTR_SIZE_VER7) */
	val_set_struct(v, name, f, n, (a.size && a.size > size) || (!a.size && size < 64) ||
		       size > 128);
	return;
addr:
	val_set_ptr(v, name, addr);
}

SYS_FUNC(perf_event_open)
{
	struct val *v;

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
		decode_perf_attr(ctx, v, v->name, ev->karg[0]);
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
