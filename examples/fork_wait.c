/* Example: a process tree — forks two children that write, waits for both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int i, status, failed = 0;

	for (i = 0; i < 2; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			char msg[64];
			int len = snprintf(msg, sizeof(msg), "child %d working\n", i);
			if (write(STDOUT_FILENO, msg, (size_t)len) != len)
				_exit(1);
			_exit(0);
		}
		/* wait for each child before the next: a stable order */
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	}
	printf("parent done\n");
	return failed;
}
