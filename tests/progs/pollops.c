/*
 * Makes the polling syscalls renacer decodes: poll, ppoll, select, pselect6,
 * epoll_create1, epoll_ctl, epoll_wait and epoll_pwait, on a pipe that is
 * readable and one that is not (zero timeouts: nothing blocks).  Prints
 * nothing and exits 0.
 */
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	int p[2], q[2], ep;
	struct pollfd pfd[3];
	struct epoll_event ev, evs[4];
	struct timespec ts = { 0, 0 };
	struct timeval tv = { 0, 0 };
	sigset_t set;
	fd_set rfds, wfds;

	if (pipe(p) || pipe(q))
		return 1;
	write(p[1], "x", 1);

	pfd[0].fd = p[0];
	pfd[0].events = POLLIN;
	pfd[1].fd = q[0];
	pfd[1].events = POLLIN | POLLPRI;
	pfd[2].fd = p[1];
	pfd[2].events = POLLOUT;
	poll(pfd, 3, 0);
	poll(pfd + 1, 1, 0);
	poll(NULL, 0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	ppoll(pfd, 2, &ts, &set);
	ppoll(pfd + 1, 1, &ts, NULL);

	FD_ZERO(&rfds);
	FD_ZERO(&wfds);
	FD_SET(p[0], &rfds);
	FD_SET(q[0], &rfds);
	FD_SET(p[1], &wfds);
	select(p[1] + q[1] + 1, &rfds, &wfds, NULL, &tv);
	FD_ZERO(&rfds);
	FD_SET(q[0], &rfds);
	tv.tv_sec = 0;
	tv.tv_usec = 0;
	select(q[0] + 1, &rfds, NULL, NULL, &tv);
	FD_ZERO(&rfds);
	FD_SET(p[0], &rfds);
	tv.tv_sec = 0;
	tv.tv_usec = 0;
	syscall(SYS_select, p[0] + 1, &rfds, NULL, NULL, &tv);
	syscall(SYS_select, 0, NULL, NULL, NULL, &tv);
	FD_ZERO(&rfds);
	FD_SET(p[0], &rfds);
	pselect(p[0] + 1, &rfds, NULL, NULL, &ts, &set);
	pselect(p[0] + 1, &rfds, NULL, NULL, &ts, NULL);

	ep = epoll_create1(EPOLL_CLOEXEC);
	syscall(SYS_epoll_create, 8);
	ev.events = EPOLLIN;
	ev.data.u64 = 0x1122334455667788ULL;
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
	ev.events = EPOLLIN | EPOLLET;
	ev.data.fd = q[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, q[0], &ev);
	ev.events = EPOLLOUT;
	epoll_ctl(ep, EPOLL_CTL_MOD, q[0], &ev);
	epoll_ctl(ep, EPOLL_CTL_DEL, q[0], NULL);
	epoll_ctl(ep, EPOLL_CTL_DEL, 99, NULL);
	/* a DEL with an event pointer (Python's selectors pass one): strace
	 * shows the address, the event is not read */
	epoll_ctl(ep, EPOLL_CTL_ADD, q[0], &ev);
	epoll_ctl(ep, EPOLL_CTL_DEL, q[0], &ev);
	epoll_wait(ep, evs, 4, 0);
	epoll_pwait(ep, evs, 4, 0, &set);
	epoll_pwait(ep, evs, 4, 0, NULL);
	read(p[0], evs, 1);
	epoll_wait(ep, evs, 4, 0);
	return 0;
}
