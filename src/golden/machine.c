/* The machine a golden was made on (see machine.h). */
#include "golden/machine.h"

#include <gnu/libc-version.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/banned.h"

static void copy(char *dst, size_t cap, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

/* The first "model name" (x86) or "Hardware"/"cpu model" line of /proc/cpuinfo. */
static void cpu_model(char *dst, size_t cap)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[512];

	dst[0] = '\0';
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':');
		size_t l;

		if (!colon || (strncmp(line, "model name", 10) && strncmp(line, "cpu model", 9) &&
			       strncmp(line, "Hardware", 8)))
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		l = strlen(colon);
		while (l && (colon[l - 1] == '\n' || colon[l - 1] == ' '))
			colon[--l] = '\0';
		copy(dst, cap, colon);
		break;
	}
	fclose(fp);
}

void gmachine_current(struct gmachine *m)
{
	struct utsname u;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(m, 0, sizeof(*m));
	m->known = true;
	cpu_model(m->cpu, sizeof(m->cpu));
	m->cores = n > 0 ? (unsigned)n : 0;
	if (!uname(&u)) {
		copy(m->kernel, sizeof(m->kernel), u.release);
		copy(m->arch, sizeof(m->arch), u.machine);
	}
	snprintf(m->libc, sizeof(m->libc), "glibc %s", gnu_get_libc_version());
}

void gmachine_json(const struct gmachine *m, struct strbuf *sb)
{
	strbuf_addstr(sb, "{\"cpu\": ");
	strbuf_add_json_cstr(sb, m->cpu);
	strbuf_addf(sb, ", \"cores\": %u, \"kernel\": ", m->cores);
	strbuf_add_json_cstr(sb, m->kernel);
	strbuf_addstr(sb, ", \"arch\": ");
	strbuf_add_json_cstr(sb, m->arch);
	strbuf_addstr(sb, ", \"libc\": ");
	strbuf_add_json_cstr(sb, m->libc);
	strbuf_addch(sb, '}');
}

void gmachine_from_json(struct gmachine *m, const void *json)
{
	json_t *o = (json_t *)json, *v;

	memset(m, 0, sizeof(*m));
	if (!json_is_object(o))
		return;
	m->known = true;
	if (json_is_string(v = json_object_get(o, "cpu")))
		copy(m->cpu, sizeof(m->cpu), json_string_value(v));
	if (json_is_integer(v = json_object_get(o, "cores")) && json_integer_value(v) > 0 &&
	    json_integer_value(v) < 1 << 24)
		m->cores = (unsigned)json_integer_value(v);
	if (json_is_string(v = json_object_get(o, "kernel")))
		copy(m->kernel, sizeof(m->kernel), json_string_value(v));
	if (json_is_string(v = json_object_get(o, "arch")))
		copy(m->arch, sizeof(m->arch), json_string_value(v));
	if (json_is_string(v = json_object_get(o, "libc")))
		copy(m->libc, sizeof(m->libc), json_string_value(v));
}

bool gmachine_differs(const struct gmachine *g, const struct gmachine *cur, struct strbuf *why)
{
	bool any = false;

	if (!g->known || !cur->known)
		return false;
	if (strcmp(g->cpu, cur->cpu) || g->cores != cur->cores) {
		strbuf_addf(why, "CPU '%s' (%u cores) -> '%s' (%u cores)", g->cpu, g->cores, cur->cpu,
			    cur->cores);
		any = true;
	}
	if (strcmp(g->kernel, cur->kernel) || strcmp(g->arch, cur->arch)) {
		strbuf_addf(why, "%skernel %s %s -> %s %s", any ? ", " : "", g->kernel, g->arch,
			    cur->kernel, cur->arch);
		any = true;
	}
	if (strcmp(g->libc, cur->libc)) {
		strbuf_addf(why, "%s%s -> %s", any ? ", " : "", *g->libc ? g->libc : "unknown libc",
			    *cur->libc ? cur->libc : "unknown libc");
		any = true;
	}
	return any;
}
