/*
 * Terminal ioctls on stdin, for running under a pseudo-terminal: TCGETS,
 * TIOCGWINSZ, TIOCSWINSZ, TIOCGPGRP, TCSETS/TCSETSW with the same settings,
 * TCFLSH, TIOCOUTQ.  Exits 0 (1 when stdin is not a terminal).
 */
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int main(void)
{
	struct termios t;
	struct winsize w;
	pid_t pg;
	int n;

	if (tcgetattr(0, &t))
		return 1;
	ioctl(0, TIOCGWINSZ, &w);
	w.ws_row = 24;
	w.ws_col = 80;
	ioctl(0, TIOCSWINSZ, &w);
	ioctl(0, TIOCGWINSZ, &w);
	ioctl(0, TIOCGPGRP, &pg);
	tcsetattr(0, TCSANOW, &t);
	tcsetattr(0, TCSADRAIN, &t);
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cflag |= PARENB;
	tcsetattr(0, TCSANOW, &t);
	tcflush(0, TCIFLUSH);
	ioctl(0, TIOCOUTQ, &n);
	return 0;
}
