/* The "program's own code" rules (see skip.h). */
#include "dwarf/skip.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/quote.h"
#include "util/relimit.h"
#include "util/xmalloc.h"
#include "util/banned.h"

const char *const srcskip_defaults[] = {
	"(^|/)lib(c|m|mvec|dl|pthread|rt|resolv|util|anl|gcc_s|stdc\\+\\+|c\\+\\+|c\\+\\+abi|unwind)\\.so(\\.[0-9]+)*$",
	"(^|/)ld-linux[^/]*\\.so(\\.[0-9]+)*$",
	"^\\[vdso\\]$|(^|/)linux-vdso\\.so",
	"^(_start|_init|_fini|__libc_start_main|__libc_start_call_main|__libc_csu_init)$",
	"^<?(&(mut )?)?(std|core|alloc)::|^__rust_|^rust_(begin_unwind|panic)",
	"(^|/)library/(std|core|alloc|panic_unwind|panic_abort|proc_macro)/src/",
	"^/usr/include/",
	NULL,
};

const char *const srcskip_default_docs[] = {
	"the C library, libm, libpthread, librt, libgcc_s, libstdc++, libc++ (by module)",
	"the dynamic loader",
	"the vDSO",
	"C start-up code (_start, __libc_start_main, ...)",
	"the Rust standard library by symbol (std::, core::, alloc::, __rust_*)",
	"the Rust standard library by source file (its library/std/src/... paths)",
	"code inlined from system headers (/usr/include: libstdc++ templates, glibc inlines)",
	NULL,
};

struct srcskip {
	regex_t *re;
	bool *builtin;           /* re[i] is one of srcskip_defaults */
	size_t n, alloc, balloc;
	size_t nadded;           /* patterns that are not built in */
};

static int add_one(struct srcskip *s, const char *regex, bool builtin)
{
	regex_t re;
	char msg[256];
	int r = re_compile_bounded(&re, regex, REG_EXTENDED | REG_NOSUB, 0, msg, sizeof(msg));

	if (r)
		return error("invalid --source-skip pattern '%s': %s", esc(regex), msg);
	ALLOC_GROW(s->re, s->n + 1, s->alloc);
	ALLOC_GROW(s->builtin, s->n + 1, s->balloc);
	s->builtin[s->n] = builtin;
	s->nadded += !builtin;
	s->re[s->n++] = re;
	return 0;
}

struct srcskip *srcskip_new(void)
{
	struct srcskip *s = xcalloc(1, sizeof(*s));

	for (size_t i = 0; srcskip_defaults[i]; i++)
		if (add_one(s, srcskip_defaults[i], true) < 0)
			abort();   /* the built-in patterns always compile */
	return s;
}

int srcskip_add(struct srcskip *s, const char *regex)
{
	if (!*regex) {
		for (size_t i = 0; i < s->n; i++)
			regfree(&s->re[i]);
		s->n = s->nadded = 0;
		return 0;
	}
	return add_one(s, regex, false);
}

bool srcskip_match(const struct srcskip *s, const char *module, const char *function,
		   const char *file)
{
	for (size_t i = 0; i < s->n; i++)
		if ((module && !regexec(&s->re[i], module, 0, NULL, 0)) ||
		    (function && !regexec(&s->re[i], function, 0, NULL, 0)) ||
		    (file && !regexec(&s->re[i], file, 0, NULL, 0)))
			return true;
	return false;
}

enum srcskip_by srcskip_module(const struct srcskip *s, const char *path)
{
	enum srcskip_by by = SRCSKIP_NONE;

	for (size_t i = 0; path && i < s->n; i++) {
		if (regexec(&s->re[i], path, 0, NULL, 0))
			continue;
		if (!s->builtin[i])
			return SRCSKIP_ADDED;
		by = SRCSKIP_BUILTIN;
		if (!s->nadded)
			break;      /* no added pattern can outrank it */
	}
	return by;
}

bool srcskip_system_path(const char *path)
{
	static const char *const dirs[] = {
		"/lib/", "/lib32/", "/lib64/", "/libx32/",
		"/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libx32/",
	};

	if (!path || path[0] != '/')
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])))
			return true;
	return false;
}

size_t srcskip_count(const struct srcskip *s)
{
	return s->n;
}

void srcskip_free(struct srcskip *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		regfree(&s->re[i]);
	free(s->re);
	free(s->builtin);
	free(s);
}
