/*
 * Makes the credential, scheduling and miscellaneous calls renacer decodes:
 * set*uid/gid (to the current ids, so they work as root and not), getres*id,
 * get/setgroups, times, sched_get/setaffinity, scheduler policies and
 * parameters, getpgid/setpgid/getsid, unshare(0), setns, and common prctl
 * options.  Prints nothing, exits 0.
 */
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <unistd.h>

int main(void)
{
	cpu_set_t s;
	struct tms t;
	gid_t g[4];
	uid_t r, e, ss;
	struct sched_param sp = { 0 };
	char name[16];
	uid_t uid = getuid();
	gid_t gid = getgid();

	CPU_ZERO(&s);
	sched_getaffinity(0, sizeof(s), &s);
	sched_setaffinity(0, sizeof(s), &s);
	syscall(SYS_sched_getaffinity, 0, 8, &s);
	syscall(SYS_sched_getaffinity, 0, 3, &s);
	syscall(SYS_sched_getaffinity, 0, 8, 8);
	times(&t);
	syscall(SYS_times, NULL);
	getgroups(0, NULL);
	getgroups(4, g);
	setgroups(0, NULL);
	syscall(SYS_getgroups, 4, 8);
	syscall(SYS_getgroups, -1, g);
	setuid(uid);
	setgid(gid);
	setreuid(-1, uid);
	setregid(gid, -1);
	setresuid(-1, -1, uid);
	setresgid(gid, gid, gid);
	getresuid(&r, &e, &ss);
	getresgid(&r, &e, &ss);
	syscall(SYS_getresuid, 8, 8, 8);
	syscall(SYS_setfsuid, uid);
	syscall(SYS_setfsgid, gid);
	sched_getscheduler(0);
	sched_setscheduler(0, SCHED_OTHER, &sp);
	sched_getparam(0, &sp);
	sched_setparam(0, &sp);
	sched_get_priority_max(SCHED_FIFO);
	sched_get_priority_min(SCHED_RR);
	sched_get_priority_min(77);
	prctl(PR_SET_NAME, "miscops-worker");
	prctl(PR_GET_NAME, name);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	prctl(PR_GET_PDEATHSIG, &r);
	prctl(PR_GET_DUMPABLE);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	prctl(PR_GET_CHILD_SUBREAPER, &r);
	prctl(PR_CAPBSET_READ, 0);
	prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	prctl(0x7777, 1, 2, 3, 4);
	unshare(0);
	setns(-1, 0);
	getpgid(0);
	getsid(0);
	setpgid(0, 0);
	getpgid(-5);
	{
		unsigned cpu, node;

		syscall(SYS_getcpu, &cpu, &node, NULL);
		syscall(SYS_getcpu, &cpu, NULL, NULL);
	}
	/* I/O priorities: classes, unknown which/class, the value returned */
	syscall(SYS_ioprio_get, 1, 0);
	syscall(SYS_ioprio_set, 1, 0, (3 << 13) | 7);   /* IDLE, 7 */
	syscall(SYS_ioprio_get, 1, 0);
	syscall(SYS_ioprio_set, 1, 0, (2 << 13) | 4);   /* BE, 4 */
	syscall(SYS_ioprio_get, 1, 0);
	syscall(SYS_ioprio_set, 7, 0, (5 << 13) | 0x1fff);
	syscall(SYS_ioprio_get, 9, 0);
	syscall(SYS_ioprio_set, 1, 0, 0);
	return 0;
}
