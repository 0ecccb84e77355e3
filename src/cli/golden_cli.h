/*
 * Shared plumbing of the golden-trace subcommands (cmd_golden.c,
 * cmd_golden_report.c): options and configuration, golden file names,
 * running a command under trace, writing trace files with timing.
 */
#ifndef RENACER_GOLDEN_CLI_H
#define RENACER_GOLDEN_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "golden/golden.h"
#include "golden/model.h"
#include "sink/sink.h"

struct analysis;

/* Everything a golden subcommand was told, by options and renacer.toml. */
struct gcli {
	const char *cmd;               /* "capture", "validate", ... */
	const char *config_path;       /* --config, or NULL (./renacer.toml if present) */
	struct renacer_config cfg;
	bool have_cfg;                 /* a renacer.toml was read */
	struct golden_opts o;
	const char *dir;               /* golden directory */
	int fmt;                       /* GFMT_* */
	int color;                     /* -1 auto, 0 never, 1 always */
	unsigned runs;                 /* --runs, 0 when not given */
	bool update;                   /* --update or RENACER_UPDATE_GOLDEN=1 */
	bool ci;                       /* the CI environment variable is set */
	bool quiet;
	bool source;                   /* -s: source correlation asked for */
	const char *golden_file;       /* validate --golden FILE */
	const char *new_dir;           /* where .new traces go (default: the golden dir) */
	const char *junit_path;        /* also write JUnit XML here */
	bool compress;
	uint64_t compress_above;
	int compress_level;
	char *tmpdir;                  /* private scratch directory, or NULL */
};

/* Result of one traced run. */
struct grun {
	bool started;                  /* false: the command could not be run */
	struct trace_end end;
	double wall_us;
	double cpu_us;                 /* user + system time of the traced processes */
	uint64_t ncalls;
	struct gmodel *m;              /* live model (timing per syscall), finalized */
};

/*
 * Parses renacer.toml (g->config_path or ./renacer.toml) into g and fills
 * g->o and the other settings from it.  Returns 0, or -1 after error().
 */
int gcli_load_config(struct gcli *g);
void gcli_release(struct gcli *g);

/* True when the CI environment variable is set (and not "0"/"false"). */
bool gcli_in_ci(void);

/* A private scratch directory (made once, removed by gcli_release). */
const char *gcli_tmpdir(struct gcli *g);

/*
 * The golden file of name in dir: "DIR/NAME.json" or, when only that
 * exists, "DIR/NAME.json.zst".  Returns a malloc'ed path; *exists tells
 * whether it is there.
 */
char *golden_path(const char *dir, const char *name, bool *exists);

/*
 * Runs argv under trace (following children as ct says, in ct's cwd with
 * ct's env; ct may be NULL) with stdin from /dev/null and the command's
 * output saved to outfile, writing the JSON trace to json_path (NULL: no
 * JSON) and feeding an (may be NULL).  Returns 0 when the command ran
 * (whatever its exit status), -1 after error() when it could not be run.
 */
int gcli_run(struct gcli *g, char *const argv[], const struct config_trace *ct,
	     const char *json_path, const char *outfile, struct analysis *an,
	     const char *summary_path, struct grun *rr);
void grun_release(struct grun *rr);

/*
 * Writes trace file dst from the JSON document src with a "timing" object
 * added (atomically; zstd-compressed when zst).  Returns 0 or -1 after error().
 */
int gcli_write_trace(const char *src, const char *dst, const struct gtiming *t, bool zst,
		     int level);

/* Whether a trace of len bytes is stored compressed. */
bool gcli_want_zst(const struct gcli *g, uint64_t len);

/* Prints the last lines of a command's saved output on stderr. */
void gcli_show_output(const char *outfile, unsigned lines);

/* Removes path if it exists; 0, or -1 after error(). */
int gcli_unlink(const char *path);


#endif
