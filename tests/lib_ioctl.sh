# Shared by the ioctl decoder tests (tests/t/decode_ioctl_*.sh), sourced
# after tests/lib.sh.
#
#   ioctl_compare PROG [ARGS...]
#       compares renacer's ioctl lines of PROG with strace's: as is, with -v,
#       -X raw, -X verbose, and with every ioctl made to succeed
#       (-e inject=ioctl:retval=0, which shows the output structures) as is,
#       with -v and with -X verbose; prints the differences and returns 1
#       when any run differs.

ioctl_compare() {
	_prog=$1
	shift
	_rc=0
	for _opts in "" "-v" "-X raw" "-X verbose" \
		"-e inject=ioctl:retval=0" "-v -e inject=ioctl:retval=0" \
		"-X verbose -e inject=ioctl:retval=0" "-X raw -v -e inject=ioctl:retval=0"; do
		# shellcheck disable=SC2086
		compare_with_strace -e trace=ioctl $_opts -- "$_prog" "$@" || _rc=1
	done
	return $_rc
}
