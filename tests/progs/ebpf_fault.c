/*
 * Calls whose strings lie on pages the program never touched, for
 * tests/t/ebpf_record.sh: the kernel faults such a page in only inside the
 * call, so a recorder that reads at the call's entry finds nothing there.
 * Each string is in a file mapped just before the call (a fresh mapping,
 * not read by the program).
 *
 *   ebpf_fault paths   openat, newfstatat, access and readlink of a path
 *                      in a fresh mapping of a file FILE written first
 *   ebpf_fault exec    execve of /bin/true with an argument in a fresh
 *                      mapping
 *   ebpf_fault null    writes a string of a fresh mapping to standard
 *                      output (/dev/null: the kernel never reads it), then
 *                      exits at once
 *   ebpf_fault thread N
 *                      N getppid calls, then a second thread opens a FIFO
 *                      whose name is in a fresh mapping of a file removed
 *                      at once, and waits there until the first thread,
 *                      20 ms later, opens it too (the entry record, sent
 *                      while another thread lives, cannot hold the name;
 *                      once the process is gone there is nothing to read
 *                      it from late; calls of the first thread come
 *                      between the entry and the exit)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

/* A fresh read-only mapping of a file holding s (and its NUL), untouched. */
static const char *fresh(const char *file, const char *s)
{
	char page[4096];
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	void *p;

	memset(page, 0, sizeof(page));
	memcpy(page, s, strlen(s) + 1);
	if (fd < 0 || write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
		return NULL;
	/* out of the page cache's way: the mapping's pages are not present */
	fsync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	p = mmap(NULL, sizeof(page), PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static void *open_fresh(void *path)
{
	long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);

	if (fd >= 0)
		close((int)fd);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct stat st;
	char buf[64];

	if (!strcmp(mode, "paths")) {
		const char *p = fresh("fault-path", "/etc/passwd");
		const char *q = fresh("fault-link", "/proc/self/exe");
		int fd;

		if (!p || !q)
			return 1;
		fd = (int)syscall(SYS_openat, AT_FDCWD, p, O_RDONLY);
		syscall(SYS_newfstatat, AT_FDCWD, fresh("fault-stat", "/etc/hostname"), &st, 0);
		syscall(SYS_access, fresh("fault-access", "/nonexistent/ebpf-fault"), R_OK);
		syscall(SYS_readlink, q, buf, sizeof(buf));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (!strcmp(mode, "exec")) {
		char *av[] = { "/bin/true", NULL, NULL };

		av[1] = (char *)fresh("fault-arg", "an-argument-on-an-untouched-page");
		if (!av[1])
			return 1;
		execve("/bin/true", av, environ);
		return 127;
	}
	if (!strcmp(mode, "null")) {
		const char *p = fresh("fault-null", "written to /dev/null\n");

		if (!p)
			return 1;
		return write(1, p, 21) == 21 ? 0 : 1;
	}
	if (!strcmp(mode, "thread") && argc > 2) {
		const char *p;
		long n = atol(argv[2]);
		pthread_t th;
		int fd;

		unlink("fault-fifo");
		if (mkfifo("fault-fifo", 0600))
			return 1;
		p = fresh("fault-thread", "fault-fifo");
		if (!p || unlink("fault-thread"))
			return 1;
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		if (pthread_create(&th, NULL, open_fresh, (void *)p))
			return 1;
		usleep(20000);
		fd = open("fault-fifo", O_WRONLY);
		if (fd >= 0)
			close(fd);
		unlink("fault-fifo");
		return pthread_join(th, NULL) || fd < 0 ? 1 : 0;
	}
	fprintf(stderr, "usage: ebpf_fault paths|exec|null|thread N\n");
	return 2;
}
