/* srctail's second file: a tail call into the C library (tests/t/source_tailcall.sh). */
#include <string.h>
#include <unistd.h>

void other_say(const char *s)
{
	write(1, s, strlen(s));	/* MARK:tail_other */
}
