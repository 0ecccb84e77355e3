/*
 * Makes the IPC syscalls renacer decodes, through syscall(2) so the
 * arguments are exactly these: SysV shared memory, semaphores and message
 * queues, and POSIX message queues, with successes and failures (bad ids,
 * NULL and unreadable pointers, unknown commands and flags).  Removes every
 * object it creates, even when a call fails.  Prints nothing, exits 0.
 */
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef IPC_64
#define IPC_64 0x100
#endif
#ifndef SHM_STAT_ANY
#define SHM_STAT_ANY 15
#endif

/* A key nobody creates: lookups with it fail with ENOENT. */
#define NOKEY 0x7e57c0de
/* An address that is never mapped. */
#define BADPTR ((void *)8)

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
	struct seminfo *__buf;
};

struct msg {
	long mtype;
	char mtext[64];
};

static void shm_calls(void)
{
	struct shmid_ds ds;
	struct shminfo info;
	struct shm_info sinfo;
	long id, id2;
	long addr;

	id = syscall(SYS_shmget, IPC_PRIVATE, 4096, IPC_CREAT | IPC_EXCL | 0600);
	syscall(SYS_shmget, NOKEY, 4096, 0);
	syscall(SYS_shmget, NOKEY, 0, 0444);
	syscall(SYS_shmget, NOKEY, 4096, IPC_EXCL | SHM_NORESERVE | 0x40000000);
	/* a huge page size field (2 MiB: 21 << SHM_HUGE_SHIFT) */
	id2 = syscall(SYS_shmget, IPC_PRIVATE, 1, SHM_HUGETLB | (21U << 26) | IPC_CREAT | 0600);
	if (id2 >= 0)
		syscall(SYS_shmctl, id2, IPC_RMID, NULL);
	syscall(SYS_shmget, NOKEY, 1, 21U << 26);
	if (id < 0)
		return;

	addr = syscall(SYS_shmat, id, NULL, 0);
	if (addr != -1)
		syscall(SYS_shmdt, addr);
	addr = syscall(SYS_shmat, id, NULL, SHM_RDONLY | SHM_RND);
	if (addr != -1)
		syscall(SYS_shmdt, addr);
	syscall(SYS_shmat, -1, NULL, 0);
	syscall(SYS_shmat, id, BADPTR, SHM_REMAP | 0x1);
	syscall(SYS_shmdt, NULL);
	syscall(SYS_shmdt, BADPTR);

	syscall(SYS_shmctl, id, IPC_STAT, &ds);
	syscall(SYS_shmctl, id, IPC_SET, &ds);
	syscall(SYS_shmctl, id, IPC_64 | IPC_STAT, &ds);
	syscall(SYS_shmctl, id, IPC_STAT, BADPTR);
	syscall(SYS_shmctl, id, IPC_SET, NULL);
	syscall(SYS_shmctl, id, IPC_INFO, &info);
	syscall(SYS_shmctl, id, SHM_INFO, &sinfo);
	syscall(SYS_shmctl, 0x7fffffff, SHM_STAT, &ds);
	syscall(SYS_shmctl, 0x7fffffff, SHM_STAT_ANY, &ds);
	syscall(SYS_shmctl, id, SHM_LOCK, NULL);
	syscall(SYS_shmctl, id, SHM_UNLOCK, NULL);
	syscall(SYS_shmctl, id, 99, BADPTR);
	syscall(SYS_shmctl, -1, IPC_STAT, &ds);
	syscall(SYS_shmctl, id, IPC_RMID, NULL);
}

static void sem_calls(void)
{
	struct sembuf sb[3];
	struct semid_ds ds;
	struct seminfo info;
	struct timespec ts;
	unsigned short vals[2];
	long id;

	id = syscall(SYS_semget, IPC_PRIVATE, 2, IPC_CREAT | 0600);
	syscall(SYS_semget, NOKEY, 1, 0);
	syscall(SYS_semget, NOKEY, -1, IPC_CREAT | IPC_EXCL | IPC_NOWAIT | 0777);
	if (id < 0)
		return;

	sb[0] = (struct sembuf){ 0, 2, SEM_UNDO };
	syscall(SYS_semop, id, sb, 1);
	sb[0] = (struct sembuf){ 0, -1, IPC_NOWAIT };
	sb[1] = (struct sembuf){ 1, 0, IPC_NOWAIT | SEM_UNDO };
	sb[2] = (struct sembuf){ 1, 0, 0 };
	syscall(SYS_semop, id, sb, 3);
	sb[0] = (struct sembuf){ 1, -1, IPC_NOWAIT };
	syscall(SYS_semop, id, sb, 1);
	syscall(SYS_semop, id, NULL, 1);
	syscall(SYS_semop, id, BADPTR, 2);
	sb[0] = (struct sembuf){ 0, 1, 0x10 };
	syscall(SYS_semop, id, sb, 1);
	syscall(SYS_semop, -1, sb, 0);

	sb[0] = (struct sembuf){ 1, -1, 0 };
	ts.tv_sec = 0;
	ts.tv_nsec = 1000000;
	syscall(SYS_semtimedop, id, sb, 1, &ts);
	sb[0] = (struct sembuf){ 0, -1, SEM_UNDO };
	syscall(SYS_semtimedop, id, sb, 1, NULL);
	syscall(SYS_semtimedop, id, sb, 1, BADPTR);

	syscall(SYS_semctl, id, 0, GETVAL, NULL);
	syscall(SYS_semctl, id, 1, SETVAL, (union semun){ .val = 5 });
	syscall(SYS_semctl, id, 0, GETALL, vals);
	syscall(SYS_semctl, id, 0, SETALL, vals);
	syscall(SYS_semctl, id, 0, GETPID, NULL);
	syscall(SYS_semctl, id, 0, GETNCNT, NULL);
	syscall(SYS_semctl, id, 0, GETZCNT, NULL);
	syscall(SYS_semctl, id, 0, IPC_STAT, &ds);
	syscall(SYS_semctl, id, 0, IPC_SET, &ds);
	syscall(SYS_semctl, id, 0, IPC_64 | IPC_STAT, &ds);
	syscall(SYS_semctl, id, 0, IPC_STAT, BADPTR);
	syscall(SYS_semctl, id, 0, IPC_SET, BADPTR);
	syscall(SYS_semctl, id, 0, IPC_INFO, &info);
	syscall(SYS_semctl, id, 0, SEM_INFO, &info);
	syscall(SYS_semctl, 0x7fffffff, 0, SEM_STAT, &ds);
	syscall(SYS_semctl, id, 0, 77, BADPTR);
	syscall(SYS_semctl, id, 0, IPC_RMID, NULL);
	syscall(SYS_semctl, id, 0, GETVAL, NULL);
}

static void msg_calls(void)
{
	static const char text[] = "hello, message queue\n\001";
	struct msqid_ds ds;
	struct msginfo info;
	struct msg m;
	long id;

	id = syscall(SYS_msgget, IPC_PRIVATE, IPC_CREAT | 0600);
	syscall(SYS_msgget, NOKEY, 0);
	syscall(SYS_msgget, NOKEY, IPC_EXCL | 0x80000 | 0640);
	if (id < 0)
		return;

	memset(&m, 0, sizeof(m));
	m.mtype = 1;
	memcpy(m.mtext, text, sizeof(text));
	syscall(SYS_msgsnd, id, &m, sizeof(text), 0);
	m.mtype = 2;
	syscall(SYS_msgsnd, id, &m, 3, IPC_NOWAIT);
	m.mtype = 0;
	syscall(SYS_msgsnd, id, &m, 3, IPC_NOWAIT);
	syscall(SYS_msgsnd, id, NULL, 3, 0);
	syscall(SYS_msgsnd, id, BADPTR, 3, 0);
	m.mtype = 3;
	syscall(SYS_msgsnd, id, &m, 0, 0x1 | IPC_NOWAIT);

	memset(&m, 0, sizeof(m));
	syscall(SYS_msgrcv, id, &m, sizeof(m.mtext), 0, 0);
	memset(&m, 0, sizeof(m));
	syscall(SYS_msgrcv, id, &m, 2, -5L, MSG_NOERROR | IPC_NOWAIT);
	syscall(SYS_msgrcv, id, &m, sizeof(m.mtext), 0, IPC_NOWAIT);
	syscall(SYS_msgrcv, id, &m, sizeof(m.mtext), 7, MSG_EXCEPT | IPC_NOWAIT);
	syscall(SYS_msgrcv, id, NULL, 8, 0, IPC_NOWAIT);
	syscall(SYS_msgrcv, -1, &m, 8, 0, 0);

	syscall(SYS_msgctl, id, IPC_STAT, &ds);
	syscall(SYS_msgctl, id, IPC_SET, &ds);
	syscall(SYS_msgctl, id, IPC_64 | IPC_STAT, &ds);
	syscall(SYS_msgctl, id, IPC_STAT, NULL);
	syscall(SYS_msgctl, id, IPC_SET, BADPTR);
	syscall(SYS_msgctl, id, IPC_INFO, &info);
	syscall(SYS_msgctl, id, MSG_INFO, &info);
	syscall(SYS_msgctl, 0x7fffffff, MSG_STAT, &ds);
	syscall(SYS_msgctl, id, 42, BADPTR);
	syscall(SYS_msgctl, id, IPC_RMID, NULL);
	syscall(SYS_msgctl, id, IPC_RMID, NULL);
}

static void mq_calls(void)
{
	struct mq_attr attr, old;
	struct sigevent sev;
	struct timespec past = { 1, 0 };
	char name[64], buf[128];
	unsigned int prio;
	long fd, fd2;

	/* the pid keeps concurrent runs apart; the test masks it */
	snprintf(name, sizeof(name), "renacer_ipcops_%d", (int)getpid());
	memset(&attr, 0, sizeof(attr));
	attr.mq_maxmsg = 2;
	attr.mq_msgsize = 64;
	fd = syscall(SYS_mq_open, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &attr);
	syscall(SYS_mq_open, name, O_RDWR | O_CREAT | O_EXCL, 0600, NULL);
	syscall(SYS_mq_open, "renacer_ipcops_none", O_RDONLY, 0600, NULL);
	attr.mq_maxmsg = 0;
	syscall(SYS_mq_open, "renacer_ipcops_none", O_WRONLY | O_CREAT, 0, &attr);
	syscall(SYS_mq_open, "renacer_ipcops_none", O_WRONLY | O_CREAT | O_NONBLOCK, 0644, BADPTR);
	syscall(SYS_mq_open, NULL, O_RDONLY, 0, NULL);
	if (fd < 0) {
		syscall(SYS_mq_unlink, name);
		return;
	}
	fd2 = syscall(SYS_mq_open, name, O_RDONLY | O_NONBLOCK, 0, NULL);

	syscall(SYS_mq_timedsend, fd, "first message", 13, 3, NULL);
	syscall(SYS_mq_timedsend, fd, "second, a longer message\n", 25, 0, &past);
	syscall(SYS_mq_timedsend, fd, "third", 5, 1, &past);
	syscall(SYS_mq_timedsend, fd, BADPTR, 5, 1, NULL);
	syscall(SYS_mq_timedsend, -1, "x", 1, 1, NULL);

	memset(&old, 0, sizeof(old));
	syscall(SYS_mq_getsetattr, fd, NULL, &old);
	attr.mq_flags = O_NONBLOCK;
	syscall(SYS_mq_getsetattr, fd, &attr, &old);
	attr.mq_flags = 0;
	syscall(SYS_mq_getsetattr, fd, &attr, NULL);
	syscall(SYS_mq_getsetattr, fd, BADPTR, NULL);
	syscall(SYS_mq_getsetattr, -1, NULL, &old);

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	syscall(SYS_mq_notify, fd, &sev);
	syscall(SYS_mq_notify, fd, NULL);
	sev.sigev_notify = SIGEV_NONE;
	sev.sigev_value.sival_int = 42;
	syscall(SYS_mq_notify, fd, &sev);
	syscall(SYS_mq_notify, fd, NULL);
	syscall(SYS_mq_notify, fd, BADPTR);
	syscall(SYS_mq_notify, -1, NULL);

	memset(buf, 0, sizeof(buf));
	syscall(SYS_mq_timedreceive, fd, buf, sizeof(buf), &prio, NULL);
	syscall(SYS_mq_timedreceive, fd, buf, 8, &prio, NULL);
	syscall(SYS_mq_timedreceive, fd, buf, sizeof(buf), NULL, &past);
	syscall(SYS_mq_timedreceive, fd, buf, sizeof(buf), &prio, &past);
	if (fd2 >= 0)
		syscall(SYS_mq_timedreceive, fd2, buf, sizeof(buf), &prio, NULL);
	syscall(SYS_mq_timedreceive, fd, BADPTR, sizeof(buf), BADPTR, &past);

	if (fd2 >= 0)
		close((int)fd2);
	close((int)fd);
	syscall(SYS_mq_unlink, name);
	syscall(SYS_mq_unlink, name);
	syscall(SYS_mq_unlink, BADPTR);
}

/* Arrays and messages that end where readable memory ends: a page followed
 * by an unmapped one. */
static void edge_calls(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct sembuf *sb;
	long semid, msqid;

	if (p == MAP_FAILED)
		return;
	munmap(p + pg, pg);
	memset(p, 0, pg);
	semid = syscall(SYS_semget, IPC_PRIVATE, 1, IPC_CREAT | 0600);
	if (semid >= 0) {
		/* the first element readable, the second not */
		sb = (struct sembuf *)(p + pg) - 1;
		*sb = (struct sembuf){ 0, 1, IPC_NOWAIT };
		syscall(SYS_semop, semid, sb, 2);
		syscall(SYS_semop, semid, sb, 1);
		/* more elements than the string limit of -s 1, the last one
		 * unreadable */
		sb = (struct sembuf *)(p + pg) - 3;
		syscall(SYS_semop, semid, sb, 4);
		syscall(SYS_semctl, semid, 0, IPC_RMID, NULL);
	}
	msqid = syscall(SYS_msgget, IPC_PRIVATE, IPC_CREAT | 0600);
	if (msqid >= 0) {
		/* mtype readable, the struct msgbuf (16 bytes) is not */
		*(long *)(p + pg - 8) = 1;
		syscall(SYS_msgsnd, msqid, p + pg - 8, 4, IPC_NOWAIT);
		/* mtype readable, the text is cut short by the hole */
		*(long *)(p + pg - 16) = 1;
		syscall(SYS_msgsnd, msqid, p + pg - 16, 64, IPC_NOWAIT);
		syscall(SYS_msgctl, msqid, IPC_RMID, NULL);
	}
	munmap(p, pg);
}

int main(void)
{
	edge_calls();
	shm_calls();
	sem_calls();
	msg_calls();
	mq_calls();
	return 0;
}
