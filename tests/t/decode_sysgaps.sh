#!/bin/sh
# Issue 21's decoders against strace 6.1 (tests/progs/sysgaps): every
# io_uring_register opcode strace decodes (files updates, the probe,
# restrictions, rsrc register/update2, io-wq affinity and worker limits,
# ring fds, buffer rings), keyctl's Diffie-Hellman, public key and
# capability commands, kexec_load/kexec_file_load, move_pages, mq_notify's
# sigevent, the new mount API, fanotify, quotactl, syslog, personality,
# sched_getattr, select/pselect6, clone3, statx, epoll_pwait2, futex_waitv,
# perf_event_open's config, socket()'s protocol in each family strace names
# (AF_PACKET's ETH_P_*), the option names of every socket level,
# personality's domains, open's __O_TMPFILE and
# others, with good, bad, NULL and unreadable arguments.  Each section's
# lines after the sched_yield() marker are compared after masking (string
# literals of the program sit at PIE addresses; a new thread keyring's
# serial differs run to run), with the default options, -X raw, -X verbose,
# -v -s 4 and -yy.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog sysgaps) || exit 1

MASK_EXTRA='s/^(keyctl\((KEYCTL_GET_KEYRING_ID|0 \/\* KEYCTL_GET_KEYRING_ID \*\/|0), .*\) += )[0-9]+$/\1N/'
export MASK_EXTRA

sections="uring keys mempol mqueue mqbad fsapi fanot admin misc more proto bits sockopts"
rc=0
for opts in "" "-X raw" "-X verbose" "-v -s 4" "-yy"; do
	for s in $sections; do
		# shellcheck disable=SC2086
		run_both $opts -- "$prog" "$s"
		if [ "$STRACE_RC" != 0 ] || [ "$RENACER_RC" != 0 ]; then
			echo "sysgaps $s ($opts): exit status: strace run $STRACE_RC, renacer run $RENACER_RC"
			head -n 3 "$(dirname "$STRACE_OUT")/strace.stderr"
			rc=1
			continue
		fi
		sed -n '/^sched_yield() /,$p' "$STRACE_OUT" >"$STRACE_OUT.cut"
		sed -n '/^sched_yield() /,$p' "$RENACER_OUT" >"$RENACER_OUT.cut"
		[ "$(wc -l <"$STRACE_OUT.cut")" -gt 8 ] ||
			fail "sysgaps $s: too few lines in strace's trace"
		compare_traces "$STRACE_OUT.cut" "$RENACER_OUT.cut" "sysgaps $s ($opts)" || rc=1
	done
done

# The decoded forms themselves, so that a decoder falling back to an
# address on both sides (a probe that stops working) is noticed.
run_both -- "$prog" uring
for want in 'IORING_REGISTER_PROBE, {last_op=' 'IORING_REGISTER_RESTRICTIONS, [{opcode=' \
	'IORING_REGISTER_IOWQ_MAX_WORKERS, [[IO_WQ_BOUND]=' 'IORING_REGISTER_PBUF_RING, {ring_addr=' \
	'IORING_REGISTER_FILES_UPDATE, {offset='; do
	grep -qF "$want" "$RENACER_OUT" || { echo "uring: no '$want' line"; rc=1; }
done
run_both -- "$prog" keys
for want in 'KEYCTL_DH_COMPUTE, {private=1, prime=2, base=KEY_SPEC_USER_KEYRING}' \
	'KEYCTL_PKEY_VERIFY, {key_id=' 'KEYCTL_CAPABILITIES, [KEYCTL_CAPS0_'; do
	grep -qF "$want" "$RENACER_OUT" || { echo "keys: no '$want' line"; rc=1; }
done
run_both -- "$prog" admin
grep -qF 'kexec_load(0x1000000, 1, [{buf=0x5f000000, bufsz=16, mem=0x100000, memsz=4096}], KEXEC_ARCH_X86_64|KEXEC_ON_CRASH|KEXEC_PRESERVE_CONTEXT)' "$RENACER_OUT" ||
	{ echo "admin: no decoded kexec_load line"; rc=1; }
run_both -- "$prog" proto
for want in 'socket(AF_CAN, 0x7f /* SOCK_??? */, CAN_RAW)' \
	'socket(AF_AX25, 0x7f /* SOCK_??? */, 0xcc /* AX25_P_IP */)' \
	'socket(AF_PACKET, 0x7f /* SOCK_??? */, htons(ETH_P_QINQ1))' \
	'socket(AF_RXRPC, 0x7f /* SOCK_??? */, AF_INET6)'; do
	grep -qF "$want" "$RENACER_OUT" || { echo "proto: no '$want' line"; rc=1; }
done
run_both -- "$prog" sockopts
for want in 'getsockopt(-1, SOL_IP, IPT_SO_GET_INFO, NULL, NULL)' \
	'setsockopt(-1, SOL_IP, IPT_SO_SET_REPLACE, NULL, 0)' \
	'getsockopt(-1, SOL_SCTP, SCTP_RTOINFO, NULL, NULL)' \
	'getsockopt(-1, SOL_CAN_RAW, CAN_RAW_FILTER, NULL, NULL)'; do
	grep -qF "$want" "$RENACER_OUT" || { echo "sockopts: no '$want' line"; rc=1; }
done
exit $rc
