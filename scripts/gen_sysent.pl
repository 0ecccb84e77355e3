#!/usr/bin/perl
# Generates the syscall table (build/gen/sysent.c) from the kernel headers:
#  - numbers and names from <asm/unistd_64.h> (linux-libc-dev),
#  - argument names, counts and C types from include/linux/syscalls.h
#    (linux-headers-<version>-common), with arch overrides from
#    src/arch/<arch>/prototypes.in for calls the kernel leaves unnamed there;
#    each C type becomes the width and signedness the kernel reads the
#    register with (ARG_S32 for int, ARG_U16 for umode_t, ...),
#  - classes from src/sys/classes.in,
#  - what each call does (struct sysent's sem, argrole, io_in, io_out,
#    retkind, memop) from src/sys/semantics.in and the prototypes' argument types
#    and names,
#  - decoders from SYS_FUNC(name) definitions in src/sys/*.c.
use strict;
use warnings;

my ($arch, $classes, $decdir) = ('x86_64', 'src/sys/classes.in', 'src/sys');
my $semantics = 'src/sys/semantics.in';
my $arg_list = 0;   # --arg-list: the argument types as an X-macro list (for tests)
while (@ARGV) {
	my $a = shift @ARGV;
	if ($a eq '--arch') { $arch = shift @ARGV; }
	elsif ($a eq '--arg-list') { $arg_list = 1; }
	elsif ($a eq '--classes') { $classes = shift @ARGV; }
	elsif ($a eq '--semantics') { $semantics = shift @ARGV; }
	elsif ($a eq '--decoders') { $decdir = shift @ARGV; }
	else { die "gen_sysent: unknown argument '$a'\n"; }
}

my %unistd = (x86_64 => 'asm/unistd_64.h', aarch64 => 'asm-generic/unistd.h');
my $uh;
for my $dir ('/usr/include/x86_64-linux-gnu', '/usr/include/aarch64-linux-gnu', '/usr/include') {
	my $f = "$dir/$unistd{$arch}";
	if (-f $f) { $uh = $f; last; }
}
die "gen_sysent: no $unistd{$arch} (install linux-libc-dev)\n" unless $uh;

my %nr;  # name -> number
open(my $fh, '<', $uh) or die "gen_sysent: cannot open '$uh': $!\n";
while (<$fh>) {
	$nr{$1} = $2 if /^#define\s+__NR_(\w+)\s+(\d+)\s*$/;
}
close $fh;
die "gen_sysent: no syscall numbers in '$uh'\n" unless %nr;

my @hdrs = sort glob('/usr/src/linux-headers-*-common/include/linux/syscalls.h');
die "gen_sysent: no include/linux/syscalls.h (install linux-headers-*-common: make deps)\n" unless @hdrs;
my $sh = $hdrs[-1];

# name -> [argnames], name -> [enum arg_type], name -> [C types as written]
my (%proto, %ptype, %pctype);

# How the kernel reads a register passed as C type $t (see enum arg_type in
# src/sys/sysent.h).  An unknown type stops the build: decide its width here.
my %argtype = (
	'int' => 'ARG_S32', 'signed int' => 'ARG_S32', 'pid_t' => 'ARG_S32',
	'clockid_t' => 'ARG_S32', 'mqd_t' => 'ARG_S32', 'timer_t' => 'ARG_S32',
	'key_t' => 'ARG_S32', '__s32' => 'ARG_S32', 'rwf_t' => 'ARG_S32',
	'key_serial_t' => 'ARG_S32',
	'unsigned int' => 'ARG_U32', 'unsigned' => 'ARG_U32', 'u32' => 'ARG_U32',
	'__u32' => 'ARG_U32', 'uint32_t' => 'ARG_U32', 'uid_t' => 'ARG_U32',
	'gid_t' => 'ARG_U32', 'qid_t' => 'ARG_U32',
	'umode_t' => 'ARG_U16', 'old_uid_t' => 'ARG_U16', 'old_gid_t' => 'ARG_U16',
	'long' => 'ARG_S64', 'off_t' => 'ARG_S64', 'loff_t' => 'ARG_S64',
	'unsigned long' => 'ARG_U64', 'size_t' => 'ARG_U64', 'u64' => 'ARG_U64',
	'aio_context_t' => 'ARG_U64', 'old_sigset_t' => 'ARG_U64',
	'cap_user_header_t' => 'ARG_PTR', 'cap_user_data_t' => 'ARG_PTR',
	'__sighandler_t' => 'ARG_PTR',
);
sub argtype {
	my ($t, $where) = @_;
	return 'ARG_PTR' if $t =~ /\*/;
	$t =~ s/\b(const|volatile|__user)\b//g;
	$t =~ s/\s+/ /g;
	$t =~ s/^\s+|\s+$//g;
	return 'ARG_U32' if $t =~ /^enum \w+$/;
	die "gen_sysent: $where: no width for C type '$t' (add it to %argtype)\n"
		unless $argtype{$t};
	return $argtype{$t};
}

sub add_protos {
	my ($text, $override) = @_;
	$text =~ s{/\*.*?\*/}{}gs;
	while ($text =~ /(?:asmlinkage\s+long\s+sys_|^)(\w+)\s*\(([^;{)]*)\)\s*;/mg) {
		my ($name, $args) = ($1, $2);
		next if !$override && exists $proto{$name};
		$args =~ s/\s+/ /g;
		$args =~ s/^\s+|\s+$//g;
		my (@names, @types, @ctypes);
		if ($args ne 'void' && $args ne '') {
			for my $a (split /,/, $args) {
				$a =~ s/^\s+|\s+$//g;
				$a =~ s/\[.*\]$//;
				my ($n) = $a =~ /(\w+)\s*$/;
				my $t = $a;
				# a lone type ("int", "unsigned long", "int __user *") has no name
				if (!defined $n || $a !~ /\s|\*/ || $n =~ /^(int|long|unsigned|__user)$/
				    || $a =~ /^(unsigned|signed)\s+\w+$/ && $n =~ /^(int|long|short|char)$/) {
					$n = 'arg' . scalar(@names);
				} else {
					$t =~ s/\w+\s*$//;
				}
				push @names, $n;
				push @types, argtype($t, "$name argument " . scalar(@names));
				push @ctypes, $t;
			}
		}
		$proto{$name} = \@names;
		$ptype{$name} = \@types;
		$pctype{$name} = \@ctypes;
	}
}
{
	local $/;
	open(my $p, '<', $sh) or die "gen_sysent: cannot open '$sh': $!\n";
	my $t = <$p>;
	close $p;
	my %kproto;
	$t =~ s{/\*.*?\*/}{}gs;
	add_protos(join("\n", $t =~ /(asmlinkage\s+long\s+sys_\w+\s*\([^;]*\)\s*;)/g), 0);
	my $ov = "src/arch/$arch/prototypes.in";
	if (-f $ov) {
		open(my $o, '<', $ov) or die "gen_sysent: cannot open '$ov': $!\n";
		my $ot = do { local $/ = "\n"; join("", grep { !/^\s*#/ } <$o>) };
		close $o;
		add_protos($ot, 1);
	}
}

# The kernel names some entry points differently from their __NR_ names.
my %alias = (stat => 'newstat', lstat => 'newlstat', fstat => 'newfstat',
	uname => 'newuname', umount2 => 'umount', sysctl => 'sysctl',
	newfstatat => 'newfstatat');

# classes
my %cls;
my %clsbits = map { $_->[0] => $_->[1] } (
	['%file', 'TRACE_FILE'], ['%desc', 'TRACE_DESC'], ['%network', 'TRACE_NETWORK'],
	['%process', 'TRACE_PROCESS'], ['%memory', 'TRACE_MEMORY'], ['%signal', 'TRACE_SIGNAL'],
	['%ipc', 'TRACE_IPC'], ['%creds', 'TRACE_CREDS'], ['%clock', 'TRACE_CLOCK'],
	['%stat', 'TRACE_STAT'], ['%lstat', 'TRACE_LSTAT'], ['%fstat', 'TRACE_FSTAT'],
	['%%stat', 'TRACE_STAT_LIKE'], ['%statfs', 'TRACE_STATFS'], ['%fstatfs', 'TRACE_FSTATFS'],
	['%%statfs', 'TRACE_STATFS_LIKE'], ['%pure', 'TRACE_PURE']);
{
	open(my $c, '<', $classes) or die "gen_sysent: cannot open '$classes': $!\n";
	my $cur;
	while (<$c>) {
		s/#.*//;
		next unless /\S/;
		if (/^\s*(%%?\w+)\s*:(.*)$/) {
			$cur = $1;
			die "gen_sysent: unknown class '$cur' in $classes\n" unless $clsbits{$cur};
			$_ = $2;
		}
		die "gen_sysent: $classes:$.: names before a class\n" unless $cur;
		for my $n (split) {
			$cls{$n}{$clsbits{$cur}} = 1;
		}
	}
	close $c;
}

# decoders
my %dec;
for my $f (sort glob("$decdir/*.c")) {
	open(my $d, '<', $f) or die "gen_sysent: cannot open '$f': $!\n";
	while (<$d>) {
		$dec{$1} = 1 if /^SYS_FUNC\((\w+)\)/;
	}
	close $d;
}

my $max = 0;
for (values %nr) { $max = $_ if $_ > $max; }
my @rows;
$rows[$nr{$_}] = $_ for keys %nr;

sub row_proto {
	my ($n) = @_;
	my $k = ($alias{$n} && $proto{$alias{$n}}) ? $alias{$n} : $n;
	return ($proto{$k}, $ptype{$k}, $pctype{$k});
}

# semantics: name -> {SEM_* => 1}, name -> fd kind, name -> io_in/io_out
# argument index, "name/index" -> role
my (%sem, %retkind, %io, %role, %memop);
my %path_names = map { $_ => 1 } qw(filename pathname path oldname newname old new
	oldpath newpath linkpath target dev_name dir_name new_root put_old library
	specialfile special from_path to_path);
my %dirfd_names = map { $_ => 1 } qw(dfd olddfd newdfd from_dfd to_dfd dirfd mountdirfd);
# The role of argument $i of $n from its prototype.
sub auto_role {
	my ($n, $i, $name, $ct) = @_;
	my $ptr = $ct =~ /\*/;
	return 'ROLE_ARGV' if $ptr && $name eq 'argv' && $n =~ /^execve/;
	return 'ROLE_ENVP' if $ptr && $name eq 'envp' && $n =~ /^execve/;
	return 'ROLE_SOCKADDR' if $ptr && $ct =~ /struct\s+sockaddr\b/;
	return 'ROLE_PATH' if $ptr && $ct =~ /\bchar\b/ && $path_names{$name};
	return 'ROLE_PID' if !$ptr && $ct =~ /\bpid_t\b/;
	return 'ROLE_DIRFD' if !$ptr && $dirfd_names{$name};
	return 'ROLE_FD' if !$ptr && ($name =~ /fd/ || $name eq 'fildes') && $name ne 'nfds';
	return 'ROLE_NONE';
}
{
	my %kinds = map { $_ => 1 } qw(file dir device tty pipe socket eventfd timerfd
		signalfd epoll inotify pidfd anon);
	my %roles = map { $_ => 1 } qw(fd dirfd path pid sockaddr msghdr argv envp fdpair none);
	open(my $s, '<', $semantics) or die "gen_sysent: cannot open '$semantics': $!\n";
	my ($what, $arg);
	while (<$s>) {
		s/#.*//;
		next unless /\S/;
		if (/^\@(\w+)\s*:(.*)$/) {
			($what, $arg, $_) = ('sem', 'SEM_' . uc($1), $2);
		} elsif (/^=(\w+)\s*:(.*)$/) {
			die "gen_sysent: $semantics:$.: unknown kind '$1'\n" unless $kinds{$1};
			($what, $arg, $_) = ('kind', 'FDK_' . uc($1), $2);
		} elsif (/^(io_in|io_out)\s*:(.*)$/) {
			($what, $arg, $_) = ('io', $1, $2);
		} elsif (/^mem\s+(\w+)\s*:(.*)$/) {
			my ($op, $rest) = ($1, $2);
			die "gen_sysent: $semantics:$.: unknown memory operation '$op'\n"
				unless $op =~ /^(map|unmap|remap|protect|brk)$/;
			($what, $arg, $_) = ('mem', 'MEMOP_' . uc($op), $rest);
		} elsif (/^role\s+(\w+)\s*:(.*)$/) {
			die "gen_sysent: $semantics:$.: unknown role '$1'\n" unless $roles{$1};
			($what, $arg, $_) = ('role', 'ROLE_' . uc($1), $2);
		} elsif (!/^\s/) {
			die "gen_sysent: $semantics:$.: cannot parse '$_'\n";
		}
		die "gen_sysent: $semantics:$.: names before a property\n" unless $what;
		for my $w (split) {
			my ($n, $an) = $w =~ /^(\w+)(?:\((\w+)\))?$/
				or die "gen_sysent: $semantics:$.: bad name '$w'\n";
			die "gen_sysent: $semantics:$.: unknown syscall '$n'\n" unless exists $nr{$n};
			if ($what eq 'sem') {
				$sem{$n}{$arg} = 1;
				next;
			}
			if ($what eq 'kind') {
				$retkind{$n} = $arg;
				next;
			}
			if ($what eq 'mem') {
				$memop{$n} = $arg;
				next;
			}
			my ($p) = row_proto($n);
			die "gen_sysent: $semantics:$.: '$w' needs an argument name\n" unless defined $an;
			my ($i) = grep { $p->[$_] eq $an } 0 .. $#$p;
			die "gen_sysent: $semantics:$.: $n has no argument '$an'\n" unless defined $i;
			if ($what eq 'io') { $io{$n}{$arg} = $i; } else { $role{"$n/$i"} = $arg; }
		}
	}
	close $s;
}

if ($arg_list) {
	# SYSARG_ROW(nr, name, nargs, {"argname", ARG_type}, ... one per argument)
	print "/* Generated by scripts/gen_sysent.pl --arg-list from $uh and $sh: do not edit. */\n";
	for my $i (0 .. $max) {
		my $n = $rows[$i];
		next unless defined $n;
		my ($p, $t) = row_proto($n);
		die "gen_sysent: no prototype for $n\n" unless $p;
		my @f = map { "{\"$p->[$_]\", $t->[$_]}" } 0 .. $#$p;
		printf "SYSARG_ROW(%s)\n", join(', ', $i, $n, scalar(@$p), @f);
	}
	exit 0;
}

print "/* Generated by scripts/gen_sysent.pl from $uh and $sh: do not edit. */\n";
print "#include \"sys/sysent.h\"\n#include \"sys/decode.h\"\n\n";
for my $d (sort keys %dec) {
	print "int sys_decode_$d(struct dctx *, struct event *, int);\n";
}
print "\n";
my @missing;
for my $i (0 .. $max) {
	my $n = $rows[$i];
	next unless defined $n;
	my $p = ($alias{$n} && $proto{$alias{$n}}) // $proto{$n};
	if (!defined $p) { push @missing, $n; $p = []; }
	next unless @$p;
	print "static const char *const args_$n\[] = { ", join(', ', map { "\"$_\"" } @$p), " };\n";
}
print "\nconst struct sysent sysent_table[] = {\n";
for my $i (0 .. $max) {
	my $n = $rows[$i];
	next unless defined $n;
	my ($p, $t, $ct) = row_proto($n);
	$p //= [];
	$t //= [];
	$ct //= [];
	my $flags = join('|', sort keys %{$cls{$n} // {}}) || '0';
	my $an = @$p ? "args_$n" : 'NULL';
	my $d = $dec{$n} ? "sys_decode_$n" : 'NULL';
	my $at = @$t ? '{ ' . join(', ', @$t) . ' }' : '{ 0 }';
	my $sm = join('|', sort keys %{$sem{$n} // {}}) || '0';
	my @roles = map { $role{"$n/$_"} // auto_role($n, $_, $p->[$_], $ct->[$_] // '') } 0 .. $#$p;
	my $ar = @roles ? '{ ' . join(', ', @roles) . ' }' : '{ 0 }';
	my ($ii, $io) = ($io{$n}{io_in} // -1, $io{$n}{io_out} // -1);
	my $rk = $retkind{$n} // 'FDK_UNKNOWN';
	my $mo = $memop{$n} // 'MEMOP_NONE';
	printf "\t[%d] = { \"%s\", %d, %s, %s, %s, %s, %s, %s, %d, %d, %s, %s },\n", $i, $n,
		scalar(@$p), $flags, $an, $d, $at, $sm, $ar, $ii, $io, $rk, $mo;
}
print "};\n\nconst unsigned sysent_count = ", $max + 1, ";\n";

# Names the other personalities of this architecture have and it lacks
# (i386 and x32 on x86_64: stat64, ...): strace accepts them in -e trace=,
# where they match no number of this table.
my %compat_hdrs = (x86_64 => ['asm/unistd_32.h', 'asm/unistd_x32.h']);
my %compat;
for my $h (@{$compat_hdrs{$arch} // []}) {
	(my $f = $uh) =~ s{asm/unistd_64\.h$}{$h};
	open(my $ch, '<', $f) or die "gen_sysent: cannot open '$f': $!\n";
	while (<$ch>) {
		$compat{$1} = 1 if /^#define\s+__NR_(\w+)\s/ && !exists $nr{$1};
	}
	close $ch;
}
print "\nconst char *const sysent_compat_names[] = {\n";
print "\t\"$_\",\n" for sort keys %compat;
print "\tNULL\n};\n";
if (@missing) {
	print STDERR "gen_sysent: no prototype for: @missing\n";
	exit 1;
}
for my $n (keys %cls) {
	die "gen_sysent: $classes names unknown syscall '$n'\n" unless exists $nr{$n};
}
