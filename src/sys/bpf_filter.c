/*
 * Classic BPF programs (struct sock_fprog) as strace prints them: {len=N,
 * filter=0xADDR}, and with -v each instruction as BPF_STMT(code, k) or
 * BPF_JUMP(code, k, jt, jf), the code split into its named fields; seccomp
 * filters name their return actions, socket filters their special load
 * offsets (SKF_AD_OFF+SKF_AD_PROTOCOL).
 */
#include "sys/decode.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode_extra.h"
#include "xlat/bpf_class.h"
#include "xlat/ebpf_class.h"
#include "xlat/ebpf_mode.h"
#include "xlat/bpf_miscop.h"
#include "xlat/bpf_mode.h"
#include "xlat/bpf_op_alu.h"
#include "xlat/bpf_op_jmp.h"
#include "xlat/bpf_rval.h"
#include "xlat/bpf_size.h"
#include "xlat/bpf_src.h"
#include "xlat/seccomp_ret_action.h"
#include "xlat/skf_ad.h"
#include "util/banned.h"

/* Parts of an expression joined by "|" where each part shows in its own
 * -X style (strace prints "0x6|0" under -X raw, not one number). */
struct parts {
	struct val it[8];
	unsigned n;
};

static struct val *part(struct dctx *c, struct parts *p)
{
	if (p->n)
		val_set_text(c, &p->it[p->n++], NULL, "|");
	return &p->it[p->n++];
}

static void parts_val(struct dctx *c, struct val *v, struct parts *p)
{
	struct val *it = val_new_array(c, p->n);

	memcpy(it, p->it, p->n * sizeof(*it));
	val_set_op(v, NULL, it, p->n, NULL);
}

/* An unknown remainder: 0x8 / * BPF_??? * / in every -X style. */
static void unknown_bits(struct dctx *c, struct parts *p, unsigned x)
{
	struct val *it = val_new_array(c, 2);

	val_set_hex(&it[0], NULL, x);
	val_set_comment(c, &it[1], "BPF_???");
	val_set_op(part(c, p), NULL, it, 2, " ");
}

/* The code of a classic BPF instruction (strace's print_bpf_filter_code),
 * or with ebpf of an eBPF one: its classes 6 and 7 are BPF_JMP32 (the
 * rest not named, as strace 6.1) and BPF_ALU64, and its stores show a
 * size and mode. */
static void bpf_code(struct dctx *c, struct val *v, uint16_t code, bool ebpf)
{
	struct parts p = { .n = 0 };
	unsigned rest = code & ~BPF_CLASS(code);

	val_set_enum(part(c, &p), NULL, BPF_CLASS(code), ebpf ? ebpf_class : bpf_class);
	switch (BPF_CLASS(code)) {
	case BPF_ST:
	case BPF_STX:
		if (ebpf) {
			val_set_enum(part(c, &p), NULL, BPF_SIZE(code), bpf_size);
			val_set_enum(part(c, &p), NULL, BPF_MODE(code), ebpf_mode);
		} else if (rest) {
			unknown_bits(c, &p, rest);
		}
		break;
	case BPF_LD:
	case BPF_LDX:
		val_set_enum(part(c, &p), NULL, BPF_SIZE(code), bpf_size);
		val_set_enum(part(c, &p), NULL, BPF_MODE(code), ebpf ? ebpf_mode : bpf_mode);
		break;
	case BPF_MISC:
		if (ebpf) {  /* BPF_ALU64 */
			val_set_enum(part(c, &p), NULL, BPF_SRC(code), bpf_src);
			val_set_enum(part(c, &p), NULL, BPF_OP(code), bpf_op_alu);
			break;
		}
		val_set_enum(part(c, &p), NULL, BPF_MISCOP(code), bpf_miscop);
		rest &= ~(unsigned)BPF_MISCOP(code);
		if (rest)
			unknown_bits(c, &p, rest);
		break;
	case BPF_ALU:
		val_set_enum(part(c, &p), NULL, BPF_SRC(code), bpf_src);
		val_set_enum(part(c, &p), NULL, BPF_OP(code), bpf_op_alu);
		break;
	case BPF_JMP:
		val_set_enum(part(c, &p), NULL, BPF_SRC(code), bpf_src);
		val_set_enum(part(c, &p), NULL, BPF_OP(code), bpf_op_jmp);
		break;
	case BPF_RET:
		if (ebpf) {  /* BPF_JMP32 */
			if (rest)
				unknown_bits(c, &p, rest);
			break;
		}
		val_set_enum(part(c, &p), NULL, BPF_RVAL(code), bpf_rval);
		rest &= ~(unsigned)BPF_RVAL(code);
		if (rest)
			unknown_bits(c, &p, rest);
		break;
	}
	parts_val(c, v, &p);
}

void val_set_bpf_code(struct dctx *c, struct val *v, const char *name, uint16_t code,
		      bool ebpf)
{
	bpf_code(c, v, code, ebpf);
	v->name = name;
}

/* k of a BPF_STMT: named where the filter kind knows it, else in hex. */
static void bpf_k(struct dctx *c, struct val *v, const struct sock_filter *f,
		  enum bpf_prog_kind kind)
{
	struct parts p = { .n = 0 };

	if (kind == BPF_PROG_SECCOMP && BPF_CLASS(f->code) == BPF_RET) {
		uint32_t action = f->k & SECCOMP_RET_ACTION_FULL, data = f->k & ~action;

		val_set_enum(part(c, &p), NULL, action, seccomp_ret_action);
		if (data)
			val_set_hex(part(c, &p), NULL, data);
		parts_val(c, v, &p);
		return;
	}
	if (kind == BPF_PROG_SOCKET && BPF_CLASS(f->code) == BPF_LD &&
	    BPF_MODE(f->code) == BPF_ABS && f->k >= (uint32_t)SKF_LL_OFF) {
		struct val *it = val_new_array(c, 3);
		uint32_t base = f->k >= (uint32_t)SKF_AD_OFF ? (uint32_t)SKF_AD_OFF :
				f->k >= (uint32_t)SKF_NET_OFF ? (uint32_t)SKF_NET_OFF :
				(uint32_t)SKF_LL_OFF;

		val_set_named_num(c, &it[0], NULL, base,
				  base == (uint32_t)SKF_AD_OFF ? "SKF_AD_OFF" :
				  base == (uint32_t)SKF_NET_OFF ? "SKF_NET_OFF" : "SKF_LL_OFF");
		val_set_text(c, &it[1], NULL, "+");
		if (base == (uint32_t)SKF_AD_OFF)
			val_set_enum(&it[2], NULL, f->k - base, skf_ad);
		else
			val_set_uint(&it[2], NULL, f->k - base);
		val_set_op(v, NULL, it, 3, NULL);
		return;
	}
	val_set_hex(v, NULL, f->k);
}

struct insn_arg {
	enum bpf_prog_kind kind;
	unsigned count;
};

static void bpf_insn(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct sock_filter *f = elem;
	struct insn_arg *a = arg;
	struct val *it;

	if (f->jt || f->jf) {
		it = val_new_array(c, 4);
		bpf_code(c, &it[0], f->code, false);
		val_set_hex(&it[1], NULL, f->k);
		val_set_hex(&it[2], NULL, f->jt);
		val_set_hex(&it[3], NULL, f->jf);
		val_set_call(c, item, NULL, "BPF_JUMP", it, 4);
	} else {
		it = val_new_array(c, 2);
		bpf_code(c, &it[0], f->code, false);
		bpf_k(c, &it[1], f, a->kind);
		val_set_call(c, item, NULL, "BPF_STMT", it, 2);
	}
	a->count++;
}

void decode_bpf_insns(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      uint64_t len, enum bpf_prog_kind kind)
{
	struct insn_arg a = { kind, 0 };

	if (!c->opts->verbose) {
		val_set_ptr(v, name, addr);
		return;
	}
	/* at most BPF_MAXINSNS (4096, DECODE_MAX_ELEMS) instructions, then
	 * "...", as strace */
	decode_array(c, v, name, addr, len, sizeof(struct sock_filter), bpf_insn, &a);
}

void decode_bpf_fprog(struct dctx *c, struct val *v, const char *name, uint64_t addr,
		      enum bpf_prog_kind kind)
{
	struct { uint16_t len; uint64_t filter; } fp;   /* x86_64 layout */
	struct val *f;

	if (!addr || !tread(c, addr, &fp, sizeof(fp))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 2);
	val_set_uint(&f[0], "len", fp.len);
	decode_bpf_insns(c, &f[1], "filter", fp.filter, fp.len, kind);
	val_set_struct(v, name, f, 2, false);
}
