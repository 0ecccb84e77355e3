#!/bin/sh
# Limits on what input controls ([limits] in renacer.toml): regex bombs are
# refused within a second and 100 MB, with file:line:col; a renacer.toml
# can only lower the limits (RENACER_LIMITS raises them); a 263 MB
# renacer.toml of 4 million assertions, and files just within the byte
# bound but over the value or array bounds, are refused under 100 MB while
# they are read or parsed; 200,000 assertions load in linear time (and
# need limits.assertions raised); a zstd bomb stops at the documented
# ratio; a huge diff prints golden_traces.max_diff_lines lines over the
# whole report; 100,000 unknown keys give 50 warnings and a count.
# test: slow
set -u
. "$TOP/tests/lib.sh"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$TMPDIR" || exit 1
TIME=/usr/bin/time
[ -x $TIME ] || skip "no /usr/bin/time"
PY=/usr/bin/python3

"$RENACER" --format json -o t.json true 2>/dev/null || fail "cannot trace true"

# measured: runs "$@" (stdout, stderr to files), fails unless it took under
# $SECS seconds (default 1) and 100 MB; sets RC
# Under ASan (make asan) the address space cannot be limited and memory and
# time are not renacer's own: only the outcomes are checked there.
ASAN=0
case "${BUILD:-}" in *asan*) ASAN=1 ;; esac

measured() { # label cmd...
	_l=$1; shift
	if [ $ASAN = 1 ]; then
		timeout 60 "$@" > m.out 2> m.err
		RC=$?
		return
	fi
	# (a broken renacer must not take the machine's memory with it)
	(ulimit -v 1000000; exec $TIME -o time.txt -f '%e %M' timeout 20 "$@") > m.out 2> m.err
	RC=$?
	read -r secs kb <<EOF
$(tail -n 1 time.txt)
EOF
	awk -v s="$secs" -v max="${SECS:-1}" 'BEGIN { exit !(s < max) }' || bad "$_l: took ${secs}s"
	[ "$kb" -lt 102400 ] || bad "$_l: used ${kb} KB"
}

# --- regex bombs, in every place a pattern is read ---
for key in span_name_pattern trace_name_pattern; do
	type=span_count; extra="max_spans = 5"
	[ $key = trace_name_pattern ] && type=critical_path && extra="max_duration_ms = 5"
	for re in 'x{0,32767}{0,32767}' '(x{0,9999}){0,9999}' 'a{0,30000}' '(a|b|c){0,20000}'; do
		printf '[[assertion]]\nname = "bomb"\ntype = "%s"\n%s\n%s = "%s"\n' \
			$type "$extra" $key "$re" > bomb.toml
		measured "$key '$re'" "$RENACER" assert --config bomb.toml t.json
		[ $RC = 5 ] || bad "$key '$re': exit $RC, want 5"
		grep -q "^renacer: bomb.toml:5:[0-9]*: assertion 'bomb': invalid regex in '$key': regular expression too large" m.err ||
			bad "$key '$re': $(cat m.err)"
	done
done
# a back-reference (exponential matching) is refused too
printf '[[assertion]]\nname = "br"\ntype = "span_count"\nmax_spans = 5\nspan_name_pattern = "(a*)*\\\\1"\n' > br.toml
"$RENACER" assert --config br.toml t.json > /dev/null 2> br.err; rc=$?
[ $rc = 5 ] && grep -q "back-references" br.err || bad "back-reference: exit $rc: $(cat br.err)"
# a normalize rule, read by validate and compare
mkdir cmp && cd cmp || exit 1
printf '[golden_traces]\nnormalize = [ { pattern = "x{0,32767}{0,32767}", replace = "y" } ]\n' > renacer.toml
measured "normalize" "$RENACER" compare ../t.json ../t.json
[ $RC = 5 ] || bad "normalize bomb: exit $RC, want 5"
grep -q "renacer.toml:2:[0-9]*: golden_traces.normalize #1: invalid regex in 'pattern': regular expression too large" m.err ||
	bad "normalize bomb: $(cat m.err)"
cd .. || exit 1
# -e trace=/RE/ has the default budget
measured "-e trace" "$RENACER" -e 'trace=/x{32767}{32767}/' true
[ $RC = 1 ] && grep -q "too large" m.err || bad "-e trace bomb: exit $RC: $(cat m.err)"
# what fits the budget works; a raised budget lets a bigger one in
printf '[[assertion]]\nname = "ok"\ntype = "span_count"\nmax_spans = 5000\nspan_name_pattern = "^(x{0,1000}|mmap|openat)$"\n' > ok.toml
"$RENACER" assert --config ok.toml t.json > ok.out 2>&1 || bad "a regex within the budget: $(cat ok.out)"
printf '[limits]\nregex_cost = 100000000\n[[assertion]]\nname = "big"\ntype = "span_count"\nmax_spans = 5000\nspan_name_pattern = "^x{0,3000}$"\n' > raised.toml
# a file cannot raise a limit: a warning, and the limit holds
"$RENACER" assert --config raised.toml t.json > raised.out 2>&1; rc=$?
[ $rc = 5 ] && grep -q "raised.toml:2:14: limits.regex_cost = 100000000 ignored: a renacer.toml can only lower renacer's limit of 20000000 (RENACER_LIMITS=regex_cost=100000000 raises it)" raised.out &&
	grep -q "too large to compile" raised.out || bad "limits.regex_cost raised by the file: exit $rc: $(cat raised.out)"
# the environment can, and the file can then lower it again
RENACER_LIMITS=regex_cost=100000000 "$RENACER" assert --config raised.toml t.json > raised.out 2>&1 ||
	bad "limits.regex_cost raised by RENACER_LIMITS: $(cat raised.out)"
printf '[limits]\nregex_cost = 1000\n[[assertion]]\nname = "big"\ntype = "span_count"\nmax_spans = 5000\nspan_name_pattern = "^x{0,3000}$"\n' > lowered.toml
RENACER_LIMITS=regex_cost=100000000 "$RENACER" assert --config lowered.toml t.json > lowered.out 2>&1; rc=$?
[ $rc = 5 ] && grep -q "limit 1000;" lowered.out || bad "limits.regex_cost lowered by the file: exit $rc: $(cat lowered.out)"
for env in 'regex_cost=0' 'nope=5' 'assertions' 'rules=1x' 'string_bytes=63'; do
	RENACER_LIMITS=$env "$RENACER" assert --config ok.toml t.json > env.out 2>&1; rc=$?
	[ $rc = 5 ] && grep -q "^renacer: bad RENACER_LIMITS '$env'" env.out ||
		bad "RENACER_LIMITS=$env: exit $rc: $(cat env.out)"
done
printf '[limits]\nregex_cots = 1\n' > typo.toml
"$RENACER" assert --config typo.toml t.json > /dev/null 2> typo.err
grep -q "typo.toml:2:1: limits: unknown key 'regex_cots' (did you mean 'regex_cost'?)" typo.err ||
	bad "unknown limits key: $(cat typo.err)"

# --- renacer.toml files bigger than the limits: refused under 100 MB ---
# 263 MB of 4 million [[assertion]] tables (it took 4.6 GB before): not
# read past the byte bound
$PY - <<'EOF'
block = "".join('[[assertion]]\nname = "a%d"\ntype = "span_count"\nmax_spans = 500\n\n' % i
                for i in range(1000))
with open("huge.toml", "w") as f:
    while f.tell() < 263000000:
        f.write(block)
# just within the byte bound (14,336,000 by default): over the array bound,
# over the value bound (one table of keys; tables of headers), long strings
with open("arr.toml", "w") as f:
    f.write(block * 13)
with open("keys.toml", "w") as f:
    f.write("[semantic_equivalence]\n")
    for i in range(230000):
        f.write("k%d = 1\n" % i)
with open("tabs.toml", "w") as f:
    for i in range(230000):
        f.write("[t%d]\n" % i)
with open("strs.toml", "w") as f:
    f.write("[x]\n")
    i = 0
    while f.tell() < 14300000:
        f.write('k%07d = "%s"\n' % (i, "x" * 48))
        i += 1
EOF
# (parsing 14 MB takes about a second: time is not the point here)
SECS=5
measured "263 MB renacer.toml" "$RENACER" assert --config huge.toml t.json
[ $RC = 5 ] && grep -q "^renacer: cannot read 'huge.toml': more than 14336000 bytes" m.err ||
	bad "263 MB renacer.toml: exit $RC: $(cat m.err)"
measured "arr.toml" "$RENACER" assert --config arr.toml t.json
[ $RC = 5 ] && grep -q "^renacer: arr.toml:50001:1: more than 10000 entries in array 'assertion' (the bounds follow limits.assertions and limits.rules; RENACER_LIMITS raises them)" m.err ||
	bad "arr.toml: exit $RC: $(cat m.err)"
for f in keys tabs strs; do
	measured "$f.toml" "$RENACER" assert --config $f.toml t.json
	[ $RC = 5 ] && grep -q "^renacer: $f.toml:[0-9]*:[0-9]*: more than 224000 values in the document" m.err ||
		bad "$f.toml: exit $RC: $(cat m.err)"
done
# the same under validate (its renacer.toml found in the working directory)
mkdir big && cp keys.toml big/renacer.toml && cd big || exit 1
measured "validate with keys.toml" "$RENACER" validate
[ $RC = 5 ] && grep -q "^renacer: renacer.toml:[0-9]*:[0-9]*: more than 224000 values" m.err ||
	bad "validate with keys.toml: exit $RC: $(cat m.err)"
cd .. && rm -f huge.toml arr.toml tabs.toml strs.toml

# --- a zstd bomb: 2 GB of blanks in 70 KB stops at 1000x + 64 MiB (the
# whole of it took 37 s) ---
{ printf '{"format": "renacer-json-v1", "syscalls": ['; head -c 2000000000 /dev/zero | tr '\0' ' '
  printf ']}'; } | zstd -1 -q -o bomb.json.zst || fail "cannot make bomb.json.zst"
measured "zstd bomb" "$RENACER" compare bomb.json.zst t.json
[ $RC = 3 ] && grep -q "^renacer: cannot read trace 'bomb.json.zst': .*zstd data unpacks to more than 1000 times its size" m.err ||
	bad "zstd bomb: exit $RC: $(cat m.err)"
rm -f bomb.json.zst
SECS=1

# --- 200,000 assertions: refused by default, linear with the limit raised ---
$PY - <<'EOF'
with open("many.toml", "w") as f:
    for i in range(200000):
        f.write('[[assertion]]\nname = "a%d"\ntype = "span_count"\nmax_spans = 500\n\n' % i)
with open("many_ok.toml", "w") as f:
    f.write("[limits]\nrules = 1000\n\n")
    f.write(open("many.toml").read())
    f.write('[[assertion]]\nname = "a7"\ntype = "span_count"\nmax_spans = 1\n')
EOF
# (the TOML tree of 200,000 tables is parsed first: 1 to 2 s, some 250 MB)
"$RENACER" assert --config many.toml t.json > m.out 2> m.err
RC=$?
[ $RC = 5 ] && grep -q "many.toml:50001:1: more than 10000 entries in array 'assertion'" m.err ||
	bad "200000 assertions: exit $RC: $(cat m.err)"
# with the limit raised: the duplicate at the very end is found, quickly
# (quadratic loading took minutes)
RENACER_LIMITS=assertions=200001 $TIME -o time.txt -f '%e %M' timeout 60 \
	"$RENACER" assert --config many_ok.toml t.json > /dev/null 2> many.err
rc=$?
read -r secs kb <<EOF
$(tail -n 1 time.txt)
EOF
[ $rc = 5 ] && grep -q "duplicate assertion name 'a7' (first defined at 39:1)" many.err ||
	bad "200001 assertions: exit $rc: $(head -c 300 many.err)"
awk -v s="$secs" 'BEGIN { exit !(s < 20) }' || bad "200001 assertions took ${secs}s"
echo "200001 assertions: ${secs}s, ${kb} KB"

# --- a million unknown keys: 50 warnings and a count ---
$PY -c '
with open("keys.toml", "w") as f:
    f.write("[semantic_equivalence]\n")
    for i in range(100000):
        f.write("k%d = 1\n" % i)' 
"$RENACER" assert --config keys.toml t.json > /dev/null 2> keys.err
n=$(grep -c "warning: keys.toml:" keys.err)
[ "$n" = 51 ] && tail -n 1 keys.err | grep -q "keys.toml: 99950 more warnings not shown" ||
	bad "100000 unknown keys: $n warning lines, last: $(tail -n 1 keys.err)"

# --- max_diff_lines counts lines over a whole report ---
$PY - <<'EOF'
import json
def trace(n, names):
    sc = [{"name": names[i % len(names)], "args": [], "result": 100, "pid": 100,
           "tid": 100 + (i % 2) * 0, "nr": 39, "ts_us": i * 1.0, "duration_us": 0.5,
           "lamport": i} for i in range(n)]
    return {"version": "0.9.0", "format": "renacer-json-v1", "command": ["./p"],
            "follow": False, "start_unix_ns": 1, "syscalls": sc,
            "processes": [{"pid": 100, "tid": 100, "ppid": 1, "is_thread": False,
                           "start_us": 0.0, "end_us": n + 1.0, "exit_code": 0,
                           "max_rss_kb": 0, "exec": [{"path": "/p", "ts_us": 0.0}]}],
            "signals": [], "summary": {"total_syscalls": n, "total_errors": 0,
            "total_unfinished": 0, "total_time_us": n * 0.5, "wall_time_us": n + 1.0,
            "exit_code": 0, "by_syscall": {}}}
json.dump(trace(50000, ["getpid"]), open("g.json", "w"))
json.dump(trace(50000, ["getppid", "getuid"]), open("c.json", "w"))
EOF
"$RENACER" compare --no-color g.json c.json > diff.txt; rc=$?
[ $rc = 1 ] || bad "one huge hunk: exit $rc, want 1"
n=$(grep -c '^[-+ ]get' diff.txt)
[ "$n" = 200 ] || bad "one huge hunk: $n diff lines, want 200 (the default)"
# the 50000 calls gone are one line with their count; the other 199 lines
# budgeted go to the new calls, the rest of which are counted
grep -q '^-getpid() = pid:1  (x50000)$' diff.txt || bad "the calls gone are not one line: $(grep -m2 '^-' diff.txt)"
grep -q '^\.\.\. 49801 more diff lines not shown' diff.txt || bad "no count of the lines left out: $(tail -n 2 diff.txt)"
[ "$(wc -l < diff.txt)" -lt 230 ] || bad "one huge hunk: $(wc -l < diff.txt) lines"
mkdir md && cd md && printf '[golden_traces]\nmax_diff_lines = 30\n' > renacer.toml || exit 1
for f in markdown json; do
	"$RENACER" compare --format $f ../g.json ../c.json > out.$f
done
n=$(grep -c '^[-+ ]get' out.markdown)
[ "$n" = 30 ] || bad "markdown with max_diff_lines = 30: $n lines"
n=$($PY -c 'import json; d = json.load(open("out.json")); print(sum(1 for t in d["traces"] for p in t["processes"] for l in p["diff"].splitlines() if l[:4] in ("-get", "+get", " get")))')
[ "$n" = 30 ] || bad "json with max_diff_lines = 30: $n lines"
cd .. || exit 1
exit $fail
