/*
 * Code unmapped under renacer's feet (tests/t/source_bad.sh): a plugin is
 * loaded, called and unloaded, then another one is loaded (often at the
 * same address) and called; then code copied into an anonymous executable
 * mapping (no module at all) makes a call and is unmapped.
 * Usage: srcdl PLUGIN1.so PLUGIN2.so
 */
#include <dlfcn.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int call_plugin(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	int (*fn)(void);
	int r;

	if (!h)
		return -1;
	fn = (int (*)(void))dlsym(h, "plugin_write");
	r = fn ? fn() : -1;
	dlclose(h);
	return r;
}

/* getpid(); ret: run from an anonymous mapping */
static const unsigned char stub[] = { 0xb8, 39, 0, 0, 0, 0x0f, 0x05, 0xc3 };

int main(int argc, char **argv)
{
	void *code;
	long (*fn)(void);

	if (argc < 3 || call_plugin(argv[1]) < 0 || call_plugin(argv[2]) < 0)
		return 1;
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 1;
	memcpy(code, stub, sizeof(stub));
	fn = (long (*)(void))code;
	if (fn() != getpid())	/* MARK:jit_call */
		return 1;
	munmap(code, 4096);
	if (write(1, "after\n", 6) < 0)	/* MARK:after_unmap */
		return 1;
	return 0;
}
