/*
 * Opens each plugin given (tests/data/source/srcown.c under various names)
 * with dlopen and calls it (tests/t/source_dlopen.sh).
 * Usage: srcownmain PLUGIN.so...
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

const char *last_msg;

/*
 * Calls f twice through the pointer: at -O2 the pointer outlives each call
 * in a register that calls keep (rbp with gcc 12), which DWARF names as the
 * target of the call (DW_AT_call_target): the frames of the plugin's tail
 * calls are rebuilt from it.
 */
static void __attribute__((noinline)) call_twice(const char *a, const char *b,
						  void (*f)(const char *))
{
	f(a);	/* MARK:own_twice */
	f(b);
	last_msg = a;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW);
		int (*wr)(const char *);
		void (*run)(const char *);
		void (*jump)(const char *);
		const char *base = strrchr(argv[i], '/');
		char msg[256];

		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		wr = (int (*)(const char *))dlsym(h, "own_write");
		run = (void (*)(const char *))dlsym(h, "own_run");
		jump = (void (*)(const char *))dlsym(h, "own_jump");
		if (!wr || !run || !jump)
			return 1;
		snprintf(msg, sizeof(msg), "plain %s\n", base ? base + 1 : argv[i]);
		if (wr(msg) < 0)	/* MARK:own_main_plain */
			return 1;
		snprintf(msg, sizeof(msg), "tail %s\n", base ? base + 1 : argv[i]);
		run(msg);	/* MARK:own_main_run */
		snprintf(msg, sizeof(msg), "jump %s\n", base ? base + 1 : argv[i]);
		call_twice(msg, "jump again\n", jump);	/* MARK:own_main_twice */
	}
	return 0;
}
