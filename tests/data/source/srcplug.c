/* A library srcmain opens with dlopen (tests/t/source_lines.sh). */
#include <unistd.h>

int plugin_write(void)
{
	if (write(1, "plugin\n", 7) < 0)	/* MARK:plugin */
		return -1;
	return 0;
}
