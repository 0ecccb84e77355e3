/* A shared library of srcmain (tests/t/source_lines.sh). */
#include <unistd.h>

int lib_write(void)
{
	if (write(1, "lib\n", 4) < 0)	/* MARK:lib */
		return -1;
	return 0;
}
