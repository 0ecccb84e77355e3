/* libdw and libelf behind the table dwl (dwlib.h). */
#include "dwarf/dwlib.h"

#include "util/dynlib.h"
#include "util/xmalloc.h"
#include "util/banned.h"

struct dwlib dwl;

#define DWLIB_ROW(f) DYNLIB_SYM(struct dwlib, f),
static const struct dynlib_sym dw_syms[] = { DWLIB_DW_FUNCS(DWLIB_ROW) };
static const struct dynlib_sym elf_syms[] = { DWLIB_ELF_FUNCS(DWLIB_ROW) };
#undef DWLIB_ROW

/* the sonames of elfutils since 0.1xx (Debian's libdw1, libelf1) */
static struct dynlib elf_lib = { "libelf.so.1", elf_syms, ARRAY_SIZE(elf_syms), &dwl };
static struct dynlib dw_lib = { "libdw.so.1", dw_syms, ARRAY_SIZE(dw_syms), &dwl };

int dwlib_load(struct strbuf *why)
{
	const char *e;

	if (dynlib_load(&elf_lib, &e) < 0 || dynlib_load(&dw_lib, &e) < 0) {
		strbuf_addstr(why, e);
		return -1;
	}
	return 0;
}
