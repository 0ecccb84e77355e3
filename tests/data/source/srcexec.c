/* The program srcmain execs at its end (tests/t/source_lines.sh). */
#include <unistd.h>

int main(void)
{
	if (write(1, "exec\n", 5) < 0)	/* MARK:exec */
		return 1;
	return 0;
}
