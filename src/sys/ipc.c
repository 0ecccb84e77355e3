/*
 * IPC decoders, as strace 6.1 prints them: SysV shared memory (shmget,
 * shmat, shmdt, shmctl), semaphores (semget, semop, semtimedop, semctl),
 * message queues (msgget, msgsnd, msgrcv, msgctl) and POSIX message queues
 * (mq_open, mq_unlink, mq_timedsend, mq_timedreceive, mq_notify,
 * mq_getsetattr).
 */
#include "sys/decode.h"

#include <fcntl.h>
#include <mqueue.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include "sys/decode_extra.h"
#include "xlat/ipc_msg_flags.h"
#include "xlat/ipc_private.h"
#include "xlat/mq_attr_flags.h"
#include "xlat/msgctl_flags.h"
#include "xlat/resource_flags.h"
#include "xlat/semctl_flags.h"
#include "xlat/semop_flags.h"
#include "xlat/shm_flags.h"
#include "xlat/shm_resource_flags.h"
#include "xlat/shmctl_flags.h"
#include "util/banned.h"

/* The "new style" flag of the ctl commands; strace shows it as IPC_64|. */
#define IPC_64_BIT 0x100ULL
/* shmget's huge page size field: log2(size) << 26. */
#define SHM_HUGE_SHIFT_BITS 26
#define SHM_HUGE_MASK_BITS 0x3fULL

/* The most elements of a sembuf array read with -v (no string limit). */
#define SEMBUF_MAX 4096

/* Commands that appear in the glibc headers only with _GNU_SOURCE or newer. */
#ifndef SHM_STAT_ANY
#define SHM_STAT_ANY 15
#endif
#ifndef SEM_STAT_ANY
#define SEM_STAT_ANY 20
#endif
#ifndef MSG_STAT_ANY
#define MSG_STAT_ANY 13
#endif

/* v = the items joined by '|', or the one item itself (keeping v's name). */
/* Parts joined by "|", each in its own -X style, as strace prints them
 * one after the other ("0xface1c00|0125" under -X raw). */
static void set_or(struct dctx *c, struct val *v, const char *name, struct val *items,
		   unsigned n)
{
	if (n == 1) {
		*v = items[0];
		v->name = name;
		return;
	}
	val_set_or(c, v, name, items, n);
}

/* Marks a slot filled at the exit stop through val_set_*(). */
static void mark_exit(struct event *ev, struct val *v)
{
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
}

/* key: IPC_PRIVATE or the key in hex. */
static void arg_key(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	val_set_enum(v, v->name, (uint32_t)ev->karg[i], ipc_private);
}

/* semget/msgget flags: IPC_CREAT|IPC_EXCL|0600 (the mode always shown).
 * Unknown bits alone are followed by the mode with no "|" (0x12000000 for
 * 0x12000), as strace 6.1 joins on the names printflags_in printed. */
static void arg_get_flags(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);
	uint64_t f = ev->karg[i];
	struct val *it = val_new_array(c, 2);
	unsigned n = 0;

	if (f & ~0777ULL)
		val_set_flags(&it[n++], NULL, f & ~0777ULL, resource_flags, NULL);
	val_set_oct(&it[n++], NULL, f & 0777);
	if (n == 2 && !xlat_flags_named(resource_flags, f & ~0777ULL)) {
		/* strace's printflags "printed nothing" when no name matched:
		 * no "|" before the mode ("0x12000000" is 0x12000 and 000),
		 * except under -X raw */
		struct val forms[3];

		val_set_op(&forms[0], NULL, it, 2, NULL);
		val_set_or(c, &forms[1], NULL, it, 2);
		forms[2] = forms[0];
		val_set_xforms(c, v, v->name, &forms[0], &forms[1], &forms[2]);
		return;
	}
	set_or(c, v, v->name, it, n);
}

/* shmget flags: IPC_CREAT|SHM_HUGETLB|21<<SHM_HUGE_SHIFT|0600. */
static void arg_shmget_flags(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);
	uint32_t raw = (uint32_t)ev->karg[i];
	uint32_t mask = (uint32_t)(SHM_HUGE_MASK_BITS << SHM_HUGE_SHIFT_BITS);
	uint32_t huge = raw & ~0777U & mask;
	uint32_t f = raw & ~0777U & ~mask;
	struct val *it = val_new_array(c, 3);
	unsigned n = 0;

	if (f)
		val_set_flags(&it[n++], NULL, f, shm_resource_flags, NULL);
	if (huge) {
		struct val *h = val_new_array(c, 2);

		val_set_uint(&h[0], NULL, huge >> SHM_HUGE_SHIFT_BITS);
		val_set_named_num(c, &h[1], NULL, SHM_HUGE_SHIFT_BITS, "SHM_HUGE_SHIFT");
		h[1].flags |= VF_DECIMAL;
		val_set_op(&it[n++], NULL, h, 2, "<<");
	}
	val_set_oct(&it[n++], NULL, raw & 0777);
	set_or(c, v, v->name, it, n);
}

/* A ctl command: IPC_64|IPC_STAT, SHM_LOCK, 0x63 / * SHM_??? * /. */
static void arg_ctl(struct dctx *c, struct event *ev, unsigned i, const struct xlat *xl)
{
	struct val *v = arg_slot(c, ev, i);
	uint64_t cmd = ev->karg[i];
	struct val *it;

	if (!(cmd & IPC_64_BIT)) {
		val_set_enum(v, v->name, cmd, xl);
		return;
	}
	it = val_new_array(c, 2);
	val_set_named_num(c, &it[0], NULL, IPC_64_BIT, "IPC_64");
	val_set_enum(&it[1], NULL, cmd & ~IPC_64_BIT, xl);
	val_set_or(c, v, v->name, it, 2);
}

/* The command of a ctl call without IPC_64. */
static unsigned ctl_cmd(const struct event *ev, unsigned i)
{
	return (unsigned)ev->karg[i] & ~(unsigned)IPC_64_BIT;
}

/* A user or group id: -1 for (uid_t)-1, else unsigned. */
static void val_set_id(struct val *v, const char *name, uint32_t id)
{
	if (id == UINT32_MAX)
		val_set_int(v, name, -1);
	else
		val_set_uint(v, name, id);
}

/* {uid=0, gid=0, mode=0600[, key=0, cuid=0, cgid=0]}: IPC_SET shows only
 * what it sets. */
static void val_set_perm(struct dctx *c, struct val *v, const char *name,
			 const struct ipc_perm *p, bool set)
{
	struct val *f = val_new_array(c, 6);
	unsigned n = 0;

	val_set_id(&f[n++], "uid", p->uid);
	val_set_id(&f[n++], "gid", p->gid);
	val_set_oct(&f[n++], "mode", p->mode);
	if (!set) {
		val_set_uint(&f[n++], "key", (uint32_t)p->__key);
		val_set_id(&f[n++], "cuid", p->cuid);
		val_set_id(&f[n++], "cgid", p->cgid);
	}
	val_set_struct(v, name, f, n, false);
}

/* ---- shared memory ---- */

static void decode_shmid_ds(struct dctx *c, struct val *v, const char *name,
			    uint64_t addr, unsigned cmd)
{
	struct shmid_ds ds;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &ds, sizeof(ds))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 8);
	val_set_perm(c, &f[n++], "shm_perm", &ds.shm_perm, cmd == IPC_SET);
	if (cmd != IPC_SET) {
		val_set_uint(&f[n++], "shm_segsz", ds.shm_segsz);
		val_set_int(&f[n++], "shm_cpid", ds.shm_cpid);
		val_set_int(&f[n++], "shm_lpid", ds.shm_lpid);
		val_set_uint(&f[n++], "shm_nattch", ds.shm_nattch);
		val_set_uint(&f[n++], "shm_atime", (uint64_t)ds.shm_atime);
		val_set_uint(&f[n++], "shm_dtime", (uint64_t)ds.shm_dtime);
		val_set_uint(&f[n++], "shm_ctime", (uint64_t)ds.shm_ctime);
	}
	val_set_struct(v, name, f, n, false);
}

/* IPC_INFO: struct shminfo. */
static void decode_shminfo(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct shminfo si;
	struct val *f;

	if (!tread(c, addr, &si, sizeof(si))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 5);
	val_set_uint(&f[0], "shmmax", si.shmmax);
	val_set_uint(&f[1], "shmmin", si.shmmin);
	val_set_uint(&f[2], "shmmni", si.shmmni);
	val_set_uint(&f[3], "shmseg", si.shmseg);
	val_set_uint(&f[4], "shmall", si.shmall);
	val_set_struct(v, name, f, 5, false);
}

/* SHM_INFO: struct shm_info. */
static void decode_shm_info(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct shm_info si;
	struct val *f;

	if (!tread(c, addr, &si, sizeof(si))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 6);
	val_set_int(&f[0], "used_ids", si.used_ids);
	val_set_uint(&f[1], "shm_tot", si.shm_tot);
	val_set_uint(&f[2], "shm_rss", si.shm_rss);
	val_set_uint(&f[3], "shm_swp", si.shm_swp);
	val_set_uint(&f[4], "swap_attempts", si.swap_attempts);
	val_set_uint(&f[5], "swap_successes", si.swap_successes);
	val_set_struct(v, name, f, 6, false);
}

/* shmget(key, size, flags): at entry. */
SYS_FUNC(shmget)
{
	arg_key(ctx, ev, 0);
	arg_uint(ctx, ev, 1);
	arg_shmget_flags(ctx, ev, 2);
	return RVAL_DONE;
}

/* shmat(shmid, shmaddr, shmflg): the attach address is the result, in hex. */
SYS_FUNC(shmat)
{
	struct val *v;

	if (!exiting) {
		arg_int(ctx, ev, 0);
		arg_ptr(ctx, ev, 1);
		v = arg_slot(ctx, ev, 2);
		val_set_flags(v, v->name, (uint32_t)ev->karg[2], shm_flags, NULL);
		return RVAL_EXIT;
	}
	if (!ev->err)
		ev->rv_fmt = RV_HEX;
	return RVAL_DONE;
}

SYS_FUNC(shmdt)
{
	arg_ptr(ctx, ev, 0);
	return RVAL_DONE;
}

/* shmctl(shmid, cmd, buf): IPC_SET's buffer at entry, what the kernel
 * fills (IPC_STAT, SHM_STAT, IPC_INFO, SHM_INFO) at exit, else the
 * address. */
SYS_FUNC(shmctl)
{
	unsigned cmd = ctl_cmd(ev, 1);
	struct val *v;

	if (!exiting) {
		arg_int(ctx, ev, 0);
		arg_ctl(ctx, ev, 1, shmctl_flags);
		switch (cmd) {
		case IPC_SET:
			v = arg_slot(ctx, ev, 2);
			decode_shmid_ds(ctx, v, v->name, ev->karg[2], cmd);
			return RVAL_DONE;
		case IPC_STAT:
		case SHM_STAT:
		case SHM_STAT_ANY:
		case IPC_INFO:
		case SHM_INFO:
			arg_count(ev, 3);
			return RVAL_EXIT;
		default:
			arg_ptr(ctx, ev, 2);
			return RVAL_DONE;
		}
	}
	v = arg_slot(ctx, ev, 2);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[2]);
	else if (cmd == IPC_INFO)
		decode_shminfo(ctx, v, v->name, ev->karg[2]);
	else if (cmd == SHM_INFO)
		decode_shm_info(ctx, v, v->name, ev->karg[2]);
	else
		decode_shmid_ds(ctx, v, v->name, ev->karg[2], cmd);
	mark_exit(ev, v);
	return RVAL_DONE;
}

/* ---- semaphores ---- */

/* {sem_num=0, sem_op=-1, sem_flg=SEM_UNDO|IPC_NOWAIT} */
static void val_set_sembuf(struct dctx *c, struct val *v, const struct sembuf *sb)
{
	struct val *f = val_new_array(c, 3);

	val_set_uint(&f[0], "sem_num", sb->sem_num);
	val_set_int(&f[1], "sem_op", sb->sem_op);
	val_set_flags(&f[2], "sem_flg", (uint16_t)sb->sem_flg, semop_flags, NULL);
	val_set_struct(v, NULL, f, 3, false);
}

/*
 * An array of count sembufs at addr, as strace's print_array: NULL, [] for
 * none, the address when the first element cannot be read, "..." after the
 * string limit (unless -v), and "... / * 0xADDR * /" where a later element
 * cannot be read.
 */
static void decode_sembufs(struct dctx *c, struct val *v, const char *name,
			   uint64_t addr, uint32_t count)
{
	uint64_t lim = c->opts->string_limit;
	uint64_t size = (uint64_t)count * sizeof(struct sembuf);
	unsigned max, n = 0;
	bool more = false;
	struct val *items;

	if (!addr) {
		val_set_ptr(v, name, 0);
		return;
	}
	if (addr + size < addr) {
		val_set_ptr(v, name, addr);
		return;
	}
	max = count < SEMBUF_MAX ? count : SEMBUF_MAX;
	items = val_new_array(c, max + 1);
	for (unsigned i = 0; i < max; i++) {
		uint64_t cur = addr + (uint64_t)i * sizeof(struct sembuf);
		struct sembuf sb;

		if (!tread(c, cur, &sb, sizeof(sb))) {
			struct val *it;
			char text[32];

			if (!i) {
				val_set_ptr(v, name, addr);
				return;
			}
			it = val_new_array(c, 2);
			val_set_text(c, &it[0], NULL, "...");
			snprintf(text, sizeof(text), "%#llx", (unsigned long long)cur);
			val_set_comment(c, &it[1], text);
			val_set_op(&items[n++], NULL, it, 2, " ");
			break;
		}
		if (!c->opts->verbose && i >= lim) {
			more = true;
			break;
		}
		val_set_sembuf(c, &items[n++], &sb);
	}
	if (count > max && n == max)
		more = true;
	val_set_array(v, name, items, n, more);
}

/* semop/semtimedop's semid, sops and nsops. */
static void semop_args(struct dctx *c, struct event *ev)
{
	struct val *v;

	arg_int(c, ev, 0);
	v = arg_slot(c, ev, 1);
	decode_sembufs(c, v, v->name, ev->karg[1], (uint32_t)ev->karg[2]);
	v = arg_slot(c, ev, 2);
	val_set_uint(v, v->name, (uint32_t)ev->karg[2]);
}

SYS_FUNC(semget)
{
	arg_key(ctx, ev, 0);
	arg_int(ctx, ev, 1);
	arg_get_flags(ctx, ev, 2);
	return RVAL_DONE;
}

SYS_FUNC(semop)
{
	semop_args(ctx, ev);
	return RVAL_DONE;
}

SYS_FUNC(semtimedop)
{
	struct val *v;

	semop_args(ctx, ev);
	v = arg_slot(ctx, ev, 3);
	decode_timespec(ctx, v, v->name, ev->karg[3]);
	return RVAL_DONE;
}

static void decode_semid_ds(struct dctx *c, struct val *v, const char *name,
			    uint64_t addr, unsigned cmd)
{
	struct semid_ds ds;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &ds, sizeof(ds))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 4);
	val_set_perm(c, &f[n++], "sem_perm", &ds.sem_perm, cmd == IPC_SET);
	if (cmd != IPC_SET) {
		val_set_uint(&f[n++], "sem_otime", (uint64_t)ds.sem_otime);
		val_set_uint(&f[n++], "sem_ctime", (uint64_t)ds.sem_ctime);
		val_set_uint(&f[n++], "sem_nsems", ds.sem_nsems);
	}
	val_set_struct(v, name, f, n, false);
}

/* IPC_INFO, SEM_INFO: struct seminfo. */
static void decode_seminfo(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct seminfo si;
	struct val *f;

	if (!tread(c, addr, &si, sizeof(si))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 10);
	val_set_int(&f[0], "semmap", si.semmap);
	val_set_int(&f[1], "semmni", si.semmni);
	val_set_int(&f[2], "semmns", si.semmns);
	val_set_int(&f[3], "semmnu", si.semmnu);
	val_set_int(&f[4], "semmsl", si.semmsl);
	val_set_int(&f[5], "semopm", si.semopm);
	val_set_int(&f[6], "semume", si.semume);
	val_set_int(&f[7], "semusz", si.semusz);
	val_set_int(&f[8], "semvmx", si.semvmx);
	val_set_int(&f[9], "semaem", si.semaem);
	val_set_struct(v, name, f, 10, false);
}

/* semctl(semid, semnum, cmd, arg): arg by command, as shmctl; the value
 * of SETVAL and the array of GETALL/SETALL as an address (strace). */
SYS_FUNC(semctl)
{
	unsigned cmd = ctl_cmd(ev, 2);
	struct val *v;

	if (!exiting) {
		arg_int(ctx, ev, 0);
		arg_int(ctx, ev, 1);
		arg_ctl(ctx, ev, 2, semctl_flags);
		switch (cmd) {
		case IPC_SET:
			v = arg_slot(ctx, ev, 3);
			decode_semid_ds(ctx, v, v->name, ev->karg[3], cmd);
			return RVAL_DONE;
		case IPC_STAT:
		case SEM_STAT:
		case SEM_STAT_ANY:
		case IPC_INFO:
		case SEM_INFO:
			arg_count(ev, 4);
			return RVAL_EXIT;
		default:
			arg_ptr(ctx, ev, 3);
			return RVAL_DONE;
		}
	}
	v = arg_slot(ctx, ev, 3);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[3]);
	else if (cmd == IPC_INFO || cmd == SEM_INFO)
		decode_seminfo(ctx, v, v->name, ev->karg[3]);
	else
		decode_semid_ds(ctx, v, v->name, ev->karg[3], cmd);
	mark_exit(ev, v);
	return RVAL_DONE;
}

/* ---- message queues ---- */

/* {mtype=1, mtext="..."}: count bytes of text (cut at the string limit). */
static void decode_msgbuf(struct dctx *c, struct val *v, const char *name,
			  uint64_t addr, uint64_t count)
{
	struct ipc_msgbuf { long mtype; char mtext[1]; } mb;
	struct val *f;

	if (!tread(c, addr, &mb, sizeof(mb))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 2);
	val_set_int(&f[0], "mtype", mb.mtype);
	val_read_buf(c, &f[1], "mtext", addr + offsetof(struct ipc_msgbuf, mtext), count);
	val_set_struct(v, name, f, 2, false);
}

SYS_FUNC(msgget)
{
	arg_key(ctx, ev, 0);
	arg_get_flags(ctx, ev, 1);
	return RVAL_DONE;
}

/* msgsnd(msqid, msgp, msgsz, msgflg): at entry. */
SYS_FUNC(msgsnd)
{
	struct val *v;

	arg_int(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	decode_msgbuf(ctx, v, v->name, ev->karg[1], ev->karg[2]);
	arg_uint(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	val_set_flags(v, v->name, (uint32_t)ev->karg[3], ipc_msg_flags, NULL);
	return RVAL_DONE;
}

/* msgrcv(msqid, msgp, msgsz, msgtyp, msgflg): all but msqid at exit, the
 * message with msgsz bytes of text (strace's rule, not the length
 * received). */
SYS_FUNC(msgrcv)
{
	struct val *v;

	if (!exiting) {
		arg_int(ctx, ev, 0);
		arg_count(ev, 5);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[1]);
	else
		decode_msgbuf(ctx, v, v->name, ev->karg[1], ev->karg[2]);
	mark_exit(ev, v);
	arg_uint(ctx, ev, 2);
	arg_long(ctx, ev, 3);
	v = arg_slot(ctx, ev, 4);
	val_set_flags(v, v->name, ev->karg[4], ipc_msg_flags, NULL);
	mark_exit(ev, v);
	return RVAL_DONE;
}

static void decode_msqid_ds(struct dctx *c, struct val *v, const char *name,
			    uint64_t addr, unsigned cmd)
{
	struct msqid_ds ds;
	struct val *f;
	unsigned n = 0;

	if (!tread(c, addr, &ds, sizeof(ds))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 8);
	val_set_perm(c, &f[n++], "msg_perm", &ds.msg_perm, cmd == IPC_SET);
	if (cmd != IPC_SET) {
		val_set_uint(&f[n++], "msg_stime", (uint64_t)ds.msg_stime);
		val_set_uint(&f[n++], "msg_rtime", (uint64_t)ds.msg_rtime);
		val_set_uint(&f[n++], "msg_ctime", (uint64_t)ds.msg_ctime);
		val_set_uint(&f[n++], "msg_qnum", ds.msg_qnum);
	}
	val_set_uint(&f[n++], "msg_qbytes", ds.msg_qbytes);
	if (cmd != IPC_SET) {
		val_set_int(&f[n++], "msg_lspid", ds.msg_lspid);
		val_set_int(&f[n++], "msg_lrpid", ds.msg_lrpid);
	}
	val_set_struct(v, name, f, n, false);
}

/* IPC_INFO, MSG_INFO: struct msginfo. */
static void decode_msginfo(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct msginfo mi;
	struct val *f;

	if (!tread(c, addr, &mi, sizeof(mi))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 8);
	val_set_int(&f[0], "msgpool", mi.msgpool);
	val_set_int(&f[1], "msgmap", mi.msgmap);
	val_set_int(&f[2], "msgmax", mi.msgmax);
	val_set_int(&f[3], "msgmnb", mi.msgmnb);
	val_set_int(&f[4], "msgmni", mi.msgmni);
	val_set_int(&f[5], "msgssz", mi.msgssz);
	val_set_int(&f[6], "msgtql", mi.msgtql);
	val_set_uint(&f[7], "msgseg", mi.msgseg);
	val_set_struct(v, name, f, 8, false);
}

/* msgctl(msqid, cmd, buf): as shmctl. */
SYS_FUNC(msgctl)
{
	unsigned cmd = ctl_cmd(ev, 1);
	struct val *v;

	if (!exiting) {
		arg_int(ctx, ev, 0);
		arg_ctl(ctx, ev, 1, msgctl_flags);
		switch (cmd) {
		case IPC_SET:
			v = arg_slot(ctx, ev, 2);
			decode_msqid_ds(ctx, v, v->name, ev->karg[2], cmd);
			return RVAL_DONE;
		case IPC_STAT:
		case MSG_STAT:
		case MSG_STAT_ANY:
		case IPC_INFO:
		case MSG_INFO:
			arg_count(ev, 3);
			return RVAL_EXIT;
		default:
			arg_ptr(ctx, ev, 2);
			return RVAL_DONE;
		}
	}
	v = arg_slot(ctx, ev, 2);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[2]);
	else if (cmd == IPC_INFO || cmd == MSG_INFO)
		decode_msginfo(ctx, v, v->name, ev->karg[2]);
	else
		decode_msqid_ds(ctx, v, v->name, ev->karg[2], cmd);
	mark_exit(ev, v);
	return RVAL_DONE;
}

/* ---- POSIX message queues ---- */

/* {mq_flags=..., mq_maxmsg=2, mq_msgsize=64, mq_curmsgs=0}: mq_flags in hex
 * (mq_open) or by name (mq_getsetattr, flags set). */
static void decode_mq_attr(struct dctx *c, struct val *v, const char *name,
			   uint64_t addr, bool flags)
{
	struct mq_attr a;
	struct val *f;

	if (!tread(c, addr, &a, sizeof(a))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 4);
	if (flags)
		val_set_flags(&f[0], "mq_flags", (uint64_t)a.mq_flags, mq_attr_flags, NULL);
	else
		val_set_hex(&f[0], "mq_flags", (uint64_t)a.mq_flags);
	val_set_int(&f[1], "mq_maxmsg", a.mq_maxmsg);
	val_set_int(&f[2], "mq_msgsize", a.mq_msgsize);
	val_set_int(&f[3], "mq_curmsgs", a.mq_curmsgs);
	val_set_struct(v, name, f, 4, false);
}

/* mq_open(name, flags[, mode, attr]): mode and attr only with O_CREAT; the
 * result is a descriptor. */
SYS_FUNC(mq_open)
{
	struct val *v;

	if (exiting) {
		ret_set_fd(ctx, ev);
		return RVAL_DONE;
	}
	arg_path(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	val_set_open_flags(ctx, v, v->name, ev->karg[1]);
	if (ev->karg[1] & O_CREAT) {
		v = arg_slot(ctx, ev, 2);
		val_set_oct(v, v->name, (uint16_t)ev->karg[2]);
		v = arg_slot(ctx, ev, 3);
		decode_mq_attr(ctx, v, v->name, ev->karg[3], false);
	}
	return RVAL_EXIT;
}

SYS_FUNC(mq_unlink)
{
	arg_path(ctx, ev, 0);
	return RVAL_DONE;
}

/* mq_timedsend(mqdes, msg_ptr, msg_len, msg_prio, abs_timeout) */
SYS_FUNC(mq_timedsend)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	arg_buf(ctx, ev, 1, ev->karg[2]);
	arg_uint(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	val_set_uint(v, v->name, (uint32_t)ev->karg[3]);
	v = arg_slot(ctx, ev, 4);
	decode_timespec(ctx, v, v->name, ev->karg[4]);
	return RVAL_DONE;
}

/* mq_timedreceive(mqdes, msg_ptr, msg_len, msg_prio, abs_timeout): the
 * message (as many bytes as received) and [prio] at exit; the timeout is
 * shown whether the call failed or not (the kernel read it). */
SYS_FUNC(mq_timedreceive)
{
	struct val *v;
	uint32_t prio;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 5);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 1);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[1]);
	else
		val_read_buf(ctx, v, v->name, ev->karg[1], (uint64_t)ev->retval);
	mark_exit(ev, v);
	arg_uint(ctx, ev, 2);
	v = arg_slot(ctx, ev, 3);
	if (ev->err || !tread(ctx, ev->karg[3], &prio, sizeof(prio))) {
		val_set_ptr(v, v->name, ev->karg[3]);
	} else {
		struct val x;

		val_set_uint(&x, NULL, prio);
		val_set_boxed(ctx, v, v->name, &x);
	}
	mark_exit(ev, v);
	v = arg_slot(ctx, ev, 4);
	decode_timespec(ctx, v, v->name, ev->karg[4]);
	mark_exit(ev, v);
	return RVAL_DONE;
}

/* mq_notify(mqdes, sevp) */
SYS_FUNC(mq_notify)
{
	struct val *v;

	arg_fd(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	decode_sigevent(ctx, v, v->name, ev->karg[1]);
	return RVAL_DONE;
}

/* mq_getsetattr(mqdes, newattr, oldattr): oldattr at exit. */
SYS_FUNC(mq_getsetattr)
{
	struct val *v;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		decode_mq_attr(ctx, v, v->name, ev->karg[1], true);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 2);
	if (ev->err)
		val_set_ptr(v, v->name, ev->karg[2]);
	else
		decode_mq_attr(ctx, v, v->name, ev->karg[2], true);
	mark_exit(ev, v);
	return RVAL_DONE;
}
