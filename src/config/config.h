/*
 * renacer.toml: the project configuration (assertions, golden traces,
 * semantic equivalence, compression, OTLP, CI).  config_load() reads and
 * validates the whole file at once; every key is documented, with its
 * default and its errors, in docs/renacer-toml.md.
 */
#ifndef RENACER_CONFIG_H
#define RENACER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- [[assertion]] ---- */

enum assertion_type {
	ASSERTION_CRITICAL_PATH = 1,
	ASSERTION_SPAN_COUNT,
	ASSERTION_MEMORY_USAGE,
	ASSERTION_ANTI_PATTERN,
};

enum tracking_mode {
	TRACKING_ALLOCATIONS = 0,   /* peak of committed memory (docs/assertions.md) */
	TRACKING_RSS,               /* peak resident set size */
};

enum anti_pattern {
	ANTI_PATTERN_TIGHT_LOOP = 1,
	ANTI_PATTERN_GOD_PROCESS,
	ANTI_PATTERN_PCIE_BOTTLENECK,
	ANTI_PATTERN_UNBUFFERED_IO,
	ANTI_PATTERN_REDUNDANT_FILE_ACCESS,
};

/* One [[assertion]]; only the fields of its type are meaningful. */
struct config_assertion {
	char *name;                    /* unique among the assertions */
	enum assertion_type type;
	bool enabled;                  /* default true; disabled ones are reported as skipped */
	bool fail_on_violation;        /* default true; false: a failure only warns */
	char *description;             /* optional free text, or NULL */
	unsigned line, col;            /* where its [[assertion]] header is */
	char **traces;                 /* the golden traces it budgets (traces = [...],
					  or the [[golden_traces.trace]] it sits in);
					  NULL: every run */
	size_t ntraces;

	/* critical_path */
	double max_duration_ms;        /* required, > 0 */
	char *trace_name_pattern;      /* POSIX ERE over process names, or NULL (all) */

	/* span_count */
	uint64_t max_spans;            /* required, >= 0 */
	char *span_name_pattern;       /* POSIX ERE over syscall names, or NULL (all) */

	/* memory_usage */
	uint64_t max_bytes;            /* required, > 0 */
	enum tracking_mode tracking_mode;  /* default TRACKING_ALLOCATIONS */

	/* anti_pattern */
	enum anti_pattern pattern;     /* required */
	const char *pattern_name;      /* its canonical spelling ("GodProcess"), static */
	double threshold;              /* confidence 0..1 that fails it, default 0.8 */
};

/* ---- [semantic_equivalence] and [lamport_clock] ---- */

struct config_semantic {
	bool enabled;                  /* default true; false: confidence is reported, not enforced */
	double min_confidence;         /* 0..1, default 0.90 */
	bool lamport_clock;            /* [lamport_clock] enabled, default true (always recorded) */
};

/* ---- [golden_traces] ---- */

/* A per-syscall count tolerance ([golden_traces.tolerances]). */
struct config_tolerance {
	char *syscall;
	double pct;                    /* +-percent, >= 0 */
};

/* A normalization rule: every match of pattern in a call is replaced. */
struct config_normalize {
	char *pattern;                 /* POSIX ERE, checked with regcomp */
	char *replace;                 /* "" when absent; \0..\9 insert groups */
	unsigned line, col;
};

/* A declared trace ([[golden_traces.trace]]), captured and validated by name. */
struct config_trace {
	char *name;                    /* unique; a file name part (no '/', not ".") */
	char **argv;                   /* the command, NULL terminated, argc >= 1 */
	size_t argc;
	char **env;                    /* "NAME=VALUE" to add to the environment, NULL terminated */
	size_t nenv;
	char *cwd;                     /* directory to run in, or NULL (current) */
	bool follow;                   /* trace children too, default true */
	unsigned runs;                 /* 0: use golden_traces.runs */
	int callgrind;                 /* count instructions under callgrind:
					  1/0, or -1: golden_traces.callgrind */
	char **inject;                 /* -e inject= values the trace runs with
					  ("openat:error=ENOENT:when=3"), or
					  NULL; checked by the golden workflow */
	size_t ninject;
	unsigned line, col;
};

struct config_golden {
	char *dir;                     /* default "golden_traces" */
	unsigned runs;                 /* runs per capture/validate; 0 (default):
					  1, or more for a multi-threaded command */
	double tolerance_pct;          /* syscall count tolerance, default 5 (+-5%) */
	double bytes_tolerance_pct;    /* I/O volume tolerance, < 0: tolerance_pct */
	double memory_tolerance_pct;   /* peak memory tolerance, < 0: the default */
	struct config_tolerance *tolerances;   /* per-syscall overrides */
	size_t ntolerances;
	bool check_runtime;            /* compare runtime against the golden, default true */
	bool timing_strict;            /* timing = "strict": inconclusive is a regression */
	unsigned timing_runs;          /* untraced runs of a capture, 0: automatic */
	unsigned timing_max_runs;      /* most untraced runs of a validation, default 20 */
	double min_slowdown_pct;       /* smallest slowdown reported, default 25 */
	double min_slowdown_us;        /* and its absolute floor, default 50 */
	int callgrind;                 /* count instructions under callgrind too: 1,
					  0, or -1 (not set): automatic, short programs
					  only, the arbiter of an inconclusive timing */
	double callgrind_tolerance_pct; /* default 1 */
	double runtime_tolerance_pct;  /* relative runtime slack, default 50 */
	double runtime_floor_ms;       /* absolute runtime slack, default 20 */
	double noise_factor;           /* capture-noise spreads allowed, default 3 */
	char **ignore_syscalls;        /* never compared */
	size_t nignore_syscalls;
	char **ignore_paths;           /* fnmatch patterns over (normalized) paths */
	size_t nignore_paths;
	char **volatile_syscalls;      /* added to the built-in volatile set */
	size_t nvolatile_syscalls;
	char **time_limits;            /* syscalls whose own time growth is a regression */
	size_t ntime_limits;
	char **env_vars;               /* variables recorded and reproduced (patterns);
					  NULL: the default list (sink/env.h) */
	size_t nenv_vars;
	struct config_normalize *normalize;
	size_t nnormalize;
	unsigned context_lines;        /* unified diff context, default 3 */
	unsigned max_diff_lines;       /* per process, 0 = no limit, default 200 */
	bool compress;                 /* write NAME.json.zst above compress_above_bytes */
	uint64_t compress_above_bytes; /* golden_traces.compress_above_bytes, else [compression] */
	int compress_level;            /* zstd level ([compression] level, default 3) */
	struct config_trace *traces;
	size_t ntraces;
};

/* ---- [compression] ---- */

struct config_compression {
	bool enabled;                  /* default false */
	const char *algorithm;         /* "zstd" (the only one; "rle" is read as zstd) */
	uint64_t threshold_bytes;      /* compress traces above this, default 102400 */
	int level;                     /* zstd level 1..19, default 3 */
};

/* ---- [otlp] ---- */

enum otlp_protocol {
	OTLP_HTTP_PROTOBUF = 0,
	OTLP_HTTP_JSON,
	OTLP_GRPC,
};

struct config_header {
	char *name;
	char *value;
};

struct config_otlp {
	bool enabled;                  /* default false */
	char *endpoint;                /* default "http://localhost:4318" */
	bool endpoint_given;           /* endpoint was in the file */
	char *service_name;            /* default "renacer" */
	enum otlp_protocol protocol;   /* "http/protobuf" (default), "http/json", "grpc" */
	bool protocol_given;           /* protocol was in the file (else the
					  exporter picks it from the port) */
	struct config_header *headers; /* [otlp.headers] */
	size_t nheaders;
	unsigned timeout_ms;           /* default 10000 */
	unsigned batch_size;           /* most spans a request, 0: default (512) */
	uint64_t min_duration_us;      /* syscall spans only for calls this long */
	bool min_duration_us_given;
};

/* ---- [ci] ---- */

enum ci_format {
	CI_FORMAT_TEXT = 0,
	CI_FORMAT_JSON,
	CI_FORMAT_JUNIT,
	CI_FORMAT_MARKDOWN,
};

struct config_ci {
	bool fail_fast;                /* stop at the first failing trace, default false */
	enum ci_format export_format;  /* report format when none is given, default text */
	char *junit_path;              /* also write a JUnit XML report here, or NULL */
};

/* ---- [limits]: bounds on what input may cost (docs/renacer-toml.md) ---- */

struct config_limits {
	uint64_t regex_cost;           /* re_cost() budget of each regex, default 20,000,000 */
	uint64_t assertions;           /* [[assertion]] entries, default 10,000 */
	uint64_t rules;                /* entries of each golden_traces list or table
					  (normalize, ignore_*, volatile_syscalls,
					  tolerances, trace), default 1,000 */
	uint64_t string_bytes;         /* a string read from a trace is kept up to
					  this many bytes (then cut, with its true
					  length), default 65,536 */
	uint64_t trace_records;        /* records read from one trace, default 50,000,000 */
	uint64_t sequence_calls;       /* calls of one trace a golden model keeps one
					  by one (in order); later ones are counted
					  per key, default 500,000 */
};

/* The defaults of struct config_limits (also without a renacer.toml). */
#define LIMIT_REGEX_COST 20000000ULL
#define LIMIT_ASSERTIONS 10000ULL
#define LIMIT_RULES 1000ULL
#define LIMIT_STRING_BYTES 65536ULL
#define LIMIT_TRACE_RECORDS 50000000ULL
#define LIMIT_SEQUENCE_CALLS 500000ULL

/*
 * What parsing a renacer.toml may cost, from the limits renacer has before
 * it reads the file (a file can only lower them): values of the TOML tree,
 * CONFIG_VALUES_PER_ASSERTION per allowed assertion and
 * CONFIG_VALUES_PER_RULE per allowed rule; items of one array, the larger
 * of the two; bytes of the file, CONFIG_BYTES_PER_VALUE per value.  With
 * the defaults: 224,000 values, 10,000 items, 14,336,000 bytes.
 */
#define CONFIG_VALUES_PER_ASSERTION 16
#define CONFIG_VALUES_PER_RULE 64
#define CONFIG_BYTES_PER_VALUE 64
void config_parse_budget(const struct config_limits *l, uint64_t *values, uint64_t *items,
			 uint64_t *bytes);

/* ---- [source] ---- */

/* Which stack frames are not the program's own (-s, -k; docs/source.md). */
struct config_source {
	char **skip;                   /* POSIX EREs, each checked with regcomp */
	size_t nskip;
	bool default_skip;             /* keep the built-in patterns, default true */
};

/* ---- the whole file ---- */

struct renacer_config {
	char *path;                    /* file it was read from, or NULL (defaults) */
	struct config_assertion *assertions;   /* in file order */
	size_t nassertions;
	struct config_semantic semantic;
	struct config_golden golden;
	struct config_compression compression;
	struct config_otlp otlp;
	struct config_ci ci;
	struct config_limits limits;
	struct config_source source;
	unsigned nwarnings;            /* warnings found while loading (the first
					  CONFIG_MAX_WARNINGS are printed) */
};

/* Warnings printed by one load; the rest are counted in one last line. */
#define CONFIG_MAX_WARNINGS 50

/*
 * Fills cfg with the defaults (no assertions, no traces; the limits
 * built in, or as the RENACER_LIMITS environment variable sets them:
 * "KEY=N[,KEY=N...]" with the keys of [limits]; config_load() reports a
 * bad one, config_init() skips it).  It allocates nothing: a
 * config_init()ed config need not be released.  The strings of a config
 * belong to it; callers must not change or free them.
 */
void config_init(struct renacer_config *cfg);

/* Frees what cfg holds and leaves it as config_init() does. */
void config_release(struct renacer_config *cfg);

/*
 * Reads and validates the file at path into cfg (which config_load
 * initializes first).  Returns 0, or -1 after one error() of the form
 * "PATH:LINE:COL: message" (or "cannot read 'PATH': ...").  Unknown tables
 * and keys outside [[assertion]] and [[golden_traces.trace]] are warnings
 * ("PATH:LINE:COL: unknown table 'foo'"), counted in cfg->nwarnings.  On
 * failure cfg holds the defaults.  The file's [limits] can only lower the
 * limits (a higher value is a warning and ignored), and the file is
 * refused while it is read or parsed as soon as it is bigger than those
 * limits allow (config_parse_budget): its memory is bounded by them.
 */
int config_load(const char *path, struct renacer_config *cfg);

/* Like config_load(), but returns 1 with the defaults when path does not exist. */
int config_load_if_exists(const char *path, struct renacer_config *cfg);

/* Like config_load() on len bytes of text; path only names it in messages. */
int config_parse(const char *path, const char *text, size_t len, struct renacer_config *cfg);

/*
 * The trust boundary of a renacer.toml (docs/ci.md): a path the file at
 * cfg->path names for renacer to write or delete in (key says which, e.g.
 * "golden_traces.dir") must resolve, as renacer will use it (relative to
 * the working directory, symbolic links followed as far as they exist),
 * inside the directory that holds the file.  A checked-out repository
 * cannot make renacer write elsewhere; the command line can (--dir,
 * --junit).  Returns 0 (also when cfg was read from no file, or for a
 * built-in default the file does not set), or -1 after error().
 */
int config_check_path(const struct renacer_config *cfg, const char *key, const char *path);

/* The assertion or declared trace called name, or NULL. */
const struct config_assertion *config_assertion(const struct renacer_config *cfg,
						const char *name);
const struct config_trace *config_trace(const struct renacer_config *cfg, const char *name);

/*
 * Whether assertion a budgets a run of the golden trace trace (NULL: a run
 * that is no known trace): an assertion without traces budgets every run,
 * one with traces only the runs of those traces.
 */
bool config_assertion_applies(const struct config_assertion *a, const char *trace);

/*
 * The declared trace whose command argv is (the same arguments; argv[0]
 * equal as given or as the same file), else NULL: what `renacer --assert
 * renacer.toml -- ./prog` runs, for assertions scoped to traces.
 */
const struct config_trace *config_trace_of_command(const struct renacer_config *cfg,
						   char *const argv[]);

/* Names: "critical_path", "allocations", "GodProcess", "http/json", "junit"... */
const char *config_assertion_type_name(enum assertion_type t);
const char *config_tracking_mode_name(enum tracking_mode m);
const char *config_anti_pattern_name(enum anti_pattern p);
const char *config_ci_format_name(enum ci_format f);

/*
 * The commented starter renacer.toml that `renacer init` writes: the seeds'
 * assertions and the defaults of every table; without budgets, the
 * seeds' budgets for every run (critical path, syscalls, memory) are left
 * out (init writes per-trace budgets measured from goldens instead).  It
 * loads without warnings.  The text is static (NUL-terminated).
 */
const char *config_starter_text(bool budgets);

/*
 * Splits a command line into words as a POSIX shell would, without any
 * expansion: blanks separate words, '...' is literal, "..." keeps \" \\ \$
 * \` escapes, a backslash outside quotes quotes the next character.
 * Returns a NULL terminated array (free each word and the array), with
 * *argc set, or NULL with a message in err for an unterminated quote.
 */
char **config_split_command(const char *s, size_t *argc, char *err, size_t errlen);

#endif
