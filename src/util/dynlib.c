/*
 * dlopen() of the optional libraries behind their tables of function
 * pointers (dynlib.h).
 */
#include "util/dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/banned.h"

static pthread_mutex_t dynlib_mu = PTHREAD_MUTEX_INITIALIZER;

static int load_locked(struct dynlib *l)
{
	struct strbuf sb = STRBUF_INIT;
	void *h, *p;
	const char *e;

	dlerror();
	h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		e = dlerror();
		strbuf_addf(&sb, "cannot load '%s': %s", l->soname, e ? e : "dlopen failed");
		goto fail;
	}
	for (size_t i = 0; i < l->nsyms; i++) {
		dlerror();
		p = dlsym(h, l->syms[i].name);
		if (!p) {
			e = dlerror();
			strbuf_addf(&sb, "cannot load '%s': ", l->soname);
			if (e)
				strbuf_addstr(&sb, e);
			else
				strbuf_addf(&sb, "no function '%s'", l->syms[i].name);
			dlclose(h);
			goto fail;
		}
		/* POSIX: a function's address fits and survives a void * */
		memcpy((char *)l->table + l->syms[i].off, &p, sizeof(p));
	}
	return 1;
fail:
	/* no pointer is left set: a half-filled table is never used */
	for (size_t i = 0; i < l->nsyms; i++) {
		p = NULL;
		memcpy((char *)l->table + l->syms[i].off, &p, sizeof(p));
	}
	l->err = strbuf_detach(&sb, NULL);
	return -1;
}

int dynlib_load(struct dynlib *l, const char **why)
{
	int st;

	pthread_mutex_lock(&dynlib_mu);
	if (!l->state)
		l->state = load_locked(l);
	st = l->state;
	pthread_mutex_unlock(&dynlib_mu);
	if (st < 0 && why)
		*why = l->err;
	return st > 0 ? 0 : -1;
}
