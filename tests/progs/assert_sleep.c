/*
 * For critical_path tests: `assert_sleep self MS` sleeps MS milliseconds;
 * `assert_sleep wait MS` forks a child that sleeps MS and waits for it;
 * `assert_sleep detach MS` forks a child that sleeps MS in the background
 * and exits at once without waiting (the tracer still follows the child).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long ms = atol(argv[2]);
	if (!strcmp(argv[1], "self")) {
		sleep_ms(ms);
		return 0;
	}
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		sleep_ms(ms);
		_exit(0);
	}
	if (!strcmp(argv[1], "wait")) {
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			return 1;
	}
	return 0;
}
