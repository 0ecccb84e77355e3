#!/usr/bin/perl
# Generates the table of ioctl request names (build/gen/ioctlent.c) from the
# kernel's uapi headers installed by linux-libc-dev (and glibc's scsi/):
#   perl scripts/gen_ioctlent.pl [--include DIR] [--arch-include DIR] > ioctlent.c
#
# A request is a macro whose definition is built with _IO, _IOR, _IOW, _IOWR
# or _IOC (directly, or through a macro of the same headers that is), or an
# alias of such a macro; in the few headers that number their requests as
# plain constants (terminal, socket, cdrom, kd ...) a 0xTTNN constant whose
# type byte TT is the header's (the table %numeric below).  Macros taking
# arguments (EVIOCGNAME(len)) are decoded by the ioctl decoders instead.
# The C compiler computes every value (sizes of structures included): the
# output is one C file that includes the headers and lists
#   { NAME, "NAME" }
# each under #ifdef NAME.  src/sys/ioctlent.c sorts it at run time.
use strict;
use warnings;
use File::Find;
use Getopt::Long;

my $inc = '/usr/include';
my $arch_inc;
GetOptions('include=s' => \$inc, 'arch-include=s' => \$arch_inc)
	or die "usage: gen_ioctlent.pl [--include DIR] [--arch-include DIR]\n";
unless (defined $arch_inc) {
	my $ma = `gcc -print-multiarch 2>/dev/null` // '';
	chomp $ma;
	$arch_inc = $ma ne '' ? "$inc/$ma" : $inc;
}

# Directories scanned (relative to the include roots), recursively.
my @dirs = qw(linux asm-generic asm mtd rdma sound misc video xen scsi);

# Headers that number requests as plain constants: the type byte of theirs.
my %numeric = (
	'asm-generic/ioctls.h' => [0x54],
	'asm/ioctls.h' => [0x54],
	'asm-generic/sockios.h' => [0x89],
	'asm/sockios.h' => [0x89],
	'linux/sockios.h' => [0x89],
	'linux/cdrom.h' => [0x53],
	'linux/fb.h' => [0x46],
	'linux/hdreg.h' => [0x03],
	'linux/kd.h' => [0x4b],
	'linux/loop.h' => [0x4c],
	'linux/vt.h' => [0x56],
	'linux/wireless.h' => [0x8b],
	'scsi/scsi.h' => [0x53],
	'scsi/scsi_ioctl.h' => [0x53],
	'scsi/sg.h' => [0x22],
);

# Headers of the kernel's own include tree (/usr/src/linux-headers-*-common,
# which deps.sh installs) with requests numbered as plain constants that no
# uapi header has (glibc's scsi/sg.h lacks SG_GET_ACCESS_COUNT): the
# literal values are copied, for the names the headers above do not define.
my %kernel_numeric = (
	'include/scsi/sg.h' => [0x22],
);
# ... and headers of it with requests written _IOW('E', 1, u64): a type
# character, a number and a fixed-size integer type (include/acpi/apei.h's
# APEI_ERST_*, which strace names among the evdev numbers), computed here.
my %kernel_ioc = (
	'include/acpi/apei.h' => [0x45],
);
my %int_size = (u8 => 1, u16 => 2, u32 => 4, u64 => 8, __u8 => 1, __u16 => 2, __u32 => 4,
		__u64 => 8, int => 4, long => 8);

# Headers that cannot be compiled together with the others (or alone).
my %skip = map { $_ => 1 } qw(
	linux/coda.h
);

# Requests left out, as strace leaves them out: those of other
# architectures in linux/kvm.h, and the v4l2-subdev.h requests that are
# the same numbers as the VIDIOC_ ones they copy (strace shows VIDIOC_G_STD,
# not "VIDIOC_G_STD or VIDIOC_SUBDEV_G_STD").
# The names strace 6.1's table lacks are left out too, so that the same
# numbers print the same: newer ones (SNDRV_SEQ_IOCTL_USER_PVERSION),
# xen/gntalloc.h's, glibc's SCSI_IOCTL_TAGGED_*, and the generic names of
# DMA_BUF_SET_NAME_B and PPPIOCGIDLE64 (same numbers here).
my @exclude = (
	qr/^KVM_(?:S390|PPC|ARM|ARM64|RISCV)_/,
	qr/^VIDIOC_SUBDEV_(?:G_STD|S_STD|ENUMSTD|QUERYSTD|G_EDID|S_EDID|\w*DV_TIMINGS\w*)$/,
	qr/^(?:SNDRV_SEQ_IOCTL_USER_PVERSION|IOCTL_GNTALLOC_\w+|SCSI_IOCTL_TAGGED_\w+|DMA_BUF_SET_NAME|PPPIOCGIDLE)$/,
);

# Types some headers use that no uapi header declares (Xen's ABI types of
# xen/gntdev.h, from the kernel's xen/interface/; bool), declared before them.
my @prelude = (
	"#include <stdbool.h>",
	"typedef uint32_t grant_ref_t;",
	"typedef uint16_t domid_t;",
);

my @roots = ($arch_inc, $inc);
# where <stddef.h> and the compiler's other headers are
my $cc_inc = `gcc -print-file-name=include 2>/dev/null` // '';
chomp $cc_inc;
# The uapi tree of the kernel's own headers (the newest
# /usr/src/linux-headers-*-common, which deps.sh installs), for the headers
# of it no package of the base system installs (drm/: libdrm's copy is not
# there; scsi/cxlflash_ioctl.h), and for the headers that include them
# (kfd_ioctl.h): their requests are computed here and copied into the
# table as numbers.
my ($kuapi) = grep { -d } map { "$_/include/uapi" }
	reverse sort glob('/usr/src/linux-headers-*-common');
my @kdirs = qw(drm);
my (%file_of, @headers, %ktree);
for my $root (@roots, $kuapi // ()) {
	my $k = defined $kuapi && $root eq $kuapi;
	for my $d ($k ? (@dirs, @kdirs) : @dirs) {
		next unless -d "$root/$d";
		find({ no_chdir => 1, wanted => sub {
			return unless /\.h$/ && -f $_;
			(my $rel = $_) =~ s{^\Q$root\E/}{};
			return if $file_of{$rel} || $skip{$rel};
			$file_of{$rel} = $_;
			$ktree{$rel} = 1 if $k;
		} }, "$root/$d");
	}
}

# Pass 1: every object-like #define of every header.
my (%def, %def_hdr, %enum, @order);
for my $rel (sort keys %file_of) {
	open(my $fh, '<', $file_of{$rel}) or die "gen_ioctlent: cannot open '$file_of{$rel}': $!\n";
	local $/;
	my $text = <$fh>;
	close $fh;
	# a header that includes one this system lacks cannot be compiled
	my $missing = 0;
	while ($text =~ /^\s*#\s*include\s*<([^>]+)>/mg) {
		my $h = $1;
		# drm.h's branch for the BSDs
		next if $h eq 'sys/ioccom.h';
		next if grep { -f "$_/$h" } @roots, $cc_inc;
		if (defined $kuapi && -f "$kuapi/$h") {
			$ktree{$rel} = 1;
		} else {
			$missing = 1;
		}
	}
	next if $missing;
	$text =~ s{/\*.*?\*/}{ }gs;
	$text =~ s{\\\n}{ }g;
	# enum requests written over several lines (binder.h)
	1 while $text =~ s/(=\s*_IO(?:R|W|WR)?\s*\([^();=]*)\n\s*/$1 /;
	my $used = 0;
	for my $line (split /\n/, $text) {
		# requests that are enum constants (binder.h: BC_ACQUIRE = _IOW(...))
		if ($line =~ /^\s*([A-Z][A-Z0-9_]*)\s*=\s*(_IO(?:R|W|WR)?\s*\(.*?\))\s*,?\s*$/) {
			next if exists $def{$1};
			$def{$1} = $2;
			$def_hdr{$1} = $rel;
			$enum{$1} = 1;
			push @order, $1;
			next;
		}
		next unless $line =~ /^\s*#\s*define\s+([A-Za-z_]\w*)(\(?)\s*(.*?)\s*$/;
		my ($name, $paren, $val) = ($1, $2, $3);
		$val =~ s{//.*$}{};
		if ($paren) {
			# a function-like macro that builds requests (a wrapper)
			$def{$name} //= '__WRAPPER__' if $val =~ /\b_IO(?:C|R|W|WR)?\s*\(/;
			next;
		}
		next if exists $def{$name};
		$def{$name} = $val;
		$def_hdr{$name} = $rel;
		push @order, $name;
	}
	push @headers, $rel;
}

# Pass 2: which macros are requests.
my %wrapper = map { $_ => 1 } grep { $def{$_} eq '__WRAPPER__' } keys %def;
$wrapper{$_} = 1 for qw(_IO _IOR _IOW _IOWR _IOC);
# another name for a wrapper (soundcard.h: #define _SIOR _IOR)
for my $pass (1 .. 3) {
	for my $name (@order) {
		$wrapper{$name} = 1 if $def{$name} =~ /^([A-Za-z_]\w*)$/ && $wrapper{$1};
	}
}
my %is_req;
my %hdr_used;
for my $name (@order) {
	my $v = $def{$name};
	my $rel = $def_hdr{$name};
	next if $name =~ /^_/ || grep { $name =~ $_ } @exclude;
	if ($v =~ /^\(?\s*([A-Za-z_]\w*)\s*\(/ && $wrapper{$1}) {
		$is_req{$name} = 1;
	} elsif (my $types = $numeric{$rel}) {
		if ($v =~ /^\(?\s*0x([0-9a-fA-F]{4})\s*\)?$/) {
			my $type = hex($1) >> 8;
			$is_req{$name} = 1 if grep { $_ == $type } @$types;
		}
	}
}
my %literal;   # name -> value of %kernel_numeric's requests
for my $path (sort keys %kernel_numeric) {
	my ($file) = grep { -f } map { "$_/$path" } reverse sort glob('/usr/src/linux-headers-*-common');
	next unless $file;
	open(my $fh, '<', $file) or die "gen_ioctlent: cannot open '$file': $!\n";
	while (my $l = <$fh>) {
		next unless $l =~ /^\s*#\s*define\s+([A-Z]\w*)\s+\(?0x([0-9a-fA-F]{4})\)?\s*(?:$|\/[*\/])/;
		my ($name, $v) = ($1, hex($2));
		next if exists $def{$name} || !grep { $_ == $v >> 8 } @{$kernel_numeric{$path}};
		$literal{$name} = $v;
	}
	close $fh;
}
for my $path (sort keys %kernel_ioc) {
	my ($file) = grep { -f } map { "$_/$path" } reverse sort glob('/usr/src/linux-headers-*-common');
	next unless $file;
	open(my $fh, '<', $file) or die "gen_ioctlent: cannot open '$file': $!
";
	while (my $l = <$fh>) {
		next unless $l =~ /^\s*#\s*define\s+([A-Z]\w*)\s+_IO(R|W|WR)?\(\s*'(.)'\s*,\s*(\d+)\s*(?:,\s*(\w+)\s*)?\)/;
		my ($name, $dir, $type, $nr, $t) = ($1, $2 // '', ord($3), $4, $5);
		my $size = defined $t ? $int_size{$t} : 0;
		next if exists $def{$name} || !defined $size || !grep { $_ == $type } @{$kernel_ioc{$path}};
		my $d = { '' => 0, W => 1, R => 2, WR => 3 }->{$dir};
		$literal{$name} = (($d << 30) | ($size << 16) | ($type << 8) | $nr) & 0xffffffff;
	}
	close $fh;
}

for my $name (keys %is_req) {
	$hdr_used{$def_hdr{$name}} = 1;
}

# Headers that declare the types some requests are sized by, although they
# define no request themselves.
my @context = qw(asm/termbits.h linux/serial.h linux/blktrace_api.h linux/fiemap.h);

my $cc = $ENV{CC} || 'cc';

# The requests of the kernel tree's headers: the compiler computes them
# (-S, read back from the assembly), entries or headers it rejects dropped.
my %kval;
if (grep { $ktree{$_} && $hdr_used{$_} } @headers) {
	my (%kdrop_hdr, %kdrop_req);
	for my $try (1 .. 20) {
		my (@lines, %line_req);
		push @lines, "#include <stddef.h>", "#include <stdint.h>", "#include <sys/types.h>",
			"#include <sys/time.h>", @prelude;
		for my $rel (@context, @headers) {
			next if $kdrop_hdr{$rel};
			next unless ($ktree{$rel} && $hdr_used{$rel}) || grep { $_ eq $rel } @context;
			push @lines, "#include <$rel>";
		}
		for my $name (@order) {
			my $rel = $def_hdr{$name};
			next unless $is_req{$name} && $ktree{$rel} && !$kdrop_req{$name} && !$kdrop_hdr{$rel};
			push @lines, "#ifdef $name" unless $enum{$name};
			push @lines, "const uint32_t gen_ioc_$name = (uint32_t)($name);";
			$line_req{scalar @lines} = $name;
			push @lines, "#endif" unless $enum{$name};
		}
		my $tmp = "/tmp/gen_ioctlent_k.$$";
		open(my $fh, '>', "$tmp.c") or die "gen_ioctlent: cannot write '$tmp.c': $!\n";
		print $fh join("\n", @lines), "\n";
		close $fh;
		my $errs = `$cc -std=gnu11 -D_GNU_SOURCE -w -fmax-errors=0 -D__user= -D__force= -D__iomem= -D__attribute_const__= -idirafter $kuapi -S -o $tmp.s -x c $tmp.c 2>&1`;
		my $ok = $? == 0;
		unlink "$tmp.c";
		if ($ok) {
			open($fh, '<', "$tmp.s") or die "gen_ioctlent: cannot read '$tmp.s': $!\n";
			my $cur;
			while (my $l = <$fh>) {
				if ($l =~ /^gen_ioc_(\w+):/) {
					$cur = $1;
				} elsif (defined $cur && $l =~ /^\s*\.(?:long|int)\s+(-?\d+)/) {
					$kval{$cur} = $1 & 0xffffffff;
					undef $cur;
				}
			}
			close $fh;
			unlink "$tmp.s";
			last;
		}
		unlink "$tmp.s";
		my $progress = 0;
		for my $e (split /\n/, $errs) {
			next unless $e =~ /^(\S+?):(\d+):\d+: error:/;
			my ($file, $line) = ($1, $2);
			if ($file eq "$tmp.c") {
				my $name = $line_req{$line};
				if (defined $name) {
					$kdrop_req{$name} = 1;
					$progress = 1;
				}
				next;
			}
			for my $root (@roots, $kuapi) {
				if ($file =~ m{^\Q$root\E/(.*)$} && $hdr_used{$1} && !$kdrop_hdr{$1}) {
					$kdrop_hdr{$1} = 1;
					$progress = 1;
				}
			}
		}
		last unless $progress;
	}
}

# The C file; entries (or whole headers) the compiler rejects are dropped
# and the file made again: a request sized by a type of another
# architecture (kvm's PowerPC structures) or a kernel-only type, a header
# that needs types no uapi header declares.
my %drop_hdr;
my %drop_req;
my $out;
for my $try (1 .. 20) {
	my (@lines, %line_req);
	push @lines, "/* Generated by scripts/gen_ioctlent.pl from the kernel's uapi headers: do not edit. */";
	push @lines, "#include <stddef.h>", "#include <stdint.h>", "#include <sys/types.h>", "#include <sys/time.h>", @prelude;
	for my $rel (@context, @headers) {
		next if $drop_hdr{$rel} || $ktree{$rel};
		next unless $hdr_used{$rel} || grep { $_ eq $rel } @context;
		push @lines, "#include <$rel>";
	}
	push @lines, "", "#include \"sys/ioctlent.h\"", "";
	push @lines, "const struct ioctlent ioctlent_gen[] = {";
	for my $name (@order) {
		next unless $is_req{$name} && !$drop_req{$name} && !$drop_hdr{$def_hdr{$name}};
		next if $ktree{$def_hdr{$name}};
		push @lines, "#ifdef $name" unless $enum{$name};
		push @lines, "\t{ (uint32_t)($name), \"$name\" },";
		$line_req{scalar @lines} = $name;
		push @lines, "#endif" unless $enum{$name};
	}
	for my $name (sort keys %literal) {
		push @lines, sprintf("\t{ %#06x, \"%s\" },", $literal{$name}, $name);
	}
	for my $name (@order) {
		push @lines, sprintf("\t{ %#x, \"%s\" },", $kval{$name}, $name)
			if exists $kval{$name};
	}
	push @lines, "};", "";
	push @lines, "const size_t ioctlent_gen_count = sizeof(ioctlent_gen) / sizeof(ioctlent_gen[0]);";
	$out = join("\n", @lines) . "\n";

	my $tmp = "/tmp/gen_ioctlent.$$.c";
	open(my $fh, '>', $tmp) or die "gen_ioctlent: cannot write '$tmp': $!\n";
	(my $body = $out) =~ s/^#include "sys\/ioctlent.h"$/struct ioctlent { uint32_t code; const char *name; };/m;
	print $fh $body;
	close $fh;
	my $errs = `$cc -std=gnu11 -D_GNU_SOURCE -fsyntax-only -w -fmax-errors=0 -x c $tmp 2>&1`;
	unlink $tmp;
	last if $? == 0;
	my $progress = 0;
	for my $e (split /\n/, $errs) {
		next unless $e =~ /^(\S+?):(\d+):\d+: error:/;
		my ($file, $line) = ($1, $2);
		if ($file eq $tmp) {
			my $name = $line_req{$line};
			if (defined $name) {
				$drop_req{$name} = 1;
				$progress = 1;
			}
			next;
		}
		for my $root (@roots) {
			if ($file =~ m{^\Q$root\E/(.*)$} && $hdr_used{$1} && !$drop_hdr{$1}) {
				$drop_hdr{$1} = 1;
				$progress = 1;
			}
		}
	}
	die "gen_ioctlent: cannot compile the table:\n$errs" unless $progress;
}
print $out;
