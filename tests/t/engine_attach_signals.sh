#!/bin/sh
# Signals to renacer never kill an attached process (issue 8): renacer -f -p
# on a process whose threads create threads and child processes all the
# time (so tasks are being born, some of them seen before their creator's
# event) gets SIGINT, SIGTERM or SIGHUP at a random moment, 30 times in a
# row on the same process.  Each time renacer ends within seconds, as killed
# by that signal (128+N), and the process lives on, running, not stopped.
# The same with busy threads that only make calls.
# Alone: once, beside a parallel test and two hogs, it hung past the 300 s
# limit with no round done (a fresh clone's make test, 2026-12-07).
# test: serial
set -u
. "$TOP/tests/lib.sh"
P=$(need_prog attachee)
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# rounds MODE ITERATIONS
rounds() {
	_mode=$1 _n=$2
	_f=$TMPDIR/ready.$_mode
	: > "$_f"
	"$P" "$_mode" 4 600000 > "$_f" &
	_apid=$!
	_i=0
	while ! grep -q ready "$_f" && [ $_i -lt 1000 ]; do sleep 0.01; _i=$((_i + 1)); done
	_it=1
	while [ $_it -le $_n ]; do
		# a random moment (0-300 ms after renacer starts) and signal
		_r=$(awk -v s="$_it$$" 'BEGIN { srand(s); split("INT TERM HUP", a, " ");
			printf "%.3f %s\n", rand() * 0.3, a[int(rand() * 3) + 1] }')
		_d=${_r% *} _sig=${_r#* }
		# renacer itself gets the signal (a background job of sh would
		# ignore SIGINT until renacer's handler is in: default it); a
		# watchdog ends a hang
		env --default-signal=INT,TERM,HUP "$RENACER" -f -q -o /dev/null -p "$_apid" \
			2>"$TMPDIR/err" &
		_rpid=$!
		sleep "$_d"
		kill -"$_sig" $_rpid
		_s=$(date +%s)
		_i=0
		while [ $_i -lt 400 ] && [ "$(ps -o stat= -p $_rpid | cut -c1)" = S -o \
			"$(ps -o stat= -p $_rpid | cut -c1)" = R ]; do
			sleep 0.05
			_i=$((_i + 1))
		done
		[ $_i -lt 400 ] || kill -KILL $_rpid
		wait $_rpid
		_rc=$?
		_secs=$(( $(date +%s) - _s ))
		case $_sig in INT) _want=130 ;; TERM) _want=143 ;; HUP) _want=129 ;; esac
		[ $_rc -eq $_want ] || bad "$_mode round $_it (SIG$_sig after ${_d}s): renacer exit $_rc, want $_want: $(head -n 2 "$TMPDIR/err")"
		[ $_secs -le 5 ] || bad "$_mode round $_it: renacer took ${_secs}s to stop"
		if ! kill -0 "$_apid" 2>/dev/null; then
			bad "$_mode round $_it (SIG$_sig after ${_d}s): the attached process died"
			wait "$_apid"
			echo "its exit status: $?"
			return
		fi
		sleep 0.05
		_st=$(grep -l '^State:[[:space:]]*[tT]' /proc/"$_apid"/task/*/status 2>/dev/null | wc -l)
		if [ "$_st" -ne 0 ]; then
			bad "$_mode round $_it: $_st threads left stopped"
			for _t in /proc/"$_apid"/task/*; do
				_tp=$(awk '/^TracerPid:/ { print $2 }' "$_t/status")
				echo "  ${_t##*/}: $(grep '^State:' "$_t/status") tracer $_tp" \
					"$( [ "$_tp" != 0 ] && ps -o pid=,ppid=,etime=,stat=,wchan:20=,args= -p "$_tp")"
			done
		fi
		_it=$((_it + 1))
	done
	kill -TERM "$_apid"
	wait "$_apid"
	_rc=$?
	[ $_rc -eq 143 ] || bad "$_mode: the process ended with $_rc at the end, want 143 (our SIGTERM)"
	echo "$_mode: $_n rounds done"
}

rounds churn 30
rounds busy 10
exit $fail
