/*
 * bpf(2): the command and its part of union bpf_attr as strace 6.1 prints
 * them (written from linux/bpf.h).  The size bytes of attr are read at
 * entry; each command shows its fields up to size in the groups the kernel
 * added them in, then "..." (with -v extra_data="\x..") when bytes past the
 * command's structure are not zero.  A NULL or unreadable attr, a size of 0
 * or over a page, and the commands strace 6.1 leaves alone show the address.
 * At exit: the next id of BPF_*_GET_NEXT_ID, BPF_PROG_QUERY's program ids,
 * BPF_OBJ_GET_INFO_BY_FD's info_len and with -v its struct bpf_map_info or
 * bpf_prog_info, the new descriptor with -y.
 */
#include <linux/bpf.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sys/decode.h"
#include "sys/decode_extra.h"
#include "sys/ioc.h"
#include "sys/net.h"
#include "xlat/bpf_attach_flags.h"
#include "xlat/bpf_attach_type.h"
#include "xlat/bpf_commands.h"
#include "xlat/bpf_file_mode_flags.h"
#include "xlat/bpf_kprobe_multi_flags.h"
#include "xlat/bpf_map_flags.h"
#include "xlat/bpf_map_lookup_elem_flags.h"
#include "xlat/bpf_map_types.h"
#include "xlat/bpf_map_update_elem_flags.h"
#include "xlat/bpf_prog_flags.h"
#include "xlat/bpf_prog_types.h"
#include "xlat/bpf_query_flags.h"
#include "xlat/bpf_task_fd_type.h"
#include "xlat/bpf_test_run_flags.h"
#include "xlat/ebpf_regs.h"
#include "util/banned.h"

#define BPF_PAGE 4096u
#define BPF_MAX_FIELDS 32

/* One command's fields being decoded. */
struct bpf_dec {
	struct dctx *c;
	uint32_t cmd;
	union bpf_attr a;       /* the first len bytes of attr, zeros after */
	size_t len;             /* min(size, sizeof(a)) */
	bool exiting;           /* decoded at exit: output arrays are read */
	struct val *f;          /* the fields shown */
	unsigned n;
};

/* Whether the bytes read reach past the start of a field (strace shows
 * the fields of a group added to the kernel together only then). */
#define HAS(d, fld) ((d)->len > offsetof(union bpf_attr, fld))
#define END(fld) (offsetof(union bpf_attr, fld) + sizeof(((union bpf_attr *)0)->fld))

static struct val *fld(struct bpf_dec *d)
{
	return &d->f[d->n++];
}

static void f_u(struct bpf_dec *d, const char *name, uint64_t x)
{
	val_set_uint(fld(d), name, x);
}

static void f_x(struct bpf_dec *d, const char *name, uint64_t x)
{
	val_set_hex(fld(d), name, x);
}

static void f_ptr(struct bpf_dec *d, const char *name, uint64_t x)
{
	val_set_ptr(fld(d), name, x);
}

static void f_fd(struct bpf_dec *d, const char *name, uint32_t x)
{
	val_set_fd(d->c, fld(d), name, (int32_t)x);
}

static void f_enum(struct bpf_dec *d, const char *name, uint64_t x, const struct xlat *xl)
{
	val_set_enum(fld(d), name, x, xl);
}

static void f_flags(struct bpf_dec *d, const char *name, uint64_t x, const struct xlat *xl,
		    const char *zero)
{
	val_set_flags(fld(d), name, x, xl, zero);
}

/* A char array of n bytes as strace's print_quoted_cstring: up to the NUL,
 * or n - 1 bytes and "..." when there is none. */
static void f_cstr_local(struct bpf_dec *d, const char *name, const char *p, size_t n)
{
	const char *nul = memchr(p, 0, n);

	if (nul || !n)
		val_set_str(d->c, fld(d), name, p, nul ? (size_t)(nul - p) : 0, false);
	else
		val_set_str(d->c, fld(d), name, p, n - 1, true);
}

/* A NUL-terminated string in the tracee (strace's printstr). */
static void f_str(struct bpf_dec *d, const char *name, uint64_t addr)
{
	val_read_cstr(d->c, fld(d), name, addr, d->c->opts->string_limit);
}

/* A string in a buffer of len bytes (printstr_ex with QUOTE_0_TERMINATED). */
static void f_str_n(struct bpf_dec *d, const char *name, uint64_t addr, uint64_t len)
{
	val_read_cstr_n(d->c, fld(d), name, addr, len);
}

/* KERNEL_VERSION(a, b, c) (-X raw: the number; -X verbose: both). */
static void f_kver(struct bpf_dec *d, const char *name, uint32_t v)
{
	char text[64];

	snprintf(text, sizeof(text), "KERNEL_VERSION(%u, %u, %u)", v >> 16, (v >> 8) & 0xff,
		 v & 0xff);
	val_set_named_num(d->c, fld(d), name, v, text);
}

/* Moves the fields from index from on into one structure field named
 * name (strace's batch={...}, test={...}). */
static void wrap(struct bpf_dec *d, unsigned from, const char *name)
{
	unsigned n = d->n - from;
	struct val *items = val_new_array(d->c, n ? n : 1);

	memcpy(items, &d->f[from], n * sizeof(*items));
	d->n = from;
	val_set_struct(fld(d), name, items, n, false);
}

/* ---- the commands; each returns the size of its structure ---- */

static size_t map_create(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;

	f_enum(d, "map_type", a->map_type, bpf_map_types);
	f_u(d, "key_size", a->key_size);
	f_u(d, "value_size", a->value_size);
	f_u(d, "max_entries", a->max_entries);
	if (!HAS(d, map_flags))
		goto out;
	f_flags(d, "map_flags", a->map_flags, bpf_map_flags, NULL);
	if (!HAS(d, inner_map_fd))
		goto out;
	f_fd(d, "inner_map_fd", a->inner_map_fd);
	if (a->map_flags & BPF_F_NUMA_NODE)
		f_u(d, "numa_node", a->numa_node);
	if (!HAS(d, map_name))
		goto out;
	{
		size_t n = d->len - offsetof(union bpf_attr, map_name);

		f_cstr_local(d, "map_name", a->map_name,
			     n < sizeof(a->map_name) ? n : sizeof(a->map_name));
	}
	if (!HAS(d, map_ifindex))
		goto out;
	net_ifindex_val(d->c, fld(d), "map_ifindex", a->map_ifindex);
	if (!HAS(d, btf_fd))
		goto out;
	f_fd(d, "btf_fd", a->btf_fd);
	f_u(d, "btf_key_type_id", a->btf_key_type_id);
	f_u(d, "btf_value_type_id", a->btf_value_type_id);
	if (!HAS(d, btf_vmlinux_value_type_id))
		goto out;
	f_u(d, "btf_vmlinux_value_type_id", a->btf_vmlinux_value_type_id);
	if (!HAS(d, map_extra))
		goto out;
	f_u(d, "map_extra", a->map_extra);
out:
	return END(map_extra);
}

/* BPF_MAP_LOOKUP_ELEM, UPDATE_ELEM, DELETE_ELEM, GET_NEXT_KEY,
 * LOOKUP_AND_DELETE_ELEM */
static size_t map_elem(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;

	f_fd(d, "map_fd", a->map_fd);
	f_ptr(d, "key", a->key);
	switch (d->cmd) {
	case BPF_MAP_DELETE_ELEM:
		return END(key);
	case BPF_MAP_GET_NEXT_KEY:
		f_ptr(d, "next_key", a->next_key);
		return END(next_key);
	}
	f_ptr(d, "value", a->value);
	if (d->cmd == BPF_MAP_UPDATE_ELEM || HAS(d, flags))
		f_flags(d, "flags", a->flags, bpf_map_update_elem_flags, "BPF_ANY");
	return END(flags);
}

static size_t map_fd_only(struct bpf_dec *d)
{
	f_fd(d, "map_fd", d->a.map_fd);
	return END(map_fd);
}

/* BPF_MAP_{LOOKUP,LOOKUP_AND_DELETE,UPDATE,DELETE}_BATCH */
static size_t map_batch(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;
	unsigned from = d->n;

	if (d->cmd == BPF_MAP_LOOKUP_BATCH || d->cmd == BPF_MAP_LOOKUP_AND_DELETE_BATCH) {
		f_ptr(d, "in_batch", a->batch.in_batch);
		f_ptr(d, "out_batch", a->batch.out_batch);
	}
	f_ptr(d, "keys", a->batch.keys);
	if (d->cmd != BPF_MAP_DELETE_BATCH)
		f_ptr(d, "values", a->batch.values);
	f_u(d, "count", a->batch.count);
	f_fd(d, "map_fd", a->batch.map_fd);
	f_flags(d, "elem_flags", a->batch.elem_flags, bpf_map_lookup_elem_flags, "BPF_ANY");
	f_x(d, "flags", a->batch.flags);
	wrap(d, from, "batch");
	return END(batch);
}

/* One eBPF instruction: {code=BPF_ALU64|BPF_K|BPF_MOV, dst_reg=BPF_REG_0,
 * src_reg=BPF_REG_0, off=0, imm=0} */
static void insn_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	struct bpf_insn in;
	struct val *f = val_new_array(c, 5);

	(void)arg;
	memcpy(&in, elem, sizeof(in));
	val_set_bpf_code(c, &f[0], "code", in.code, true);
	val_set_enum(&f[1], "dst_reg", in.dst_reg, ebpf_regs);
	val_set_enum(&f[2], "src_reg", in.src_reg, ebpf_regs);
	val_set_int(&f[3], "off", in.off);
	val_set_hex(&f[4], "imm", (uint32_t)in.imm);
	val_set_struct(item, NULL, f, 5, false);
}

static size_t prog_load(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;

	f_enum(d, "prog_type", a->prog_type, bpf_prog_types);
	f_u(d, "insn_cnt", a->insn_cnt);
	if (d->c->opts->verbose)
		decode_array(d->c, fld(d), "insns", a->insns, a->insn_cnt, sizeof(struct bpf_insn),
			     insn_elem, NULL);
	else
		f_ptr(d, "insns", a->insns);
	f_str(d, "license", a->license);
	if (!HAS(d, log_level))
		goto out;
	f_u(d, "log_level", a->log_level);
	f_u(d, "log_size", a->log_size);
	f_str_n(d, "log_buf", a->log_buf, a->log_size);
	if (!HAS(d, kern_version))
		goto out;
	f_kver(d, "kern_version", a->kern_version);
	if (!HAS(d, prog_flags))
		goto out;
	f_flags(d, "prog_flags", a->prog_flags, bpf_prog_flags, NULL);
	if (!HAS(d, prog_name))
		goto out;
	{
		size_t n = d->len - offsetof(union bpf_attr, prog_name);

		f_cstr_local(d, "prog_name", a->prog_name,
			     n < sizeof(a->prog_name) ? n : sizeof(a->prog_name));
	}
	if (!HAS(d, prog_ifindex))
		goto out;
	net_ifindex_val(d->c, fld(d), "prog_ifindex", a->prog_ifindex);
	if (!HAS(d, expected_attach_type))
		goto out;
	f_enum(d, "expected_attach_type", a->expected_attach_type, bpf_attach_type);
	if (!HAS(d, prog_btf_fd))
		goto out;
	f_fd(d, "prog_btf_fd", a->prog_btf_fd);
	f_u(d, "func_info_rec_size", a->func_info_rec_size);
	f_ptr(d, "func_info", a->func_info);
	f_u(d, "func_info_cnt", a->func_info_cnt);
	f_u(d, "line_info_rec_size", a->line_info_rec_size);
	f_ptr(d, "line_info", a->line_info);
	f_u(d, "line_info_cnt", a->line_info_cnt);
	if (!HAS(d, attach_btf_id))
		goto out;
	f_u(d, "attach_btf_id", a->attach_btf_id);
	if (!HAS(d, attach_prog_fd))
		goto out;
	f_fd(d, "attach_prog_fd", a->attach_prog_fd);
	if (!HAS(d, fd_array))
		goto out;
	f_ptr(d, "fd_array", a->fd_array);
out:
	return END(fd_array);
}

/* BPF_OBJ_PIN, BPF_OBJ_GET */
static size_t obj_pin(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;

	val_read_path(d->c, fld(d), "pathname", a->pathname);
	f_fd(d, "bpf_fd", a->bpf_fd);
	if (HAS(d, file_flags))
		f_flags(d, "file_flags", a->file_flags, bpf_file_mode_flags, NULL);
	return END(file_flags);
}

/* BPF_PROG_ATTACH, BPF_PROG_DETACH */
static size_t prog_attach(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;

	f_fd(d, "target_fd", a->target_fd);
	if (d->cmd == BPF_PROG_DETACH) {
		f_enum(d, "attach_type", a->attach_type, bpf_attach_type);
		return END(attach_type);
	}
	f_fd(d, "attach_bpf_fd", a->attach_bpf_fd);
	f_enum(d, "attach_type", a->attach_type, bpf_attach_type);
	f_flags(d, "attach_flags", a->attach_flags, bpf_attach_flags, NULL);
	if (HAS(d, replace_bpf_fd))
		f_fd(d, "replace_bpf_fd", a->replace_bpf_fd);
	return END(replace_bpf_fd);
}

static size_t prog_test_run(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;
	unsigned from = d->n;

	f_fd(d, "prog_fd", a->test.prog_fd);
	f_u(d, "retval", a->test.retval);
	f_u(d, "data_size_in", a->test.data_size_in);
	f_u(d, "data_size_out", a->test.data_size_out);
	f_ptr(d, "data_in", a->test.data_in);
	f_ptr(d, "data_out", a->test.data_out);
	f_u(d, "repeat", a->test.repeat);
	f_u(d, "duration", a->test.duration);
	if (HAS(d, test.ctx_size_in)) {
		f_u(d, "ctx_size_in", a->test.ctx_size_in);
		f_u(d, "ctx_size_out", a->test.ctx_size_out);
		f_ptr(d, "ctx_in", a->test.ctx_in);
		f_ptr(d, "ctx_out", a->test.ctx_out);
	}
	if (HAS(d, test.flags)) {
		f_flags(d, "flags", a->test.flags, bpf_test_run_flags, NULL);
		f_u(d, "cpu", a->test.cpu);
	}
	if (HAS(d, test.batch_size))
		f_u(d, "batch_size", a->test.batch_size);
	wrap(d, from, "test");
	return END(test.batch_size);
}

/* BPF_{PROG,MAP,BTF,LINK}_GET_NEXT_ID, BPF_{PROG,MAP,BTF,LINK}_GET_FD_BY_ID */
static size_t get_id(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;
	const char *name = "start_id";

	switch (d->cmd) {
	case BPF_PROG_GET_FD_BY_ID:
		name = "prog_id";
		break;
	case BPF_MAP_GET_FD_BY_ID:
		name = "map_id";
		break;
	case BPF_BTF_GET_FD_BY_ID:
		f_u(d, "btf_id", a->btf_id);
		return END(btf_id);
	case BPF_LINK_GET_FD_BY_ID:
		f_u(d, "link_id", a->link_id);
		return END(link_id);
	}
	f_u(d, name, a->start_id);
	f_u(d, "next_id", a->next_id);
	if (HAS(d, open_flags))
		f_flags(d, "open_flags", a->open_flags, bpf_file_mode_flags, NULL);
	return END(open_flags);
}

/* struct bpf_prog_info as strace 6.1 knows it: up to verified_insns */
static char bpf_fd_kind(struct dctx *c, uint32_t fd);
static bool prog_info(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      size_t len, struct val *was);
#define PROG_INFO_SIZE (offsetof(struct bpf_prog_info, verified_insns) + sizeof(uint32_t))

static size_t obj_get_info(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;
	unsigned from = d->n;

	f_fd(d, "bpf_fd", a->info.bpf_fd);
	f_u(d, "info_len", a->info.info_len);
	f_ptr(d, "info", a->info.info);
	/* with -v a program's info is read at entry too: the fields the
	 * kernel changes show as "0 => 23" at exit */
	if (d->c->opts->verbose && !d->exiting && a->info.info && a->info.info_len &&
	    bpf_fd_kind(d->c, a->info.bpf_fd) == 'p') {
		size_t len = a->info.info_len < PROG_INFO_SIZE ? a->info.info_len : PROG_INFO_SIZE;

		prog_info(d->c, &d->f[d->n - 1], "info", a->info.info, len, NULL);
	}
	wrap(d, from, "info");
	return END(info);
}

static void u32_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint32_t x;

	(void)c;
	(void)arg;
	memcpy(&x, elem, sizeof(x));
	val_set_uint(item, NULL, x);
}

static size_t prog_query(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;
	unsigned from = d->n;

	f_fd(d, "target_fd", a->query.target_fd);
	f_enum(d, "attach_type", a->query.attach_type, bpf_attach_type);
	f_flags(d, "query_flags", a->query.query_flags, bpf_query_flags, NULL);
	f_flags(d, "attach_flags", a->query.attach_flags, bpf_attach_flags, NULL);
	/* the array is read at exit when the call succeeds; before: NULL,
	 * [] for a count of 0, or the address */
	if (d->exiting)
		decode_array(d->c, fld(d), "prog_ids", a->query.prog_ids, a->query.prog_cnt,
			     sizeof(uint32_t), u32_elem, NULL);
	else if (a->query.prog_ids && !a->query.prog_cnt)
		val_set_array(fld(d), "prog_ids", NULL, 0, false);
	else
		f_ptr(d, "prog_ids", a->query.prog_ids);
	f_u(d, "prog_cnt", a->query.prog_cnt);
	wrap(d, from, "query");
	return END(query.prog_cnt);
}

static size_t raw_tp_open(struct bpf_dec *d)
{
	unsigned from = d->n;

	f_str(d, "name", d->a.raw_tracepoint.name);
	f_fd(d, "prog_fd", d->a.raw_tracepoint.prog_fd);
	wrap(d, from, "raw_tracepoint");
	return END(raw_tracepoint.prog_fd);
}

static size_t btf_load(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;

	val_read_buf(d->c, fld(d), "btf", a->btf, a->btf_size);
	f_ptr(d, "btf_log_buf", a->btf_log_buf);
	f_u(d, "btf_size", a->btf_size);
	f_u(d, "btf_log_size", a->btf_log_size);
	f_u(d, "btf_log_level", a->btf_log_level);
	return END(btf_log_level);
}

static size_t task_fd_query(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;
	unsigned from = d->n;

	f_u(d, "pid", a->task_fd_query.pid);
	f_fd(d, "fd", a->task_fd_query.fd);
	f_u(d, "flags", a->task_fd_query.flags);
	f_u(d, "buf_len", a->task_fd_query.buf_len);
	f_str_n(d, "buf", a->task_fd_query.buf, a->task_fd_query.buf_len);
	f_u(d, "prog_id", a->task_fd_query.prog_id);
	f_enum(d, "fd_type", a->task_fd_query.fd_type, bpf_task_fd_type);
	f_x(d, "probe_offset", a->task_fd_query.probe_offset);
	f_x(d, "probe_addr", a->task_fd_query.probe_addr);
	wrap(d, from, "task_fd_query");
	return END(task_fd_query.probe_addr);
}

/* iter_info's elements: union bpf_iter_link_info as strace 6.1 knows it
 * ({map={map_fd=N}}) */
static void iter_info_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint32_t fd;
	struct val *in = val_new_array(c, 1), *m = val_new_array(c, 1);

	(void)arg;
	memcpy(&fd, elem, sizeof(fd));
	val_set_fd(c, &in[0], "map_fd", (int32_t)fd);
	val_set_struct(&m[0], "map", in, 1, false);
	val_set_struct(item, NULL, m, 1, false);
}

static void u64_ptr_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t x;

	(void)c;
	(void)arg;
	memcpy(&x, elem, sizeof(x));
	val_set_ptr(item, NULL, x);
}

static void u64_hex_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	uint64_t x;

	(void)c;
	(void)arg;
	memcpy(&x, elem, sizeof(x));
	val_set_hex(item, NULL, x);
}

static size_t link_create(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;
	unsigned from = d->n, sub;
	size_t size = END(link_create.flags);

	f_fd(d, "prog_fd", a->link_create.prog_fd);
	f_fd(d, "target_fd", a->link_create.target_fd);
	f_enum(d, "attach_type", a->link_create.attach_type, bpf_attach_type);
	f_x(d, "flags", a->link_create.flags);
	switch (a->link_create.attach_type) {
	case BPF_CGROUP_INET_INGRESS:
		/* strace 6.1 shows target_btf_id for this attach type alone,
		 * and only when it is not 0 */
		if (a->link_create.target_btf_id)
			f_u(d, "target_btf_id", a->link_create.target_btf_id);
		size = END(link_create.target_btf_id);
		break;
	case BPF_TRACE_ITER:
		decode_array(d->c, fld(d), "iter_info", a->link_create.iter_info,
			     a->link_create.iter_info_len, sizeof(uint32_t), iter_info_elem, NULL);
		f_u(d, "iter_info_len", a->link_create.iter_info_len);
		size = END(link_create.iter_info_len);
		break;
	case BPF_PERF_EVENT:
		sub = d->n;
		f_x(d, "bpf_cookie", a->link_create.perf_event.bpf_cookie);
		wrap(d, sub, "perf_event");
		size = END(link_create.perf_event);
		break;
	case BPF_TRACE_KPROBE_MULTI:
		sub = d->n;
		f_flags(d, "flags", a->link_create.kprobe_multi.flags, bpf_kprobe_multi_flags,
			NULL);
		f_u(d, "cnt", a->link_create.kprobe_multi.cnt);
		decode_array(d->c, fld(d), "syms", a->link_create.kprobe_multi.syms,
			     a->link_create.kprobe_multi.cnt, sizeof(uint64_t), u64_ptr_elem, NULL);
		decode_array(d->c, fld(d), "addrs", a->link_create.kprobe_multi.addrs,
			     a->link_create.kprobe_multi.cnt, sizeof(uint64_t), u64_hex_elem, NULL);
		decode_array(d->c, fld(d), "cookies", a->link_create.kprobe_multi.cookies,
			     a->link_create.kprobe_multi.cnt, sizeof(uint64_t), u64_hex_elem, NULL);
		wrap(d, sub, "kprobe_multi");
		size = END(link_create.kprobe_multi);
		break;
	}
	wrap(d, from, "link_create");
	return size;
}

static size_t link_update(struct bpf_dec *d)
{
	const union bpf_attr *a = &d->a;
	unsigned from = d->n;

	f_fd(d, "link_fd", a->link_update.link_fd);
	f_fd(d, "new_prog_fd", a->link_update.new_prog_fd);
	f_flags(d, "flags", a->link_update.flags, bpf_attach_flags, NULL);
	if (a->link_update.flags & BPF_F_REPLACE)
		f_fd(d, "old_prog_fd", a->link_update.old_prog_fd);
	wrap(d, from, "link_update");
	return END(link_update.old_prog_fd);
}

typedef size_t (*bpf_cmd_fn)(struct bpf_dec *d);

/* The commands strace 6.1 decodes (BPF_ENABLE_STATS, BPF_ITER_CREATE,
 * BPF_LINK_DETACH and BPF_PROG_BIND_MAP show the address). */
static const bpf_cmd_fn bpf_cmds[] = {
	[BPF_MAP_CREATE] = map_create,
	[BPF_MAP_LOOKUP_ELEM] = map_elem,
	[BPF_MAP_UPDATE_ELEM] = map_elem,
	[BPF_MAP_DELETE_ELEM] = map_elem,
	[BPF_MAP_GET_NEXT_KEY] = map_elem,
	[BPF_PROG_LOAD] = prog_load,
	[BPF_OBJ_PIN] = obj_pin,
	[BPF_OBJ_GET] = obj_pin,
	[BPF_PROG_ATTACH] = prog_attach,
	[BPF_PROG_DETACH] = prog_attach,
	[BPF_PROG_TEST_RUN] = prog_test_run,
	[BPF_PROG_GET_NEXT_ID] = get_id,
	[BPF_MAP_GET_NEXT_ID] = get_id,
	[BPF_PROG_GET_FD_BY_ID] = get_id,
	[BPF_MAP_GET_FD_BY_ID] = get_id,
	[BPF_OBJ_GET_INFO_BY_FD] = obj_get_info,
	[BPF_PROG_QUERY] = prog_query,
	[BPF_RAW_TRACEPOINT_OPEN] = raw_tp_open,
	[BPF_BTF_LOAD] = btf_load,
	[BPF_BTF_GET_FD_BY_ID] = get_id,
	[BPF_TASK_FD_QUERY] = task_fd_query,
	[BPF_MAP_LOOKUP_AND_DELETE_ELEM] = map_elem,
	[BPF_MAP_FREEZE] = map_fd_only,
	[BPF_BTF_GET_NEXT_ID] = get_id,
	[BPF_MAP_LOOKUP_BATCH] = map_batch,
	[BPF_MAP_LOOKUP_AND_DELETE_BATCH] = map_batch,
	[BPF_MAP_UPDATE_BATCH] = map_batch,
	[BPF_MAP_DELETE_BATCH] = map_batch,
	[BPF_LINK_CREATE] = link_create,
	[BPF_LINK_UPDATE] = link_update,
	[BPF_LINK_GET_FD_BY_ID] = get_id,
	[BPF_LINK_GET_NEXT_ID] = get_id,
};

/* attr of size bytes at addr for cmd into v, or its address. */
static void decode_attr(struct dctx *c, struct val *v, const char *name, uint32_t cmd,
			uint64_t addr, uint64_t size, bool exiting)
{
	struct bpf_dec *d;
	unsigned char *buf;
	size_t asize;

	if (!size || size > BPF_PAGE || cmd >= sizeof(bpf_cmds) / sizeof(bpf_cmds[0]) ||
	    !bpf_cmds[cmd] || !addr)
		goto addr;
	buf = arena_alloc(c->arena, size);
	if (!tread(c, addr, buf, size))
		goto addr;
	d = arena_alloc(c->arena, sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->c = c;
	d->cmd = cmd;
	d->exiting = exiting;
	d->len = size < sizeof(d->a) ? size : sizeof(d->a);
	memcpy(&d->a, buf, d->len);
	d->f = val_new_array(c, BPF_MAX_FIELDS);
	asize = bpf_cmds[cmd](d);
	if (size > asize) {
		size_t i;

		for (i = asize; i < size && !buf[i]; i++)
			;
		if (i < size) {
			if (!c->opts->verbose) {
				val_set_struct(v, name, d->f, d->n, true);
				return;
			}
			struct val x;
			char note[48];

			val_set_str(c, &x, NULL, (const char *)buf + asize, size - asize, false);
			x.flags |= VF_HEXSTR;
			snprintf(note, sizeof(note), "bytes %zu..%llu", asize,
				 (unsigned long long)size - 1);
			val_set_commented(c, fld(d), "extra_data", &x, note);
		}
	}
	val_set_struct(v, name, d->f, d->n, false);
	return;
addr:
	val_set_ptr(v, name, addr);
}

/* The item named name of structure v, or NULL. */
static struct val *field_named(struct val *v, const char *name)
{
	if (!v || v->kind != V_STRUCT)
		return NULL;
	for (uint32_t i = 0; i < v->c.n; i++)
		if (v->c.items[i].name && !strcmp(v->c.items[i].name, name))
			return &v->c.items[i];
	return NULL;
}

/* At exit: "next_id=0 => 5" of a BPF_*_GET_NEXT_ID that succeeded. */
static void next_id_exit(struct dctx *c, struct event *ev)
{
	struct val *v = field_named(&ev->args[1], "next_id"), now, was;
	uint32_t id;

	if (!v || ev->err ||
	    !tread(c, ev->karg[1] + offsetof(union bpf_attr, next_id), &id, sizeof(id)))
		return;
	was = *v;
	was.name = NULL;
	val_set_uint(&now, NULL, id);
	val_set_changed(c, v, "next_id", &was, &now);
	ev->args[1].flags |= VF_EXIT;
}

/* At exit of a BPF_PROG_QUERY that succeeded: attr as it is now but
 * attach_flags, the program ids read, "prog_cnt=4 => 1" when the kernel
 * changed the count (not with prog_ids NULL, as strace 6.1). */
static void query_exit(struct dctx *c, struct event *ev)
{
	struct val *v = &ev->args[1], was = *v, *cnt_was, *cnt_now, *flags_was, *flags_now, *ids;

	if (ev->err || v->kind != V_STRUCT)
		return;
	decode_attr(c, v, v->name, BPF_PROG_QUERY, ev->karg[1], ev->karg[2], true);
	v->flags |= VF_EXIT;
	/* attach_flags as it was at entry, as strace 6.1 */
	flags_was = field_named(field_named(&was, "query"), "attach_flags");
	flags_now = field_named(field_named(v, "query"), "attach_flags");
	if (flags_was && flags_now)
		*flags_now = *flags_was;
	ids = field_named(field_named(v, "query"), "prog_ids");
	cnt_was = field_named(field_named(&was, "query"), "prog_cnt");
	cnt_now = field_named(field_named(v, "query"), "prog_cnt");
	if (cnt_was && cnt_now && cnt_was->u != cnt_now->u && ids && ids->kind != V_PTR) {
		struct val a = *cnt_was, b = *cnt_now;

		a.name = b.name = NULL;
		val_set_changed(c, cnt_now, "prog_cnt", &a, &b);
	}
}

/* The kind of BPF object fd of the tracee is, from /proc/PID/fdinfo/FD:
 * 'm' a map, 'p' a program, 0 neither or unknown. */
static char bpf_fd_kind(struct dctx *c, uint32_t fd)
{
	char path[64], line[256];
	char kind = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%u", (int)c->pid, fd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!kind && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "map_type:", 9))
			kind = 'm';
		else if (!strncmp(line, "prog_type:", 10))
			kind = 'p';
	}
	fclose(f);
	return kind;
}

/* struct bpf_map_info of len bytes (1..sizeof) at addr, as strace 6.1
 * prints it with -v: its fields in the groups the kernel added them in.
 * false when it cannot be read. */
static bool map_info(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		     size_t len)
{
	struct bpf_map_info mi;
	struct bpf_dec d = { .c = c };

	memset(&mi, 0, sizeof(mi));
	if (!tread(c, addr, &mi, len))
		return false;
	d.f = val_new_array(c, 16);
	f_enum(&d, "type", mi.type, bpf_map_types);
	f_u(&d, "id", mi.id);
	f_u(&d, "key_size", mi.key_size);
	f_u(&d, "value_size", mi.value_size);
	f_u(&d, "max_entries", mi.max_entries);
	f_flags(&d, "map_flags", mi.map_flags, bpf_map_flags, NULL);
	if (len > offsetof(struct bpf_map_info, name)) {
		size_t n = len - offsetof(struct bpf_map_info, name);

		f_cstr_local(&d, "name", mi.name, n < sizeof(mi.name) ? n : sizeof(mi.name));
	}
	if (len > offsetof(struct bpf_map_info, ifindex)) {
		net_ifindex_val(c, fld(&d), "ifindex", mi.ifindex);
		f_u(&d, "btf_vmlinux_value_type_id", mi.btf_vmlinux_value_type_id);
		ioc_set_dev(c, fld(&d), "netns_dev", mi.netns_dev);
		f_u(&d, "netns_ino", mi.netns_ino);
	}
	if (len > offsetof(struct bpf_map_info, btf_id)) {
		f_u(&d, "btf_id", mi.btf_id);
		f_u(&d, "btf_key_type_id", mi.btf_key_type_id);
		f_u(&d, "btf_value_type_id", mi.btf_value_type_id);
	}
	val_set_struct(v, name, d.f, d.n, false);
	return true;
}

/* load_time (ns since boot) with its date as strace: 2750588628856 / *
 * 2026-12-07T21:07:05+0000 * / */
static void f_boottime(struct bpf_dec *d, const char *name, uint64_t ns)
{
	struct timespec real, boot;
	struct val x, dated;
	int64_t wall;

	val_set_uint(&x, NULL, ns);
	if (clock_gettime(CLOCK_REALTIME, &real) || clock_gettime(CLOCK_BOOTTIME, &boot)) {
		*fld(d) = x;
		d->f[d->n - 1].name = name;
		return;
	}
	wall = ((int64_t)real.tv_sec - boot.tv_sec) * 1000000000 + real.tv_nsec - boot.tv_nsec +
	       (int64_t)ns;
	/* -X raw: the number alone */
	val_set_commented(d->c, &dated, NULL, &x, time_text(d->c, wall / 1000000000, 0));
	val_set_xforms(d->c, fld(d), name, &dated, &x, &dated);
}

/* A struct bpf_prog_info of len bytes (1..PROG_INFO_SIZE) at addr as
 * strace 6.1 prints it with -v, by the groups the kernel added its fields
 * in; at exit (was: the structure decoded at entry, or NULL) the fields
 * that are inputs and outputs show as "0 => 23" where the kernel changed
 * them.  false when it cannot be read. */
static bool prog_info(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      size_t len, struct val *was)
{
	struct bpf_prog_info pi;
	struct bpf_dec d = { .c = c };

	memset(&pi, 0, sizeof(pi));
	if (!tread(c, addr, &pi, len))
		return false;
	d.f = val_new_array(c, 40);
#define IO_U(fname) do { \
		struct val *it = fld(&d), *old = field_named(was, #fname); \
		val_set_uint(it, #fname, pi.fname); \
		if (old && old->kind == V_UINT && old->u != pi.fname) { \
			struct val a = *old, b = *it; \
			a.name = b.name = NULL; \
			val_set_changed(c, it, #fname, &a, &b); \
		} \
	} while (0)
	f_enum(&d, "type", pi.type, bpf_prog_types);
	f_u(&d, "id", pi.id);
	val_set_str(c, fld(&d), "tag", (const char *)pi.tag, sizeof(pi.tag), false);
	d.f[d.n - 1].flags |= VF_HEXSTR;
	IO_U(jited_prog_len);
	f_ptr(&d, "jited_prog_insns", pi.jited_prog_insns);
	IO_U(xlated_prog_len);
	f_ptr(&d, "xlated_prog_insns", pi.xlated_prog_insns);
	if (len > offsetof(struct bpf_prog_info, load_time)) {
		struct val *old = field_named(was, "nr_map_ids");
		uint32_t n = pi.nr_map_ids;

		if (old && old->kind == V_UINT && old->u < n)
			n = (uint32_t)old->u;
		f_boottime(&d, "load_time", pi.load_time);
		f_u(&d, "created_by_uid", pi.created_by_uid);
		IO_U(nr_map_ids);
		if (was)
			decode_array(c, fld(&d), "map_ids", pi.map_ids, n, sizeof(uint32_t),
				     u32_elem, NULL);
		else
			f_ptr(&d, "map_ids", pi.map_ids);
		n = len > offsetof(struct bpf_prog_info, name) ?
		    (uint32_t)(len - offsetof(struct bpf_prog_info, name)) : 0;
		f_cstr_local(&d, "name", pi.name, n < sizeof(pi.name) ? n : sizeof(pi.name));
	}
	if (len > offsetof(struct bpf_prog_info, ifindex)) {
		net_ifindex_val(c, fld(&d), "ifindex", pi.ifindex);
		f_u(&d, "gpl_compatible", pi.gpl_compatible);
		ioc_set_dev(c, fld(&d), "netns_dev", pi.netns_dev);
		f_u(&d, "netns_ino", pi.netns_ino);
	}
	if (len > offsetof(struct bpf_prog_info, nr_jited_ksyms)) {
		IO_U(nr_jited_ksyms);
		IO_U(nr_jited_func_lens);
		f_ptr(&d, "jited_ksyms", pi.jited_ksyms);
		f_ptr(&d, "jited_func_lens", pi.jited_func_lens);
	}
	if (len > offsetof(struct bpf_prog_info, btf_id)) {
		f_u(&d, "btf_id", pi.btf_id);
		IO_U(func_info_rec_size);
		f_ptr(&d, "func_info", pi.func_info);
		IO_U(nr_func_info);
		IO_U(nr_line_info);
		f_ptr(&d, "line_info", pi.line_info);
		f_ptr(&d, "jited_line_info", pi.jited_line_info);
		IO_U(nr_jited_line_info);
		IO_U(line_info_rec_size);
		IO_U(jited_line_info_rec_size);
		IO_U(nr_prog_tags);
		f_ptr(&d, "prog_tags", pi.prog_tags);
	}
	if (len > offsetof(struct bpf_prog_info, run_time_ns)) {
		f_u(&d, "run_time_ns", pi.run_time_ns);
		f_u(&d, "run_cnt", pi.run_cnt);
	}
	if (len > offsetof(struct bpf_prog_info, recursion_misses))
		f_u(&d, "recursion_misses", pi.recursion_misses);
	if (len > offsetof(struct bpf_prog_info, verified_insns))
		f_u(&d, "verified_insns", pi.verified_insns);
#undef IO_U
	val_set_struct(v, name, d.f, d.n, false);
	return true;
}

/* At exit of BPF_OBJ_GET_INFO_BY_FD: "info_len=240 => 232" when the
 * kernel changed it; with -v the info of a map or program, read
 * whether or not the call succeeded, with extra_data for nonzero bytes
 * past the structure (strace 6.1 shows a program's structure too;
 * renacer leaves its address). */
static void info_exit(struct dctx *c, struct event *ev)
{
	struct val *v = field_named(field_named(&ev->args[1], "info"), "info");
	struct { uint32_t fd, len; uint64_t info; } in;
	size_t len;

	struct val *ilen = field_named(field_named(&ev->args[1], "info"), "info_len");
	struct val was;
	size_t size;
	char kind;

	size_t n = ev->karg[2] < sizeof(in) ? (size_t)ev->karg[2] : sizeof(in);

	/* attr as the entry saw it: the bytes past size are zeros */
	memset(&in, 0, sizeof(in));
	if (!v || !tread(c, ev->karg[1] + offsetof(union bpf_attr, info), &in, n))
		return;
	if (ilen && ilen->kind == V_UINT && ilen->u != in.len) {
		struct val a = *ilen, b;

		a.name = NULL;
		val_set_uint(&b, NULL, in.len);
		val_set_changed(c, ilen, "info_len", &a, &b);
		ev->args[1].flags |= VF_EXIT;
	}
	kind = c->opts->verbose ? bpf_fd_kind(c, in.fd) : 0;
	if (!in.info || !in.len || !kind)
		return;
	size = kind == 'm' ? sizeof(struct bpf_map_info) : PROG_INFO_SIZE;
	len = in.len < size ? in.len : size;
	was = *v;
	if (kind == 'm' ? !map_info(c, v, "info", in.info, len) :
	    !prog_info(c, v, "info", in.info, len, was.kind == V_STRUCT ? &was : NULL))
		return;
	ev->args[1].flags |= VF_EXIT;
	if (in.len > len && in.len <= BPF_PAGE) {
		/* bytes past the structure that are not zero */
		unsigned char *buf = arena_alloc(c->arena, in.len);
		struct val x, *items;
		char note[48];
		size_t i;

		if (!tread(c, in.info, buf, in.len))
			return;
		for (i = len; i < in.len && !buf[i]; i++)
			;
		if (i == in.len)
			return;
		val_set_str(c, &x, NULL, (const char *)buf + len, in.len - len, false);
		x.flags |= VF_HEXSTR;
		snprintf(note, sizeof(note), "bytes %zu..%u", len, in.len - 1);
		items = val_new_array(c, v->c.n + 1);
		memcpy(items, v->c.items, v->c.n * sizeof(*items));
		val_set_commented(c, &items[v->c.n], "extra_data", &x, note);
		val_set_struct(v, "info", items, v->c.n + 1, false);
	}
}

/* bpf(cmd, attr, size): see the top of the file.  The commands that make
 * objects return descriptors. */
SYS_FUNC(bpf)
{
	uint32_t cmd = (uint32_t)ev->karg[0];
	bool fd_ret = false, next_id = false;
	struct val *v;

	switch (cmd) {
	case BPF_MAP_CREATE: case BPF_PROG_LOAD: case BPF_OBJ_GET:
	case BPF_PROG_GET_FD_BY_ID: case BPF_MAP_GET_FD_BY_ID:
	case BPF_RAW_TRACEPOINT_OPEN: case BPF_BTF_LOAD: case BPF_BTF_GET_FD_BY_ID:
	case BPF_LINK_CREATE: case BPF_LINK_GET_FD_BY_ID: case BPF_ENABLE_STATS:
	case BPF_ITER_CREATE:
		fd_ret = true;
		break;
	case BPF_PROG_GET_NEXT_ID: case BPF_MAP_GET_NEXT_ID: case BPF_BTF_GET_NEXT_ID:
	case BPF_LINK_GET_NEXT_ID:
		next_id = true;
		break;
	}
	if (exiting) {
		if (fd_ret && !ev->err)
			ret_set_fd(ctx, ev);
		if (next_id)
			next_id_exit(ctx, ev);
		if (cmd == BPF_PROG_QUERY)
			query_exit(ctx, ev);
		if (cmd == BPF_OBJ_GET_INFO_BY_FD)
			info_exit(ctx, ev);
		return RVAL_DONE;
	}
	arg_enum(ctx, ev, 0, bpf_commands);
	v = arg_slot(ctx, ev, 1);
	decode_attr(ctx, v, v->name, cmd, ev->karg[1], ev->karg[2], false);
	arg_uint(ctx, ev, 2);
	if (fd_ret)
		ev->rv_fmt = RV_FD;
	if ((next_id || cmd == BPF_PROG_QUERY || cmd == BPF_OBJ_GET_INFO_BY_FD) &&
	    v->kind == V_STRUCT)
		return RVAL_EXIT;
	return fd_ret && ctx->opts->decode_fds ? RVAL_EXIT : RVAL_DONE;
}
