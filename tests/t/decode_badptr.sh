#!/bin/sh
# Unreadable tracee memory (tests/progs/badptr): NULL and bad pointers,
# strings and buffers running into an unmapped page, bad output structures.
# renacer must print the addresses exactly where strace does.
. "$TOP/tests/lib.sh"
need_strace
prog=$(need_prog badptr) || exit 1
compare_with_strace -e trace=openat,write,read,stat,fstat,writev,pipe2,getcwd,readlink,getdents64,close -- "$prog"
