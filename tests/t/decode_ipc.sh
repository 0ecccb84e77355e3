#!/bin/sh
# IPC decoders against strace: tests/progs/ipcops makes the SysV shared
# memory, semaphore and message queue calls and the POSIX message queue
# calls, with successes and failures (bad ids, NULL and unreadable
# pointers, unknown commands and flags, IPC_64, string-limit cuts of
# message text).  What differs between the two runs is masked: object ids
# (results of shmget/semget/msgget and the first argument of the calls
# that take one) and with them the padding before " = ", the pid in the
# POSIX queue's name, times and pids in
# the *_ds structures, and system-wide counters of IPC_INFO/SHM_INFO/
# SEM_INFO/MSG_INFO (other tests may create objects at the same time).
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog ipcops) || exit 1

MASK_EXTRA='/^(PID )?(shmget|semget|msgget)\(/ s/= [0-9]+$/= ID/
s/^((PID )?(shmat|shmctl|semop|semtimedop|semctl|msgsnd|msgrcv|msgctl)\()[0-9]+/\1ID/
/^(PID )?(shm|sem|msg)[a-z]+\(|renacer_ipcops_/ s/ +(= [^=]*)$/ \1/
s/renacer_ipcops_[0-9]+/renacer_ipcops_PID/g
s/(shm_cpid|shm_lpid|msg_lspid|msg_lrpid)=[0-9]+/\1=PID/g
s/(shm_atime|shm_dtime|shm_ctime|sem_otime|sem_ctime|msg_stime|msg_rtime|msg_ctime)=[0-9]+/\1=T/g
/^(PID )?semctl\(.*GETPID/ s/= [0-9]+$/= PID/
/(IPC_INFO|SHM_INFO|SEM_INFO|MSG_INFO)/ s/= [0-9]+$/= N/
/SHM_INFO/ s/(used_ids|shm_tot|shm_rss|shm_swp|swap_attempts|swap_successes)=[0-9]+/\1=N/g
/SEM_INFO/ s/(semusz|semaem)=[0-9]+/\1=N/g
/MSG_INFO/ s/(msgpool|msgmap|msgtql)=[0-9]+/\1=N/g'
export MASK_EXTRA

calls=shmget,shmat,shmdt,shmctl,semget,semop,semtimedop,semctl
calls=$calls,msgget,msgsnd,msgrcv,msgctl
calls=$calls,mq_open,mq_unlink,mq_timedsend,mq_timedreceive,mq_notify,mq_getsetattr

rc=0
compare_with_strace -- "$prog" || rc=1
# the decoders must have run: a default (hex) decoder would not print these
for want in 'shmget(IPC_PRIVATE, 4096, IPC_CREAT|IPC_EXCL|0600)' \
	'semop(ID, [{sem_num=0, sem_op=2, sem_flg=SEM_UNDO}], 1)' \
	'msgsnd(ID, {mtype=1, mtext="hello, message queue\n\1\0"}, 23, 0)' \
	'mq_getsetattr(3, {mq_flags=O_NONBLOCK, mq_maxmsg=0, mq_msgsize=64, mq_curmsgs=0}, {mq_flags=0'; do
	mask_trace <"$RENACER_OUT" | grep -qF "$want" ||
		{ echo "renacer's trace lacks: $want"; rc=1; }
done
compare_with_strace -y -e trace=$calls -- "$prog" || rc=1
grep -q 'mq_timedsend(3</renacer_ipcops_[0-9]*>, "first message"' "$STRACE_OUT" ||
	{ echo "strace did not show the queue's path with -y"; rc=1; }
compare_with_strace -s 4 -e trace=$calls -- "$prog" || rc=1
grep -qF 'mtext="hell"...}' "$RENACER_OUT" ||
	{ echo "renacer did not cut the message text at -s 4"; rc=1; }
compare_with_strace -s 1 -e trace=%ipc -- "$prog" || rc=1
exit $rc
