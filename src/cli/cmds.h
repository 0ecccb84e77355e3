/*
 * Subcommands.  Each takes the arguments after its name (argv[0] is the
 * subcommand name) and returns the process exit status.  Only src/cli/
 * prints errors for the user and decides exit statuses.
 */
#ifndef RENACER_CMDS_H
#define RENACER_CMDS_H

int cmd_trace(int argc, char **argv);     /* renacer [OPTIONS] -- CMD (trace_cmd.c) */
int cmd_capture(int argc, char **argv);   /* golden: capture */
int cmd_compare(int argc, char **argv);   /* golden: compare */
int cmd_validate(int argc, char **argv);  /* golden: validate */
int cmd_accept(int argc, char **argv);    /* golden: accept */
int cmd_report(int argc, char **argv);    /* golden: report */
int cmd_assert(int argc, char **argv);    /* assertions on a saved trace */
int cmd_analyze(int argc, char **argv);   /* anti-patterns on a saved trace */
int cmd_init(int argc, char **argv);
int cmd_flamediff(int argc, char **argv); /* flamegraph-diff (cmd_flamediff.c) */
int cmd_export(int argc, char **argv);    /* send a saved trace over OTLP (cmd_export.c) */      /* write a starter renacer.toml */

/*
 * Exit status of every command when an output could not be written (a
 * trace file, a golden, a report, standard output or error): given after
 * the rest of the work is done, whatever status the work would have had.
 */
#define EXIT_WRITE_FAILED 7      /* (6: the trace command's unavailable back end) */

/*
 * Notes that an output failed (the caller has printed why); the process
 * then ends with EXIT_WRITE_FAILED.  cli_outputs_failed() flushes standard
 * output and tells whether any output failed (a failed standard output is
 * reported here, once).  main() checks it when the command ends, also when
 * it calls exit().
 */
void cli_write_failed(void);
int cli_outputs_failed(void);
/* Standard output failed with errno err (0: unknown): says so once, notes it. */
void cli_stdout_failed(int err);

/* Prints "renacer: <msg>" and exits with status. */
void die_status(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

#endif
