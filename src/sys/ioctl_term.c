/*
 * Terminal ioctls ('T'): termios, termios2 and termio structures, window
 * sizes, modem lines (TIOCM*), and the requests with an int or nothing as
 * argument.
 */
#include <asm/ioctls.h>
#include <asm/termbits.h>
#include <linux/termios.h>

#include "sys/ioc.h"
#include "xlat/baud_options.h"
#include "xlat/modem_flags.h"
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

/* Fields printed one after the other joined by "|"; a zero rest prints
 * nothing after its "|" (strace prints "FF0|" for c_oflag 0). */
static void set_rest(struct dctx *c, struct val *v, uint64_t rest, const struct xlat *xl)
{
	if (rest)
		val_set_flags(v, NULL, rest, xl, NULL);
	else
		val_set_text(c, v, NULL, "");
}

/*
 * Parts joined by "|" items of their own (not a "|" V_OP, which -X raw
 * would show as one number: strace shows each part, "0|0|0|0|0|0|0x4").
 */
static void set_parts(struct dctx *c, struct val *v, const char *name, struct val *parts,
		      unsigned n)
{
	struct val *items = val_new_array(c, 2 * n);
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		if (i)
			val_set_text(c, &items[k++], NULL, "|");
		items[k++] = parts[i];
	}
	val_set_op(v, name, items, k, NULL);
}

static void set_oflag(struct dctx *c, struct val *v, uint64_t val)
{
	static const struct { const struct xlat *xl; uint32_t mask; } fields[] = {
		{ term_oflags_nldly, NLDLY }, { term_oflags_crdly, CRDLY },
		{ term_oflags_tabdly, TABDLY }, { term_oflags_bsdly, BSDLY },
		{ term_oflags_vtdly, VTDLY }, { term_oflags_ffdly, FFDLY },
	};
	struct val items[7];

	for (unsigned i = 0; i < 6; i++) {
		val_set_enum(&items[i], NULL, val & fields[i].mask, fields[i].xl);
		val &= ~(uint64_t)fields[i].mask;
	}
	set_rest(c, &items[6], val, term_oflags);
	set_parts(c, v, "c_oflag", items, 7);
}

static void set_cflag(struct dctx *c, struct val *v, uint64_t val)
{
	struct val items[4];
	unsigned n = 0;

	val_set_enum(&items[n++], NULL, val & CBAUD, baud_options);
	if (val & CIBAUD) {
		struct val *sh = val_new_array(c, 2);

		val_set_enum(&sh[0], NULL, (val & CIBAUD) >> IBSHIFT, baud_options);
		val_set_enum(&sh[1], NULL, IBSHIFT, ioc_xlat1(c, IBSHIFT, "IBSHIFT"));
		val_set_op(&items[n++], NULL, sh, 2, "<<");
	}
	val_set_enum(&items[n++], NULL, val & CSIZE, term_cflags_csize);
	set_rest(c, &items[n++], val & ~(uint64_t)(CBAUD | CIBAUD | CSIZE), term_cflags);
	set_parts(c, v, "c_cflag", items, n);
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

		if (i < sizeof(names) / sizeof(names[0]))
			val_set_text(c, &kv[0], NULL, names[i]);
		else
			val_set_text(c, &kv[0], NULL, ioc_printf(c, "[%u]", i));
		val_set_hex(&kv[1], NULL, cc[i]);
		val_set_op(&items[i], NULL, kv, 2, "=");
	}
	val_set_array(v, "c_cc", items, n, false);
}

/* The four flag words, then "..." or (-v) the line discipline, c_cc and
 * the speeds (ispeed < 0: none). */
static void set_term(struct ioc *io, struct val *v, uint64_t iflag, uint64_t oflag,
		     uint64_t cflag, uint64_t lflag, unsigned line, const unsigned char *cc,
		     unsigned ncc, int64_t ispeed, int64_t ospeed)
{
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 8);
	unsigned n = 0;

	ioc_set_flags_nz(c, &f[n++], "c_iflag", iflag, term_iflags);
	set_oflag(c, &f[n++], oflag);
	set_cflag(c, &f[n++], cflag);
	ioc_set_flags_nz(c, &f[n++], "c_lflag", lflag, term_lflags);
	if (ioc_abbrev(io)) {
		val_set_struct(v, v->name, f, n, true);
		return;
	}
	val_set_enum(&f[n++], "c_line", line, term_line_discs);
	set_cc(c, &f[n++], cc, ncc);
	if (ispeed >= 0) {
		val_set_uint(&f[n++], "c_ispeed", (uint64_t)ispeed);
		val_set_uint(&f[n++], "c_ospeed", (uint64_t)ospeed);
	}
	val_set_struct(v, v->name, f, n, false);
}

static int termios(struct ioc *io)
{
	struct val *v = ioc_val(io);
	struct termios t;

	if (ioc_read(io, v, io->arg, &t, sizeof(t)))
		set_term(io, v, t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag, t.c_line, t.c_cc,
			 NCCS, -1, -1);
	return IOC_DONE;
}

static int termios2(struct ioc *io)
{
	struct val *v = ioc_val(io);
	struct termios2 t;

	if (ioc_read(io, v, io->arg, &t, sizeof(t)))
		set_term(io, v, t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag, t.c_line, t.c_cc,
			 NCCS, t.c_ispeed, t.c_ospeed);
	return IOC_DONE;
}

static int termio(struct ioc *io)
{
	struct val *v = ioc_val(io);
	struct termio t;

	if (ioc_read(io, v, io->arg, &t, sizeof(t)))
		set_term(io, v, t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag, t.c_line, t.c_cc,
			 sizeof(t.c_cc), -1, -1);
	return IOC_DONE;
}

static int winsize(struct ioc *io)
{
	struct val *v = ioc_val(io);
	struct winsize ws;
	struct val *f;

	if (!ioc_read(io, v, io->arg, &ws, sizeof(ws)))
		return IOC_DONE;
	f = val_new_array(io->c, 4);
	FLD_U(&f[0], ws, ws_row);
	FLD_U(&f[1], ws, ws_col);
	FLD_U(&f[2], ws, ws_xpixel);
	FLD_U(&f[3], ws, ws_ypixel);
	val_set_struct(v, v->name, f, 4, false);
	return IOC_DONE;
}

static int modem(struct ioc *io)
{
	struct val *v = ioc_val(io);
	unsigned int flags;
	struct val in;

	if (!ioc_read(io, v, io->arg, &flags, sizeof(flags)))
		return IOC_DONE;
	val_set_flags(&in, NULL, flags, modem_flags, NULL);
	val_set_boxed(io->c, v, v->name, &in);
	return IOC_DONE;
}

int ioctl_term(struct ioc *io)
{
	struct val *v;

	switch (io->code) {
	case TCGETS2:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case TCSETS2: case TCSETSW2: case TCSETSF2:
		return termios2(io);
	case TCGETS: case TIOCGLCKTRMIOS:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case TCSETS: case TCSETSW: case TCSETSF: case TIOCSLCKTRMIOS:
		return termios(io);
	case TCGETA:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case TCSETA: case TCSETAW: case TCSETAF:
		return termio(io);
	case TIOCGWINSZ:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case TIOCSWINSZ:
		return winsize(io);
	case TCXONC:
		v = ioc_val(io);
		val_set_enum(v, v->name, io->arg, tcxonc_options);
		return IOC_DONE;
	case TCFLSH:
		v = ioc_val(io);
		val_set_enum(v, v->name, io->arg, tcflsh_options);
		return IOC_DONE;
	case TCSBRK: case TCSBRKP: case TIOCSCTTY:
		v = ioc_val(io);
		val_set_int(v, v->name, (int)io->arg);
		return IOC_DONE;
	case TIOCMGET:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case TIOCMBIS: case TIOCMBIC: case TIOCMSET:
		return modem(io);
	case TIOCGPGRP: case TIOCGSID: case TIOCGETD: case TIOCGSOFTCAR:
	case TIOCGPTN: case FIONREAD: case TIOCOUTQ: case TIOCGEXCL: case TIOCGDEV:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case TIOCSPGRP: case TIOCSETD: case FIONBIO: case FIOASYNC: case TIOCPKT:
	case TIOCSSOFTCAR: case TIOCSPTLCK:
		return ioc_arg_num(io, sizeof(int), NUM_D);
	case TIOCSTI:
		v = ioc_val(io);
		val_read_buf(io->c, v, v->name, io->arg, 1);
		return IOC_DONE;
	case TIOCSBRK: case TIOCCBRK: case TIOCCONS: case TIOCNOTTY: case TIOCEXCL:
	case TIOCNXCL: case FIOCLEX: case FIONCLEX: case TIOCVHANGUP: case TIOCSSERIAL:
		return ioc_none(io);
	}
	return IOC_DEFAULT;
}
