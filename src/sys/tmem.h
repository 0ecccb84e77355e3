/*
 * Reading tracee memory: never trusted, never fatal.  The one way into a
 * tracee's memory for the decoders (sys/) and the engines (core/, bpf/),
 * which sit above it; it knows nothing of either.
 */
#ifndef RENACER_TMEM_H
#define RENACER_TMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * tmem_read() copies up to len bytes from addr in tid's address space.
 * It uses process_vm_readv when the kernel has it (probed once) and falls
 * back to PTRACE_PEEKDATA.  Returns the number of bytes read, which is
 * shorter than len when the range runs into unmapped memory, or -1 when
 * nothing could be read (errno set).  Callers must handle short reads.
 */
ssize_t tmem_read(pid_t tid, uint64_t addr, void *buf, size_t len);

/*
 * tmem_read_str() reads a NUL-terminated string of at most max bytes (not
 * counting the NUL) into buf (which must hold max + 1 bytes).  Sets
 * *terminated when the NUL was found within max.  Returns the string length
 * or -1 when addr is unreadable.  buf is always NUL-terminated on success.
 */
ssize_t tmem_read_str(pid_t tid, uint64_t addr, char *buf, size_t max,
		      bool *terminated);

/*
 * tmem_write() copies len bytes to addr in tid's address space
 * (process_vm_writev, then PTRACE_POKEDATA word by word).  Returns 0, or
 * -1 when not all of them could be written (errno set).  Used only by
 * -e inject=:poke_enter=/poke_exit=.
 */
int tmem_write(pid_t tid, uint64_t addr, const void *buf, size_t len);

/* Forces the PTRACE_PEEKDATA fallback (for tests). */
void tmem_force_peek(bool on);

/*
 * Recorded memory instead of a live process: the eBPF engine
 * (bpf/record.c) records the memory of each call in the kernel and decodes
 * it later, when the task has moved on.  While a view is set, tmem_read()
 * and tmem_read_str() read its regions, whatever the tid, and never the
 * process; bytes no region holds read as unreadable memory does (a short
 * count, or -1 with EFAULT), so a decoder prints the address, never stale
 * bytes.  Regions are searched in order: the first that holds an address
 * serves it.  tmem_write() fails (EPERM).
 */
struct tmem_region {
	uint64_t addr;
	const uint8_t *data;
	uint32_t len;
	bool fault;         /* the recorder could not read there (len 0) */
	bool more;          /* a string cut at len: the memory went on */
};

/* What a descriptor refers to (tmem_fd_link()). */
struct tmem_fdlink {
	const char *target;  /* as readlink(/proc/PID/fd/N) says: "/etc/passwd",
				"pipe:[123]", "socket:[456]" */
	const char *proto;   /* a socket's protocol ("TCP", "UNIX-STREAM"), NULL
				when unknown (then read from the process) */
	bool unix_known;     /* a unix socket's peer and name as recorded: */
	uint32_t unix_peer;  /* ...its peer's inode, 0 none */
	const char *unix_path; /* ...the sun_path it is bound to (unix_plen
				  bytes, abstract names start with a NUL) */
	size_t unix_plen;
	bool inet_known;     /* an inet socket's endpoints as recorded: */
	int inet_family;     /* ...AF_INET or AF_INET6 */
	uint16_t inet_sport, inet_dport;  /* ...ports, host order (sport 0:
					     not bound, inet_diag lists it not) */
	const uint8_t *inet_saddr, *inet_daddr;  /* ...addresses */
	bool nl_known;       /* a netlink socket's protocol and port id (0: not
				bound, /proc's table lists it not) as recorded */
	unsigned nl_proto;
	uint32_t nl_portid;
	bool pidfd_known;    /* a pidfd's process id as recorded (0: none, the
				process had exited) */
	int pidfd_pid;
};

struct tmem_view {
	const struct tmem_region *r;
	size_t n;
	/* Reads the regions could not serve whole, counted to find what the
	 * recorder leaves out: gaps where it read nothing (or less than the
	 * decoder wanted), faults where it tried and the kernel refused. */
	uint64_t gaps, faults;
	uint64_t sp;        /* the stack pointer at the call's entry, 0 unknown */
	int64_t fd;         /* the descriptor whose object is known, or -1 */
	uint64_t fd_ino;    /* ...its inode */
	uint32_t fd_mode;   /* ...and mode */
	int sock_family, sock_proto;  /* ...a socket's family and protocol */
	/* What descriptors referred to at the call (-y, -P), or NULL: fills
	 * *out and returns 1; returns 0 when fd was not open then, -1 when
	 * the view does not know (the live process is asked, if any). */
	int (*fd_link)(void *data, pid_t tid, int64_t fd, struct tmem_fdlink *out);
	/* The command of task tid at the call (-Y), or NULL: sets *comm and
	 * returns 1; 0 when no such task was there, -1 when the view does
	 * not know.  (Both with fd_data.) */
	int (*task_comm)(void *data, pid_t tid, const char **comm);
	void *fd_data;
};

/* Sets the view reads come from until the next call; NULL: the live
 * process again.  The view must stay valid while it is set. */
void tmem_set_view(struct tmem_view *v);

/*
 * With a view set: the family and protocol of the socket descriptor fd
 * referred to during the call, as recorded (the process may be gone, the
 * descriptor closed or reused).  Returns 0, or -1 when the view does not
 * know (no view: the caller looks at the live process).
 */
int tmem_fd_socket(pid_t tid, int64_t fd, int *family, int *proto);

/* The same for a pipe: *ino is its inode, 0 when fd is no pipe. */
int tmem_fd_pipe(pid_t tid, int64_t fd, uint64_t *ino);

/*
 * What descriptor fd of tid (AT_FDCWD: its working directory) refers to,
 * as readlink(/proc/TID/fd/FD) says, into buf (size bytes, NUL
 * terminated); *info (may be NULL) gets what the view knows beyond it (a
 * socket's protocol and unix details; all NULL/false from a live
 * process), its target pointing to buf.  With a view set, what the view
 * recorded, else (or when the view does not know) the live process's.
 * Returns the length, or -1 when fd is not open or cannot be read.
 */
ssize_t tmem_fd_link(pid_t tid, int64_t fd, char *buf, size_t size, struct tmem_fdlink *info);

/* Whether a view is set (ids are then a recording's: the process may be
 * gone). */
bool tmem_viewing(void);

/*
 * The command of task tid (/proc/TID/comm without its newline) into buf
 * (size bytes): the view's answer when a view is set and knows, else the
 * live task's.  Returns its length, or -1 when unknown.
 */
ssize_t tmem_task_comm(pid_t tid, char *buf, size_t size);

/*
 * The stack pointer of tid, stopped at a syscall (PTRACE_PEEKUSER), or
 * the view's.  Returns 0, or -1 when unknown (errno set).
 */
int tmem_stack_pointer(pid_t tid, uint64_t *sp);

#endif
