/*
 * A stand-in, in C, for `cargo bench [NAME]` of the seeds' profiling
 * commands (tests/t/golden_seeds.sh installs it as bin/cargo): like cargo,
 * it starts the benchmark binary as a child process
 * (./target/release/examples/performance_demo here), waits for it and
 * prints a result line of its own.  So a profile of `cargo bench` holds
 * the benchmark's calls only when children are followed (-f).
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *bench[] = { "./target/release/examples/performance_demo", "--bench", NULL };
	int status;
	pid_t pid;

	if (argc < 2 || strcmp(argv[1], "bench")) {
		fprintf(stderr, "usage: cargo bench [NAME]\n");
		return 1;
	}
	printf("     Running benches/%s.rs (%s)\n", argc > 2 ? argv[2] : "vector_ops", bench[0]);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(bench[0], bench);
		perror(bench[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		perror("cargo");
		return 101;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "error: bench failed\n");
		return 101;
	}
	printf("test result: ok. 0 passed; 0 failed; 0 ignored; 1 measured\n");
	return 0;
}
