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
	size_t n, alloc;
};

static int add_one(struct srcskip *s, const char *regex)
{
	regex_t re;
	char msg[256];
	int r = re_compile_bounded(&re, regex, REG_EXTENDED | REG_NOSUB, 0, msg, sizeof(msg));

	if (r)
		return error("invalid --source-skip pattern '%s': %s", esc(regex), msg);
	ALLOC_GROW(s->re, s->n + 1, s->alloc);
	s->re[s->n++] = re;
	return 0;
}

struct srcskip *srcskip_new(void)
{
	struct srcskip *s = xcalloc(1, sizeof(*s));

	for (size_t i = 0; srcskip_defaults[i]; i++)
		if (add_one(s, srcskip_defaults[i]) < 0)
			abort();   /* the built-in patterns always compile */
	return s;
}

int srcskip_add(struct srcskip *s, const char *regex)
{
	if (!*regex) {
		for (size_t i = 0; i < s->n; i++)
			regfree(&s->re[i]);
		s->n = 0;
		return 0;
	}
	return add_one(s, regex);
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
	free(s);
}
