/*
 * Stack unwinding and symbolization with libdw (see dwarf.h).  One Dwfl per
 * traced process, attached with dwfl_linux_proc_attach() on a tracee we
 * already hold stopped; a cache per process from each looked-up address to
 * its names, dropped when the address space changes (execve, new
 * executable mappings, a module unmapped).  Strings are interned for the
 * whole run, so frames handed to sinks never dangle.
 */
#include "dwarf/dwarf.h"
#include "dwarf/skip.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "sys/filter.h"
#include "sys/sysent.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* strace -k's depth: 256 frames, then "too many stack frames" */
#define MAX_PHYS_FRAMES 256
/* inlined levels kept per physical frame */
#define MAX_INLINE 16

/* ---- interned strings (stable pointers for the whole run) ------------- */

struct strtab {
	const char **slots;      /* open addressing, NULL empty */
	size_t nslots, used;
	struct arena arena;
};

static uint32_t hash_str(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static const char *intern_n(struct strtab *t, const char *s, size_t len)
{
	size_t i;

	if (!s)
		return NULL;
	if ((t->used + 1) * 2 > t->nslots) {
		const char **old = t->slots;
		size_t oldn = t->nslots;
		t->nslots = oldn ? oldn * 2 : 1024;
		t->slots = xcalloc(t->nslots, sizeof(*t->slots));
		for (size_t j = 0; j < oldn; j++) {
			if (!old[j])
				continue;
			i = hash_str(old[j], strlen(old[j])) & (t->nslots - 1);
			while (t->slots[i])
				i = (i + 1) & (t->nslots - 1);
			t->slots[i] = old[j];
		}
		free(old);
	}
	i = hash_str(s, len) & (t->nslots - 1);
	for (; t->slots[i]; i = (i + 1) & (t->nslots - 1))
		if (!strncmp(t->slots[i], s, len) && !t->slots[i][len])
			return t->slots[i];
	t->slots[i] = arena_strndup(&t->arena, s, len);
	t->used++;
	return t->slots[i];
}

static const char *intern(struct strtab *t, const char *s)
{
	return s ? intern_n(t, s, strlen(s)) : NULL;
}

/* ---- what one address resolves to ------------------------------------ */

/* One source-level function at an address: the innermost first. */
struct inl {
	const char *function;
	const char *file;
	uint32_t line;
	const char *decl_file;   /* where the function is defined, or NULL */
	uint8_t flags;           /* FRAME_OWN, FRAME_FOREIGN_LINE */
};

struct loc {
	uint64_t addr;           /* the looked-up address (key) */
	const char *module;
	uint64_t offset;
	const char *symbol;
	uint64_t symoff;
	uint8_t ninl;            /* 0: no DWARF; the frame is the symbol alone */
	bool own;                /* for ninl == 0 */
	struct inl *inl;
};

/* A traced process (address space). */
struct dproc {
	pid_t pid;
	Dwfl *dwfl;              /* NULL until used, and after execve */
	bool stale;              /* mappings changed: report again first */
	bool exec_pending;       /* execve succeeded: start over */
	const char *attach_error;   /* dwfl_linux_proc_attach failed (interned) */
	struct loc **cache;      /* open addressing by addr */
	size_t ncache, used;
	struct arena arena;      /* the locs */
	uint64_t *ranges;        /* [lo, hi) pairs of the reported modules */
	size_t nranges, aranges;
	struct dproc *next;
};

/* A thread's current stack. */
struct dthread {
	pid_t tid;
	struct frame *frames;
	size_t nframes, alloc;
	bool have;               /* frames belong to the call in progress */
	struct frame source;     /* event.source when it is not one of frames */
	struct dthread *next;
};

#define NBUCKETS 1024

struct dwarf {
	struct dwarf_opts o;
	struct srcskip *own_skip;   /* the default list when o.skip is NULL */
	const struct srcskip *skip;
	char *cwd;               /* with a trailing '/' */
	size_t cwdlen;
	struct strtab strs;
	struct dproc *procs[NBUCKETS];
	struct dthread *threads[NBUCKETS];
	struct dthread *dead;    /* freed at the next unwind */
	struct dwarf_stats st;
	char *debuginfo_path;    /* for Dwfl_Callbacks */
	uint8_t *watch;          /* dwarf_watch_set() */
	Dwfl_Callbacks cb;
};

/* ---- debug info: local only ------------------------------------------ */

/*
 * libdw's standard lookup (build-id links, .gnu_debuglink next to the file
 * and under /usr/lib/debug), falling back to debuginfod when
 * DEBUGINFOD_URLS is set.  renacer never uses the network: the variable is
 * hidden from libdw for the duration of the lookup (renacer is single
 * threaded and tracees got their environment when they started).
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	char *saved = urls ? xstrdup(urls) : NULL;
	int fd;

	if (saved)
		unsetenv("DEBUGINFOD_URLS");
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					  debuglink_file, debuglink_crc, debuginfo_file_name);
	if (saved) {
		setenv("DEBUGINFOD_URLS", saved, 1);
		free(saved);
	}
	return fd;
}

/* ---- tables ----------------------------------------------------------- */

static struct dproc *proc_get(struct dwarf *d, pid_t pid)
{
	struct dproc **pp = &d->procs[(unsigned)pid % NBUCKETS], *p;

	for (p = *pp; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->next = *pp;
	*pp = p;
	return p;
}

static void cache_clear(struct dproc *p)
{
	free(p->cache);
	p->cache = NULL;
	p->ncache = p->used = 0;
	arena_reset(&p->arena);
}

static void proc_free(struct dproc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	cache_clear(p);
	arena_release(&p->arena);
	free(p->ranges);
	free(p);
}

static void proc_forget(struct dwarf *d, pid_t pid)
{
	struct dproc **pp = &d->procs[(unsigned)pid % NBUCKETS];

	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->pid == pid) {
			struct dproc *p = *pp;
			*pp = p->next;
			proc_free(p);
			return;
		}
}

static struct dthread *thread_get(struct dwarf *d, pid_t tid, bool create)
{
	struct dthread **pp = &d->threads[(unsigned)tid % NBUCKETS], *t;

	for (t = *pp; t; t = t->next)
		if (t->tid == tid)
			return t;
	if (!create)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->next = *pp;
	*pp = t;
	return t;
}

static void thread_forget(struct dwarf *d, pid_t tid)
{
	struct dthread **pp = &d->threads[(unsigned)tid % NBUCKETS];

	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->tid == tid) {
			struct dthread *t = *pp;
			*pp = t->next;
			/* a sink may still look at its frames during this event */
			t->next = d->dead;
			d->dead = t;
			return;
		}
}

static void free_dead(struct dwarf *d)
{
	while (d->dead) {
		struct dthread *t = d->dead;
		d->dead = t->next;
		free(t->frames);
		free(t);
	}
}

static struct loc *cache_find(struct dproc *p, uint64_t addr, size_t *slot)
{
	size_t i;

	if (!p->ncache) {
		*slot = SIZE_MAX;
		return NULL;
	}
	i = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20) & (p->ncache - 1);
	for (; p->cache[i]; i = (i + 1) & (p->ncache - 1))
		if (p->cache[i]->addr == addr)
			return p->cache[i];
	*slot = i;
	return NULL;
}

static void cache_put(struct dproc *p, struct loc *l)
{
	size_t slot;

	if ((p->used + 1) * 2 > p->ncache) {
		struct loc **old = p->cache;
		size_t oldn = p->ncache;
		p->ncache = oldn ? oldn * 2 : 256;
		p->cache = xcalloc(p->ncache, sizeof(*p->cache));
		p->used = 0;
		for (size_t i = 0; i < oldn; i++)
			if (old[i])
				cache_put(p, old[i]);
		free(old);
	}
	if (!cache_find(p, l->addr, &slot)) {
		p->cache[slot] = l;
		p->used++;
	}
}

/* ---- the Dwfl of a process ------------------------------------------- */

static int module_range_cb(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr lo,
			   void *arg)
{
	struct dproc *p = arg;
	Dwarf_Addr start, end;

	if (dwfl_module_info(mod, NULL, &start, &end, NULL, NULL, NULL, NULL)) {
		ALLOC_GROW(p->ranges, p->nranges + 2, p->aranges);
		p->ranges[p->nranges++] = start;
		p->ranges[p->nranges++] = end;
	}
	return DWARF_CB_OK;
}

static int report_maps(struct dwarf *d, struct dproc *p)
{
	d->st.reports++;
	dwfl_report_begin(p->dwfl);
	if (dwfl_linux_proc_report(p->dwfl, p->pid) != 0) {
		dwfl_report_end(p->dwfl, NULL, NULL);
		return -1;
	}
	if (dwfl_report_end(p->dwfl, NULL, NULL) != 0)
		return -1;
	p->nranges = 0;
	dwfl_getmodules(p->dwfl, module_range_cb, p, 0);
	if (getenv("RENACER_DWARF_DEBUG"))
		for (size_t i = 0; i < p->nranges; i += 2)
			fprintf(stderr, "report %d: %#lx-%#lx\n", p->pid, (unsigned long)p->ranges[i], (unsigned long)p->ranges[i+1]);
	return 0;
}

/* Makes p->dwfl current; NULL with *why set when the process cannot be read. */
static Dwfl *proc_dwfl(struct dwarf *d, struct dproc *p, const char **why)
{
	int r;

	if (p->exec_pending) {
		if (p->dwfl)
			dwfl_end(p->dwfl);
		p->dwfl = NULL;
		p->attach_error = NULL;
		p->exec_pending = p->stale = false;
		cache_clear(p);
	}
	if (p->dwfl && p->stale) {
		p->stale = false;
		cache_clear(p);
		if (report_maps(d, p) < 0) {
			*why = intern(&d->strs, dwfl_errmsg(-1));
			dwfl_end(p->dwfl);
			p->dwfl = NULL;
			return NULL;
		}
	}
	if (p->dwfl) {
		if (p->attach_error)
			*why = p->attach_error;
		return p->attach_error ? NULL : p->dwfl;
	}
	p->stale = false;
	p->dwfl = dwfl_begin(&d->cb);
	if (!p->dwfl) {
		*why = intern(&d->strs, dwfl_errmsg(-1));
		return NULL;
	}
	if (report_maps(d, p) < 0) {
		*why = intern(&d->strs, dwfl_errmsg(-1));
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
		return NULL;
	}
	r = dwfl_linux_proc_attach(p->dwfl, p->pid, true);
	if (r != 0) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "cannot attach to process %d: %s", (int)p->pid,
			    r < 0 ? dwfl_errmsg(-1) : strerror(r));
		p->attach_error = intern(&d->strs, sb.buf);
		strbuf_release(&sb);
		*why = p->attach_error;
		return NULL;
	}
	return p->dwfl;
}

/* ---- naming an address ----------------------------------------------- */

char *dwarf_demangle(const char *name);

/* A name for display: demangled when mangled, interned. */
static const char *nice_name(struct dwarf *d, const char *name)
{
	char *dm;
	const char *r;

	if (!name || !*name)
		return NULL;
	if ((name[0] == '_' && (name[1] == 'Z' || name[1] == 'R')) && (dm = dwarf_demangle(name))) {
		r = intern(&d->strs, dm);
		free(dm);
		return r;
	}
	return intern(&d->strs, name);
}

/* The module name as shown: the vDSO as "[vdso]". */
static const char *module_name(struct dwarf *d, const char *name)
{
	if (name && !strncmp(name, "[vdso", 5))
		return intern(&d->strs, "[vdso]");
	return intern(&d->strs, name);
}

/* A source file as shown: relative to the working directory when under it. */
static const char *file_name(struct dwarf *d, const char *f)
{
	if (!f || !*f)
		return NULL;
	if (d->cwdlen && !strncmp(f, d->cwd, d->cwdlen) && f[d->cwdlen])
		f += d->cwdlen;
	return intern(&d->strs, f);
}

static const char *die_function(struct dwarf *d, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (n) {
		const char *r = nice_name(d, n);
		if (r && r[0] != '_')
			return r;
	}
	n = dwarf_diename(die);
	return n ? intern(&d->strs, n) : NULL;
}

/* The call site of an inlined subroutine: its DW_AT_call_file and _line. */
static void call_site(struct dwarf *d, Dwarf_Die *cu, Dwarf_Die *inl, const char **file,
		      uint32_t *line)
{
	Dwarf_Attribute a;
	Dwarf_Word f = 0, l = 0;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &a), &l) != 0 || l > UINT32_MAX)
		return;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &a), &f) != 0)
		return;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || f >= nfiles)
		return;
	*file = file_name(d, dwarf_filesrc(files, f, NULL, NULL));
	*line = *file ? (uint32_t)l : 0;
}

/*
 * The concrete functions containing pc under parent: chain[depth..] gets
 * the physical function, then each inlined call inside it, outermost
 * first; returns the new depth.  (libdw's dwarf_getscopes gives up on a
 * whole CU when one DIE's ranges are odd, as in rustc's output; here such
 * a DIE only does not match.)  Functions sit at the top of a CU or inside
 * namespaces and types (C++ classes, Rust modules and impls).
 */
static int find_scopes(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *chain, int depth, int max)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child) != 0)
		return depth;
	do {
		int d2;

		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_entry_point:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, pc) != 1)
				break;
			if (dwarf_tag(&child) != DW_TAG_lexical_block && depth < max)
				chain[depth++] = child;
			/* well-formed scopes nest: nothing else at this level */
			return find_scopes(&child, pc, chain, depth, max);
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
		case DW_TAG_union_type:
		case DW_TAG_interface_type:
			d2 = find_scopes(&child, pc, chain, depth, max);
			if (d2 > depth)
				return d2;
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return depth;
}

/* The source-level functions at addr (innermost first) into l->inl. */
static void resolve_inlines(struct dwarf *d, struct dproc *p, Dwfl_Module *mod, uint64_t addr,
			    struct loc *l)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	Dwarf_Die chain[MAX_INLINE];
	struct inl tmp[MAX_INLINE];
	int n, k = 0, sline = 0;
	const char *file = NULL;
	uint32_t line = 0;
	Dwfl_Line *dl;

	if (!cu)
		return;
	dl = dwfl_module_getsrc(mod, addr);
	if (dl) {
		const char *f = dwfl_lineinfo(dl, NULL, &sline, NULL, NULL, NULL);
		file = file_name(d, f);
		if (!file || sline <= 0)
			file = NULL;
		else
			line = (uint32_t)sline;
	}
	n = find_scopes(cu, addr - bias, chain, 0, MAX_INLINE);
	/* innermost first: the line table's file:line, then each inlined
	 * call's site, out to the physical function */
	for (int i = n - 1; i >= 0 && k < MAX_INLINE; i--) {
		tmp[k].function = die_function(d, &chain[i]);
		tmp[k].file = file;
		tmp[k].line = line;
		tmp[k].decl_file = file_name(d, dwarf_decl_file(&chain[i]));
		tmp[k].flags = 0;
		k++;
		if (dwarf_tag(&chain[i]) == DW_TAG_inlined_subroutine)
			call_site(d, cu, &chain[i], &file, &line);
	}
	if (!k && file) {
		/* a line table but no function DIE (assembly, some start-up code) */
		tmp[0].function = NULL;
		tmp[0].file = file;
		tmp[0].line = line;
		tmp[0].decl_file = NULL;
		tmp[0].flags = 0;
		k = 1;
	}
	if (!k)
		return;
	/* the symbol names the physical function when DWARF does not */
	if (!tmp[k - 1].function)
		tmp[k - 1].function = l->symbol;
	l->ninl = (uint8_t)k;
	l->inl = arena_memdup(&p->arena, tmp, (size_t)k * sizeof(*tmp));
}

/*
 * Whether a source-level function is the program's own: its module, name
 * and the file it is defined in (else the file of the line) match no skip
 * pattern.  An own function whose line lies in a skipped file (std code
 * inlined with no inline record, as rustc leaves it) keeps its name but
 * not that line: FRAME_FOREIGN_LINE.
 */
static uint8_t own_flags(struct dwarf *d, const char *module, const struct inl *in)
{
	bool file_ok = !in->file || !srcskip_match(d->skip, NULL, NULL, in->file);
	const char *decl = in->decl_file ? in->decl_file : in->file;

	if (!module || srcskip_match(d->skip, module, in->function, NULL))
		return 0;
	if (decl && srcskip_match(d->skip, NULL, NULL, decl))
		return 0;
	return FRAME_OWN | (file_ok ? 0 : FRAME_FOREIGN_LINE);
}

static struct loc *resolve(struct dwarf *d, struct dproc *p, uint64_t addr)
{
	struct loc *l = arena_calloc(&p->arena, sizeof(*l));
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, addr);

	d->st.lookups++;
	l->addr = addr;
	if (mod) {
		GElf_Off off = 0;
		GElf_Sym sym;
		Dwarf_Addr rel = addr;
		const char *sname;

		l->module = module_name(d, dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL,
							    NULL, NULL));
		if (dwfl_module_relocate_address(mod, &rel) >= 0)
			l->offset = rel;
		else
			l->offset = addr;
		/* a module that is not the program's own (libc, ld.so) is never
		 * shown without -k: its symbols and debug information (libc6-dbg
		 * is large) are not even loaded */
		if (!d->o.stack_trace && srcskip_match(d->skip, l->module, NULL, NULL)) {
			cache_put(p, l);
			return l;
		}
		sname = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
		if (sname && *sname) {
			/* "__libc_start_main@@GLIBC_2.34": the version is not the name */
			const char *at = strchr(sname, '@');
			if (at && at > sname) {
				char *plain = xstrndup(sname, (size_t)(at - sname));
				l->symbol = nice_name(d, plain);
				free(plain);
			} else {
				l->symbol = nice_name(d, sname);
			}
			l->symoff = off;
		}
		resolve_inlines(d, p, mod, addr, l);
	} else {
		l->offset = addr;
	}
	for (unsigned i = 0; i < l->ninl; i++)
		l->inl[i].flags = own_flags(d, l->module, &l->inl[i]);
	/* no line for this address in a module that has debug information:
	 * start-up code or a compiler shim (Rust's C main), not the program's */
	l->own = l->module && !srcskip_match(d->skip, l->module, l->symbol, NULL) &&
		 !(mod && dwfl_module_getdwarf(mod, &(Dwarf_Addr){ 0 }));
	cache_put(p, l);
	return l;
}

/* ---- unwinding -------------------------------------------------------- */

struct walk {
	struct dwarf *d;
	struct dproc *p;
	struct dthread *t;
	unsigned nphys;
	uint64_t last_pc, last_sp;
	bool have_last;
	const char *error;       /* interned, or NULL */
};

static void add_frame(struct dthread *t, const struct frame *f)
{
	ALLOC_GROW(t->frames, t->nframes + 1, t->alloc);
	t->frames[t->nframes++] = *f;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	bool activation;
	Dwarf_Word sp = 0;
	bool have_sp;
	uint64_t addr;
	size_t slot;
	struct loc *l;
	struct frame f;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return -1;
	if (w->nphys >= MAX_PHYS_FRAMES) {
		w->error = intern(&w->d->strs, "too many stack frames");
		return DWARF_CB_ABORT;
	}
	have_sp = dwfl_frame_reg(state, ARCH_DWARF_SP_REGNO, &sp) == 0;
	if (have_sp && w->have_last && pc == w->last_pc && sp == w->last_sp) {
		w->error = intern(&w->d->strs, "the stack loops (a frame repeats itself)");
		return DWARF_CB_ABORT;
	}
	w->have_last = have_sp;
	w->last_pc = pc;
	w->last_sp = sp;
	w->nphys++;
	w->d->st.frames++;
	addr = activation || !pc ? pc : pc - 1;
	l = cache_find(w->p, addr, &slot);
	if (!l)
		l = resolve(w->d, w->p, addr);
	/* names and lines are those of the call instruction (pc - 1); the
	 * offsets are of pc itself, as strace, eu-stack and gdb print them */
	memset(&f, 0, sizeof(f));
	f.pc = pc;
	f.module = l->module;
	f.offset = l->offset + (pc - addr);
	f.symbol = l->symbol;
	f.symoff = l->symoff + (pc - addr);
	if (!l->ninl) {
		f.function = l->symbol;
		f.flags = l->own ? FRAME_OWN : 0;
		add_frame(w->t, &f);
		return DWARF_CB_OK;
	}
	for (unsigned i = 0; i < l->ninl; i++) {
		f.function = l->inl[i].function;
		f.file = l->inl[i].file;
		f.line = l->inl[i].line;
		f.flags = l->inl[i].flags | (i + 1 < l->ninl ? FRAME_INLINED : 0);
		add_frame(w->t, &f);
	}
	return DWARF_CB_OK;
}

/*
 * The frame -s reports: the innermost own frame with a line; else the
 * innermost own frame (a module without debug information: its function
 * alone).  A frame whose line is foreign is copied into *tmp without it.
 */
static const struct frame *pick_source(const struct frame *fr, size_t n, struct frame *tmp)
{
	const struct frame *first = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!(fr[i].flags & FRAME_OWN))
			continue;
		if (fr[i].file && fr[i].line && !(fr[i].flags & FRAME_FOREIGN_LINE))
			return &fr[i];
		if (!first)
			first = &fr[i];
	}
	if (first && (first->flags & FRAME_FOREIGN_LINE)) {
		*tmp = *first;
		tmp->file = NULL;
		tmp->line = 0;
		return tmp;
	}
	return first;
}

/*
 * Whether the last frame is a process's or thread's entry point, where the
 * stack ends.  Hand-written entry code often has no CFI saying so, and
 * libdw then reports "no matching address range" for the frame beyond it:
 * not an error worth showing.
 */
static bool at_outermost(const struct dthread *t)
{
	static const char *const entries[] = {
		"_start", "__clone", "__clone3", "clone", "clone3", "start_thread",
		"thread_start", "__start",
	};
	const struct frame *f;

	if (!t->nframes)
		return false;
	f = &t->frames[t->nframes - 1];
	for (size_t i = 0; i < ARRAY_SIZE(entries); i++)
		if ((f->symbol && !strcmp(f->symbol, entries[i])) ||
		    (f->function && !strcmp(f->function, entries[i])))
			return true;
	return false;
}

static void unwind(struct dwarf *d, struct event *ev)
{
	struct dproc *p = proc_get(d, ev->pid);
	struct dthread *t = thread_get(d, ev->tid, true);
	struct walk w = { d, p, t, 0, 0, 0, false, NULL };
	const char *why = NULL;
	Dwfl *dwfl;
	int r;

	free_dead(d);
	t->nframes = 0;
	t->have = true;
	d->st.stacks++;
	dwfl = proc_dwfl(d, p, &why);
	if (!dwfl) {
		w.error = why;
	} else {
		r = dwfl_getthread_frames(dwfl, ev->tid, frame_cb, &w);
		if (r != 0 && !w.error && !(r < 0 && at_outermost(t)))
			w.error = intern(&d->strs, r < 0 ? dwfl_errmsg(-1) : "unwinding stopped");
	}
	if (w.error)
		d->st.errors++;
	ev->frames = t->frames;
	ev->nframes = (uint32_t)t->nframes;
	ev->stack_error = w.error;
	ev->stack_trace = d->o.stack_trace;
	ev->source = d->o.source ? pick_source(t->frames, t->nframes, &t->source) : NULL;
}

/* ---- noticing changes of the address space --------------------------- */

static bool overlaps_module(const struct dproc *p, uint64_t lo, uint64_t len)
{
	uint64_t hi = lo + len;

	if (hi < lo)
		hi = UINT64_MAX;
	for (size_t i = 0; i + 1 < p->nranges; i += 2)
		if (lo < p->ranges[i + 1] && p->ranges[i] < hi)
			return true;
	return false;
}

#define PROT_EXEC_BIT 0x4

static void note_exit(struct dwarf *d, const struct event *ev)
{
	struct dproc *p;
	const char *n = ev->name;

	if (!n || ev->state != SC_COMPLETE || ev->err)
		return;
	switch (n[0]) {
	case 'e':
		if (!strcmp(n, "execve") || !strcmp(n, "execveat")) {
			p = proc_get(d, ev->pid);
			p->exec_pending = true;
		}
		return;
	case 'm':
		p = proc_get(d, ev->pid);
		if (!strcmp(n, "mmap") || !strcmp(n, "mprotect") || !strcmp(n, "pkey_mprotect")) {
			if (ev->raw[2] & PROT_EXEC_BIT)
				p->stale = true;
			else if (n[1] == 'p' && overlaps_module(p, ev->raw[0], ev->raw[1]))
				p->stale = true;   /* code made non-executable */
		} else if (!strcmp(n, "munmap") || !strcmp(n, "mremap")) {
			if (overlaps_module(p, ev->raw[0], ev->raw[1]))
				p->stale = true;
		}
		return;
	case 's':
		if (!strcmp(n, "shmat") || !strcmp(n, "shmdt")) {
			p = proc_get(d, ev->pid);
			p->stale = true;
		}
		return;
	}
}

void dwarf_enrich(void *data, struct event *ev)
{
	struct dwarf *d = data;
	struct dthread *t;

	if (ev->type == EV_SYSCALL_ENTRY) {
		/* watched calls (dwarf_watch_set) only matter at their exit */
		if (trace_set_has(d->o.trace_set, ev->nr))
			unwind(d, ev);
		return;
	}
	if (ev->type != EV_SYSCALL)
		return;
	if ((t = thread_get(d, ev->tid, false)))
		t->have = false;
	note_exit(d, ev);
}

/* ---- the sink that forgets the dead ---------------------------------- */

struct dwarf_sink {
	struct sink base;
	struct dwarf *d;
};

static void dsink_event(struct sink *s, const struct event *ev)
{
	struct dwarf *d = ((struct dwarf_sink *)s)->d;

	if (ev->type == EV_EXEC) {
		proc_get(d, ev->pid)->exec_pending = true;
	} else if (ev->type == EV_PROC_EXIT || ev->type == EV_DETACH) {
		thread_forget(d, ev->tid);
		if (ev->tid == ev->pid)
			proc_forget(d, ev->pid);
	}
}

static void dsink_free(struct sink *s)
{
	free(s);
}

static const struct sink_ops dsink_ops = {
	.name = "dwarf",
	.no_args = 1,
	.event = dsink_event,
	.proc_exit = dsink_event,
	.free = dsink_free,
};

struct sink *dwarf_sink_new(struct dwarf *d)
{
	struct dwarf_sink *s = xcalloc(1, sizeof(*s));

	s->base.ops = &dsink_ops;
	s->d = d;
	return &s->base;
}

/* ---- life cycle ------------------------------------------------------- */

struct dwarf *dwarf_new(const struct dwarf_opts *o)
{
	struct dwarf *d = xcalloc(1, sizeof(*d));
	char buf[PATH_MAX];

	d->o = *o;
	d->own_skip = o->skip ? o->skip : srcskip_new();
	d->skip = d->own_skip;
	d->o.skip = NULL;
	if (o->cwd || getcwd(buf, sizeof(buf))) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, o->cwd ? o->cwd : buf);
		if (sb.len && sb.buf[sb.len - 1] != '/')
			strbuf_addch(&sb, '/');
		d->cwdlen = sb.len > 1 ? sb.len : 0;   /* "/" itself: keep absolute */
		d->cwd = strbuf_detach(&sb, NULL);
	}
	d->cb.find_elf = dwfl_linux_proc_find_elf;
	d->cb.find_debuginfo = find_debuginfo;
	d->cb.debuginfo_path = &d->debuginfo_path;
	return d;
}

const uint8_t *dwarf_watch_set(struct dwarf *d)
{
	static const char *const names[] = {
		"mmap", "mprotect", "pkey_mprotect", "munmap", "mremap", "shmat", "shmdt",
		"execve", "execveat",
	};

	if (!d->watch) {
		d->watch = xcalloc((sysent_count + 7) / 8, 1);
		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			long nr = sysent_lookup(names[i]);
			if (nr >= 0 && (unsigned long)nr < sysent_count)
				d->watch[nr >> 3] |= (uint8_t)(1u << (nr & 7));
		}
	}
	return d->watch;
}

void dwarf_get_stats(const struct dwarf *d, struct dwarf_stats *st)
{
	*st = d->st;
}

void dwarf_free(struct dwarf *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < NBUCKETS; i++) {
		while (d->procs[i]) {
			struct dproc *p = d->procs[i];
			d->procs[i] = p->next;
			proc_free(p);
		}
		while (d->threads[i]) {
			struct dthread *t = d->threads[i];
			d->threads[i] = t->next;
			free(t->frames);
			free(t);
		}
	}
	free_dead(d);
	free(d->strs.slots);
	arena_release(&d->strs.arena);
	srcskip_free(d->own_skip);
	free(d->watch);
	free(d->cwd);
	free(d);
}
