/*
 * A sorted index of a module's ELF symbols, so that naming an address is a
 * binary search instead of libdw's scan of the whole table at every call
 * (dwfl_module_addrinfo costs about a millisecond on cc1's 29,000 dynamic
 * symbols).  It picks the symbol libdw would: among the symbols whose range
 * holds the address, the global ones before the local ones, then the
 * closest, then by binding and size as dwfl_module_addrinfo prefers them.
 * Addresses are relative to the module's lowest mapped address, so one
 * index serves every process that maps the same file.
 */
#ifndef RENACER_DWARF_SYMIDX_H
#define RENACER_DWARF_SYMIDX_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdwfl.h>

struct symidx;

/*
 * Reads mod's symbol table into an index, choosing as libdw does: the
 * file's own .symtab, else the one of its debug file (debug, the ELF of
 * the module's loaded DWARF, or NULL), else .dynsym.  low is the module's
 * start address in this process.  Returns NULL when there is no table.
 */
struct symidx *symidx_build(Dwfl_Module *mod, uint64_t low, Elf *debug);

/*
 * The name of the symbol holding rel (module-relative), with *off set to
 * rel minus the symbol's address; NULL when none does.  The name lives as
 * long as the index.
 */
const char *symidx_lookup(const struct symidx *x, uint64_t rel, uint64_t *off);

/*
 * Whether a symbol named name (a symbol's "@VERSION" left out) has the
 * module-relative address rel: one of the names of the function there
 * ("write" and "__write" in the C library).
 */
bool symidx_has_at(const struct symidx *x, const char *name, uint64_t rel);

/*
 * The module-relative address of the function named name: 1 with *rel set
 * when the name has one address (global symbols before local ones), 0 when
 * no symbol has it, -1 when several addresses do (local functions of the
 * same name in two files).  global_only: local symbols do not count.  The
 * first call builds an index of the names.
 */
int symidx_find(struct symidx *x, const char *name, bool global_only, uint64_t *rel);

void symidx_free(struct symidx *x);

#endif
