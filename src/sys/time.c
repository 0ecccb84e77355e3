/*
 * Time decoders: clock_gettime/getres/settime, nanosleep, clock_nanosleep,
 * gettimeofday, time, setitimer/getitimer, alarm, timerfd_*, timer_*,
 * adjtimex/clock_adjtime; and
 * decode_timespec (shared, see decode.h).
 */
#include "sys/decode.h"

#include <signal.h>
#include <time.h>
#include <sys/time.h>
#include <sys/timex.h>

#include "sys/decode_extra.h"
#include "xlat/adjtimex_modes.h"
#include "xlat/adjtimex_state.h"
#include "xlat/adjtimex_status.h"
#include "xlat/clock_flags.h"
#include "xlat/clocknames.h"
#include "xlat/itimer_which.h"
#include "xlat/sigev_value.h"
#include "xlat/timerfdflags.h"
#include "util/banned.h"

/* strace's is_erestart: the call was interrupted and will be restarted. */
static bool is_erestart(const struct event *ev)
{
	return ev->err == 512 || ev->err == 513 || ev->err == 514 || ev->err == 516;
}

void decode_timespec(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct timespec ts;
	struct val *it;

	if (!tread(c, addr, &ts, sizeof(ts))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, 2);
	val_set_int(&it[0], "tv_sec", ts.tv_sec);
	val_set_uint(&it[1], "tv_nsec", (uint64_t)ts.tv_nsec);
	val_set_struct(v, name, it, 2, false);
}

/* Slot i as a timespec read now (entry) or at exit (output). */
static void arg_timespec(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	decode_timespec(c, v, v->name, ev->karg[i]);
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
}

/* An output timespec: its address when the call failed (strace's
 * umove_or_printaddr at exit). */
static void arg_timespec_out(struct dctx *c, struct event *ev, unsigned i)
{
	if (ev->err)
		arg_ptr(c, ev, i);
	else
		arg_timespec(c, ev, i);
}

static void arg_clockid(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	val_set_enum(v, v->name, (uint32_t)ev->karg[i], clocknames);
}

/* clock_gettime(clockid, {tv_sec=.., tv_nsec=..}): the time at exit. */
SYS_FUNC(clock_gettime)
{
	if (!exiting) {
		arg_clockid(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_timespec_out(ctx, ev, 1);
	return RVAL_DONE;
}

SYS_FUNC(clock_getres)
{
	return SYS_FUNC_NAME(clock_gettime)(ctx, ev, exiting);
}

SYS_FUNC(clock_settime)
{
	arg_clockid(ctx, ev, 0);
	arg_timespec(ctx, ev, 1);
	return RVAL_DONE;
}

/* nanosleep(req, rem): rem is shown only when the sleep was interrupted. */
SYS_FUNC(nanosleep)
{
	if (!exiting) {
		arg_timespec(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	if (is_erestart(ev))
		arg_timespec(ctx, ev, 1);
	else
		arg_ptr(ctx, ev, 1);
	restart_note(ctx, ev);
	return RVAL_DONE;
}

SYS_FUNC(clock_nanosleep)
{
	if (!exiting) {
		arg_clockid(ctx, ev, 0);
		arg_flags(ctx, ev, 1, clock_flags, NULL);
		arg_timespec(ctx, ev, 2);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	if (!(ev->karg[1] & TIMER_ABSTIME) && is_erestart(ev))
		arg_timespec(ctx, ev, 3);
	else
		arg_ptr(ctx, ev, 3);
	restart_note(ctx, ev);
	return RVAL_DONE;
}

static void decode_timezone(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct timezone tz;
	struct val *it;

	if (!tread(c, addr, &tz, sizeof(tz))) {
		val_set_ptr(v, name, addr);
		return;
	}
	it = val_new_array(c, 2);
	val_set_int(&it[0], "tz_minuteswest", tz.tz_minuteswest);
	val_set_int(&it[1], "tz_dsttime", tz.tz_dsttime);
	val_set_struct(v, name, it, 2, false);
}

SYS_FUNC(gettimeofday)
{
	struct val *v;

	if (!exiting) {
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	if (ev->err) {
		arg_ptr(ctx, ev, 0);
		arg_ptr(ctx, ev, 1);
		return RVAL_DONE;
	}
	v = arg_slot(ctx, ev, 0);
	decode_timeval(ctx, v, v->name, ev->karg[0]);
	v->flags |= VF_EXIT;
	v = arg_slot(ctx, ev, 1);
	decode_timezone(ctx, v, v->name, ev->karg[1]);
	v->flags |= VF_EXIT;
	return RVAL_DONE;
}

SYS_FUNC(settimeofday)
{
	struct val *v = arg_slot(ctx, ev, 0);

	decode_timeval(ctx, v, v->name, ev->karg[0]);
	v = arg_slot(ctx, ev, 1);
	decode_timezone(ctx, v, v->name, ev->karg[1]);
	return RVAL_DONE;
}

/* time(tloc): [N / * date * /] = N (date). */
SYS_FUNC(time)
{
	struct val *v, x, boxed;
	int64_t t;
	const char *date;

	if (!exiting) {
		arg_count(ev, 1);
		return RVAL_EXIT;
	}
	v = arg_slot(ctx, ev, 0);
	v->flags |= VF_EXIT;
	if (!ev->err && ev->karg[0] && tread(ctx, ev->karg[0], &t, sizeof(t))) {
		val_set_int(&x, NULL, t);
		val_set_commented(ctx, &boxed, NULL, &x, time_text(ctx, t, 0));
		val_set_boxed(ctx, v, v->name, &boxed);
		v->flags |= VF_EXIT;
	} else {
		val_set_ptr(v, v->name, ev->karg[0]);
		v->flags |= VF_EXIT;
	}
	if (!ev->err && (date = time_text(ctx, ev->retval, 0))) {
		struct val *aux = arena_calloc(ctx->arena, sizeof(*aux));

		val_set_text(ctx, aux, NULL, date);
		ev->ret_aux = aux;
	}
	return RVAL_DONE;
}

/* {it_interval={tv_sec=.., tv_usec=..}, it_value={...}} */
static void decode_itimerval(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct itimerval it;
	struct val *f, *tv;

	if (!tread(c, addr, &it, sizeof(it))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 2);
	tv = val_new_array(c, 4);
	val_set_int(&tv[0], "tv_sec", it.it_interval.tv_sec);
	val_set_int(&tv[1], "tv_usec", it.it_interval.tv_usec);
	val_set_int(&tv[2], "tv_sec", it.it_value.tv_sec);
	val_set_int(&tv[3], "tv_usec", it.it_value.tv_usec);
	val_set_struct(&f[0], "it_interval", tv, 2, false);
	val_set_struct(&f[1], "it_value", tv + 2, 2, false);
	val_set_struct(v, name, f, 2, false);
}

static void arg_which(struct dctx *c, struct event *ev, unsigned i)
{
	arg_enum(c, ev, i, itimer_which);
	ev->args[i].x.v = (uint32_t)ev->karg[i];
}

/* setitimer(which, new, old): old at exit. */
SYS_FUNC(setitimer)
{
	struct val *v;

	if (!exiting) {
		arg_which(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		decode_itimerval(ctx, v, v->name, ev->karg[1]);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 2, decode_itimerval);
	return RVAL_DONE;
}

SYS_FUNC(getitimer)
{
	if (!exiting) {
		arg_which(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, decode_itimerval);
	return RVAL_DONE;
}

SYS_FUNC(alarm)
{
	arg_uint(ctx, ev, 0);
	ev->args[0].u = (uint32_t)ev->karg[0];
	return RVAL_DONE;
}

/* {it_interval={tv_sec=.., tv_nsec=..}, it_value={...}} */
static void decode_itimerspec(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct itimerspec it;
	struct val *f, *ts;

	if (!tread(c, addr, &it, sizeof(it))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 2);
	ts = val_new_array(c, 4);
	val_set_int(&ts[0], "tv_sec", it.it_interval.tv_sec);
	val_set_uint(&ts[1], "tv_nsec", (uint64_t)it.it_interval.tv_nsec);
	val_set_int(&ts[2], "tv_sec", it.it_value.tv_sec);
	val_set_uint(&ts[3], "tv_nsec", (uint64_t)it.it_value.tv_nsec);
	val_set_struct(&f[0], "it_interval", ts, 2, false);
	val_set_struct(&f[1], "it_value", ts + 2, 2, false);
	val_set_struct(v, name, f, 2, false);
}

SYS_FUNC(timerfd_create)
{
	if (!exiting) {
		arg_clockid(ctx, ev, 0);
		arg_flags(ctx, ev, 1, timerfdflags, NULL);
		return RVAL_EXIT;
	}
	ret_set_fd(ctx, ev);
	return RVAL_DONE;
}

/* timerfd_settime(fd, flags, new, old) and timer_settime(id, flags, new, old) */
static int settime(struct dctx *c, struct event *ev, int exiting, bool fd)
{
	struct val *v;

	if (!exiting) {
		if (fd) {
			arg_fd(c, ev, 0);
			arg_flags(c, ev, 1, timerfdflags, NULL);
		} else {
			arg_int(c, ev, 0);
			arg_flags(c, ev, 1, clock_flags, NULL);
		}
		v = arg_slot(c, ev, 2);
		decode_itimerspec(c, v, v->name, ev->karg[2]);
		arg_count(ev, 4);
		return RVAL_EXIT;
	}
	arg_out(c, ev, 3, decode_itimerspec);
	return RVAL_DONE;
}

SYS_FUNC(timerfd_settime) { return settime(ctx, ev, exiting, true); }
SYS_FUNC(timer_settime) { return settime(ctx, ev, exiting, false); }

SYS_FUNC(timerfd_gettime)
{
	if (!exiting) {
		arg_fd(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, decode_itimerspec);
	return RVAL_DONE;
}

SYS_FUNC(timer_gettime)
{
	if (!exiting) {
		arg_int(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 1, decode_itimerspec);
	return RVAL_DONE;
}

/* {[sigev_value={sival_int=.., sival_ptr=..}, ]sigev_signo=SIG.., sigev_notify=SIGEV_..} */
void decode_sigevent(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct sigevent se;
	struct val *f, *sv;
	unsigned n = 0;

	if (!tread(c, addr, &se, sizeof(se))) {
		val_set_ptr(v, name, addr);
		return;
	}
	f = val_new_array(c, 6);
	/* as strace: the value only when it is set (sival_ptr non-zero) */
	if (se.sigev_value.sival_ptr) {
		sv = val_new_array(c, 2);
		val_set_int(&sv[0], "sival_int", se.sigev_value.sival_int);
		val_set_ptr(&sv[1], "sival_ptr", (uint64_t)(uintptr_t)se.sigev_value.sival_ptr);
		val_set_struct(&f[n++], "sigev_value", sv, 2, false);
	}
	/* a signal name only when a signal is what notifies (or a thread is
	 * started: strace 6.1 names it then as well) */
	if (se.sigev_notify == SIGEV_SIGNAL || se.sigev_notify == SIGEV_THREAD_ID ||
	    se.sigev_notify == SIGEV_THREAD)
		val_set_signal(c, &f[n++], "sigev_signo", se.sigev_signo);
	else
		val_set_uint(&f[n++], "sigev_signo", (uint32_t)se.sigev_signo);
	val_set_enum(&f[n++], "sigev_notify", (uint32_t)se.sigev_notify, sigev_value);
	if (se.sigev_notify == SIGEV_THREAD_ID) {
		val_set_int(&f[n++], "sigev_notify_thread_id", se._sigev_un._tid);
	} else if (se.sigev_notify == SIGEV_THREAD) {
		val_set_ptr(&f[n++], "sigev_notify_function",
			    (uint64_t)(uintptr_t)se._sigev_un._sigev_thread._function);
		val_set_ptr(&f[n++], "sigev_notify_attributes",
			    (uint64_t)(uintptr_t)se._sigev_un._sigev_thread._attribute);
	}
	val_set_struct(v, name, f, n, false);
}

/* timer_create(clockid, sevp, [timerid]) */
SYS_FUNC(timer_create)
{
	struct val *v;

	if (!exiting) {
		arg_clockid(ctx, ev, 0);
		v = arg_slot(ctx, ev, 1);
		decode_sigevent(ctx, v, v->name, ev->karg[1]);
		arg_count(ev, 3);
		return RVAL_EXIT;
	}
	arg_out(ctx, ev, 2, val_read_int_boxed);
	return RVAL_DONE;
}

SYS_FUNC(timer_getoverrun)
{
	arg_int(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(timer_delete)
{
	arg_int(ctx, ev, 0);
	return RVAL_DONE;
}

/* struct timex at addr (strace's print_timex); false when unreadable (v is
 * then the address). */
static bool decode_timex(struct dctx *c, struct val *v, const char *name, uint64_t addr)
{
	struct timex tx;
	struct val *f, *t;
	unsigned n = 0;

	if (!tread(c, addr, &tx, sizeof(tx))) {
		val_set_ptr(v, name, addr);
		return false;
	}
	f = val_new_array(c, 20);
	t = val_new_array(c, 2);
	val_set_flags(&f[n++], "modes", tx.modes, adjtimex_modes, NULL);
	val_set_int(&f[n++], "offset", tx.offset);
	val_set_int(&f[n++], "freq", tx.freq);
	val_set_int(&f[n++], "maxerror", tx.maxerror);
	val_set_int(&f[n++], "esterror", tx.esterror);
	val_set_flags(&f[n++], "status", (uint32_t)tx.status, adjtimex_status, NULL);
	val_set_int(&f[n++], "constant", tx.constant);
	val_set_int(&f[n++], "precision", tx.precision);
	val_set_int(&f[n++], "tolerance", tx.tolerance);
	val_set_int(&t[0], "tv_sec", tx.time.tv_sec);
	val_set_uint(&t[1], "tv_usec", (uint64_t)tx.time.tv_usec);
	val_set_struct(&f[n++], "time", t, 2, false);
	val_set_int(&f[n++], "tick", tx.tick);
	val_set_int(&f[n++], "ppsfreq", tx.ppsfreq);
	val_set_int(&f[n++], "jitter", tx.jitter);
	val_set_int(&f[n++], "shift", tx.shift);
	val_set_int(&f[n++], "stabil", tx.stabil);
	val_set_int(&f[n++], "jitcnt", tx.jitcnt);
	val_set_int(&f[n++], "calcnt", tx.calcnt);
	val_set_int(&f[n++], "errcnt", tx.errcnt);
	val_set_int(&f[n++], "stbcnt", tx.stbcnt);
	val_set_int(&f[n++], "tai", tx.tai);
	val_set_struct(v, name, f, n, false);
	return true;
}

/* The timex at exit and the clock state as the result's comment:
 * "= 5 (TIME_ERROR)". */
static void adjtimex_exit(struct dctx *c, struct event *ev, unsigned i)
{
	struct val *v = arg_slot(c, ev, i);

	if (decode_timex(c, v, v->name, ev->karg[i]) && !ev->err) {
		const char *s = xlat_name(adjtimex_state, (uint64_t)ev->retval);

		if (s) {
			struct val *aux = arena_calloc(c->arena, sizeof(*aux));

			val_set_text(c, aux, NULL, s);
			ev->ret_aux = aux;
		}
	}
	v->flags |= VF_EXIT;
}

SYS_FUNC(adjtimex)
{
	if (!exiting) {
		arg_count(ev, 1);
		return RVAL_EXIT;
	}
	adjtimex_exit(ctx, ev, 0);
	return RVAL_DONE;
}

SYS_FUNC(clock_adjtime)
{
	if (!exiting) {
		arg_clockid(ctx, ev, 0);
		arg_count(ev, 2);
		return RVAL_EXIT;
	}
	adjtimex_exit(ctx, ev, 1);
	return RVAL_DONE;
}
