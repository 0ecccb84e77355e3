/* Demangling through libiberty (C++ and Rust legacy and v0 symbols). */
#include <stdlib.h>

#include <libiberty/demangle.h>

#include "dwarf/dwarf.h"

/*
 * DMGL_AUTO recognizes both languages' manglings; DMGL_RUST would force
 * Rust rules on C++ symbols (checked: it breaks them).  Without DMGL_VERBOSE
 * the hash of a Rust legacy symbol is left out.
 */
char *dwarf_demangle(const char *name)
{
	if (!name)
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}
