/*
 * Terminal ioctls ('T') with filled, short and bad arguments on a bad
 * descriptor, for tests/t/decode_ioctl_term.sh: termios, termios2, termio,
 * winsize, modem lines and the int and no-argument requests.
 */
#include <asm/termbits.h>

#include "ioctl_test.h"

struct k_termio {
	unsigned short c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line;
	unsigned char c_cc[8];
};

int main(void)
{
	static const unsigned long tios[] = {
		TCGETS, TCSETS, TCSETSW, TCSETSF, TIOCGLCKTRMIOS, TIOCSLCKTRMIOS,
	};
	static const unsigned long tios2[] = { TCGETS2, TCSETS2, TCSETSW2, TCSETSF2 };
	static const unsigned long tio[] = { TCGETA, TCSETA, TCSETAW, TCSETAF };
	static const unsigned long ints[] = {
		TIOCGPGRP, TIOCGSID, TIOCGETD, TIOCGSOFTCAR, TIOCGPTN, FIONREAD,
		TIOCOUTQ, TIOCGEXCL, TIOCGDEV, TIOCSPGRP, TIOCSETD, FIONBIO, FIOASYNC,
		TIOCPKT, TIOCSSOFTCAR, TIOCSPTLCK,
	};
	static const unsigned long modem[] = { TIOCMGET, TIOCMBIS, TIOCMBIC, TIOCMSET };
	static const unsigned long none[] = {
		TIOCSBRK, TIOCCBRK, TIOCCONS, TIOCNOTTY, TIOCEXCL, TIOCNXCL, FIOCLEX,
		FIONCLEX, TIOCVHANGUP, TIOCSSERIAL,
	};
	struct termios *t = TAIL(struct termios);
	struct termios2 *t2 = TAIL(struct termios2);
	struct k_termio *to = TAIL(struct k_termio);
	struct winsize *ws = TAIL(struct winsize);
	unsigned *m = TAIL(unsigned);
	int *pi = TAIL(int);

	fill(t, sizeof(*t), 1);
	t->c_iflag = ICRNL | IXON | 0x80000000;
	t->c_oflag = OPOST | ONLCR | TAB3 | CR2;
	t->c_cflag = B38400 | CS8 | CREAD | (B57600 << IBSHIFT);
	t->c_lflag = ISIG | ICANON | ECHO;
	t->c_line = 0;
	fill(t2, sizeof(*t2), 2);
	t2->c_iflag = IGNBRK;
	t2->c_oflag = 0;
	t2->c_cflag = BOTHER | CS7;
	t2->c_lflag = 0;
	t2->c_line = 77;
	fill(to, sizeof(*to), 3);
	to->c_iflag = IUTF8;
	to->c_oflag = ONLCR;
	to->c_cflag = B9600 | CS6;
	to->c_lflag = ECHOE;
	ws->ws_row = 24;
	ws->ws_col = 80;
	ws->ws_xpixel = 1;
	ws->ws_ypixel = 2;
	*m = TIOCM_DTR | TIOCM_RTS | TIOCM_CD | 0x100000;
	*pi = 7;

	for (unsigned i = 0; i < sizeof(tios) / sizeof(tios[0]); i++) {
		IOC(tios[i], t);
		IOC(tios[i], (char *)t + 1);
		IOC(tios[i], NULL);
	}
	for (unsigned i = 0; i < sizeof(tios2) / sizeof(tios2[0]); i++) {
		IOC(tios2[i], t2);
		IOC(tios2[i], (char *)t2 + 1);
	}
	for (unsigned i = 0; i < sizeof(tio) / sizeof(tio[0]); i++) {
		IOC(tio[i], to);
		IOC(tio[i], BAD_PTR);
	}
	IOC(TIOCGWINSZ, ws);
	IOC(TIOCSWINSZ, ws);
	IOC(TIOCSWINSZ, (char *)ws + 1);
	IOC(TCXONC, TCOON);
	IOC(TCXONC, 0x1234);
	IOC(TCFLSH, TCIOFLUSH);
	IOC(TCFLSH, 77);
	IOC(TCSBRK, 1);
	IOC(TCSBRKP, -2);
	IOC(TIOCSCTTY, 0xffffffff00000001UL);
	for (unsigned i = 0; i < sizeof(modem) / sizeof(modem[0]); i++) {
		IOC(modem[i], m);
		IOC(modem[i], NULL);
	}
	*m = 0x100000;
	IOC(TIOCMSET, m);
	for (unsigned i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		IOC(ints[i], pi);
		IOC(ints[i], (char *)pi + 2);
	}
	IOC(TIOCSTI, "x");
	IOC(TIOCSTI, NULL);
	for (unsigned i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		IOC(none[i], 0);
	IOC(_IO('T', 0xee), 0x55);
	return 0;
}
