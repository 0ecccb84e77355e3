/*
 * The ioctl decoder: request names for the common terminal, file and block
 * requests (unknown ones as strace's _IOC(dir, type, nr, size)), and the
 * arguments strace decodes for them (termios, winsize, int pointers).
 */
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <asm/termbits.h>

#include "sys/decode.h"
#include "xlat/baud_options.h"
#include "xlat/tcflsh_options.h"
#include "xlat/tcxonc_options.h"
#include "xlat/term_cflags.h"
#include "xlat/term_cflags_csize.h"
#include "xlat/term_iflags.h"
#include "xlat/term_lflags.h"
#include "xlat/term_line_discs.h"
#include "xlat/term_oflags.h"
#include "xlat/term_oflags_bsdly.h"
#include "xlat/term_oflags_crdly.h"
#include "xlat/term_oflags_ffdly.h"
#include "xlat/term_oflags_nldly.h"
#include "xlat/term_oflags_tabdly.h"
#include "xlat/term_oflags_vtdly.h"

#include "util/banned.h"

/*
 * Request names.  Codes that several subsystems share print all their
 * names joined by " or ", as strace does; the strings cannot come from an
 * xlat .in file, hence a table here.
 */
static const struct xlat_data ioctl_data[] = {
	{ TCGETS, "TCGETS" },
	{ TCSETS, "SNDCTL_TMR_START or TCSETS" },
	{ TCSETSW, "SNDCTL_TMR_STOP or TCSETSW" },
	{ TCSETSF, "SNDCTL_TMR_CONTINUE or TCSETSF" },
	{ TCGETA, "TCGETA" },
	{ TCSETA, "TCSETA" },
	{ TCSETAW, "TCSETAW" },
	{ TCSETAF, "TCSETAF" },
	{ TCSBRK, "TCSBRK" },
	{ TCXONC, "TCXONC" },
	{ TCFLSH, "TCFLSH" },
	{ TIOCEXCL, "TIOCEXCL" },
	{ TIOCNXCL, "TIOCNXCL" },
	{ TIOCSCTTY, "TIOCSCTTY" },
	{ TIOCGPGRP, "TIOCGPGRP" },
	{ TIOCSPGRP, "TIOCSPGRP" },
	{ TIOCOUTQ, "TIOCOUTQ" },
	{ TIOCSTI, "TIOCSTI" },
	{ TIOCGWINSZ, "TIOCGWINSZ" },
	{ TIOCSWINSZ, "TIOCSWINSZ" },
	{ TIOCMGET, "TIOCMGET" },
	{ TIOCMBIS, "TIOCMBIS" },
	{ TIOCMBIC, "TIOCMBIC" },
	{ TIOCMSET, "TIOCMSET" },
	{ TIOCGSOFTCAR, "TIOCGSOFTCAR" },
	{ TIOCSSOFTCAR, "TIOCSSOFTCAR" },
	{ FIONREAD, "FIONREAD" },
	{ TIOCLINUX, "TIOCLINUX" },
	{ TIOCCONS, "TIOCCONS" },
	{ TIOCGSERIAL, "TIOCGSERIAL" },
	{ TIOCSSERIAL, "TIOCSSERIAL" },
	{ TIOCPKT, "TIOCPKT" },
	{ FIONBIO, "FIONBIO" },
	{ TIOCNOTTY, "TIOCNOTTY" },
	{ TIOCSETD, "TIOCSETD" },
	{ TIOCGETD, "TIOCGETD" },
	{ TCSBRKP, "TCSBRKP" },
	{ TIOCSBRK, "TIOCSBRK" },
	{ TIOCCBRK, "TIOCCBRK" },
	{ TIOCGSID, "TIOCGSID" },
	{ TCGETS2, "TCGETS2" },
	{ TCSETS2, "TCSETS2" },
	{ TCSETSW2, "TCSETSW2" },
	{ TCSETSF2, "TCSETSF2" },
	{ TIOCGPTN, "TIOCGPTN" },
	{ TIOCSPTLCK, "TIOCSPTLCK" },
	{ TIOCGDEV, "TIOCGDEV" },
	{ TIOCGPKT, "TIOCGPKT" },
	{ TIOCGPTLCK, "TIOCGPTLCK" },
	{ TIOCGEXCL, "TIOCGEXCL" },
	{ TIOCGPTPEER, "TIOCGPTPEER" },
	{ TIOCVHANGUP, "TIOCVHANGUP" },
	{ 0x542e, "TIOCGRS485" },
	{ 0x542f, "TIOCSRS485" },
	{ 0x5432, "TCGETX" },
	{ 0x5433, "TCSETX" },
	{ 0x5434, "TCSETXF" },
	{ 0x5435, "TCSETXW" },
	{ 0x5454, "TIOCSERGWILD" },
	{ 0x5455, "TIOCSERSWILD" },
	{ 0x5458, "TIOCSERGSTRUCT" },
	{ 0x545a, "TIOCSERGETMULTI" },
	{ 0x545b, "TIOCSERSETMULTI" },
	{ FIONCLEX, "FIONCLEX" },
	{ FIOCLEX, "FIOCLEX" },
	{ FIOASYNC, "FIOASYNC" },
	{ TIOCSERCONFIG, "TIOCSERCONFIG" },
	{ TIOCSERGETLSR, "TIOCSERGETLSR" },
	{ TIOCGLCKTRMIOS, "TIOCGLCKTRMIOS" },
	{ TIOCSLCKTRMIOS, "TIOCSLCKTRMIOS" },
	{ TIOCMIWAIT, "TIOCMIWAIT" },
	{ TIOCGICOUNT, "TIOCGICOUNT" },
	{ FIOQSIZE, "FIOQSIZE" },
	{ FIBMAP, "FIBMAP" },
	{ FIGETBSZ, "FIGETBSZ" },
	{ FIFREEZE, "FIFREEZE" },
	{ FITHAW, "FITHAW" },
	{ FITRIM, "FITRIM" },
	{ FICLONE, "BTRFS_IOC_CLONE or FICLONE" },
	{ FICLONERANGE, "BTRFS_IOC_CLONE_RANGE or FICLONERANGE" },
	{ FIDEDUPERANGE, "BTRFS_IOC_FILE_EXTENT_SAME or FIDEDUPERANGE" },
	{ FS_IOC_GETFLAGS, "FS_IOC_GETFLAGS" },
	{ FS_IOC_SETFLAGS, "FS_IOC_SETFLAGS" },
	{ FS_IOC_GETVERSION, "FS_IOC_GETVERSION" },
	{ FS_IOC_SETVERSION, "FS_IOC_SETVERSION" },
	{ FS_IOC32_GETFLAGS, "FS_IOC32_GETFLAGS" },
	{ FS_IOC32_SETFLAGS, "FS_IOC32_SETFLAGS" },
	{ FS_IOC_FIEMAP, "FS_IOC_FIEMAP" },
	{ FS_IOC_FSGETXATTR, "FS_IOC_FSGETXATTR" },
	{ FS_IOC_FSSETXATTR, "FS_IOC_FSSETXATTR" },
	{ BLKROSET, "BLKROSET" },
	{ BLKROGET, "BLKROGET" },
	{ BLKRRPART, "BLKRRPART" },
	{ BLKGETSIZE, "BLKGETSIZE" },
	{ BLKFLSBUF, "BLKFLSBUF" },
	{ BLKRASET, "BLKRASET" },
	{ BLKRAGET, "BLKRAGET" },
	{ BLKSSZGET, "BLKSSZGET" },
	{ BLKBSZGET, "BLKBSZGET" },
	{ BLKBSZSET, "BLKBSZSET" },
	{ BLKGETSIZE64, "BLKGETSIZE64" },
	{ BLKDISCARD, "BLKDISCARD" },
	{ BLKIOMIN, "BLKIOMIN" },
	{ BLKIOOPT, "BLKIOOPT" },
	{ BLKALIGNOFF, "BLKALIGNOFF" },
	{ BLKPBSZGET, "BLKPBSZGET" },
	{ BLKDISCARDZEROES, "BLKDISCARDZEROES" },
	{ BLKZEROOUT, "BLKZEROOUT" },
};

static const struct xlat ioctl_xl[1] = { {
	ioctl_data, sizeof(ioctl_data) / sizeof(ioctl_data[0]), XT_ENUM, NULL,
} };

static bool ioctl_known(uint32_t code)
{
	for (size_t i = 0; i < ioctl_xl->size; i++)
		if ((uint32_t)ioctl_data[i].val == code)
			return true;
	return false;
}

/* _IOC(_IOC_READ|_IOC_WRITE, 0x54, 0x1, 0x4) for a request without a name. */
static void val_set_ioc(struct dctx *c, struct val *v, const char *name, uint32_t code)
{
	static const char *const dirs[] = {
		"_IOC_NONE", "_IOC_WRITE", "_IOC_READ", "_IOC_READ|_IOC_WRITE",
	};
	char buf[96];

	snprintf(buf, sizeof(buf), "_IOC(%s, %#x, %#x, %#x)", dirs[_IOC_DIR(code) & 3],
		 _IOC_TYPE(code), _IOC_NR(code), _IOC_SIZE(code));
	val_set_text(c, v, name, buf);
}

/* An int behind a pointer: [5], or the address. */
static void val_set_intp(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	int x;

	if (!tread(c, addr, &x, sizeof(x))) {
		val_set_ptr(v, name, addr);
		return;
	}
	struct val *it = val_new_array(c, 1);
	val_set_int(it, NULL, x);
	val_set_array(v, name, it, 1, false);
}

static void val_set_winsize(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct winsize ws;
	struct val *f;

	if (!tread(c, addr, &ws, sizeof(ws))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 4);
	val_set_uint(&f[0], "ws_row", ws.ws_row);
	val_set_uint(&f[1], "ws_col", ws.ws_col);
	val_set_uint(&f[2], "ws_xpixel", ws.ws_xpixel);
	val_set_uint(&f[3], "ws_ypixel", ws.ws_ypixel);
	val_set_struct(v, name, f, 4, false);
}

/* Fields printed one after the other joined by "|"; a zero rest prints
 * nothing after its "|" (strace prints "FF0|" for c_oflag 0). */
static void set_rest(struct dctx *c, struct val *v, uint64_t rest, const struct xlat *xl)
{
	if (rest)
		val_set_flags(v, NULL, rest, xl, NULL);
	else
		val_set_text(c, v, NULL, "");
}

static void set_oflag(struct dctx *c, struct val *v, uint64_t val)
{
	static const struct { const struct xlat *xl; uint32_t mask; } fields[] = {
		{ term_oflags_nldly, 0000400 }, { term_oflags_crdly, 0003000 },
		{ term_oflags_tabdly, 0014000 }, { term_oflags_bsdly, 0020000 },
		{ term_oflags_vtdly, 0040000 }, { term_oflags_ffdly, 0100000 },
	};
	struct val *items = val_new_array(c, 7);

	for (unsigned i = 0; i < 6; i++) {
		val_set_enum(&items[i], NULL, val & fields[i].mask, fields[i].xl);
		val &= ~(uint64_t)fields[i].mask;
	}
	set_rest(c, &items[6], val, term_oflags);
	val_set_op(v, "c_oflag", items, 7, "|");
}

static void set_cflag(struct dctx *c, struct val *v, uint64_t val)
{
	struct val *items = val_new_array(c, 4);
	unsigned n = 0;

	val_set_enum(&items[n++], NULL, val & CBAUD, baud_options);
	if (val & CIBAUD) {
		struct val *sh = val_new_array(c, 2);

		val_set_enum(&sh[0], NULL, (val & CIBAUD) >> IBSHIFT, baud_options);
		val_set_text(c, &sh[1], NULL, "IBSHIFT");
		val_set_op(&items[n++], NULL, sh, 2, "<<");
	}
	val_set_enum(&items[n++], NULL, val & CSIZE, term_cflags_csize);
	set_rest(c, &items[n++], val & ~(uint64_t)(CBAUD | CIBAUD | CSIZE), term_cflags);
	val_set_op(v, "c_cflag", items, n, "|");
}

/* c_cc=[[VINTR]=0x3, ..., [17]=0]: each control character by its index name. */
static void set_cc(struct dctx *c, struct val *v, const unsigned char *cc, unsigned n)
{
	static const char *const names[] = {
		"[VINTR]", "[VQUIT]", "[VERASE]", "[VKILL]", "[VEOF]", "[VTIME]",
		"[VMIN]", "[VSWTC]", "[VSTART]", "[VSTOP]", "[VSUSP]", "[VEOL]",
		"[VREPRINT]", "[VDISCARD]", "[VWERASE]", "[VLNEXT]", "[VEOL2]",
	};
	struct val *items = val_new_array(c, n);

	for (unsigned i = 0; i < n; i++) {
		struct val *kv = val_new_array(c, 2);
		char idx[16];

		if (i < sizeof(names) / sizeof(names[0])) {
			val_set_text(c, &kv[0], NULL, names[i]);
		} else {
			snprintf(idx, sizeof(idx), "[%u]", i);
			val_set_text(c, &kv[0], NULL, idx);
		}
		val_set_hex(&kv[1], NULL, cc[i]);
		val_set_op(&items[i], NULL, kv, 2, "=");
	}
	val_set_array(v, "c_cc", items, n, false);
}

/* struct termios (kernel layout): abbreviated as strace without -v. */
static void val_set_termios(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct termios t;
	struct val *f;

	if (!tread(c, addr, &t, sizeof(t))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 6);
	val_set_flags(&f[0], "c_iflag", t.c_iflag, term_iflags, NULL);
	set_oflag(c, &f[1], t.c_oflag);
	set_cflag(c, &f[2], t.c_cflag);
	val_set_flags(&f[3], "c_lflag", t.c_lflag, term_lflags, NULL);
	if (!c->opts->verbose) {
		val_set_struct(v, name, f, 4, true);
		return;
	}
	val_set_enum(&f[4], "c_line", t.c_line, term_line_discs);
	set_cc(c, &f[5], t.c_cc, sizeof(t.c_cc));
	val_set_struct(v, name, f, 6, false);
}

/* How the third argument of a request is shown. */
enum { A_HEX, A_PTR, A_NONE, A_INT, A_INTP, A_TERMIOS, A_WINSIZE, A_TCXONC, A_TCFLSH, A_CHAR };

static int arg_kind(uint32_t code, bool *at_exit)
{
	*at_exit = false;
	switch (code) {
	case TCGETS:
	case TIOCGLCKTRMIOS:
		*at_exit = true;
		return A_TERMIOS;
	case TCSETS: case TCSETSW: case TCSETSF: case TIOCSLCKTRMIOS:
		return A_TERMIOS;
	case TIOCGWINSZ:
		*at_exit = true;
		return A_WINSIZE;
	case TIOCSWINSZ:
		return A_WINSIZE;
	case TCXONC:
		return A_TCXONC;
	case TCFLSH:
		return A_TCFLSH;
	case TCSBRK: case TCSBRKP: case TIOCSCTTY: case FICLONE:
		return A_INT;
	case TIOCGPGRP: case TIOCGSID: case TIOCGETD: case TIOCGSOFTCAR:
	case TIOCGPTN: case FIONREAD: case TIOCOUTQ: case TIOCGEXCL: case TIOCGDEV:
		*at_exit = true;
		return A_INTP;
	case TIOCSPGRP: case TIOCSETD: case FIONBIO: case FIOASYNC: case TIOCPKT:
	case TIOCSSOFTCAR: case TIOCSPTLCK:
		return A_INTP;
	case TIOCSTI:
		return A_CHAR;
	case TIOCSBRK: case TIOCCBRK: case TIOCCONS: case TIOCNOTTY: case TIOCEXCL:
	case TIOCNXCL: case FIOCLEX: case FIONCLEX: case TIOCVHANGUP: case TIOCSSERIAL:
	case FIFREEZE: case FITHAW: case BLKRRPART: case BLKFLSBUF:
		return A_NONE;
	/* structures strace decodes (shown here by address, NULL as NULL) */
	case TCGETA: case TCSETA: case TCSETAW: case TCSETAF:
	case TIOCMGET: case TIOCMBIS: case TIOCMBIC: case TIOCMSET:
	case FITRIM: case FICLONERANGE: case FIDEDUPERANGE:
	case FS_IOC_GETFLAGS: case FS_IOC_SETFLAGS: case FS_IOC32_GETFLAGS:
	case FS_IOC32_SETFLAGS: case FS_IOC_FIEMAP: case FS_IOC_FSGETXATTR:
	case FS_IOC_FSSETXATTR: case BLKROSET: case BLKROGET: case BLKGETSIZE:
	case BLKRAGET: case BLKSSZGET: case BLKBSZGET: case BLKBSZSET:
	case BLKGETSIZE64: case BLKDISCARD: case BLKIOMIN: case BLKIOOPT:
	case BLKALIGNOFF: case BLKPBSZGET: case BLKDISCARDZEROES: case BLKZEROOUT:
		return A_PTR;
	}
	return A_HEX;
}

static void ioctl_arg(struct dctx *c, struct event *ev, int kind)
{
	struct val *v;

	switch (kind) {
	case A_NONE:
		return;
	case A_INT:
		arg_int(c, ev, 2);
		return;
	case A_TCXONC:
		arg_enum(c, ev, 2, tcxonc_options);
		return;
	case A_TCFLSH:
		arg_enum(c, ev, 2, tcflsh_options);
		return;
	case A_CHAR:
		arg_buf(c, ev, 2, 1);
		return;
	case A_HEX:
		arg_hex(c, ev, 2);
		return;
	case A_PTR:
		arg_ptr(c, ev, 2);
		return;
	}
	v = arg_slot(c, ev, 2);
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
	if (ev->type == EV_SYSCALL && ev->err) {
		val_set_ptr(v, v->name, ev->karg[2]);
	} else if (kind == A_INTP) {
		val_set_intp(c, v, v->name, ev->karg[2]);
	} else if (kind == A_TERMIOS) {
		val_set_termios(c, v, v->name, ev->karg[2]);
	} else {
		val_set_winsize(c, v, v->name, ev->karg[2]);
	}
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
}

SYS_FUNC(ioctl)
{
	uint32_t code = (uint32_t)ev->karg[1];
	bool at_exit;
	int kind = arg_kind(code, &at_exit);
	struct val *v;

	if (exiting) {
		ioctl_arg(ctx, ev, kind);
		return RVAL_DONE;
	}
	arg_fd(ctx, ev, 0);
	v = arg_slot(ctx, ev, 1);
	if (ioctl_known(code))
		val_set_enum(v, v->name, code, ioctl_xl);
	else
		val_set_ioc(ctx, v, v->name, code);
	if (at_exit) {
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	ioctl_arg(ctx, ev, kind);
	return RVAL_DONE;
}
