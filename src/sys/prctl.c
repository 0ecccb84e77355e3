/*
 * prctl(2) as strace 6.1 prints it: each option's arguments (names from
 * linux/prctl.h and linux/securebits.h), the values some options return
 * ("= 0x1 (SECBIT_NOROOT)") and the words some write back ([SIGTERM]).
 * Options that read an argument at exit say so with RVAL_EXIT.
 */
#include "sys/decode.h"

#include <linux/prctl.h>
#include <stdio.h>
#include <string.h>

#include "sys/decode_extra.h"
#include "sys/pidns.h"
#include "xlat/cap.h"
#include "xlat/pr_cap_ambient.h"
#include "xlat/pr_dumpable.h"
#include "xlat/pr_fp_mode.h"
#include "xlat/pr_mce_kill.h"
#include "xlat/pr_mce_kill_policy.h"
#include "xlat/pr_pac_enabled_keys.h"
#include "xlat/pr_pac_keys.h"
#include "xlat/pr_sched_core_cmds.h"
#include "xlat/pr_sched_core_pidtypes.h"
#include "xlat/pr_set_mm.h"
#include "xlat/pr_set_vma.h"
#include "xlat/pr_sme_vl_flags.h"
#include "xlat/pr_spec_cmds.h"
#include "xlat/pr_spec_get_store_bypass_flags.h"
#include "xlat/pr_spec_set_store_bypass_flags.h"
#include "xlat/pr_sud_cmds.h"
#include "xlat/pr_sve_vl_flags.h"
#include "xlat/pr_tagged_addr_mte_tcf.h"
#include "xlat/pr_tsc.h"
#include "xlat/pr_unalign_flags.h"
#include "xlat/prctl_options.h"
#include "xlat/seccomp_mode.h"
#include "xlat/secbits.h"
#include "util/banned.h"

/* Arguments from..4 in hex (strace's print_prctl_args). */
static void hex_args(struct dctx *c, struct event *ev, unsigned from)
{
	for (unsigned i = from; i < 5; i++)
		arg_hex(c, ev, i);
}

static struct val *new_aux(struct dctx *c)
{
	return arena_calloc(c->arena, sizeof(struct val));
}

/* "= N (TEXT)" in every -X style (strace's RVAL_STR with a looked-up name). */
static void ret_text(struct dctx *c, struct event *ev, const char *s)
{
	struct val *aux;

	if (!s)
		return;
	aux = new_aux(c);
	val_set_text(c, aux, NULL, s);
	ev->ret_aux = aux;
}

/* "= 0x... (NAME|NAME)": the result in hex and, when a name of xl matches
 * (or 0 has a name), the names (strace's sprintflags_ex in auxstr mode:
 * names only under -X verbose, nothing under -X raw). */
static void ret_flags(struct dctx *c, struct event *ev, const struct xlat *xl)
{
	const char *s = xlat_flags_text(c, xl, (uint64_t)ev->retval);
	struct val *aux;

	ev->rv_fmt = RV_HEX;
	if (!s)
		return;
	aux = new_aux(c);
	val_set_text(c, aux, NULL, s);
	aux->flags |= VF_AUXSTR;
	ev->ret_aux = aux;
}

/* "= 0x... (TEXT)" with TEXT left out under -X raw. */
static void ret_auxtext(struct dctx *c, struct event *ev, const char *s)
{
	struct val *aux = new_aux(c);

	ev->rv_fmt = RV_HEX;
	val_set_text(c, aux, NULL, s);
	aux->flags |= VF_AUXSTR;
	ev->ret_aux = aux;
}

/*
 * A vector length word of PR_SVE_SET_VL/PR_SME_SET_VL: the flag names
 * above the length, then the length in hex (PR_SVE_VL_INHERIT|0xff), or
 * the length alone.
 */
static void vl_val(struct dctx *c, struct val *v, const char *name, uint64_t x,
		   const struct xlat *flags_xl, uint64_t len_mask)
{
	struct val *it;

	if (!(x & ~len_mask)) {
		val_set_hex(v, name, x);
		return;
	}
	it = val_new_array(c, 2);
	val_set_flags(&it[0], NULL, x & ~len_mask, flags_xl, NULL);
	val_set_hex(&it[1], NULL, x & len_mask);
	val_set_op(v, name, it, 2, "|");
}

/* The abbreviated text of a vector length result, or NULL when no flag is
 * set (strace then shows the number alone). */
static const char *vl_text(struct dctx *c, uint64_t x, const struct xlat *flags_xl,
			   uint64_t len_mask)
{
	char buf[160];
	size_t n = 0;
	uint64_t rem = x & ~len_mask;

	if (!rem)
		return NULL;
	for (uint32_t i = 0; i < flags_xl->size; i++) {
		uint64_t bit = flags_xl->data[i].val;

		if (bit && (rem & bit) == bit) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s|", flags_xl->data[i].str);
			rem &= ~bit;
		}
	}
	if (rem)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%#llx|", (unsigned long long)rem);
	snprintf(buf + n, sizeof(buf) - n, "%#llx", (unsigned long long)(x & len_mask));
	return arena_strndup(c->arena, buf, strlen(buf));
}

/* The abbreviated text of a tagged address control word:
 * PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_SYNC|0x1<<PR_MTE_TAG_SHIFT|0x... */
static const char *tagged_text(struct dctx *c, uint64_t x)
{
	uint64_t tcf = x & PR_MTE_TCF_MASK, tag = x & PR_MTE_TAG_MASK;
	uint64_t rest = x & ~((uint64_t)PR_TAGGED_ADDR_ENABLE | PR_MTE_TCF_MASK | PR_MTE_TAG_MASK);
	const char *tcf_name = xlat_name(pr_tagged_addr_mte_tcf, tcf);
	char buf[192];
	size_t n;

	n = (size_t)snprintf(buf, sizeof(buf), "%sPR_TAGGED_ADDR_ENABLE|",
			     (x & PR_TAGGED_ADDR_ENABLE) ? "" : "!");
	if (tcf_name)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", tcf_name);
	else
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%#llx", (unsigned long long)tcf);
	if (tag)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "|%#llx<<PR_MTE_TAG_SHIFT",
				      (unsigned long long)(tag >> PR_MTE_TAG_SHIFT));
	if (rest)
		snprintf(buf + n, sizeof(buf) - n, "|%#llx", (unsigned long long)rest);
	return arena_strndup(c->arena, buf, strlen(buf));
}

/* [N] of the int at addr (printnum_int), as unsigned or a signal name. */
static void out_int(struct dctx *c, struct event *ev, bool sig, const struct xlat *xl,
		    bool flags)
{
	struct val *v = arg_slot(c, ev, 1);
	uint32_t x;

	if (ev->err || !tread(c, ev->karg[1], &x, sizeof(x))) {
		val_set_ptr(v, v->name, ev->karg[1]);
	} else {
		struct val t;

		if (sig)
			val_set_signal(c, &t, NULL, (int)x);
		else if (xl && flags)
			val_set_flags(&t, NULL, x, xl, NULL);
		else if (xl)
			val_set_enum(&t, NULL, x, xl);
		else
			val_set_uint(&t, NULL, x);
		val_set_boxed(c, v, v->name, &t);
	}
	v->flags |= VF_EXIT;
}

/* The pid type of PR_SCHED_CORE's scope argument. */
static enum pid_type sched_core_pt(uint32_t scope)
{
	switch (scope) {
	case 0: return PT_TID;
	case 1: return PT_TGID;
	case 2: return PT_PGID;
	case 3: return PT_SID;
	default: return PT_NONE;
	}
}

/* prctl at entry: returns RVAL_EXIT when an argument or the result is shown
 * at exit. */
static int prctl_entry(struct dctx *c, struct event *ev, uint32_t opt)
{
	uint64_t a2 = ev->karg[1];
	struct val *v;

	switch (opt) {
	case PR_GET_KEEPCAPS:
	case PR_GET_SECCOMP:
	case PR_GET_TIMERSLACK:
	case PR_GET_TIMING:
	case PR_TASK_PERF_EVENTS_DISABLE:
	case PR_TASK_PERF_EVENTS_ENABLE:
		return RVAL_DONE;
	case PR_GET_CHILD_SUBREAPER:
	case PR_GET_ENDIAN:
	case PR_GET_FPEMU:
	case PR_GET_FPEXC:
	case PR_GET_NAME:
	case PR_GET_PDEATHSIG:
	case PR_GET_TID_ADDRESS:
	case PR_GET_TSC:
	case PR_GET_UNALIGN:
		arg_count(ev, 2);
		return RVAL_EXIT;
	case PR_GET_DUMPABLE:
	case PR_GET_SECUREBITS:
	case PR_GET_FP_MODE:
	case PR_SVE_GET_VL:
	case PR_SME_GET_VL:
		return RVAL_EXIT;
	case PR_SVE_SET_VL:
		v = arg_slot(c, ev, 1);
		vl_val(c, v, v->name, a2, pr_sve_vl_flags, PR_SVE_VL_LEN_MASK);
		return RVAL_EXIT;
	case PR_SME_SET_VL:
		v = arg_slot(c, ev, 1);
		vl_val(c, v, v->name, a2, pr_sme_vl_flags, PR_SME_VL_LEN_MASK);
		return RVAL_EXIT;
	case PR_GET_SPECULATION_CTRL:
		arg_enum(c, ev, 1, pr_spec_cmds);
		return RVAL_EXIT;
	case PR_SET_TAGGED_ADDR_CTRL:
		v = arg_slot(c, ev, 1);
		val_set_named_num(c, v, v->name, a2, tagged_text(c, a2));
		hex_args(c, ev, 2);
		return RVAL_DONE;
	case PR_GET_TAGGED_ADDR_CTRL:
	case PR_MCE_KILL_GET:
	case PR_PAC_GET_ENABLED_KEYS:
		hex_args(c, ev, 1);
		return RVAL_EXIT;
	case PR_SET_CHILD_SUBREAPER:
	case PR_SET_ENDIAN:
	case PR_SET_FPEMU:
	case PR_SET_FPEXC:
	case PR_SET_KEEPCAPS:
	case PR_SET_TIMING:
		arg_uint(c, ev, 1);
		return RVAL_DONE;
	case PR_SET_DUMPABLE:
		arg_enum(c, ev, 1, pr_dumpable);
		return RVAL_DONE;
	case PR_CAPBSET_DROP:
	case PR_CAPBSET_READ:
		arg_enum(c, ev, 1, cap);
		return RVAL_DONE;
	case PR_CAP_AMBIENT:
		arg_enum(c, ev, 1, pr_cap_ambient);
		if (a2 == PR_CAP_AMBIENT_RAISE || a2 == PR_CAP_AMBIENT_LOWER ||
		    a2 == PR_CAP_AMBIENT_IS_SET) {
			arg_enum(c, ev, 2, cap);
			hex_args(c, ev, 3);
		} else {
			hex_args(c, ev, 2);
		}
		return RVAL_DONE;
	case PR_MCE_KILL:
		arg_enum(c, ev, 1, pr_mce_kill);
		if (a2 == PR_MCE_KILL_SET)
			arg_enum(c, ev, 2, pr_mce_kill_policy);
		else
			arg_hex(c, ev, 2);
		hex_args(c, ev, 3);
		return RVAL_DONE;
	case PR_SET_NAME:
		v = arg_slot(c, ev, 1);
		val_read_cstr_n(c, v, v->name, a2, 15);
		return RVAL_DONE;
	case PR_SET_VMA:
		arg_enum(c, ev, 1, pr_set_vma);
		if (a2 == PR_SET_VMA_ANON_NAME) {
			arg_ptr(c, ev, 2);
			arg_uint(c, ev, 3);
			arg_cstr(c, ev, 4);
		} else {
			hex_args(c, ev, 2);
		}
		return RVAL_DONE;
	case PR_SET_MM:
		arg_enum(c, ev, 1, pr_set_mm);
		ev->args[1].x.v = (uint32_t)a2;
		hex_args(c, ev, 2);
		return RVAL_DONE;
	case PR_SET_PDEATHSIG:
		v = arg_slot(c, ev, 1);
		if (a2 > 128)
			val_set_uint(v, v->name, a2);
		else
			val_set_signal(c, v, v->name, (int)a2);
		return RVAL_DONE;
	case PR_SET_PTRACER:
		v = arg_slot(c, ev, 1);
		if ((int)a2 == -1) {
			val_set_named_num(c, v, v->name, (uint64_t)-1, "PR_SET_PTRACER_ANY");
			v->flags |= VF_DECIMAL;
		} else {
			val_set_pid(c, v, v->name, (int)a2, PT_TGID);
		}
		return RVAL_DONE;
	case PR_SET_SECCOMP:
		arg_enum(c, ev, 1, seccomp_mode);
		if (a2 == 1)          /* SECCOMP_MODE_STRICT */
			return RVAL_DONE;
		if (a2 == 2) {        /* SECCOMP_MODE_FILTER */
			v = arg_slot(c, ev, 2);
			decode_bpf_fprog(c, v, v->name, ev->karg[2], BPF_PROG_SECCOMP);
			return RVAL_DONE;
		}
		hex_args(c, ev, 2);
		return RVAL_DONE;
	case PR_SET_SECUREBITS:
		arg_flags(c, ev, 1, secbits, NULL);
		return RVAL_DONE;
	case PR_SET_TIMERSLACK:
		arg_long(c, ev, 1);
		return RVAL_DONE;
	case PR_SET_TSC:
		arg_enum(c, ev, 1, pr_tsc);
		ev->args[1].x.v = (uint32_t)a2;
		return RVAL_DONE;
	case PR_SET_UNALIGN:
		arg_flags(c, ev, 1, pr_unalign_flags, NULL);
		ev->args[1].x.v = (uint32_t)a2;
		return RVAL_DONE;
	case PR_SET_NO_NEW_PRIVS:
	case PR_SET_THP_DISABLE:
	case PR_SET_IO_FLUSHER:
		arg_uint(c, ev, 1);
		hex_args(c, ev, 2);
		return RVAL_DONE;
	case PR_SET_FP_MODE:
		arg_flags(c, ev, 1, pr_fp_mode, NULL);
		ev->args[1].x.v = (uint32_t)a2;
		return RVAL_DONE;
	case PR_SET_SPECULATION_CTRL:
		arg_enum(c, ev, 1, pr_spec_cmds);
		if (a2 == PR_SPEC_STORE_BYPASS || a2 == PR_SPEC_INDIRECT_BRANCH ||
		    a2 == PR_SPEC_L1D_FLUSH)
			arg_enum(c, ev, 2, pr_spec_set_store_bypass_flags);
		else
			arg_hex(c, ev, 2);
		return RVAL_DONE;
	case PR_PAC_RESET_KEYS:
		/* the enabled keys first, then the generic one */
		arg_flags(c, ev, 1, pr_pac_keys, NULL);
		hex_args(c, ev, 2);
		return RVAL_DONE;
	case PR_PAC_SET_ENABLED_KEYS:
		arg_flags(c, ev, 1, pr_pac_enabled_keys, NULL);
		arg_flags(c, ev, 2, pr_pac_enabled_keys, NULL);
		hex_args(c, ev, 3);
		return RVAL_DONE;
	case PR_SET_SYSCALL_USER_DISPATCH:
		arg_enum(c, ev, 1, pr_sud_cmds);
		arg_hex(c, ev, 2);
		arg_hex(c, ev, 3);
		arg_ptr(c, ev, 4);
		return RVAL_DONE;
	case PR_SCHED_CORE: {
		uint32_t scope = (uint32_t)ev->karg[3];

		arg_enum(c, ev, 1, pr_sched_core_cmds);
		ev->args[1].x.v = (uint32_t)a2;
		v = arg_slot(c, ev, 2);
		val_set_pid(c, v, v->name, (int)ev->karg[2], sched_core_pt(scope));
		arg_enum(c, ev, 3, pr_sched_core_pidtypes);
		ev->args[3].x.v = scope;
		ev->args[3].flags |= VF_XVERBOSE;
		if ((uint32_t)a2 == PR_SCHED_CORE_GET) {
			arg_count(ev, 5);
			return RVAL_EXIT;
		}
		arg_ptr(c, ev, 4);
		return RVAL_DONE;
	}
	default:
		hex_args(c, ev, 1);
		return RVAL_DONE;
	}
}

/* prctl at exit: output arguments and results shown with a name. */
static void prctl_exit(struct dctx *c, struct event *ev, uint32_t opt)
{
	struct val *v;
	const char *s;

	switch (opt) {
	case PR_GET_CHILD_SUBREAPER:
	case PR_GET_ENDIAN:
	case PR_GET_FPEMU:
	case PR_GET_FPEXC:
		out_int(c, ev, false, NULL, false);
		break;
	case PR_GET_PDEATHSIG:
		out_int(c, ev, true, NULL, false);
		break;
	case PR_GET_TSC:
		out_int(c, ev, false, pr_tsc, false);
		break;
	case PR_GET_UNALIGN:
		out_int(c, ev, false, pr_unalign_flags, true);
		break;
	case PR_GET_TID_ADDRESS: {
		uint64_t p;

		v = arg_slot(c, ev, 1);
		if (ev->err || !tread(c, ev->karg[1], &p, sizeof(p))) {
			val_set_ptr(v, v->name, ev->karg[1]);
		} else {
			struct val t;

			val_set_ptr(&t, NULL, p);
			val_set_boxed(c, v, v->name, &t);
		}
		v->flags |= VF_EXIT;
		break;
	}
	case PR_GET_NAME:
		v = arg_slot(c, ev, 1);
		if (ev->err)
			val_set_ptr(v, v->name, ev->karg[1]);
		else
			val_read_cstr_n(c, v, v->name, ev->karg[1], 16);
		v->flags |= VF_EXIT;
		break;
	case PR_GET_DUMPABLE:
		if (!ev->err)
			ret_text(c, ev, xlat_name(pr_dumpable, (uint64_t)ev->retval));
		break;
	case PR_MCE_KILL_GET:
		if (!ev->err)
			ret_text(c, ev, xlat_name(pr_mce_kill_policy, (uint64_t)ev->retval));
		break;
	case PR_GET_SECUREBITS:
		if (!ev->err && ev->retval)
			ret_flags(c, ev, secbits);
		break;
	case PR_GET_FP_MODE:
		if (!ev->err && ev->retval)
			ret_flags(c, ev, pr_fp_mode);
		break;
	case PR_PAC_GET_ENABLED_KEYS:
		if (!ev->err)
			ret_flags(c, ev, pr_pac_enabled_keys);
		break;
	case PR_SVE_SET_VL:
	case PR_SVE_GET_VL:
	case PR_SME_SET_VL:
	case PR_SME_GET_VL: {
		bool sve = opt == PR_SVE_SET_VL || opt == PR_SVE_GET_VL;

		if (ev->err || !ev->retval)
			break;
		ev->rv_fmt = RV_HEX;
		s = sve ? vl_text(c, (uint64_t)ev->retval, pr_sve_vl_flags, PR_SVE_VL_LEN_MASK)
			: vl_text(c, (uint64_t)ev->retval, pr_sme_vl_flags, PR_SME_VL_LEN_MASK);
		if (s)
			ret_auxtext(c, ev, s);
		break;
	}
	case PR_GET_SPECULATION_CTRL:
		if (ev->err)
			break;
		switch (ev->karg[1]) {
		case PR_SPEC_STORE_BYPASS:
		case PR_SPEC_INDIRECT_BRANCH:
		case PR_SPEC_L1D_FLUSH:
			ret_flags(c, ev, pr_spec_get_store_bypass_flags);
			break;
		}
		break;
	case PR_GET_TAGGED_ADDR_CTRL:
		if (!ev->err)
			ret_auxtext(c, ev, tagged_text(c, (uint64_t)ev->retval));
		break;
	case PR_SCHED_CORE: {
		uint64_t cookie;

		v = arg_slot(c, ev, 4);
		if (ev->err || !tread(c, ev->karg[4], &cookie, sizeof(cookie))) {
			val_set_ptr(v, v->name, ev->karg[4]);
		} else {
			struct val t;

			val_set_hex(&t, NULL, cookie);
			val_set_boxed(c, v, v->name, &t);
		}
		v->flags |= VF_EXIT;
		break;
	}
	}
}

SYS_FUNC(prctl)
{
	uint32_t opt = (uint32_t)ev->karg[0];

	if (exiting) {
		prctl_exit(ctx, ev, opt);
		return RVAL_DONE;
	}
	arg_enum(ctx, ev, 0, prctl_options);
	ev->args[0].x.v = opt;
	return prctl_entry(ctx, ev, opt);
}
