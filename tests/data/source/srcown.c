/*
 * A plugin built with -g that tests/t/source_dlopen.sh installs under
 * names of system libraries (libutil.so, libm.so) in the test's own
 * directory: a module with debug information outside the system's library
 * directories is the program's own, whatever its name.
 */
#include <string.h>
#include <unistd.h>

int own_write(const char *s)
{
	return (int)write(1, s, strlen(s));	/* MARK:own_plain */
}

static void __attribute__((noinline)) own_emit(const char *s)
{
	write(1, s, strlen(s));	/* MARK:own_tail (a tail call at -O2) */
}

int own_runs;

void own_run(const char *s)
{
	own_emit(s);	/* MARK:own_run */
	own_runs++;
}

/* called through a pointer: its frame is rebuilt from the value of the
 * pointer the caller kept in a register (DW_AT_call_target) */
void own_jump(const char *s)
{
	own_emit(s);	/* MARK:own_jump */
}
