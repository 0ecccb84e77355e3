/*
 * libdw and libelf, loaded when the first unwinder is made (dwarf_new), so
 * that a run without -s, -k or a profile never maps them.  Code under
 * src/dwarf/ calls them through the table dwl: dwl.dwfl_begin(&cb).
 */
#ifndef RENACER_DWARF_DWLIB_H
#define RENACER_DWARF_DWLIB_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "util/strbuf.h"

/* The functions used, from libdw.so.1 and from libelf.so.1. */
#define DWLIB_DW_FUNCS(X) \
	X(dwarf_attr) X(dwarf_attr_integrate) X(dwarf_child) X(dwarf_cu_getdwarf) \
	X(dwarf_decl_file) \
	X(dwarf_diecu) X(dwarf_diename) X(dwarf_dieoffset) X(dwarf_filesrc) \
	X(dwarf_formaddr) X(dwarf_formflag) X(dwarf_formref_die) X(dwarf_formstring) \
	X(dwarf_formudata) X(dwarf_getelf) X(dwarf_getlocation) X(dwarf_getsrcfiles) \
	X(dwarf_haspc) X(dwarf_lowpc) X(dwarf_offdie) X(dwarf_siblingof) X(dwarf_tag) \
	X(dwfl_addrmodule) \
	X(dwfl_attach_state) X(dwfl_begin) X(dwfl_end) X(dwfl_errmsg) \
	X(dwfl_frame_pc) X(dwfl_frame_reg) X(dwfl_getmodules) \
	X(dwfl_getthread_frames) X(dwfl_lineinfo) X(dwfl_linux_proc_find_elf) \
	X(dwfl_linux_proc_report) \
	X(dwfl_module_addrdie) X(dwfl_module_build_id) X(dwfl_module_getdwarf) \
	X(dwfl_module_getelf) X(dwfl_module_getsrc) X(dwfl_module_info) \
	X(dwfl_module_relocate_address) X(dwfl_report_begin) X(dwfl_report_elf) X(dwfl_report_end) \
	X(dwfl_standard_find_debuginfo) X(dwfl_thread_state_register_pc) \
	X(dwfl_thread_state_registers) X(dwfl_thread_tid)
#define DWLIB_ELF_FUNCS(X) \
	X(elf_getdata) X(elf_getscn) X(elf_ndxscn) X(elf_nextscn) X(elf_strptr) \
	X(gelf_getshdr) X(gelf_getsymshndx)

/* Each member has its function's own type, so calls are checked. */
struct dwlib {
#define DWLIB_MEMBER(f) __typeof__(&f) f;
	DWLIB_DW_FUNCS(DWLIB_MEMBER)
	DWLIB_ELF_FUNCS(DWLIB_MEMBER)
#undef DWLIB_MEMBER
};

/* Filled by dwlib_load(); all NULL before it succeeds. */
extern struct dwlib dwl;

/*
 * Loads libelf.so.1 and libdw.so.1 and fills dwl (once; later calls
 * return the first result).  Returns 0, or -1 with a one-line reason
 * appended to why: "cannot load 'libdw.so.1': ...".
 */
int dwlib_load(struct strbuf *why);

#endif
