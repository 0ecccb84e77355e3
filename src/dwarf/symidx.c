/* A sorted index of a module's symbols (see symidx.h). */
#include "dwarf/symidx.h"
#include "dwarf/dwlib.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

struct sym {
	uint64_t value;          /* relative to the module's low address */
	uint64_t size;
	uint64_t sec_lo, sec_hi; /* labels: the range of their section */
	uint32_t name;           /* offset in the name pool */
	uint32_t order;          /* position in the table: ties go to the first */
	uint8_t bind;            /* 3 global, 2 weak, 1 local, 0 other */
};

/* One half of the table: libdw searches the globals, then the locals. */
struct part {
	struct sym *sized;       /* st_size != 0, by value */
	size_t nsized, asized;
	uint64_t maxsize;
	struct sym *labels;      /* st_size == 0 (assembly labels), by value */
	size_t nlabels, alabels;
};

struct symidx {
	struct part part[2];     /* [0] globals, [1] locals */
	uint64_t *ends;          /* prefix maximum of value + size over all sized symbols */
	struct sym *all;         /* all sized symbols by value (for ends) */
	size_t nall;
	struct strbuf names;
	struct byname *byname;   /* every symbol by name, built by symidx_find */
	size_t nbyname;
};

/* A symbol in the index of names. */
struct byname {
	const char *name;        /* in names; compared up to '@' */
	size_t len;
	uint64_t value;
	uint8_t bind;
};

static uint8_t binding_rank(const GElf_Sym *s)
{
	switch (GELF_ST_BIND(s->st_info)) {
	case STB_GLOBAL: return 3;
	case STB_WEAK: return 2;
	case STB_LOCAL: return 1;
	}
	return 0;
}

static int by_value(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int by_order(const void *a, const void *b)
{
	const struct sym *const *x = a, *const *y = b;
	return (*x)->order < (*y)->order ? -1 : (*x)->order > (*y)->order;
}

/* The first section of elf of the given type, or NULL. */
static Elf_Scn *find_section(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while (elf && (scn = dwl.elf_nextscn(elf, scn)))
		if (dwl.gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

/* Adds the symbols of section scn (a symbol table of elf) to x. */
static void add_table(struct symidx *x, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		      uint64_t bias, uint64_t low)
{
	Elf_Data *data = dwl.elf_getdata(scn, NULL);
	Elf_Data *xndx = NULL;
	Elf_Scn *s2 = NULL;
	GElf_Shdr sh2;
	size_t n, first_global = sh->sh_info;

	if (!data || !sh->sh_entsize)
		return;
	/* the SHT_SYMTAB_SHNDX section of this table, when there is one */
	while ((s2 = dwl.elf_nextscn(elf, s2)))
		if (dwl.gelf_getshdr(s2, &sh2) && sh2.sh_type == SHT_SYMTAB_SHNDX &&
		    sh2.sh_link == dwl.elf_ndxscn(scn))
			xndx = dwl.elf_getdata(s2, NULL);
	n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Word shndx;
		const char *name;
		int type;
		struct part *p = &x->part[first_global == 0 || i >= first_global ? 0 : 1];
		struct sym *s;
		uint64_t value;

		if (!dwl.gelf_getsymshndx(data, xndx, (int)i, &sym, &shndx))
			continue;
		if (sym.st_shndx != SHN_XINDEX)
			shndx = sym.st_shndx;
		type = GELF_ST_TYPE(sym.st_info);
		name = dwl.elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name || shndx == SHN_UNDEF || type == STT_SECTION ||
		    type == STT_FILE || type == STT_TLS)
			continue;
		/* absolute symbols are not relocated; the others move with the module */
		value = shndx == SHN_ABS ? sym.st_value : sym.st_value + bias;
		if (value < low)
			continue;
		if (sym.st_size) {
			ALLOC_GROW(p->sized, p->nsized + 1, p->asized);
			s = &p->sized[p->nsized++];
			if (sym.st_size > p->maxsize)
				p->maxsize = sym.st_size;
		} else {
			Elf_Scn *sscn = shndx < SHN_LORESERVE ? dwl.elf_getscn(elf, shndx) : NULL;
			GElf_Shdr ssh;

			ALLOC_GROW(p->labels, p->nlabels + 1, p->alabels);
			s = &p->labels[p->nlabels++];
			s->sec_lo = s->sec_hi = value - low;   /* absolute symbols: exact only */
			if (sscn && dwl.gelf_getshdr(sscn, &ssh)) {
				s->sec_lo = ssh.sh_addr + bias - low;
				s->sec_hi = s->sec_lo + ssh.sh_size;
			}
		}
		s->value = value - low;
		s->size = sym.st_size;
		s->order = (uint32_t)i;
		s->bind = binding_rank(&sym);
		s->name = (uint32_t)x->names.len;
		strbuf_add(&x->names, name, strlen(name) + 1);
	}
}

struct symidx *symidx_build(Dwfl_Module *mod, uint64_t low, Elf *debug)
{
	GElf_Addr bias = 0;
	Elf *elf = dwl.dwfl_module_getelf(mod, &bias), *from = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	struct symidx *x;
	uint64_t e = 0;

	/* libdw's order: the file's own .symtab, the debug file's, .dynsym */
	if (elf && (scn = find_section(elf, SHT_SYMTAB, &sh)))
		from = elf;
	else if (debug && (scn = find_section(debug, SHT_SYMTAB, &sh)))
		from = debug;
	else if (elf && (scn = find_section(elf, SHT_DYNSYM, &sh)))
		from = elf;
	if (!from)
		return NULL;
	x = xcalloc(1, sizeof(*x));
	strbuf_init(&x->names, 4096);
	add_table(x, from, scn, &sh, bias, low);
	for (int k = 0; k < 2; k++) {
		QSORT(x->part[k].sized, x->part[k].nsized, by_value);
		QSORT(x->part[k].labels, x->part[k].nlabels, by_value);
	}
	/* every sized symbol by value, with the highest end so far: a label
	 * inside a sized symbol's range never names an address past it */
	x->nall = x->part[0].nsized + x->part[1].nsized;
	x->all = xcalloc(x->nall ? x->nall : 1, sizeof(*x->all));
	if (x->part[0].nsized)
		memcpy(x->all, x->part[0].sized, x->part[0].nsized * sizeof(*x->all));
	if (x->part[1].nsized)
		memcpy(x->all + x->part[0].nsized, x->part[1].sized,
		       x->part[1].nsized * sizeof(*x->all));
	QSORT(x->all, x->nall, by_value);
	x->ends = xcalloc(x->nall ? x->nall : 1, sizeof(*x->ends));
	for (size_t i = 0; i < x->nall; i++) {
		if (x->all[i].value + x->all[i].size > e)
			e = x->all[i].value + x->all[i].size;
		x->ends[i] = e;
	}
	return x;
}

/* The number of symbols of a (sorted by value) with value <= rel. */
static size_t upto(const struct sym *a, size_t n, uint64_t rel)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid].value <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The sized symbol of p holding rel that libdw's scan would keep: the
 * candidates in table order, each replacing the best so far when it starts
 * closer or binds better, or starts at the same place and is smaller
 * without binding worse (or as small and binds better).
 */
static const struct sym *best_sized(const struct part *p, uint64_t rel)
{
	const struct sym *cand[64], *best = NULL;
	size_t nc = 0, i = upto(p->sized, p->nsized, rel);

	while (i-- > 0 && nc < ARRAY_SIZE(cand)) {
		const struct sym *s = &p->sized[i];
		if (p->maxsize < rel - s->value)
			break;     /* no symbol this far below can reach rel */
		if (rel - s->value < s->size)
			cand[nc++] = s;
	}
	QSORT(cand, nc, by_order);
	for (i = 0; i < nc; i++) {
		const struct sym *c = cand[i];
		if (!best || best->value < c->value || best->bind < c->bind)
			best = c;
		else if (best->value == c->value &&
			 ((best->size > c->size && best->bind <= c->bind) ||
			  (best->size >= c->size && best->bind < c->bind)))
			best = c;
	}
	return best;
}

/* The closest label at or below rel in its own section, not inside a sized symbol. */
static const struct sym *best_label(const struct symidx *x, const struct part *p, uint64_t rel)
{
	size_t i = upto(p->labels, p->nlabels, rel), k;
	const struct sym *best = NULL;
	uint64_t min_label;

	if (!i)
		return NULL;
	k = upto(x->all, x->nall, rel);
	min_label = k ? x->ends[k - 1] : 0;
	/* labels at the same address: the better binding, else the first */
	for (size_t j = i; j-- > 0 && p->labels[j].value == p->labels[i - 1].value;) {
		const struct sym *s = &p->labels[j];
		if (s->value < min_label)
			continue;
		if (rel < s->sec_lo || rel >= s->sec_hi) {
			if (!(s->sec_lo == s->sec_hi && s->value == rel))
				continue;
		}
		if (!best || s->bind > best->bind || (s->bind == best->bind && s->order < best->order))
			best = s;
	}
	return best;
}

const char *symidx_lookup(const struct symidx *x, uint64_t rel, uint64_t *off)
{
	const struct sym *s;
	const struct sym *glabel;

	if (!x)
		return NULL;
	s = best_sized(&x->part[0], rel);
	glabel = s ? NULL : best_label(x, &x->part[0], rel);
	/* locals only when no global holds it (nor a global label exactly at it) */
	if (!s && !(glabel && glabel->value == rel))
		s = best_sized(&x->part[1], rel);
	if (!s)
		s = glabel;
	if (!s)
		s = best_label(x, &x->part[1], rel);
	if (!s)
		return NULL;
	*off = rel - s->value;
	return x->names.buf + s->name;
}

/* The length of a symbol's name without its "@VERSION". */
static size_t name_len(const char *s)
{
	const char *at = strchr(s, '@');
	return at && at != s ? (size_t)(at - s) : strlen(s);
}

static bool name_is(const char *sym, const char *name, size_t len)
{
	return name_len(sym) == len && !strncmp(sym, name, len);
}

/* Whether one of a[0..n) (sorted by value) named name sits at rel. */
static bool has_at(const struct symidx *x, const struct sym *a, size_t n, const char *name,
		   size_t len, uint64_t rel)
{
	for (size_t i = upto(a, n, rel); i-- > 0 && a[i].value == rel;)
		if (name_is(x->names.buf + a[i].name, name, len))
			return true;
	return false;
}

bool symidx_has_at(const struct symidx *x, const char *name, uint64_t rel)
{
	size_t len = name_len(name);

	if (!x)
		return false;
	for (int k = 0; k < 2; k++)
		if (has_at(x, x->part[k].sized, x->part[k].nsized, name, len, rel) ||
		    has_at(x, x->part[k].labels, x->part[k].nlabels, name, len, rel))
			return true;
	return false;
}

static int cmp_byname(const void *a, const void *b)
{
	const struct byname *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = strncmp(x->name, y->name, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

static void add_byname(struct symidx *x, const struct sym *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct byname *b = &x->byname[x->nbyname++];
		b->name = x->names.buf + a[i].name;
		b->len = name_len(b->name);
		b->value = a[i].value;
		b->bind = a[i].bind;
	}
}

int symidx_find(struct symidx *x, const char *name, bool global_only, uint64_t *rel)
{
	struct byname key;
	size_t lo = 0, hi, total = 0;
	bool found = false, found_global = false;
	uint64_t v = 0;

	if (!x)
		return 0;
	if (!x->byname) {
		for (int k = 0; k < 2; k++)
			total += x->part[k].nsized + x->part[k].nlabels;
		x->byname = xcalloc(total ? total : 1, sizeof(*x->byname));
		for (int k = 0; k < 2; k++) {
			add_byname(x, x->part[k].sized, x->part[k].nsized);
			add_byname(x, x->part[k].labels, x->part[k].nlabels);
		}
		QSORT(x->byname, x->nbyname, cmp_byname);
	}
	key.name = name;
	key.len = name_len(name);
	hi = x->nbyname;
	while (lo < hi) {      /* the first entry not below the name */
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_byname(&x->byname[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < x->nbyname && !cmp_byname(&x->byname[i], &key); i++) {
		const struct byname *b = &x->byname[i];
		bool global = b->bind >= 2;

		if ((global_only || found_global) && !global)
			continue;
		if (global && !found_global) {
			/* a global of the name outranks the locals seen so far */
			found_global = true;
			found = false;
		}
		if (found && b->value != v)
			return -1;
		found = true;
		v = b->value;
	}
	if (!found)
		return 0;
	*rel = v;
	return 1;
}

void symidx_free(struct symidx *x)
{
	if (!x)
		return;
	free(x->byname);
	for (int k = 0; k < 2; k++) {
		free(x->part[k].sized);
		free(x->part[k].labels);
	}
	free(x->all);
	free(x->ends);
	strbuf_release(&x->names);
	free(x);
}
