#!/bin/sh
# Every syscall that strace reports under -e trace=%CLASS while running real
# programs (ls, sh, cat, id, date, sleep) must be in our class.  Our members
# come from the table via `test_sysent --dump-class`.  (test_sysent checks
# every class against strace on all syscall numbers; this adds real runs.)
set -u
dump="$TOP/$BUILD/tests/test_sysent"
command -v strace >/dev/null 2>&1 || { echo "strace not installed"; exit 77; }
[ -x "$dump" ] || { echo "no $dump (make $BUILD/tests/test_sysent)"; exit 77; }

cmd='ls -la / >/dev/null; cat /etc/passwd >/dev/null; id >/dev/null; date >/dev/null;
sleep 0.01; stat / >/dev/null; df / >/dev/null 2>&1; true'
fail=0
for class in %file %desc %network %process %memory %signal %ipc %creds %clock \
	%stat %lstat %fstat %%stat %statfs %fstatfs %%statfs %pure; do
	"$dump" --dump-class "$class" | sort > "$TMPDIR/ours" || {
		echo "test_sysent --dump-class $class failed"; fail=1; continue; }
	strace -f -qq -e trace="$class" -o "$TMPDIR/trace" sh -c "$cmd" || {
		echo "strace -e trace=$class failed"; fail=1; continue; }
	sed -n 's/^[0-9]* *\([a-z0-9_]*\)(.*/\1/p; s/^[0-9]* *<\.\.\. \([a-z0-9_]*\) resumed>.*/\1/p' \
		"$TMPDIR/trace" | grep -v '^syscall_0x' | sort -u > "$TMPDIR/theirs"
	extra=$(comm -13 "$TMPDIR/ours" "$TMPDIR/theirs")
	if [ -n "$extra" ]; then
		echo "$class: strace reports syscalls that are not in our class:" $extra
		fail=1
	fi
	echo "$class: $(wc -l < "$TMPDIR/theirs") distinct syscalls seen, all in our class"
done
exit $fail
