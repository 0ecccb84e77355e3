#!/bin/sh
# How renacer writes files (util/atomicfile): -o - is standard output;
# /dev/stdout is written through, never replaced; a symbolic link's target
# is written and the link stays; a FIFO is written in place; a directory is
# an error; a temporary left by a SIGKILLed renacer is removed by the next
# run; and the symlink attack of user nobody against root's renacer fails
# in a sticky and in a non-sticky world-writable directory.
set -u
. "$TOP/tests/lib.sh"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$TMPDIR" || exit 1

# -o -: the trace on standard output, no file named '-'
"$RENACER" -o - true > dash.out 2> dash.err || bad "-o - failed: $(cat dash.err)"
grep -q '^execve("/usr/bin/true"\|^execve(".*true"' dash.out || bad "-o -: no trace on stdout"
[ -e ./- ] && bad "-o - made a file named '-'"
[ -s dash.err ] && bad "-o -: trace on stderr too: $(head -n 2 dash.err)"

# -o /dev/stdout: written through the descriptor; the link stays.  First
# on a link of our own to /proc/self/fd/1 (as /dev/stdout is), so that a
# broken renacer replaces that one and not the system's
ln -s /proc/self/fd/1 mystdout
"$RENACER" -o mystdout true > viamine.txt 2>/dev/null
if [ ! -L mystdout ]; then
	bad "a link to /proc/self/fd/1 was replaced; /dev/stdout is not tried"
else
	grep -q '^execve(' viamine.txt || bad "-o mystdout: trace not in the redirected file"
	"$RENACER" -o /dev/stdout true > viastdout.txt 2>/dev/null
	if [ ! -L /dev/stdout ]; then
		bad "/dev/stdout is no longer a symbolic link"
		[ "$(id -u)" = 0 ] && rm -f /dev/stdout && ln -s /proc/self/fd/1 /dev/stdout
	fi
	grep -q '^execve(' viastdout.txt || bad "-o /dev/stdout: trace not in the redirected file"
fi
# appending through /dev/stdout keeps what was there
echo first > app.txt
"$RENACER" -o mystdout true >> app.txt 2>/dev/null
[ "$(head -n 1 app.txt)" = first ] || bad "-o /dev/stdout >> file lost its first line"
# a pipe
n=$("$RENACER" -o mystdout true 2>/dev/null | grep -c '^execve(')
[ "$n" = 1 ] || bad "-o /dev/stdout into a pipe: $n execve lines"

# a symbolic link: its target is written, the link stays
ln -s real.json link.json
"$RENACER" --format json -o link.json true 2>/dev/null || bad "-o link failed"
[ -L link.json ] || bad "-o link.json replaced the link"
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' real.json ||
	bad "the link's target is not the JSON trace"
# a dangling link creates its target
ln -s made.txt dangling.txt
"$RENACER" -o dangling.txt true 2>/dev/null
[ -L dangling.txt ] && [ -s made.txt ] || bad "-o to a dangling link did not create its target"

# a directory is an error, with nothing written
mkdir adir
if "$RENACER" -o adir true 2> dir.err; then bad "-o DIR succeeded"; fi
grep -q "cannot write 'adir': Is a directory" dir.err || bad "-o DIR: $(cat dir.err)"

# a FIFO is written in place
mkfifo fifo
cat fifo > fifo.out &
reader=$!
timeout 10 "$RENACER" -o fifo true 2>/dev/null || bad "-o FIFO failed"
wait $reader
[ -p fifo ] || bad "the FIFO was replaced"
grep -q '^execve(' fifo.out || bad "nothing came through the FIFO"

# the final mode: 0666 less the umask for a new file; the old mode kept
(umask 077 && "$RENACER" -o private.txt true 2>/dev/null)
[ "$(stat -c %a private.txt)" = 600 ] || bad "umask 077: mode $(stat -c %a private.txt)"
chmod 640 private.txt
"$RENACER" -o private.txt true 2>/dev/null
[ "$(stat -c %a private.txt)" = 640 ] || bad "replaced file lost its mode: $(stat -c %a private.txt)"

# SIGKILL leaves a temporary; the next run in that directory removes it
mkdir killed && cd killed || exit 1
"$RENACER" --format json -o trace.json -- sleep 30 2>/dev/null &
rpid=$!
i=0
while [ $i -lt 100 ] && ! ls -A | grep -q '^\.renacer-tmp-'; do sleep 0.05; i=$((i + 1)); done
ls -A | grep -q "^\.renacer-tmp-[0-9]*-$rpid-" || bad "no temporary while tracing: $(ls -A)"
kill -9 $rpid
wait $rpid 2>/dev/null
[ -e trace.json ] && bad "a killed renacer left trace.json"
ls -A | grep -q '^\.renacer-tmp-' || bad "the killed renacer's temporary is gone already?"
"$RENACER" -o other.txt true 2>/dev/null
left=$(ls -A | grep '^\.renacer-tmp-')
[ -z "$left" ] || bad "stale temporary not removed: $left"
cd "$TMPDIR" || exit 1

# The symlink attack: user nobody plants links where root's renacer writes.
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null 2>&1; then
	echo "note: not root or no setpriv: the symlink attack is not run"
	exit $fail
fi
nob="setpriv --reuid=65534 --regid=65534 --clear-groups"
$nob true 2>/dev/null || { echo "note: cannot switch to nobody"; exit $fail; }
# the victim: root's, where nobody cannot even look
mkdir -m 700 private
echo "root's secret" > private/victim
victim=$TMPDIR/private/victim
for mode in 1777 0777; do
	shared=$(mktemp -d /tmp/renacer-shared.XXXXXX) || exit 1
	chmod $mode "$shared"
	# as nobody (the attacker runs system tools only): the target name
	# itself, the old temporary names for the next pids, and guesses at
	# the new naming
	next=$(sh -c 'echo $$')
	$nob sh -c "
		cd '$shared' || exit 1
		ln -s '$victim' out.txt
		i=0; while [ \$i -lt 300 ]; do
			ln -s '$victim' out2.txt.tmp.\$(( $next + i ))
			ln -s '$victim' .renacer-tmp-0-\$(( $next + i ))-0-aaaaaaaaaaaa.out2.txt
			i=\$((i + 1)); done
		mkfifo fifo.txt" || bad "$mode: the attacker could not plant"
	# a link of another user in a world-writable directory is refused
	if "$RENACER" -o "$shared/out.txt" true 2> attack.err; then
		bad "$mode: renacer followed nobody's link"
	fi
	grep -q "refusing to follow the symbolic link" attack.err ||
		bad "$mode: message: $(cat attack.err)"
	# planted temporaries change nothing: the trace lands in out2.txt
	"$RENACER" -o "$shared/out2.txt" true 2> attack2.err ||
		bad "$mode: -o out2.txt failed: $(cat attack2.err)"
	[ -f "$shared/out2.txt" ] && [ ! -L "$shared/out2.txt" ] &&
		[ "$(stat -c %U "$shared/out2.txt")" = root ] ||
		bad "$mode: out2.txt is not root's regular file"
	grep -q '^execve(' "$shared/out2.txt" || bad "$mode: out2.txt holds no trace"
	# nobody's FIFO is not written into
	if timeout 10 "$RENACER" -o "$shared/fifo.txt" true 2> attack3.err; then
		bad "$mode: renacer wrote into nobody's FIFO"
	fi
	[ "$(cat "$victim")" = "root's secret" ] || bad "$mode: the victim was overwritten"
	[ "$(stat -c %U:%a "$victim")" = root:644 ] || bad "$mode: the victim changed"
	rm -rf "$shared"
done
exit $fail
