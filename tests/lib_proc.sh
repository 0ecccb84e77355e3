# Shell functions for tests that trace several processes or compare pids
# (tests/t/decode_process.sh, decode_signal.sh, ...).  Source tests/lib.sh
# first, then this file.  POSIX sh and POSIX awk (mawk).
#
#   norm_trace                  filter: a trace (strace -o format, with or
#                               without "PID " prefixes) made comparable
#                               between two runs:
#                                 1. "<unfinished ...>" halves are joined with
#                                    their "<... NAME resumed>" halves;
#                                 2. pids are named P1, P2, ... in order of
#                                    first appearance (line prefixes, results
#                                    of getpid/gettid/fork/vfork/clone/clone3/
#                                    set_tid_address), and known pids are
#                                    replaced in pid-taking calls and in
#                                    "--- SIG..." lines;
#                                 3. lines are grouped by process (stable);
#                                 4. mask_trace and the result column padding.
#   compare_norm A B [LABEL]    norm_trace both files and diff them; prints the
#                               first 60 lines of the diff and returns 1 when
#                               they differ.

norm_trace() {
	awk '
	function pidof_line(line,   m) {
		if (match(line, /^[0-9]+ +/)) {
			m = substr(line, 1, RLENGTH)
			sub(/ +$/, "", m)
			return m
		}
		return ""
	}
	function name(p) {
		if (!(p in pname)) {
			pname[p] = "P" (++npid)
			order[p] = npid
		}
		return pname[p]
	}
	{
		p = pidof_line($0)
		body = $0
		if (p != "")
			body = substr($0, RLENGTH + 1)
		key = (p == "" ? "-" : p)
		if (body ~ / <unfinished \.\.\.>$/) {
			sub(/ <unfinished \.\.\.>$/, "", body)
			pend[key] = body
			if (p != "") name(p)
			next
		}
		if (body ~ /^<\.\.\. [a-z0-9_]+ resumed>/) {
			rest = body
			sub(/^<\.\.\. [a-z0-9_]+ resumed>/, "", rest)
			body = pend[key] rest
			delete pend[key]
		}
		if (p != "") name(p)
		# pids returned by calls
		if (body ~ /^(getpid|gettid|fork|vfork|clone|clone3|set_tid_address)\(.*\) += [0-9]+$/) {
			r = body
			sub(/.* += /, "", r)
			name(r)
		}
		n++
		lp[n] = key
		lb[n] = body
	}
	END {
		for (k in pend) {
			n++
			lp[n] = k
			lb[n] = pend[k] " <unfinished ...>"
		}
		for (i = 1; i <= n; i++) {
			b = lb[i]
			if (b ~ /^(kill|tkill|tgkill|wait4|waitid|rt_sigqueueinfo|rt_tgsigqueueinfo|prlimit64|getpid|gettid|fork|vfork|clone|clone3|set_tid_address|getpgid|getsid|setpgid|sched_getaffinity|sched_setaffinity|rt_sigreturn|pidfd_open)\(/ || b ~ /^--- /) {
				out = ""
				while (match(b, /[0-9]+/)) {
					tok = substr(b, RSTART, RLENGTH)
					pre = substr(b, 1, RSTART - 1)
					c0 = substr(pre, length(pre), 1)
					c1 = substr(b, RSTART + RLENGTH, 1)
					if ((tok in pname) && c0 !~ /[A-Za-z0-9_x]/ && c1 !~ /[A-Za-z0-9_]/)
						out = out pre pname[tok]
					else
						out = out pre tok
					b = substr(b, RSTART + RLENGTH)
				}
				b = out b
			}
			g = (lp[i] == "-" ? 0 : order[lp[i]])
			printf "%06d %09d %s%s\n", g, i, (lp[i] == "-" ? "" : pname[lp[i]] " "), b
		}
	}' | sort | cut -c18- | mask_trace | sed -E 's/\) +=/) =/'
}

compare_norm() {
	_a=$1 _b=$2 _label=${3:-trace}
	norm_trace <"$_a" >"$_a.norm"
	norm_trace <"$_b" >"$_b.norm"
	if ! cmp -s "$_a.norm" "$_b.norm"; then
		echo "$_label: differs from strace (- strace, + renacer, after normalizing):"
		diff -u "$_a.norm" "$_b.norm" | sed -n '3,62p'
		return 1
	fi
	return 0
}
