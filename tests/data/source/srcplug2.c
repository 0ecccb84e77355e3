/*
 * A second plugin (tests/t/source_bad.sh): srcdl unloads srcplug.so and
 * loads this one, which the loader may map at the same address.
 */
#include <unistd.h>

static int pad(int x)
{
	return x * 3 + 1;
}

int plugin_write(void)
{
	int n = pad(2);

	if (write(1, "plugin2\n", 8) < 0)	/* MARK:plugin2 */
		return -1;
	return n - 7;
}
