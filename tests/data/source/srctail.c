/*
 * Functions that end in a tail call (tests/t/source_tailcall.sh): at -O2
 * each `write(...)` below is the function's last statement and compiles to
 * a jump, so the function leaves no frame on the stack and renacer must
 * rebuild it from DWARF call-site information.  Every call marked
 * MARK:name must be reported by `renacer -s` at its marker's line:
 * tail calls in the same file, through a chain of two, into a function of
 * another file (srctail2.c) and of a shared library (libsrctail.so).  The
 * call of `either` could come through two tail calls, so nothing is
 * rebuilt for it: it is reported at its caller's line.
 * Usage: srctail [block]  (block: read one byte from standard input, under
 * two tail calls, for gdb to look at)
 */
#include <string.h>
#include <unistd.h>

void other_say(const char *s);	/* srctail2.c */
void lib_say(const char *s);	/* srctaillib.c, in libsrctail.so */

static void __attribute__((noinline)) say(const char *s)
{
	write(1, s, strlen(s));	/* MARK:tail_say */
}

void __attribute__((noinline)) relay(const char *s)
{
	say(s);	/* MARK:tail_relay */
}

static void __attribute__((noinline)) pick_a(int fd)
{
	write(fd, "either a\n", 9);
}

static void __attribute__((noinline)) pick_b(int fd)
{
	write(fd, "either b\n", 9);
}

static void __attribute__((noinline)) either(int a, int fd)
{
	if (a)
		pick_a(fd);
	else
		pick_b(fd);
}

static long __attribute__((noinline)) get_byte(char *c)
{
	return read(0, c, 1);	/* MARK:tail_get */
}

long __attribute__((noinline)) pass_byte(char *c)
{
	return get_byte(c);	/* MARK:tail_pass */
}

int main(int argc, char **argv)
{
	char c = 0;

	if (argc > 1 && !strcmp(argv[1], "block"))
		return pass_byte(&c) + c == 12345;	/* MARK:tail_main_block */
	say("say\n");	/* MARK:tail_main_say */
	relay("relay\n");	/* MARK:tail_main_relay */
	other_say("other\n");	/* MARK:tail_main_other */
	lib_say("lib\n");	/* MARK:tail_main_lib */
	either(argc > 5, 1);	/* MARK:tail_main_either */
	return 0;
}
