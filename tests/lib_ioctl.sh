# Shared by the ioctl decoder tests (tests/t/decode_ioctl_*.sh), sourced
# after tests/lib.sh.
#
#   ioctl_compare PROG [ARGS...]
#       compares renacer's ioctl lines of PROG with strace's: as is, with -v,
#       -X raw, -X verbose, and with every ioctl made to succeed
#       (-e inject=ioctl:retval=0, which shows the output structures) as is,
#       with -v and with -X verbose; prints the differences and returns 1
#       when any run differs.  IOCTL_RETVALS (default 0): the results the
#       injected runs are made with, one set of runs each (a decoder that
#       reads as many bytes as the call returned needs a positive one).

ioctl_compare() {
	_prog=$1
	shift
	_irc=0
	for _opts in "" "-v" "-X raw" "-X verbose"; do
		# shellcheck disable=SC2086
		compare_with_strace -e trace=ioctl $_opts -- "$_prog" "$@" || _irc=1
	done
	for _ret in ${IOCTL_RETVALS:-0}; do
		for _opts in "" "-v" "-X verbose" "-X raw -v"; do
			# shellcheck disable=SC2086
			compare_with_strace -e trace=ioctl $_opts \
				-e inject=ioctl:retval=$_ret -- "$_prog" "$@" || _irc=1
		done
	done
	return $_irc
}
