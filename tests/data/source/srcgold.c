/*
 * A program whose golden is captured with -s (tests/t/source_golden.sh);
 * PLANT changes what it does, and the comparison must name the marked
 * lines the changed calls come from.
 *   PLANT=more   20 more rows written, and a file opened that was not
 *   PLANT=fail   a file opened that does not exist
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void flush_rows(int n)
{
	for (int i = 0; i < n; i++)
		if (write(1, "row\n", 4) < 0)	/* MARK:flush_rows */
			exit(1);
}

static void load_plugins(const char *path)
{
	int fd = open(path, O_RDONLY);	/* MARK:load_plugins */

	if (fd >= 0)
		close(fd);
}

int main(void)
{
	const char *plant = getenv("PLANT");

	flush_rows(plant && !strcmp(plant, "more") ? 25 : 5);
	if (plant && !strcmp(plant, "more"))
		load_plugins("/etc/hostname");
	if (plant && !strcmp(plant, "fail"))
		load_plugins("/nonexistent/renacer-plugins.conf");
	return 0;
}
