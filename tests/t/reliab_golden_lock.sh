#!/bin/sh
# Goldens change under a lock (issue 18 item 2, golden/store.h): the races
# of the issue made deterministic by holding a commit open with strace's
# delay injection on renacer's own renameat (renacer, traced by strace
# without -f, still traces its command: only its command's ptrace would
# clash).  Checked:
#  - `renacer report` during a capture's commit neither deletes the pending
#    summary nor leaves the pair torn: validate passes afterwards;
#  - validate during accept's commit sees one pair, old or new, never
#    "do not match";
#  - a capture that began before another one of the same name committed
#    says it lost (exit 7) and leaves the winner's golden;
#  - recovery still finishes what a SIGKILLed capture left after the lock
#    died with it;
#  - the lock file is never followed as a link or opened as a FIFO.
# test: slow
set -u
. "$TOP/tests/golden_lib.sh"
. "$TOP/tests/lib.sh"
need_strace
R=$RENACER
D=golden_traces
DELAY=3

# commit_index FILE CMD...: the ordinal of the renameat that puts FILE in
# place in the golden directory when CMD (a renacer command) runs, counted
# in a dry run on a copy of that directory
commit_index() {
	_f=$1; shift
	rm -rf dry && mkdir dry && cp -a "$D" dry/ || fail "cannot copy '$D'"
	(cd dry && strace -o ../renames.txt -e trace=renameat "$@" > /dev/null 2>&1 < /dev/null)
	grep '^renameat(' renames.txt | grep -n "\"$_f\")" | head -n 1 | cut -d: -f1
}

# delayed NAME FILE CMD...: runs CMD in the background with its commit of
# NAME held open DELAY seconds at the rename to FILE (NAME.json: the trace,
# before which nothing is committed; NAME_summary.txt: the last one), and
# returns once that rename is due; $dpid is its pid, its status goes to
# delayed.rc
delayed() {
	_n=$1 _f=$2; shift 2
	_i=$(commit_index "$_f" "$@")
	[ -n "$_i" ] || fail "no renameat to '$_f' in: $*"
	rm -f delayed.rc
	( strace -o /dev/null -e inject=renameat:delay_enter=${DELAY}s:when=$_i "$@" \
		> delayed.out 2> delayed.err < /dev/null; echo $? > delayed.rc ) &
	dpid=$!
	_w=0
	_p="$D/.${_n}_summary.txt.pending"
	while [ ! -e "$_p" ] || { [ "$_f" != "$_n.json" ] &&
		! grep -q "\"golden_id\": \"$(sed -n 's/^golden_id: //p' "$_p" 2>/dev/null)\"" \
			"$D/$_n.json"; }; do
		[ -e delayed.rc ] && fail "the delayed command ended before its commit: $(cat delayed.err)"
		sleep 0.02
		_w=$((_w + 1))
		[ $_w -lt 3000 ] || fail "the delayed commit never began"
	done
}

# ids NAME: the golden's id and its summary's, on one line
ids() {
	g=$(sed -n 's/^ *"golden_id": "\([0-9a-f]*\)".*/\1/p' "$D/$1.json" | head -n 1)
	s=$(sed -n 's/^golden_id: //p' "$D/$1_summary.txt")
	echo "$g $s"
}
same_ids() {
	set -- $(ids "$1")
	[ $# = 2 ] && [ "$1" = "$2" ] || fail "golden and summary ids differ: $*"
}

# 1. report while a capture commits
run 0 "$R" capture --runs 1 t -- /bin/true
delayed t t.json "$R" capture --runs 1 t -- /bin/true
run 0 "$R" report -o report.md
wait $dpid
[ "$(cat delayed.rc)" = 0 ] || fail "the delayed capture failed: $(cat delayed.err)"
hasnt delayed.err "cannot rename"
[ ! -e "$D/.t_summary.txt.pending" ] || fail "a pending summary was left"
same_ids t
run 0 "$R" validate --golden "$D/t.json" -- /bin/true
has out.txt "t: equivalent"

# 2. validate while accept commits: a .new to accept (another command, so
# that the golden changes), then validate of the old command during the
# commit: it compares with one pair, whichever it finds
run 1 "$R" validate --golden "$D/t.json" -- /bin/echo hi
[ -e "$D/t.json.new" ] || fail "validate wrote no t.json.new"
cp "$D/t.json.new" t.json.new.keep
delayed t t.json "$R" accept t
"$R" validate --golden "$D/t.json" -- /bin/true > out.txt 2> err.txt
vrc=$?
wait $dpid
[ "$(cat delayed.rc)" = 0 ] || fail "the delayed accept failed: $(cat delayed.err)"
hasnt err.txt "do not match"
hasnt err.txt "no matching summary"
case $vrc in 0|1) ;; *) fail "validate during accept: exit $vrc: $(cat out.txt err.txt)" ;; esac
same_ids t

# 3. two captures of one name: the later commit began before the earlier
# one was stored, so it lost; the winner's golden stays
rm -f go started
cat > slow.sh <<EOF
#!/bin/sh
: > "$W/started"
while [ ! -e "$W/go" ]; do sleep 0.02; done
EOF
chmod +x slow.sh
( "$R" capture --runs 1 u -- "$W/slow.sh" > slow.out 2> slow.err; echo $? > slow.rc ) &
spid=$!
i=0
while [ ! -e started ]; do sleep 0.02; i=$((i + 1)); [ $i -lt 3000 ] || fail "slow.sh never started"; done
run 0 "$R" capture --runs 1 u -- /bin/true
winner=$(ids u)
: > go
wait $spid
[ "$(cat slow.rc)" = 7 ] || fail "the losing capture: exit $(cat slow.rc), want 7: $(cat slow.out slow.err)"
has slow.err "was stored by another renacer while this one worked"
hasnt slow.out "Captured"
[ "$(ids u)" = "$winner" ] || fail "the losing capture replaced the golden"
grep -q 'slow.sh' "$D/u.json" && fail "the golden is the loser's"
same_ids u
# one at a time, the later capture replaces the golden as it should
run 0 "$R" capture --runs 1 u -- /bin/echo later
has out.txt "Captured"

# 4. a capture killed in its commit, after the trace and before the
# summary: the lock dies with it, and the next command finishes the pair
delayed t t_summary.txt "$R" capture --runs 1 t -- /bin/true
rpid=$(pgrep -P "$(pgrep -f -n "strace -o /dev/null -e inject=renameat")" -x renacer | head -n 1)
[ -n "$rpid" ] || fail "the delayed renacer was not found"
kill -KILL "$rpid"
wait $dpid
[ -e "$D/.t_summary.txt.pending" ] || fail "no pending summary after the kill"
run 0 "$R" report -o report.md
[ ! -e "$D/.t_summary.txt.pending" ] || fail "recovery left the pending summary"
same_ids t
run 0 "$R" validate --golden "$D/t.json" -- /bin/true

# 5. the lock file is not followed or opened as something else
rm -f "$D/.renacer.lock"
ln -s "$W/elsewhere" "$D/.renacer.lock"
run 7 "$R" capture --runs 1 t -- /bin/true
has err.txt ".renacer.lock"
[ ! -e "$W/elsewhere" ] || fail "the lock file's link was followed"
rm -f "$D/.renacer.lock"
mkfifo "$D/.renacer.lock"
timeout 60 "$R" capture --runs 1 t -- /bin/true > out.txt 2> err.txt
rc=$?
[ $rc = 7 ] || fail "a FIFO as lock file: exit $rc: $(cat err.txt)"
has err.txt "is not a regular file"
rm -f "$D/.renacer.lock"
run 0 "$R" capture --runs 1 t -- /bin/true
[ -f "$D/.renacer.lock" ] || fail "no lock file made"
echo "ok"
