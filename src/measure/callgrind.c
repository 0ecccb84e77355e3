/* Instruction counts from valgrind's callgrind (see measure.h). */
#include "measure/measure.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/pathsearch.h"
#include "util/quote.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include "util/banned.h"

/* Fixed arguments before the command: valgrind's own, then "--". */
#define CG_ARGS 6

char **measure_callgrind_argv(char *const argv[], const char *scratch)
{
	char *vg = path_search("valgrind");
	size_t argc = 0, olen;
	char **av;
	char *out;

	if (!vg) {
		error("cannot count instructions: valgrind is not installed (apt-get install "
		      "valgrind)");
		return NULL;
	}
	while (argv[argc])
		argc++;
	olen = strlen(scratch) + 64;
	/* the array, then the path of valgrind and the output option */
	av = xcalloc(1, (argc + CG_ARGS + 1) * sizeof(*av) + strlen(vg) + 1 + olen);
	out = (char *)(av + argc + CG_ARGS + 1);
	memcpy(out, vg, strlen(vg) + 1);
	av[0] = out;
	out += strlen(vg) + 1;
	free(vg);
	snprintf(out, olen, "--callgrind-out-file=%s/callgrind.%%p", scratch);
	av[1] = (char *)"--tool=callgrind";
	av[2] = (char *)"-q";
	av[3] = (char *)"--trace-children=yes";
	av[4] = out;
	av[5] = (char *)"--";
	for (size_t i = 0; i < argc; i++)
		av[CG_ARGS + i] = argv[i];
	return av;
}

/* The "summary:" (or "totals:") count of one callgrind output file. */
static int read_total(const char *path, uint64_t *ir)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (strbuf_read_file(&sb, path) == 0) {
		for (char *line = sb.buf; line && *line;) {
			if (!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7)) {
				*ir = strtoull(strchr(line, ':') + 1, NULL, 10);
				ret = 0;
				if (line[0] == 's')
					break;
			}
			line = strchr(line, '\n');
			if (line)
				line++;
		}
	}
	strbuf_release(&sb);
	return ret;
}

int measure_callgrind_total(const char *scratch, uint64_t *ir, unsigned *nprocs)
{
	struct strbuf p = STRBUF_INIT;
	DIR *d = opendir(scratch);
	struct dirent *e;

	*ir = 0;
	*nprocs = 0;
	if (!d)
		return error("cannot read '%s': %s", esc(scratch), strerror(errno));
	while ((e = readdir(d))) {
		uint64_t n;
		if (strncmp(e->d_name, "callgrind.", 10))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", scratch, e->d_name);
		if (read_total(p.buf, &n) == 0) {
			*ir += n;
			(*nprocs)++;
		}
		unlink(p.buf);
	}
	closedir(d);
	strbuf_release(&p);
	if (!*nprocs)
		return error("cannot count instructions: callgrind wrote no counts");
	return 0;
}
