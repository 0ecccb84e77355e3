/*
 * Stack unwinding and symbolization with libdw (see dwarf.h).  One Dwfl per
 * traced process, attached with dwfl_linux_proc_attach() on a tracee we
 * already hold stopped.  What an address resolves to is kept twice: per
 * module file (its symbol index and, by module-relative address, the names
 * of each address), shared by every process that maps the file, and per
 * process (address -> resolution), dropped when the address space changes
 * (execve, new executable mappings, a module unmapped).  Strings are
 * interned for the whole run, so frames handed to sinks never dangle.
 */
#include "dwarf/dwarf.h"
#include "dwarf/dwlib.h"
#include "dwarf/skip.h"
#include "dwarf/symidx.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "sys/filter.h"
#include "sys/sysent.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/intern.h"
#include "util/intmap.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"
#include "util/banned.h"

/* strace -k's depth: 256 frames, then "too many stack frames" */
#define MAX_PHYS_FRAMES 256
/* inlined levels kept per physical frame */
#define MAX_INLINE 16
/* tail-call frames rebuilt between two physical frames, at most */
#define MAX_TAIL 8
/* tail calls of one function looked at, at most (more: not followed) */
#define MAX_TAIL_SITES 32
/* functions visited in one search for a tail-call chain, at most */
#define TAIL_BUDGET 64

/* ---- interned strings ------------------------------------------------ */

/* s, interned for the whole run: util/intern's pointers never move, so
 * frames may keep them and equal strings compare equal as pointers. */
static const char *intern(struct intern *t, const char *s)
{
	return s ? intern_str(t, intern_add(t, s, strlen(s))) : NULL;
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

struct modinfo;

/* The function a call instruction calls, as DWARF call-site information
 * (DW_TAG_call_site, DW_TAG_GNU_call_site) names it. */
struct ctarget {
	uint8_t kind;            /* CT_NONE (unknown: no DWARF, a target that cannot
				    be computed), CT_ADDR, CT_NAME, CT_REG */
	uint8_t reg;             /* CT_REG: a register kept across calls holds
				    its address, plus off (an indirect call) */
	bool deref;              /* CT_REG: ... the address of a pointer to it */
	int64_t off;
	uint64_t rel;            /* CT_ADDR: its entry, relative to the module's start */
	const char *name;        /* CT_NAME: its symbol (interned, as in the symbol table) */
};
enum { CT_NONE, CT_ADDR, CT_NAME, CT_REG };

/*
 * An address.  Its module and offset are known at once; its names only
 * once resolved (`full`): the symbol, the inlined functions with their
 * lines, and which of them are the program's own.
 */
struct loc {
	struct modinfo *mi;      /* NULL: in no module */
	uint64_t rel;            /* key: the address minus the module's start */
	uint64_t offset;         /* strace -k's [0x...] of the looked-up address */
	bool full;               /* the names below are set */
	const char *symbol;
	uint64_t symoff;
	uint8_t ninl;            /* 0: no DWARF; the frame is the symbol alone */
	uint8_t flags;           /* for ninl == 0: FRAME_OWN */
	struct inl *inl;
	uint64_t fn_off;         /* its function's DIE: offset + 1 in the module's
				    DWARF, 0 when unknown */
	bool cs_done;            /* cs is looked up */
	uint8_t entry_known;     /* 0 not yet, 1 entry is set, 2 no symbol */
	uint64_t entry;          /* the start of the symbol holding it, module-relative */
	struct ctarget cs;       /* as a return address less one: the function
				    the call before it calls */
};

/* A module file, as mapped by any number of processes. */
struct modinfo {
	const char *id;          /* path and build id (interned): the key */
	const char *name;        /* as shown ("[vdso]" for the vDSO) */
	bool skipped;            /* not the program's own (module_skipped) */
	int has_dwarf;           /* -1 unknown, 0 no, 1 yes */
	bool syms_tried;
	struct symidx *syms;
	struct intmap locs;      /* rel -> its struct loc * */
	struct intmap fsites;    /* entry -> the struct fsites * of the function there */
	struct instance *inst;   /* out-of-line functions by their origin (inst_of) */
	size_t ninst, instused;
	struct modinfo *next;    /* hash chain */
};

/* A frame rebuilt from a tail call: its pc (the address after the jump)
 * and the address looked up for its names (the jump). */
struct tailpc {
	uint64_t pc, addr;
};

/*
 * The tail-call frames missing between a caller's return address and the
 * frame it called (the callee's looked-up address), innermost first;
 * n == 0 when none are or when that is not known for sure.  target: the
 * function an indirect call called, 0 for a direct one.
 */
struct tailres {
	uint64_t caller_pc, callee, target;
	unsigned n;
	struct tailpc f[];
};

/* A traced process (address space). */
struct dproc {
	pid_t pid;
	Dwfl *dwfl;              /* NULL until used, and after execve */
	bool stale;              /* mappings changed: report again first */
	bool exec_pending;       /* execve succeeded: start over */
	const char *attach_error;   /* dwfl_linux_proc_attach failed (interned) */
	struct intmap pcs;       /* address -> its struct loc * */
	struct arena arena;      /* locs of addresses in no module, tailres */
	struct tailres **tails;  /* open addressing by (caller_pc, callee, target) */
	size_t ntails, tailused;
	uint64_t *ranges;        /* [lo, hi) pairs of the reported modules */
	size_t nranges, aranges;
	int any_dwarf;           /* a module not skipped has DWARF: -1 unknown */
	struct arch_dwarf_regs regs;   /* of the thread being unwound */
	struct memcache *mem;    /* its memory read so far in this unwind */
	const struct ev_ustack *us;    /* the stack being unwound was recorded
					  (the eBPF recorder): read from it */
	bool recorded;           /* dwfl's modules are a recording's */
	bool beyond;             /* (recorded) a read past the slice, cut at
				    its size limit, failed in this unwind */
	bool attached;           /* (recorded) dwfl_attach_state done */
	uint64_t mods_gen;       /* (recorded) the ev_ustack.mods_gen reported */
	pid_t tid;               /* the thread being unwound: its mappings and
				    memory are read (the leader's are gone once
				    it is a zombie, its threads running on) */
	struct dproc *next;
};

/* Pages of a stopped tracee read during one unwind (a stack's frames sit
 * in a page or two: one process_vm_readv each instead of one per word). */
#define MC_PAGE 4096u
#define MC_PAGES 8
struct memcache {
	uint64_t base[MC_PAGES];
	bool valid[MC_PAGES];
	unsigned next;           /* round robin */
	unsigned char buf[MC_PAGES][MC_PAGE];
};

/* A thread's current stack. */
struct dthread {
	pid_t tid;
	struct frame *frames;
	size_t nframes, alloc;
	struct frame source;     /* event.source when it is not one of frames */
	struct dthread *next;
};

#define NBUCKETS 1024

struct dwarf {
	struct dwarf_opts o;
	struct srcskip *skip;
	char *cwd;               /* with a trailing '/' */
	size_t cwdlen;
	struct intern strs;      /* every string a frame or error shows */
	struct arena locs;       /* shared locs and their inline chains */
	struct modinfo *mods[NBUCKETS];
	struct dproc *procs[NBUCKETS];
	struct dthread *threads[NBUCKETS];
	struct dthread *dead;    /* freed at the next unwind */
	struct dwarf_stats st;
	char *debuginfo_path;    /* for Dwfl_Callbacks */
	Dwfl_Callbacks cb;
	uint8_t *watch;          /* dwarf_watch_set() */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of the calling thread in ns (its waits for a CPU left out). */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- debug info: local only ------------------------------------------ */

/* libdw's callbacks carry no context: the run's one unwinder */
static struct dwarf *the_dwarf;

/*
 * libdw's standard lookup (build-id links, .gnu_debuglink next to the file
 * and under /usr/lib/debug), called only when a file it may find exists
 * (debug_file_may_exist), since it falls back to debuginfod.  renacer
 * never uses the network: the variable DEBUGINFOD_URLS is
 * hidden from libdw for the duration of the lookup (renacer is single
 * threaded and tracees got their environment when they started).  A module
 * that is never shown (libc, ld.so without -k) gets no debug file at all:
 * libc6-dbg's is large, and .eh_frame is enough to unwind through it.
 */
/* Whether sb names an existing file other than self (the module's own). */
static bool other_file_at(const struct strbuf *sb, const struct stat *self)
{
	struct stat st;

	return stat(sb->buf, &st) == 0 &&
	       !(st.st_dev == self->st_dev && st.st_ino == self->st_ino);
}

/*
 * Whether one of names exists in a directory where the standard lookup
 * looks for file's debug file: file's own directory, its .debug and .dwz
 * subdirectories, /usr/lib/debug and its .dwz, and /usr/lib/debug followed
 * by each tail of file's directory (/usr/lib/debug/usr/bin, .../bin).
 */
static bool debug_name_found(const char *file, const char *const *names, size_t n,
			     const struct stat *self)
{
	static const char *const subs[] = { "", "/.debug", "/.dwz" };
	const char *slash = strrchr(file, '/');
	struct strbuf dir = STRBUF_INIT, sb = STRBUF_INIT;
	bool found = false;

	if (slash)
		strbuf_add(&dir, file, (size_t)(slash - file));
	else
		strbuf_addch(&dir, '.');
	for (size_t i = 0; i < n && !found; i++) {
		for (size_t j = 0; j < ARRAY_SIZE(subs) && !found; j++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s%s/%s", dir.buf, subs[j], names[i]);
			found = other_file_at(&sb, self);
		}
		for (const char *tail = dir.buf; tail && !found; tail = strchr(tail + 1, '/')) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "/usr/lib/debug%s%s/%s", *tail == '/' ? "" : "/", tail,
				    names[i]);
			found = other_file_at(&sb, self);
		}
		for (size_t j = 0; j < 2 && !found; j++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "/usr/lib/debug%s/%s", j ? "/.dwz" : "", names[i]);
			found = other_file_at(&sb, self);
		}
	}
	strbuf_release(&dir);
	strbuf_release(&sb);
	return found;
}

/*
 * Whether dwfl_standard_find_debuginfo() could find a debug file on this
 * machine: a superset of the places it looks with the default path
 * ":.debug:/usr/lib/debug" (elfutils' find-debuginfo.c): the build-id link
 * under /usr/lib/debug/.build-id, and the .gnu_debuglink name (without
 * one, NAME.debug and NAME) in the directories of debug_name_found(), for
 * the file and for its real path.  When it finds nothing it goes on to
 * debuginfod, which loads libdebuginfod and libcurl's TLS stacks (about 6
 * ms of start-up) only to learn that DEBUGINFOD_URLS is not set.
 */
static bool debug_file_may_exist(Dwfl_Module *mod, const char *file_name,
				 const char *debuglink_file)
{
	const unsigned char *bits = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct stat self = { 0 };
	const char *names[2];
	size_t nnames = 0;
	GElf_Addr vaddr;
	char *canon;
	bool found = false;
	int n;

	n = dwl.dwfl_module_build_id(mod, &bits, &vaddr);
	if (n > 1) {
		strbuf_addf(&sb, "/usr/lib/debug/.build-id/%02x/", bits[0]);
		for (int i = 1; i < n; i++)
			strbuf_addf(&sb, "%02x", bits[i]);
		strbuf_addstr(&sb, ".debug");
		found = access(sb.buf, F_OK) == 0;
	}
	if (!found && file_name) {
		const char *base = strrchr(file_name, '/');
		base = base ? base + 1 : file_name;
		stat(file_name, &self);
		if (debuglink_file) {
			names[nnames++] = debuglink_file;
		} else {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s.debug", base);
			names[nnames++] = sb.buf;
			names[nnames++] = base;
		}
		found = debug_name_found(file_name, names, nnames, &self);
		if (!found && (canon = realpath(file_name, NULL))) {
			if (strcmp(canon, file_name)) {
				struct strbuf cb = STRBUF_INIT;
				if (!debuglink_file) {
					const char *cbase = strrchr(canon, '/') + 1;
					strbuf_addf(&cb, "%s.debug", cbase);
					names[0] = cb.buf;
					names[1] = cbase;
				}
				found = debug_name_found(canon, names, nnames, &self);
				strbuf_release(&cb);
			}
			free(canon);
		}
	}
	strbuf_release(&sb);
	return found;
}

/*
 * Whether a module is skipped whatever its debug information says
 * (module_skipped): no debug file is looked for when it is never shown.
 */
static bool module_skipped_anyway(struct dwarf *d, const char *path)
{
	enum srcskip_by by = srcskip_module(d->skip, path);

	return by == SRCSKIP_ADDED || (by == SRCSKIP_BUILTIN && srcskip_system_path(path));
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	char *saved;
	int fd;

	if (the_dwarf && !the_dwarf->o.stack_trace && module_skipped_anyway(the_dwarf, modname)) {
		errno = 0;
		return -1;
	}
	/* a dwz alternate file (no CRC) is left to libdw; else nothing to find */
	if (!(debuglink_file && !debuglink_crc) &&
	    !debug_file_may_exist(mod, file_name, debuglink_file)) {
		errno = 0;
		return -1;
	}
	saved = urls ? xstrdup(urls) : NULL;
	if (saved)
		unsetenv("DEBUGINFOD_URLS");
	fd = dwl.dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
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
	intmap_release(&p->pcs);
	free(p->tails);
	p->tails = NULL;
	p->ntails = p->tailused = 0;
	arena_reset(&p->arena);
}

static void proc_free(struct dproc *p)
{
	if (p->dwfl)
		dwl.dwfl_end(p->dwfl);
	free(p->mem);
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

static size_t hash_addr(uint64_t a, size_t n)
{
	return (size_t)((a * 0x9e3779b97f4a7c15ull) >> 20) & (n - 1);
}

static struct loc *pc_find(const struct dproc *p, uint64_t addr)
{
	uint64_t *v = intmap_get(&p->pcs, addr);
	return v ? (struct loc *)(uintptr_t)*v : NULL;
}

static void pc_put(struct dproc *p, uint64_t addr, struct loc *l)
{
	bool added;
	uint64_t *v;

	if (addr == INTMAP_NOKEY)
		return;          /* (a return address 0, less one) not worth a key */
	v = intmap_put(&p->pcs, addr, &added);
	if (added)
		*v = (uintptr_t)l;
}

static size_t hash_pair(uint64_t a, uint64_t b, size_t n)
{
	return hash_addr(a ^ (b * 0xff51afd7ed558ccdull), n);
}

static struct tailres *tail_find(const struct dproc *p, uint64_t caller_pc, uint64_t callee,
				 uint64_t target)
{
	if (!p->ntails)
		return NULL;
	for (size_t i = hash_pair(caller_pc, callee, p->ntails); p->tails[i];
	     i = (i + 1) & (p->ntails - 1))
		if (p->tails[i]->caller_pc == caller_pc && p->tails[i]->callee == callee &&
		    p->tails[i]->target == target)
			return p->tails[i];
	return NULL;
}

static void tail_put(struct dproc *p, struct tailres *r)
{
	size_t i;

	if ((p->tailused + 1) * 2 > p->ntails) {
		struct tailres **old = p->tails;
		size_t oldn = p->ntails;
		p->ntails = oldn ? oldn * 2 : 64;
		p->tails = xcalloc(p->ntails, sizeof(*p->tails));
		p->tailused = 0;
		for (size_t j = 0; j < oldn; j++)
			if (old[j])
				tail_put(p, old[j]);
		free(old);
	}
	for (i = hash_pair(r->caller_pc, r->callee, p->ntails); p->tails[i];
	     i = (i + 1) & (p->ntails - 1))
		;
	p->tails[i] = r;
	p->tailused++;
}

/* The shared loc of rel in mi, made (unresolved) when new. */
static struct loc *mod_loc(struct dwarf *d, struct modinfo *mi, uint64_t rel, bool *made)
{
	uint64_t *v = intmap_put(&mi->locs, rel, made);
	struct loc *l;

	if (!*made)
		return (struct loc *)(uintptr_t)*v;
	l = arena_calloc(&d->locs, sizeof(*l));
	l->mi = mi;
	l->rel = rel;
	*v = (uintptr_t)l;
	return l;
}

/* ---- the Dwfl of a process ------------------------------------------- */

static int module_range_cb(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr lo,
			   void *arg)
{
	struct dproc *p = arg;
	Dwarf_Addr start, end;

	if (dwl.dwfl_module_info(mod, NULL, &start, &end, NULL, NULL, NULL, NULL)) {
		ALLOC_GROW(p->ranges, p->nranges + 2, p->aranges);
		p->ranges[p->nranges++] = start;
		p->ranges[p->nranges++] = end;
	}
	return DWARF_CB_OK;
}

static int report_maps(struct dwarf *d, struct dproc *p)
{
	d->st.reports++;
	dwl.dwfl_report_begin(p->dwfl);
	if (dwl.dwfl_linux_proc_report(p->dwfl, p->tid ? p->tid : p->pid) != 0) {
		dwl.dwfl_report_end(p->dwfl, NULL, NULL);
		return -1;
	}
	if (dwl.dwfl_report_end(p->dwfl, NULL, NULL) != 0)
		return -1;
	p->any_dwarf = -1;
	p->nranges = 0;
	dwl.dwfl_getmodules(p->dwfl, module_range_cb, p, 0);
	return 0;
}

/*
 * The thread callbacks of libdw's unwinder, on a tracee renacer holds
 * stopped: registers with one PTRACE_GETREGS, memory a page at a time with
 * process_vm_readv (PTRACE_PEEKDATA where that is refused), and no check
 * that the thread exists (dwfl_linux_proc_attach's costs a kill() a stack).
 */
static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	return 0;    /* only dwl.dwfl_getthread_frames() is used */
}

static bool cb_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_arg)
{
	*thread_arg = arg;
	return true;
}

/* The page at base into slot i: true when all of it could be read. */
static bool read_page(struct dproc *p, pid_t tid, uint64_t base, unsigned i)
{
	struct iovec local = { p->mem->buf[i], MC_PAGE };
	struct iovec remote = { (void *)(uintptr_t)base, MC_PAGE };

	if (process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)MC_PAGE)
		return true;
	for (unsigned off = 0; off < MC_PAGE; off += sizeof(long)) {
		long w;
		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)(base + off), NULL);
		if (errno)
			return false;
		memcpy(p->mem->buf[i] + off, &w, sizeof(w));
	}
	return true;
}

static bool mem_byte_range(struct dproc *p, pid_t tid, uint64_t addr, void *out, size_t n)
{
	unsigned char *o = out;

	while (n) {
		uint64_t base = addr & ~(uint64_t)(MC_PAGE - 1);
		size_t in = MC_PAGE - (size_t)(addr - base), k = n < in ? n : in;
		unsigned i;

		for (i = 0; i < MC_PAGES; i++)
			if (p->mem->valid[i] && p->mem->base[i] == base)
				break;
		if (i == MC_PAGES) {
			i = p->mem->next;
			p->mem->next = (p->mem->next + 1) % MC_PAGES;
			p->mem->valid[i] = false;
			if (!read_page(p, tid, base, i))
				return false;
			p->mem->base[i] = base;
			p->mem->valid[i] = true;
		}
		memcpy(o, p->mem->buf[i] + (addr - base), k);
		o += k;
		addr += k;
		n -= k;
	}
	return true;
}

/*
 * A word of a recorded stack (p->us): from the slice taken with the call;
 * in a mapped file (code, constants), from the process while it lives;
 * anything else (the stack beyond the slice, which has changed since) is
 * unreadable.
 */
static bool recorded_read(struct dproc *p, uint64_t addr, void *out, size_t n)
{
	const struct ev_ustack *us = p->us;
	struct iovec local = { out, n }, remote = { (void *)(uintptr_t)addr, n };

	if (addr >= us->sp && addr - us->sp <= us->len && us->len - (addr - us->sp) >= n) {
		memcpy(out, us->stack + (addr - us->sp), n);
		return true;
	}
	for (size_t i = 0; i < us->nmods; i++)
		if (addr >= us->mods[i].start && addr + n <= us->mods[i].end)
			return process_vm_readv(p->tid, &local, 1, &remote, 1, 0) == (ssize_t)n;
	if (us->cut && addr >= us->sp && addr - us->sp < (uint64_t)us->len + 65536)
		p->beyond = true;
	return false;
}

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct dproc *p = arg;
	uint32_t w32;
	uint64_t w64;

	if (p->us) {
		if (p->regs.nregs == 9) {
			if (!recorded_read(p, addr, &w32, sizeof(w32)))
				return false;
			*result = w32;
			return true;
		}
		if (!recorded_read(p, addr, &w64, sizeof(w64)))
			return false;
		*result = w64;
		return true;
	}
	if (!p->mem)
		p->mem = xcalloc(1, sizeof(*p->mem));
	if (p->regs.nregs == 9) {       /* a 32-bit process: 4-byte words */
		if (!mem_byte_range(p, p->tid, addr, &w32, sizeof(w32)))
			return false;
		*result = w32;
		return true;
	}
	if (!mem_byte_range(p, p->tid, addr, &w64, sizeof(w64)))
		return false;
	*result = w64;
	return true;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct dproc *p = arg;

	if (p->us ? arch_dwarf_regs_saved(p->us->regs, p->us->regs_len, &p->regs) < 0
		  : arch_dwarf_regs(dwl.dwfl_thread_tid(thread), &p->regs) < 0)
		return false;
	dwl.dwfl_thread_state_register_pc(thread, p->regs.pc);
	return dwl.dwfl_thread_state_registers(thread, 0, p->regs.nregs, p->regs.regs);
}

static void cb_detach(Dwfl *dwfl, void *arg)
{
}

static void cb_thread_detach(Dwfl_Thread *thread, void *arg)
{
	struct dproc *p = arg;

	/* the tracee runs on: what was read is stale */
	if (p->mem)
		memset(p->mem->valid, 0, sizeof(p->mem->valid));
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	cb_next_thread, cb_get_thread, cb_memory_read, cb_set_initial_registers,
	cb_detach, cb_thread_detach,
};

/*
 * Where the file of a recorded mapping m has its p_vaddr 0 in the process
 * (its load bias): from the program header of the segment mapped at m's
 * offset.  The file must still be the one mapped (device and inode).
 * Returns 0, or -1 when it cannot be told.
 */
static int recorded_bias(const struct ev_module *m, uint64_t *bias)
{
	unsigned char ident[EI_NIDENT];
	struct stat st;
	int fd = open(m->path, O_RDONLY | O_CLOEXEC), ret = -1;
	uint64_t phoff = 0;
	unsigned phnum = 0, phentsize = 0;
	bool is64;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_ino != m->ino ||
	    major(st.st_dev) != m->dev >> 20 || minor(st.st_dev) != (m->dev & 0xfffff) ||
	    pread(fd, ident, sizeof(ident), 0) != (ssize_t)sizeof(ident) ||
	    memcmp(ident, ELFMAG, SELFMAG))
		goto out;
	is64 = ident[EI_CLASS] == ELFCLASS64;
	if (is64) {
		Elf64_Ehdr eh;
		if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
			goto out;
		phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
	} else {
		Elf32_Ehdr eh;
		if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
			goto out;
		phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
	}
	if (phentsize != (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) || phnum > 256)
		goto out;
	for (unsigned i = 0; i < phnum; i++) {
		uint64_t type, off, vaddr;
		if (is64) {
			Elf64_Phdr ph;
			if (pread(fd, &ph, sizeof(ph), (off_t)(phoff + i * sizeof(ph))) != sizeof(ph))
				goto out;
			type = ph.p_type, off = ph.p_offset, vaddr = ph.p_vaddr;
		} else {
			Elf32_Phdr ph;
			if (pread(fd, &ph, sizeof(ph), (off_t)(phoff + i * sizeof(ph))) != sizeof(ph))
				goto out;
			type = ph.p_type, off = ph.p_offset, vaddr = ph.p_vaddr;
		}
		/* (the kernel maps a segment from its page: offset and
		 * address rounded down alike) */
		if (type == PT_LOAD && (off & ~(uint64_t)4095) == m->pgoff) {
			*bias = m->start - (vaddr & ~(uint64_t)4095);
			ret = 0;
			break;
		}
	}
out:
	close(fd);
	return ret;
}

/*
 * The kernel's 64-bit vDSO as a file libdw can open: renacer's own image
 * (AT_SYSINFO_EHDR; the same for every 64-bit process of this kernel)
 * copied once into a memfd, named by its /proc/self/fd path; NULL when
 * that cannot be done.
 */
static const char *vdso_file(void)
{
	static char path[64];
	static int state;        /* 0 not tried, 1 made, -1 failed */
	const unsigned char *img = (const void *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const void *)img;
	uint64_t size = 0;
	int fd;

	if (state)
		return state > 0 ? path : NULL;
	state = -1;
	if (!img || memcmp(img, ELFMAG, SELFMAG) || img[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* its size: the end of its section headers, or of its loaded part */
	size = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(img + eh->e_phoff + i * sizeof(*ph));
		if (ph->p_type == PT_LOAD && ph->p_offset + ph->p_filesz > size)
			size = ph->p_offset + ph->p_filesz;
	}
	fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (write(fd, img, size) != (ssize_t)size) {
		close(fd);
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	state = 1;
	return path;
}

/* Reports the modules of a recorded stack's process (us->mods). */
static void report_recorded(struct dwarf *d, struct dproc *p, const struct ev_ustack *us)
{
	d->st.reports++;
	dwl.dwfl_report_begin(p->dwfl);
	for (size_t i = 0; i < us->nmods; i++) {
		const struct ev_module *m = &us->mods[i];
		uint64_t bias;
		bool seen = false;

		/* (a file with two executable segments: one module) */
		for (size_t j = 0; j < i; j++)
			seen |= us->mods[j].path == m->path && us->mods[j].dev == m->dev &&
				us->mods[j].ino == m->ino;
		if (!m->dev && !strcmp(m->path, "[vdso]")) {
			const char *f = us->compat ? NULL : vdso_file();
			if (f)
				dwl.dwfl_report_elf(p->dwfl, m->path, f, -1, m->start, true);
			continue;
		}
		if (!seen && recorded_bias(m, &bias) == 0)
			dwl.dwfl_report_elf(p->dwfl, m->path, m->path, -1, bias, true);
	}
	dwl.dwfl_report_end(p->dwfl, NULL, NULL);
	p->any_dwarf = -1;
	p->nranges = 0;
	dwl.dwfl_getmodules(p->dwfl, module_range_cb, p, 0);
}

/*
 * proc_dwfl() for a recorded stack: the modules are those the recording
 * gives for the moment of the call, reported again when they change.
 */
static Dwfl *recorded_dwfl(struct dwarf *d, struct dproc *p, const struct ev_ustack *us,
			   const char **why)
{
	/* (a new Dwfl when the modules change: reporting a module again
	 * into a Dwfl that has its ELF open drops it) */
	if (p->dwfl && (p->exec_pending || !p->recorded || p->mods_gen != us->mods_gen ||
			!p->attached)) {
		dwl.dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
	p->exec_pending = p->stale = false;
	p->attach_error = NULL;
	if (p->dwfl)
		return p->dwfl;
	cache_clear(p);
	p->dwfl = dwl.dwfl_begin(&d->cb);
	if (!p->dwfl) {
		*why = intern(&d->strs, dwl.dwfl_errmsg(-1));
		return NULL;
	}
	p->recorded = true;
	p->attached = false;
	report_recorded(d, p, us);
	p->mods_gen = us->mods_gen;
	/* (the machine is the first module's) */
	if (!dwl.dwfl_attach_state(p->dwfl, NULL, p->pid, &thread_callbacks, p)) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "cannot unwind process %d: %s", (int)p->pid,
			    us->nmods ? dwl.dwfl_errmsg(-1) : "no mapping of it was recorded");
		*why = intern(&d->strs, sb.buf);
		strbuf_release(&sb);
		return NULL;
	}
	p->attached = true;
	return p->dwfl;
}

/* Makes p->dwfl current; NULL with *why set when the process cannot be read. */
static Dwfl *proc_dwfl(struct dwarf *d, struct dproc *p, const char **why)
{
	int r;

	if (p->exec_pending) {
		if (p->dwfl)
			dwl.dwfl_end(p->dwfl);
		p->dwfl = NULL;
		p->attach_error = NULL;
		p->exec_pending = p->stale = false;
		cache_clear(p);
	}
	if (p->dwfl && p->stale) {
		p->stale = false;
		cache_clear(p);
		if (report_maps(d, p) < 0) {
			*why = intern(&d->strs, dwl.dwfl_errmsg(-1));
			dwl.dwfl_end(p->dwfl);
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
	p->dwfl = dwl.dwfl_begin(&d->cb);
	if (!p->dwfl) {
		*why = intern(&d->strs, dwl.dwfl_errmsg(-1));
		return NULL;
	}
	if (report_maps(d, p) < 0) {
		*why = intern(&d->strs, dwl.dwfl_errmsg(-1));
		dwl.dwfl_end(p->dwfl);
		p->dwfl = NULL;
		return NULL;
	}
	r = dwl.dwfl_attach_state(p->dwfl, NULL, p->pid, &thread_callbacks, p) ? 0 : -1;
	if (r != 0) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "cannot attach to process %d: %s", (int)p->pid, dwl.dwfl_errmsg(-1));
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
	const char *n = dwl.dwarf_formstring(dwl.dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	if (!n)
		n = dwl.dwarf_formstring(dwl.dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (n) {
		/* the linkage name names the function as its symbol does (glibc's
		 * "__GI___libc_read", C++ with its namespaces), as gdb shows it;
		 * one that does not demangle is left for the plain name */
		const char *r = nice_name(d, n);
		if (r && !(r[0] == '_' && (r[1] == 'Z' || r[1] == 'R')))
			return r;
	}
	n = dwl.dwarf_diename(die);
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
	if (dwl.dwarf_formudata(dwl.dwarf_attr(inl, DW_AT_call_line, &a), &l) != 0 || l > UINT32_MAX)
		return;
	if (dwl.dwarf_formudata(dwl.dwarf_attr(inl, DW_AT_call_file, &a), &f) != 0)
		return;
	if (dwl.dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || f >= nfiles)
		return;
	*file = file_name(d, dwl.dwarf_filesrc(files, f, NULL, NULL));
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

	if (dwl.dwarf_child(parent, &child) != 0)
		return depth;
	do {
		int d2;

		switch (dwl.dwarf_tag(&child)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_entry_point:
		case DW_TAG_lexical_block:
			if (dwl.dwarf_haspc(&child, pc) != 1)
				break;
			if (dwl.dwarf_tag(&child) != DW_TAG_lexical_block && depth < max)
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
	} while (dwl.dwarf_siblingof(&child, &child) == 0);
	return depth;
}

/* The source-level functions at addr (innermost first) into l->inl. */
static void resolve_inlines(struct dwarf *d, Dwfl_Module *mod, uint64_t addr, struct loc *l)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwl.dwfl_module_addrdie(mod, addr, &bias);
	Dwarf_Die chain[MAX_INLINE];
	struct inl tmp[MAX_INLINE];
	int n, k = 0, sline = 0;
	const char *file = NULL;
	uint32_t line = 0;
	Dwfl_Line *dl;

	if (!cu)
		return;
	dl = dwl.dwfl_module_getsrc(mod, addr);
	if (dl) {
		const char *f = dwl.dwfl_lineinfo(dl, NULL, &sline, NULL, NULL, NULL);
		file = file_name(d, f);
		if (!file || sline <= 0)
			file = NULL;
		else
			line = (uint32_t)sline;
	}
	n = find_scopes(cu, addr - bias, chain, 0, MAX_INLINE);
	if (n > 0 && dwl.dwarf_tag(cu) == DW_TAG_compile_unit) {
		Dwarf_Addr b;
		if (dwl.dwarf_cu_getdwarf(chain[0].cu) == dwl.dwfl_module_getdwarf(mod, &b) && b == bias)
			l->fn_off = dwl.dwarf_dieoffset(&chain[0]) + 1;
	}
	/* innermost first: the line table's file:line, then each inlined
	 * call's site, out to the physical function */
	for (int i = n - 1; i >= 0 && k < MAX_INLINE; i--) {
		tmp[k].function = die_function(d, &chain[i]);
		tmp[k].file = file;
		tmp[k].line = line;
		tmp[k].decl_file = file_name(d, dwl.dwarf_decl_file(&chain[i]));
		tmp[k].flags = 0;
		k++;
		if (dwl.dwarf_tag(&chain[i]) == DW_TAG_inlined_subroutine)
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
	l->inl = arena_memdup(&d->locs, tmp, (size_t)k * sizeof(*tmp));
}

/*
 * Whether a source-level function is the program's own: its module is not
 * skipped (modinfo_of) and its name and the file it is defined in (else
 * the file of the line) match no skip pattern.  An own function whose line
 * lies in a skipped file (std code inlined with no inline record, as rustc
 * leaves it) keeps its name but not that line: FRAME_FOREIGN_LINE.
 */
static uint8_t own_flags(struct dwarf *d, const struct modinfo *mi, const struct inl *in)
{
	bool file_ok = !in->file || !srcskip_match(d->skip, NULL, NULL, in->file);
	const char *decl = in->decl_file ? in->decl_file : in->file;

	if (!mi->name || mi->skipped || srcskip_match(d->skip, NULL, in->function, NULL))
		return 0;
	if (decl && srcskip_match(d->skip, NULL, NULL, decl))
		return 0;
	return FRAME_OWN | (file_ok ? 0 : FRAME_FOREIGN_LINE);
}

/* "__libc_start_main@@GLIBC_2.34": the version is not the name */
static const char *symbol_name(struct dwarf *d, const char *sname)
{
	const char *at = strchr(sname, '@');
	char *plain;
	const char *r;

	if (!at || at == sname)
		return nice_name(d, sname);
	plain = xstrndup(sname, (size_t)(at - sname));
	r = nice_name(d, plain);
	free(plain);
	return r;
}

static bool mod_has_dwarf(struct modinfo *mi, Dwfl_Module *mod)
{
	Dwarf_Addr bias;

	if (mi->has_dwarf < 0)
		mi->has_dwarf = dwl.dwfl_module_getdwarf(mod, &bias) != NULL;
	return mi->has_dwarf;
}

/* The start of mod in this process (what module-relative addresses are relative to). */
static uint64_t module_low(Dwfl_Module *mod)
{
	Dwarf_Addr low = 0;

	dwl.dwfl_module_info(mod, NULL, &low, NULL, NULL, NULL, NULL, NULL);
	return low;
}

/* mi's symbol index (mi is mod's), read the first time it is asked for. */
static struct symidx *mod_syms(struct dwarf *d, struct modinfo *mi, Dwfl_Module *mod)
{
	if (!mi->syms_tried) {
		Dwarf_Addr dbias;
		Dwarf *dw = !mi->skipped || d->o.stack_trace ? dwl.dwfl_module_getdwarf(mod, &dbias) : NULL;

		mi->syms_tried = true;
		mi->syms = symidx_build(mod, module_low(mod), dw ? dwl.dwarf_getelf(dw) : NULL);
	}
	return mi->syms;
}

/* Fills l's names (l is in mod, at addr in this process). */
static void resolve_full(struct dwarf *d, struct loc *l, Dwfl_Module *mod, uint64_t addr)
{
	uint64_t t0 = mono_ns();
	struct modinfo *mi = l->mi;
	const char *sname;
	uint64_t off = 0;

	d->st.lookups++;
	l->full = true;
	sname = symidx_lookup(mod_syms(d, mi, mod), l->rel, &off);
	if (sname) {
		l->symbol = symbol_name(d, sname);
		l->symoff = off;
	}
	resolve_inlines(d, mod, addr, l);
	for (unsigned i = 0; i < l->ninl; i++)
		l->inl[i].flags = own_flags(d, mi, &l->inl[i]);
	/* no line for this address in a module that has debug information:
	 * start-up code or a compiler shim (Rust's C main), not the program's */
	if (!mi->skipped && !srcskip_match(d->skip, NULL, l->symbol, NULL) &&
	    !mod_has_dwarf(mi, mod))
		l->flags = FRAME_OWN;
	d->st.lookup_ns += mono_ns() - t0;
}

/*
 * Whether a module is not the program's own as a whole.  A pattern added
 * with --source-skip or [source] decides; the built-in ones (the C library,
 * ld.so, libstdc++, ...) only for the system's libraries: a module outside
 * the system's library directories that has debug information is the
 * program's own whatever its name (a project's libutil.so, a dlopen-ed
 * plugin built with -g), though its frames are still matched by function
 * and file (Rust std, /usr/include).
 */
static bool module_skipped(struct dwarf *d, struct modinfo *mi, Dwfl_Module *mod)
{
	switch (srcskip_module(d->skip, mi->name)) {
	case SRCSKIP_NONE:
		return false;
	case SRCSKIP_ADDED:
		return true;
	case SRCSKIP_BUILTIN:
		break;
	}
	return srcskip_system_path(mi->name) || !mod_has_dwarf(mi, mod);
}

/* The module of mod, found or made by path and build id. */
static struct modinfo *modinfo_of(struct dwarf *d, Dwfl_Module *mod)
{
	void **ud = NULL;
	const char *name = dwl.dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	const unsigned char *bits = NULL;
	GElf_Addr vaddr, bias;
	struct strbuf sb = STRBUF_INIT;
	struct modinfo *mi, **pp;
	const char *id;
	int n;

	if (ud && *ud)
		return *ud;
	strbuf_addstr(&sb, name ? name : "?");
	strbuf_addch(&sb, '\n');
	dwl.dwfl_module_getelf(mod, &bias);
	n = dwl.dwfl_module_build_id(mod, &bits, &vaddr);
	for (int i = 0; i < n; i++)
		strbuf_addf(&sb, "%02x", bits[i]);
	id = intern(&d->strs, sb.buf);
	strbuf_release(&sb);
	pp = &d->mods[hash_addr((uintptr_t)id, NBUCKETS)];   /* id is interned */
	for (mi = *pp; mi && mi->id != id; mi = mi->next)
		;
	if (!mi) {
		mi = xcalloc(1, sizeof(*mi));
		mi->id = id;
		mi->name = module_name(d, name);
		mi->has_dwarf = -1;
		mi->skipped = module_skipped(d, mi, mod);
		mi->next = *pp;
		*pp = mi;
	}
	if (ud)
		*ud = mi;
	return mi;
}

/* The loc of addr in p (module and offset at least), made when new. */
static inline __attribute__((always_inline)) struct loc *
loc_of(struct dwarf *d, struct dproc *p, uint64_t addr, Dwfl_Module **modp)
{
	struct loc *l = pc_find(p, addr);
	Dwfl_Module *mod;
	Dwarf_Addr low = 0, rel;
	struct modinfo *mi;
	bool made;

	*modp = NULL;
	if (l)
		return l;
	mod = dwl.dwfl_addrmodule(p->dwfl, addr);
	if (!mod) {
		l = arena_calloc(&p->arena, sizeof(*l));
		l->offset = addr;
		l->full = true;
		pc_put(p, addr, l);
		return l;
	}
	*modp = mod;
	mi = modinfo_of(d, mod);
	dwl.dwfl_module_info(mod, NULL, &low, NULL, NULL, NULL, NULL, NULL);
	l = mod_loc(d, mi, addr - low, &made);
	if (made) {
		rel = addr;
		l->offset = dwl.dwfl_module_relocate_address(mod, &rel) >= 0 ? rel : addr;
	}
	pc_put(p, addr, l);
	return l;
}

/* ---- tail calls: frames rebuilt from DWARF call-site information ----- */

/*
 * A function that ends in a tail call (`return write(...)` compiled as a
 * jump) leaves no frame: its caller's return address is followed by the
 * frame of the function it jumped to.  As gdb does, the missing frames are
 * rebuilt from the call sites the compiler describes: the caller's call
 * site at its return address names the function it called; when that is
 * not the function of the next frame, the tail calls of the called
 * function (DW_AT_call_tail_call), and of the functions they call, are
 * followed to it, by address or by symbol name, across modules; a call
 * through a pointer is followed when DWARF says where the pointer is
 * (DW_AT_call_target) and the caller's frame still has it.  Exactly one
 * chain must lead there: none, or several (two tail calls to the same
 * function, a function whose tail calls are not all known), and nothing
 * is added.
 */

/* The start of the function (symbol) holding l, module-relative; false when no symbol does. */
static bool loc_entry(struct dwarf *d, struct loc *l, Dwfl_Module *mod, uint64_t *entry)
{
	uint64_t off;

	if (!l->entry_known) {
		l->entry_known = 2;
		if (l->full && l->symbol) {
			l->entry = l->rel - l->symoff;
			l->entry_known = 1;
		} else if (l->mi && symidx_lookup(mod_syms(d, l->mi, mod), l->rel, &off)) {
			l->entry = l->rel - off;
			l->entry_known = 1;
		}
	}
	*entry = l->entry;
	return l->entry_known == 1;
}

/*
 * The addresses of a call site (DWARF addresses, before the module's bias):
 * *ret the return address (DW_AT_call_return_pc; DW_AT_low_pc of the GNU
 * form), *look the call instruction's (ret - 1; DW_AT_call_pc itself when
 * only that is given, as clang gives it for tail calls).  *tail: a tail call.
 */
static bool site_pcs(Dwarf_Die *site, Dwarf_Addr *ret, Dwarf_Addr *look, bool *tail)
{
	Dwarf_Attribute a;

	*tail = false;
	if (dwl.dwarf_attr(site, DW_AT_call_tail_call, &a) ||
	    dwl.dwarf_attr(site, DW_AT_GNU_tail_call, &a))
		dwl.dwarf_formflag(&a, tail);
	if (dwl.dwarf_formaddr(dwl.dwarf_attr(site, DW_AT_call_return_pc, &a), ret) == 0 ||
	    dwl.dwarf_formaddr(dwl.dwarf_attr(site, DW_AT_low_pc, &a), ret) == 0) {
		*look = *ret - 1;
		return *ret != 0;
	}
	if (dwl.dwarf_formaddr(dwl.dwarf_attr(site, DW_AT_call_pc, &a), look) == 0) {
		*ret = *look;
		return *look != 0;
	}
	return false;
}

/*
 * An indirect call's target (DW_AT_call_target, DW_AT_GNU_call_site_target)
 * into *t when it is a register's value, plus an offset, or the pointer
 * at that address: DW_OP_regN, DW_OP_bregN OFF, DW_OP_bregN OFF
 * DW_OP_deref (and their -x forms).  Other expressions stay CT_NONE.
 */
static void site_call_target(Dwarf_Die *site, struct ctarget *t)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	uint8_t op;

	if (!dwl.dwarf_attr(site, DW_AT_call_target, &a) &&
	    !dwl.dwarf_attr(site, DW_AT_GNU_call_site_target, &a))
		return;
	if (dwl.dwarf_getlocation(&a, &ops, &n) != 0 || n < 1 || n > 2)
		return;
	op = ops[0].atom;
	if (op >= DW_OP_reg0 && op <= DW_OP_reg31 && n == 1) {
		t->reg = (uint8_t)(op - DW_OP_reg0);
	} else if (op == DW_OP_regx && n == 1 && ops[0].number < 32) {
		t->reg = (uint8_t)ops[0].number;
	} else if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
		t->reg = (uint8_t)(op - DW_OP_breg0);
		t->off = (int64_t)ops[0].number;
	} else if (op == DW_OP_bregx && ops[0].number < 32) {
		t->reg = (uint8_t)ops[0].number;
		t->off = (int64_t)ops[0].number2;
	} else {
		return;
	}
	if (n == 2 && (ops[1].atom != DW_OP_deref || op == DW_OP_regx ||
		       (op >= DW_OP_reg0 && op <= DW_OP_reg31)))
		return;
	t->deref = n == 2;
	t->kind = CT_REG;
}

/* A function's name as its symbol has it: the linkage name, else the name. */
static const char *die_symbol_name(struct dwarf *d, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwl.dwarf_formstring(dwl.dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	if (!n)
		n = dwl.dwarf_formstring(dwl.dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (!n)
		n = dwl.dwarf_formstring(dwl.dwarf_attr_integrate(die, DW_AT_name, &a));
	return n && *n ? intern(&d->strs, n) : NULL;
}

/*
 * An entry of a module's index of out-of-line functions: key is the offset
 * of the DIE they are instances of (DW_AT_abstract_origin or
 * DW_AT_specification) plus one, or a compilation unit's offset with
 * INST_CU set when that unit has been indexed; 0 is empty.
 */
struct instance {
	uint64_t key;
	uint64_t rel;            /* the instance's entry, module-relative */
	uint32_t count;          /* instances of that DIE (several: clones) */
};
#define INST_CU (1ull << 63)

static struct instance *inst_slot(struct modinfo *mi, uint64_t key, bool make)
{
	size_t i;

	if (make && (mi->instused + 1) * 2 > mi->ninst) {
		struct instance *old = mi->inst;
		size_t oldn = mi->ninst;
		mi->ninst = oldn ? oldn * 2 : 256;
		mi->inst = xcalloc(mi->ninst, sizeof(*mi->inst));
		mi->instused = 0;
		for (size_t j = 0; j < oldn; j++)
			if (old[j].key)
				*inst_slot(mi, old[j].key, true) = old[j];
		free(old);
	}
	if (!mi->ninst)
		return NULL;
	for (i = hash_addr(key, mi->ninst); mi->inst[i].key; i = (i + 1) & (mi->ninst - 1))
		if (mi->inst[i].key == key)
			return &mi->inst[i];
	if (!make)
		return NULL;
	mi->inst[i].key = key;
	mi->instused++;
	return &mi->inst[i];
}

/*
 * The out-of-line instance of the function DIE o (abstract: inlined
 * elsewhere; or a declaration) in o's compilation unit, whose top-level
 * functions are indexed the first time one of its DIEs is asked about
 * (instances of DIEs of other units are left to the symbol tables).
 * Returns the number of instances, with the entry of the first in *rel.
 */
static uint32_t inst_of(struct modinfo *mi, Dwarf_Die *o, Dwarf_Addr bias, uint64_t low,
			uint64_t *rel)
{
	Dwarf_Attribute a;
	Dwarf_Die cu, c, r;
	Dwarf_Addr lo;
	struct instance *e;

	/* (a unit of a dwz file has offsets of its own: not indexed) */
	if (!dwl.dwarf_diecu(o, &cu, NULL, NULL) || dwl.dwarf_tag(&cu) != DW_TAG_compile_unit)
		return 0;
	if (!inst_slot(mi, dwl.dwarf_dieoffset(&cu) | INST_CU, false)) {
		inst_slot(mi, dwl.dwarf_dieoffset(&cu) | INST_CU, true);
		if (dwl.dwarf_child(&cu, &c) == 0) {
			do {
				if (dwl.dwarf_tag(&c) != DW_TAG_subprogram ||
				    dwl.dwarf_lowpc(&c, &lo) != 0)
					continue;
				if (!dwl.dwarf_formref_die(dwl.dwarf_attr(&c, DW_AT_abstract_origin, &a), &r) &&
				    !dwl.dwarf_formref_die(dwl.dwarf_attr(&c, DW_AT_specification, &a), &r))
					continue;
				if (r.cu != c.cu)
					continue;    /* in another unit: found by name */
				e = inst_slot(mi, dwl.dwarf_dieoffset(&r) + 1, true);
				if (!e->count++)
					e->rel = lo + bias - low;
			} while (dwl.dwarf_siblingof(&c, &c) == 0);
		}
	}
	e = inst_slot(mi, dwl.dwarf_dieoffset(o) + 1, false);
	if (!e)
		return 0;
	*rel = e->rel;
	return e->count;
}

/*
 * The function a call site of mi calls (DW_AT_call_origin;
 * DW_AT_abstract_origin in the GNU form) into *t: its address when its DIE,
 * or the one out-of-line instance of it in its compilation unit, has code;
 * else its name, for the symbol tables.  An indirect call names none
 * (CT_NONE) or where the pointer is (CT_REG).
 */
static void site_target(struct dwarf *d, struct modinfo *mi, Dwarf_Die *site, Dwarf_Addr bias,
			uint64_t low, struct ctarget *t)
{
	Dwarf_Attribute a;
	Dwarf_Die o;
	Dwarf_Addr lo;
	uint32_t found;

	memset(t, 0, sizeof(*t));
	t->kind = CT_NONE;
	if (!dwl.dwarf_formref_die(dwl.dwarf_attr(site, DW_AT_call_origin, &a), &o) &&
	    !dwl.dwarf_formref_die(dwl.dwarf_attr(site, DW_AT_abstract_origin, &a), &o)) {
		site_call_target(site, t);
		return;
	}
	if (dwl.dwarf_lowpc(&o, &lo) == 0) {
		t->kind = CT_ADDR;
		t->rel = lo + bias - low;
		return;
	}
	/* abstract (inlined elsewhere) or declared: an instance with code */
	found = inst_of(mi, &o, bias, low, &t->rel);
	if (found > 1)
		return;      /* clones: which one is not known */
	if (found) {
		t->kind = CT_ADDR;
		return;
	}
	if ((t->name = die_symbol_name(d, &o)))
		t->kind = CT_NAME;
}

/*
 * Calls fn on every call site under parent, in its lexical blocks and
 * inlined calls but not in nested functions; stops when fn returns true
 * and returns true then.
 */
static bool each_site(Dwarf_Die *parent, bool (*fn)(Dwarf_Die *site, void *arg), void *arg)
{
	Dwarf_Die c;

	if (dwl.dwarf_child(parent, &c) != 0)
		return false;
	do {
		switch (dwl.dwarf_tag(&c)) {
		case DW_TAG_call_site:
		case DW_TAG_GNU_call_site:
			if (fn(&c, arg))
				return true;
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (each_site(&c, fn, arg))
				return true;
			break;
		}
	} while (dwl.dwarf_siblingof(&c, &c) == 0);
	return false;
}

/* The DIE of the function whose code holds the address abs (mod's). */
static bool function_die(Dwfl_Module *mod, uint64_t abs, Dwarf_Die *fn, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwl.dwfl_module_addrdie(mod, abs, bias);

	return cu && find_scopes(cu, abs - *bias, fn, 0, 1) == 1;
}

struct ret_find {
	Dwarf_Addr ret;
	Dwarf_Die site;
};

static bool match_ret(Dwarf_Die *site, void *arg)
{
	struct ret_find *rf = arg;
	Dwarf_Addr ret, look;
	bool tail;

	/* (a return address is never a tail call's, though clang's DW_AT_call_pc
	 * of a jump right after a call is that call's return address) */
	if (!site_pcs(site, &ret, &look, &tail) || tail || ret != rf->ret)
		return false;
	rf->site = *site;
	return true;
}

/* l->cs: what the call that returns to ret (l is at ret - 1, in mod) calls. */
static void lookup_callsite(struct dwarf *d, struct loc *l, Dwfl_Module *mod, uint64_t ret)
{
	struct ret_find rf;
	Dwarf_Die fn;
	Dwarf_Addr bias;

	l->cs_done = true;
	l->cs.kind = CT_NONE;
	if (!mod_has_dwarf(l->mi, mod))
		return;
	/* the function resolve_inlines found, else a search for it */
	if (!(l->fn_off && dwl.dwarf_offdie(dwl.dwfl_module_getdwarf(mod, &bias), l->fn_off - 1, &fn)) &&
	    !function_die(mod, ret - 1, &fn, &bias))
		return;
	rf.ret = ret - bias;
	if (each_site(&fn, match_ret, &rf))
		site_target(d, l->mi, &rf.site, bias, module_low(mod), &l->cs);
}

/* A function of the process: its module and entry (module-relative). */
struct fnode {
	Dwfl_Module *mod;
	uint64_t low, rel;
};

/* A tail call of a function: where (module-relative) and what it calls. */
struct tsite {
	struct tailpc at;
	struct ctarget t;
};

/* The tail calls of the function at entry (module-relative), shared by the
 * processes that map the module. */
struct fsites {
	uint64_t entry;
	bool known;              /* false: not known (no DWARF, not all described) */
	unsigned n;
	struct tsite s[];
};

/* Tail calls being collected from a function's DIEs. */
struct tscan {
	struct dwarf *d;
	struct modinfo *mi;
	Dwarf_Addr bias;
	uint64_t low;
	struct tsite s[MAX_TAIL_SITES];
	unsigned n;
	bool overflow;
};

static bool add_tail_site(Dwarf_Die *site, void *arg)
{
	struct tscan *ts = arg;
	Dwarf_Addr ret, look;
	bool tail;

	if (!site_pcs(site, &ret, &look, &tail) || !tail)
		return false;
	if (ts->n == MAX_TAIL_SITES) {
		ts->overflow = true;
		return true;
	}
	ts->s[ts->n].at.pc = ret + ts->bias - ts->low;
	ts->s[ts->n].at.addr = look + ts->bias - ts->low;
	site_target(ts->d, ts->mi, site, ts->bias, ts->low, &ts->s[ts->n].t);
	ts->n++;
	return false;
}

/* Whether the compiler described every (tail) call of fn. */
static bool all_calls_described(Dwarf_Die *fn)
{
	static const unsigned attrs[] = {
		DW_AT_call_all_calls, DW_AT_call_all_tail_calls,
		DW_AT_GNU_all_call_sites, DW_AT_GNU_all_tail_call_sites,
	};
	Dwarf_Attribute a;
	bool all;

	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++)
		if (dwl.dwarf_attr(fn, attrs[i], &a) && dwl.dwarf_formflag(&a, &all) == 0 && all)
			return true;
	return false;
}

/* Whether the function at n begins there and all its calls are described:
 * then its tail calls into ts. */
static bool scan_tail_sites(struct modinfo *mi, const struct fnode *n, struct tscan *ts)
{
	Dwarf_Die fn;
	Dwarf_Addr entry;

	if (!mod_has_dwarf(mi, n->mod) || !function_die(n->mod, n->low + n->rel, &fn, &ts->bias))
		return false;
	/* the function must begin there (not a part of another one) */
	if (dwl.dwarf_lowpc(&fn, &entry) != 0 || entry + ts->bias != n->low + n->rel ||
	    !all_calls_described(&fn))
		return false;
	each_site(&fn, add_tail_site, ts);
	return !ts->overflow;
}

/* The tail calls of the function at n, looked up once per module file. */
static const struct fsites *tail_sites(struct dwarf *d, const struct fnode *n)
{
	struct modinfo *mi = modinfo_of(d, n->mod);
	struct tscan *ts;
	struct fsites *f;
	bool known;
	uint64_t *v = intmap_get(&mi->fsites, n->rel);

	if (v)
		return (const struct fsites *)(uintptr_t)*v;
	ts = xcalloc(1, sizeof(*ts));
	ts->d = d;
	ts->mi = mi;
	ts->low = n->low;
	if (!(known = scan_tail_sites(mi, n, ts)))
		ts->n = 0;
	f = arena_calloc(&d->locs, sizeof(*f) + ts->n * sizeof(f->s[0]));
	f->entry = n->rel;
	f->known = known;
	f->n = ts->n;
	memcpy(f->s, ts->s, ts->n * sizeof(f->s[0]));
	free(ts);
	*intmap_put(&mi->fsites, f->entry, NULL) = (uintptr_t)f;
	return f;
}

struct byname_find {
	struct dwarf *d;
	const char *name;
	struct fnode found;
	int n;                   /* definitions at distinct addresses (2: several) */
};

static int find_global_cb(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr lo,
			  void *arg)
{
	struct byname_find *bf = arg;
	struct modinfo *mi = modinfo_of(bf->d, mod);
	uint64_t rel, low = module_low(mod);
	int r = symidx_find(mod_syms(bf->d, mi, mod), bf->name, true, &rel);

	if (r == 0)
		return DWARF_CB_OK;
	if (r < 0 || (bf->n && bf->found.low + bf->found.rel != low + rel)) {
		bf->n = 2;
		return DWARF_CB_ABORT;
	}
	bf->n = 1;
	bf->found.mod = mod;
	bf->found.low = low;
	bf->found.rel = rel;
	return DWARF_CB_OK;
}

/*
 * The function t names (t is of a call site in mod): by address in mod, or
 * by name, defined in mod or else by exactly one module of the process.
 * False when that is not known (an indirect call, a name defined nowhere
 * or at several addresses).
 */
static bool target_node(struct dwarf *d, struct dproc *p, Dwfl_Module *mod, uint64_t low,
			const struct ctarget *t, struct fnode *n)
{
	struct byname_find bf;
	uint64_t rel;

	if (t->kind == CT_ADDR) {
		n->mod = mod;
		n->low = low;
		n->rel = t->rel;
		return true;
	}
	if (t->kind != CT_NAME)
		return false;
	switch (symidx_find(mod_syms(d, modinfo_of(d, mod), mod), t->name, false, &rel)) {
	case 1:
		n->mod = mod;
		n->low = low;
		n->rel = rel;
		return true;
	case -1:
		return false;
	}
	memset(&bf, 0, sizeof(bf));
	bf.d = d;
	bf.name = t->name;
	dwl.dwfl_getmodules(p->dwfl, find_global_cb, &bf, 0);
	if (bf.n != 1)
		return false;
	*n = bf.found;
	return true;
}

/* A search for the tail-call chains from a call site's target to a frame's function. */
struct tsearch {
	struct dwarf *d;
	struct dproc *p;
	uint64_t goal;           /* the frame's function: its entry, absolute */
	struct modinfo *goal_mi; /* and module */
	uint64_t goal_rel;
	struct tailpc path[MAX_TAIL], best[MAX_TAIL];
	unsigned npaths, nbest;  /* chains found (2: several), the first one's length */
	int budget;              /* functions that may still be looked at */
};

static bool reaches_goal(const struct tsearch *s, uint64_t low, const struct ctarget *t)
{
	if (t->kind == CT_ADDR)
		return low + t->rel == s->goal;
	if (t->kind == CT_NAME)
		return symidx_has_at(s->goal_mi->syms, t->name, s->goal_rel);
	return false;
}

/*
 * Follows t (of a call site in mod) and its tail calls to the goal; depth
 * tail calls so far.  What cannot be followed (a function whose tail calls
 * are not known: no DWARF, an indirect tail call, a name that resolves to
 * no single function, a chain too long) might have led there too: it
 * counts as a second chain, so that nothing uncertain is rebuilt.
 */
static void tail_search(struct tsearch *s, Dwfl_Module *mod, uint64_t low, const struct ctarget *t,
			unsigned depth)
{
	const struct fsites *fs;
	struct fnode n;

	if (s->npaths > 1)
		return;
	if (reaches_goal(s, low, t)) {
		if (!s->npaths++) {
			memcpy(s->best, s->path, depth * sizeof(*s->path));
			s->nbest = depth;
		}
		return;
	}
	if (depth == MAX_TAIL || s->budget-- <= 0 || !target_node(s->d, s->p, mod, low, t, &n)) {
		s->npaths = 2;
		return;
	}
	fs = tail_sites(s->d, &n);
	if (!fs->known) {
		s->npaths = 2;
		return;
	}
	for (unsigned i = 0; i < fs->n && s->npaths < 2; i++) {
		s->path[depth].pc = fs->s[i].at.pc + n.low;
		s->path[depth].addr = fs->s[i].at.addr + n.low;
		tail_search(s, n.mod, n.low, &fs->s[i].t, depth + 1);
	}
}

/*
 * The address an indirect call of the caller's frame (state) called: t is
 * CT_REG, and its register one that calls keep (its value at the return
 * address is the one at the call).  False when it cannot be known.
 */
static bool eval_target(struct dproc *p, Dwfl_Frame *state, const struct ctarget *t,
			uint64_t *target)
{
	Dwarf_Word v;
	uint64_t w64 = 0;
	uint32_t w32 = 0;
	bool ok;

	if (t->reg >= 32 || !(p->regs.callee_saved >> t->reg & 1) ||
	    dwl.dwfl_frame_reg(state, t->reg, &v) != 0)
		return false;
	v += (uint64_t)t->off;
	if (t->deref) {
		if (!p->mem)
			p->mem = xcalloc(1, sizeof(*p->mem));
		/* (a recorded stack: from its copy, as cb_memory_read) */
		if (p->regs.nregs == 9) {
			ok = p->us ? recorded_read(p, v & 0xffffffffu, &w32, sizeof(w32))
				   : mem_byte_range(p, p->tid, v & 0xffffffffu, &w32, sizeof(w32));
			v = w32;
		} else {
			ok = p->us ? recorded_read(p, v, &w64, sizeof(w64))
				   : mem_byte_range(p, p->tid, v, &w64, sizeof(w64));
			v = w64;
		}
		if (!ok)
			return false;
	}
	*target = p->regs.nregs == 9 ? v & 0xffffffffu : v;
	return *target != 0;
}

/*
 * The frames missing between the caller's frame (return address pc, its
 * loc l, in mod or NULL; its registers state) and the frame it called
 * (looked-up address callee, its loc cl), found once per process, pair of
 * addresses and, for an indirect call, function called.
 */
static const struct tailres *tail_frames(struct dwarf *d, struct dproc *p, uint64_t pc,
					 struct loc *l, Dwfl_Module *mod, uint64_t callee,
					 struct loc *cl, Dwfl_Frame *state)
{
	struct tailres *r;
	struct tsearch s;
	struct ctarget direct;
	const struct ctarget *t = &l->cs;
	Dwfl_Module *cmod, *tmod = NULL;
	uint64_t t0 = 0, target = 0;

	if (!l->cs_done) {
		t0 = mono_ns();
		if (!mod)
			mod = dwl.dwfl_addrmodule(p->dwfl, pc - 1);
		if (!mod)
			return NULL;
		lookup_callsite(d, l, mod, pc);
		d->st.lookup_ns += mono_ns() - t0;
	}
	if (l->cs.kind == CT_NONE)
		return NULL;
	/* an indirect call: what it called, by address, in its module */
	if (l->cs.kind == CT_REG) {
		if (!eval_target(p, state, &l->cs, &target) ||
		    !(tmod = dwl.dwfl_addrmodule(p->dwfl, target)))
			return NULL;
		memset(&direct, 0, sizeof(direct));
		direct.kind = CT_ADDR;
		direct.rel = target - module_low(tmod);
		t = &direct;
	}
	if ((r = tail_find(p, pc, callee, target)))
		return r->n ? r : NULL;
	t0 = mono_ns();
	memset(&s, 0, sizeof(s));
	if (!tmod)
		tmod = mod ? mod : dwl.dwfl_addrmodule(p->dwfl, pc - 1);
	if (tmod && cl->mi && (cmod = dwl.dwfl_addrmodule(p->dwfl, callee)) &&
	    loc_entry(d, cl, cmod, &s.goal_rel)) {
		s.d = d;
		s.p = p;
		s.goal_mi = cl->mi;
		s.goal = module_low(cmod) + s.goal_rel;
		s.budget = TAIL_BUDGET;
		tail_search(&s, tmod, module_low(tmod), t, 0);
	}
	if (s.npaths != 1)
		s.nbest = 0;
	r = arena_calloc(&p->arena, sizeof(*r) + s.nbest * sizeof(r->f[0]));
	r->caller_pc = pc;
	r->callee = callee;
	r->target = target;
	r->n = s.nbest;
	/* innermost first: the last tail call of the chain is the innermost frame */
	for (unsigned i = 0; i < s.nbest; i++)
		r->f[i] = s.best[s.nbest - 1 - i];
	tail_put(p, r);
	d->st.lookup_ns += mono_ns() - t0;
	return r->n ? r : NULL;
}

/* ---- unwinding -------------------------------------------------------- */

struct walk {
	struct dwarf *d;
	struct dproc *p;
	struct dthread *t;
	unsigned nphys;
	uint64_t last_pc, last_sp;
	bool have_last;
	bool full;               /* every frame named (-k, profiles) */
	bool found;              /* -s alone: the source frame is known */
	bool have_own;           /* an own frame without a line was seen */
	const char *error;       /* interned, or NULL */
	struct loc *prev;        /* the physical frame before (inner), or NULL */
	uint64_t prev_addr;      /* its looked-up address */
};

static void add_frame(struct dthread *t, const struct frame *f)
{
	ALLOC_GROW(t->frames, t->nframes + 1, t->alloc);
	t->frames[t->nframes++] = *f;
}

static int any_dwarf_cb(Dwfl_Module *mod, void **ud, const char *name, Dwarf_Addr lo,
			void *arg)
{
	struct dwarf *d = arg;
	struct modinfo *mi = modinfo_of(d, mod);

	if (!mi->skipped && mod_has_dwarf(mi, mod))
		return DWARF_CB_ABORT;
	return DWARF_CB_OK;
}

/* Whether some module of p that is not skipped has debug information. */
static bool any_dwarf(struct dwarf *d, struct dproc *p)
{
	if (p->any_dwarf < 0)
		p->any_dwarf = dwl.dwfl_getmodules(p->dwfl, any_dwarf_cb, d, 0) != 0;
	return p->any_dwarf;
}

/*
 * Whether -s alone needs the names of l: it does until the source is
 * found, except in modules skipped whole, and once an own frame without a
 * line has been seen, only in modules that could give a line.
 */
static bool needs_names(struct walk *w, struct loc *l, Dwfl_Module *mod)
{
	if (w->full)
		return true;
	if (w->found || !l->mi || l->mi->skipped)
		return false;
	return !w->have_own || mod_has_dwarf(l->mi, mod);
}

/* Adds the frames of l (a physical frame at pc, looked up at addr), flags added to each. */
static inline __attribute__((always_inline)) void
add_loc_frames(struct walk *w, const struct loc *l, uint64_t pc, uint64_t addr,
			   uint8_t flags)
{
	struct frame f;

	/* names and lines are those of the call instruction (pc - 1); the
	 * offsets are of pc itself, as strace, eu-stack and gdb print them */
	memset(&f, 0, sizeof(f));
	f.pc = pc;
	f.module = l->mi ? l->mi->name : NULL;
	f.offset = l->offset + (pc - addr);
	f.symbol = l->symbol;
	f.symoff = l->symoff + (pc - addr);
	if (!l->ninl) {
		f.function = l->symbol;
		f.flags = l->flags | flags;
		add_frame(w->t, &f);
	}
	for (unsigned i = 0; i < l->ninl; i++) {
		f.function = l->inl[i].function;
		f.file = l->inl[i].file;
		f.line = l->inl[i].line;
		f.flags = l->inl[i].flags | (i + 1 < l->ninl ? FRAME_INLINED : 0) | flags;
		add_frame(w->t, &f);
	}
}

/* Whether one of l's functions is the program's own, with a line. */
static bool own_line(const struct loc *l)
{
	for (unsigned i = 0; i < l->ninl; i++)
		if ((l->inl[i].flags & (FRAME_OWN | FRAME_FOREIGN_LINE)) == FRAME_OWN &&
		    l->inl[i].file && l->inl[i].line)
			return true;
	return false;
}

/*
 * Adds the tail-call frames missing between w->prev and l (a caller at
 * return address pc, its registers state).
 */
static void add_tail_frames(struct walk *w, uint64_t pc, struct loc *l, Dwfl_Module *mod,
			    Dwfl_Frame *state)
{
	const struct tailres *r = tail_frames(w->d, w->p, pc, l, mod, w->prev_addr, w->prev, state);

	for (unsigned i = 0; r && i < r->n; i++) {
		Dwfl_Module *tm;
		struct loc *tl = loc_of(w->d, w->p, r->f[i].addr, &tm);

		if (!tl->full && tl->mi &&
		    needs_names(w, tl, tm ? tm : (tm = dwl.dwfl_addrmodule(w->p->dwfl, r->f[i].addr))))
			resolve_full(w->d, tl, tm, r->f[i].addr);
		add_loc_frames(w, tl, r->f[i].pc, r->f[i].addr, FRAME_TAILCALL);
		w->d->st.tail_frames++;
	}
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	bool activation;
	Dwarf_Word sp = 0;
	bool have_sp;
	uint64_t addr;
	struct loc *l;
	Dwfl_Module *mod;
	size_t first = w->t->nframes;

	if (!dwl.dwfl_frame_pc(state, &pc, &activation))
		return -1;
	if (w->nphys >= MAX_PHYS_FRAMES) {
		w->error = intern(&w->d->strs, "too many stack frames");
		return DWARF_CB_ABORT;
	}
	have_sp = dwl.dwfl_frame_reg(state, w->p->regs.sp_regno, &sp) == 0;
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
	l = loc_of(w->d, w->p, addr, &mod);
	if (!l->full && needs_names(w, l, mod ? mod : (mod = dwl.dwfl_addrmodule(w->p->dwfl, addr))))
		resolve_full(w->d, l, mod, addr);
	/* a caller whose code has lines: did a tail call leave frames out?
	 * (-s alone asks only of the frame that would be the source) */
	if (!activation && w->prev && l->mi && l->ninl && (w->full || own_line(l)))
		add_tail_frames(w, pc, l, mod, state);
	add_loc_frames(w, l, pc, addr, 0);
	w->prev = l;
	w->prev_addr = addr;
	if (w->full)
		return DWARF_CB_OK;
	for (size_t i = first; i < w->t->nframes; i++) {
		const struct frame *g = &w->t->frames[i];
		if (!(g->flags & FRAME_OWN))
			continue;
		if (g->file && g->line && !(g->flags & FRAME_FOREIGN_LINE)) {
			w->found = true;
			return DWARF_CB_ABORT;   /* -s alone: nothing further is shown */
		}
		w->have_own = true;
		/* no line anywhere in this process (gcc's cc1): this is it */
		if (!any_dwarf(w->d, w->p)) {
			w->found = true;
			return DWARF_CB_ABORT;
		}
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
	struct walk w;
	const char *why = NULL;
	Dwfl *dwfl;
	int r;
	uint64_t t0 = mono_ns(), t1, c0 = thread_cpu_ns();

	memset(&w, 0, sizeof(w));
	w.d = d;
	w.p = p;
	w.t = t;
	w.full = d->o.stack_trace || d->o.full;
	free_dead(d);
	t->nframes = 0;
	d->st.stacks++;
	p->us = ev->ustack;
	p->tid = ev->tid;
	p->beyond = false;
	if (p->us && !p->us->regs) {
		dwfl = NULL;
		why = intern(&d->strs, "no stack was recorded for this call (ring buffer full)");
	} else {
		dwfl = p->us ? recorded_dwfl(d, p, p->us, &why) : proc_dwfl(d, p, &why);
	}
	t1 = mono_ns();
	d->st.report_ns += t1 - t0;
	if (!dwfl) {
		w.error = why;
	} else {
		r = dwl.dwfl_getthread_frames(dwfl, ev->tid, frame_cb, &w);
		if (r != 0 && !w.error && !w.found && !(r < 0 && at_outermost(t)))
			w.error = intern(&d->strs, r < 0 ? dwl.dwfl_errmsg(-1) : "unwinding stopped");
	}
	/* (libdw ends a stack quietly where it cannot read the return
	 * address: the copy was too short, which must be said) */
	if (p->us && p->beyond && !w.error && !w.found) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "the stack goes on past the %u bytes copied with the call",
			    (unsigned)p->us->len);
		w.error = intern(&d->strs, sb.buf);
		strbuf_release(&sb);
	}
	p->us = NULL;
	/* -s alone stops early: an error past that point is nobody's concern */
	if (!w.full)
		w.error = NULL;
	if (w.error)
		d->st.errors++;
	ev->frames = t->frames;
	ev->nframes = (uint32_t)t->nframes;
	ev->stack_error = w.error;
	ev->stack_trace = d->o.stack_trace;
	ev->source = d->o.source ? pick_source(t->frames, t->nframes, &t->source) : NULL;
	d->st.unwind_ns += mono_ns() - t0;
	d->st.unwind_cpu_ns += thread_cpu_ns() - c0;
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

	if (ev->type == EV_SYSCALL_ENTRY) {
		/* watched calls (dwarf_watch_set) only matter at their exit */
		if (trace_set_has(d->o.trace_set, ev->nr))
			unwind(d, ev);
		return;
	}
	if (ev->type != EV_SYSCALL)
		return;
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

int dwarf_load(void)
{
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (dwlib_load(&why) < 0)
		ret = error("cannot unwind stacks: %s", why.buf);
	strbuf_release(&why);
	return ret;
}

struct dwarf *dwarf_new(const struct dwarf_opts *o)
{
	struct dwarf *d;
	char buf[PATH_MAX];

	if (dwarf_load() < 0) {
		srcskip_free(o->skip);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->o = *o;
	d->skip = o->skip ? o->skip : srcskip_new();
	d->o.skip = NULL;
	if (o->cwd || getcwd(buf, sizeof(buf))) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, o->cwd ? o->cwd : buf);
		if (sb.len && sb.buf[sb.len - 1] != '/')
			strbuf_addch(&sb, '/');
		d->cwdlen = sb.len > 1 ? sb.len : 0;   /* "/" itself: keep absolute */
		d->cwd = strbuf_detach(&sb, NULL);
	}
	d->cb.find_elf = dwl.dwfl_linux_proc_find_elf;
	d->cb.find_debuginfo = find_debuginfo;
	d->cb.debuginfo_path = &d->debuginfo_path;
	the_dwarf = d;
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

void dwarf_print_stats(const struct dwarf *d)
{
	const struct dwarf_stats *st = &d->st;

	fprintf(stderr, "renacer: dwarf: %" PRIu64 " stacks, %" PRIu64 " frames (%" PRIu64
		" from tail calls), %" PRIu64 " lookups, %" PRIu64 " reports, %" PRIu64
		" errors; %.3f ms unwinding (%.3f ms lookups, %.3f ms reports, %.3f ms on a"
		" CPU), %.2f us a stack\n",
		st->stacks, st->frames, st->tail_frames, st->lookups, st->reports, st->errors,
		st->unwind_ns / 1e6, st->lookup_ns / 1e6, st->report_ns / 1e6,
		st->unwind_cpu_ns / 1e6,
		st->stacks ? st->unwind_ns / 1e3 / (double)st->stacks : 0.0);
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
	intern_release(&d->strs);
	for (size_t i = 0; i < NBUCKETS; i++)
		while (d->mods[i]) {
			struct modinfo *mi = d->mods[i];
			d->mods[i] = mi->next;
			symidx_free(mi->syms);
			intmap_release(&mi->locs);
			intmap_release(&mi->fsites);
			free(mi->inst);
			free(mi);
		}
	arena_release(&d->locs);
	if (the_dwarf == d)
		the_dwarf = NULL;
	srcskip_free(d->skip);
	free(d->watch);
	free(d->cwd);
	free(d);
}
