/*
 * Opens each plugin given (tests/data/source/srcown.c under various names)
 * with dlopen and calls it (tests/t/source_dlopen.sh).
 * Usage: srcownmain PLUGIN.so...
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW);
		int (*wr)(const char *);
		void (*run)(const char *);
		const char *base = strrchr(argv[i], '/');
		char msg[256];

		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		wr = (int (*)(const char *))dlsym(h, "own_write");
		run = (void (*)(const char *))dlsym(h, "own_run");
		if (!wr || !run)
			return 1;
		snprintf(msg, sizeof(msg), "plain %s\n", base ? base + 1 : argv[i]);
		if (wr(msg) < 0)	/* MARK:own_main_plain */
			return 1;
		snprintf(msg, sizeof(msg), "tail %s\n", base ? base + 1 : argv[i]);
		run(msg);	/* MARK:own_main_run */
	}
	return 0;
}
