/* libsrctail.so: a tail call in a shared library (tests/t/source_tailcall.sh). */
#include <string.h>
#include <unistd.h>

void lib_say(const char *s)
{
	write(1, s, strlen(s));	/* MARK:tail_lib */
}
