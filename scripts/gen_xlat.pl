#!/usr/bin/perl
# Generates a constant-name table (build/gen/xlat/NAME.h) from
# src/sys/xlat/NAME.in:  perl scripts/gen_xlat.pl src/sys/xlat/NAME.in > NAME.h
#
# Format of a .in file (one item per line; see also src/sys/xlat/README):
#   # comment              a line starting with '#' that is not a directive
#   #include <hdr.h>       passed through to the header (also "#include \"x\"")
#   #flags                 the table is a flag set (the default)
#   #enum                  the table is an enumeration
#   #unknown PREFIX_???    text shown for an unknown enum value
#   NAME                   a constant the included headers define
#   NAME VALUE             VALUE (a C expression) is used when the headers
#                          do not define NAME (#ifdef NAME ... #else VALUE)
#   #sorted                the entries sorted by value (their values must be
#                          literal numbers: 0x10, 4, (1 << 3), _BITUL(3))
#   "TEXT" EXPR            an entry shown as TEXT whose value is the C
#                          expression EXPR (a bit number's flag:
#                          "1<<_UFFDIO_API" (1ULL << _UFFDIO_API))
#   #from <hdr.h> RE [!EX] every object-like macro of hdr.h (in the system
#                          include directories) whose name matches the Perl
#                          regular expression RE and not EX, in the header's
#                          order, but those defined as another macro's name,
#                          and the members of its enums; hdr.h is included
#   #from-defines <hdr.h> RE [!EX]  the same without the enum members
#   #from <hdr.h> RE [!EX] @VRE  only the #defines whose value (spaces
#                          removed) matches VRE (keyboard.h's K(KT_FN,...))
#   #from-kernel PATH RE [!EX]  the same from a header of the kernel's own
#                          include tree (PATH relative to the newest
#                          /usr/src/linux-headers-*-common, which deps.sh
#                          installs), for constants no uapi header has
#                          (include/linux/ata.h's ATA_CMD_*): #defines and
#                          enum members with a literal number only, whose
#                          values are copied (the header is not included)
# Blank lines are ignored.  Entries keep file order: flag rendering tries
# them in that order, so list multi-bit values sensibly (or decode them in
# the decoder) and put zero-valued names in an enum, not a flag set.
#
# The header defines NAME_data[] (struct xlat_data) and NAME[1] (struct xlat,
# src/event.h), so a decoder writes #include "xlat/NAME.h" and passes NAME.
use strict;
use warnings;

die "usage: gen_xlat.pl NAME.in\n" unless @ARGV == 1;
my $in = $ARGV[0];
my ($name) = $in =~ m{([A-Za-z_][A-Za-z0-9_]*)\.in$}
	or die "gen_xlat: bad file name '$in'\n";
open(my $fh, '<', $in) or die "gen_xlat: cannot open '$in': $!\n";

my $type = 'XT_FLAGS';
my $sorted = 0;
my %header_value;   # #define values seen by #from, for #sorted
my $unknown;
my (@includes, @items);
my %seen;
while (my $line = <$fh>) {
	chomp $line;
	$line =~ s/\s+$//;
	next if $line =~ /^\s*$/;
	if ($line =~ /^#\s*include\s+(\S.*)$/) {
		push @includes, "#include $1";
	} elsif ($line =~ /^#flags$/) {
		$type = 'XT_FLAGS';
	} elsif ($line =~ /^#enum$/) {
		$type = 'XT_ENUM';
	} elsif ($line =~ /^#unknown\s+(\S+)$/) {
		$unknown = $1;
	} elsif ($line =~ /^#from(-defines)?\s+<([^>]+)>\s+(\S+)(?:\s+!(\S+))?(?:\s+@(\S+))?$/) {
		my ($only_defines, $hdr, $re, $ex, $valre) = ($1, $2, $3, $4, $5);
		push @includes, "#include <$hdr>";
		for my $c (header_macros($hdr, !$only_defines)) {
			next unless $c =~ /$re/;
			next if defined $ex && $c =~ /$ex/;
			if (defined $valre) {
				(my $hv = $header_value{$c} // '') =~ s/\s+//g;
				next unless $hv =~ /$valre/;
			}
			next if $seen{$c}++;
			push @items, [$c, undef];
		}
	} elsif ($line =~ /^#from-kernel\s+(\S+)\s+(\S+)(?:\s+!(\S+))?$/) {
		my ($path, $re, $ex) = ($1, $2, $3);
		for my $nv (kernel_constants($path)) {
			my ($c, $v) = @$nv;
			next unless $c =~ /$re/;
			next if defined $ex && $c =~ /$ex/;
			next if $seen{$c}++;
			push @items, [$c, $v];
		}
	} elsif ($line =~ /^#sorted$/) {
		$sorted = 1;
	} elsif ($line =~ /^#(?:value_only|val_type\b.*)$/) {
		# accepted for strace compatibility; no effect
	} elsif ($line =~ /^#/) {
		next;   # comment
	} elsif ($line =~ /^\s*"([^"\\]+)"\s+(\S.*)$/) {
		my ($t, $e) = ($1, $2);
		die "gen_xlat: $in:$.: '$t' listed twice\n" if $seen{$t}++;
		push @items, [$t, $e, 1];
	} elsif ($line =~ /^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+(\S.*))?$/) {
		my ($c, $v) = ($1, $2);
		die "gen_xlat: $in:$.: '$c' listed twice\n" if $seen{$c}++;
		push @items, [$c, $v];
	} else {
		die "gen_xlat: $in:$.: cannot parse '$line'\n";
	}
}
close $fh;
die "gen_xlat: $in: no constants\n" unless @items;

# The object-like macros a system header defines, in its order.
sub header_macros {
	my ($hdr, $with_enums) = @_;
	my $ma = `gcc -print-multiarch 2>/dev/null` // '';
	chomp $ma;
	my ($file) = grep { -f } map { "$_/$hdr" } ("/usr/include/$ma", '/usr/include');
	die "gen_xlat: $in: cannot find <$hdr>\n" unless $file;
	open(my $h, '<', $file) or die "gen_xlat: cannot open '$file': $!\n";
	my @names;
	my $in_enum = 0;
	while (my $l = <$h>) {
		# not another name for a macro (#define KEY_HANGUEL KEY_HANGEUL)
		if ($l =~ /^\s*#\s*define\s+([A-Za-z_]\w*)\s+(\S.*?)\s*(?:\/[*\/].*)?$/ &&
		    $2 !~ /^[A-Za-z_]\w*$/) {
			push @names, $1;
			$header_value{$1} = $2;
		}
		# enum members (gpio.h's GPIO_V2_LINE_FLAG_USED = _BITULL(0),)
		$in_enum = 1 if $with_enums && $l =~ /^\s*enum\b[^;]*$/;
		if ($in_enum) {
			push @names, $1 if $l =~ /^\s*([A-Za-z_]\w*)\s*(?:=[^,]*)?,?\s*(?:\/[*\/].*)?$/;
			$in_enum = 0 if $l =~ /\}/;
		}
	}
	close $h;
	return @names;
}

# [name, value] of the literal-valued #defines and enum members of a header
# of the kernel's include tree, in its order.
sub kernel_constants {
	my ($path) = @_;
	my @trees = reverse sort glob('/usr/src/linux-headers-*-common');
	my ($file) = grep { -f } map { "$_/$path" } @trees;
	die "gen_xlat: $in: cannot find $path under /usr/src/linux-headers-*-common\n"
		unless $file;
	open(my $h, '<', $file) or die "gen_xlat: cannot open '$file': $!\n";
	my @out;
	my $num = qr/-?(?:0[xX][0-9A-Fa-f]+|\d+)[uUlL]*/;
	while (my $l = <$h>) {
		if ($l =~ /^\s*#\s*define\s+([A-Za-z_]\w*)\s+\(?($num)\)?\s*(?:$|\/[*\/])/ ||
		    $l =~ /^\s*([A-Za-z_]\w*)\s*=\s*($num)\s*,?\s*(?:$|\/[*\/])/) {
			push @out, [$1, $2];
		}
	}
	close $h;
	return @out;
}

# The number a simple macro value stands for (0x10, 4, (1 << 3), _BITUL(3),
# ((__u64)1<<2)), or undef.
sub literal_value {
	my ($v) = @_;
	return undef unless defined $v;
	$v =~ s/\s+//g;
	1 while $v =~ s/^\((.*)\)$/$1/;
	$v =~ s/^\(__u\d+\)//;
	return hex($1) if $v =~ /^0[xX]([0-9a-fA-F]+)[uUlL]*$/;
	return $1 + 0 if $v =~ /^(\d+)[uUlL]*$/;
	return 1 << $1 if $v =~ /^1[uUlL]*<<(\d+)$/ || $v =~ /^_BITU?L?L?\((\d+)\)$/;
	return undef;
}

# #sorted: the entries by value (flag rendering tries them in order)
if ($sorted) {
	for my $it (@items) {
		my $v = defined $it->[1] ? literal_value($it->[1]) : literal_value($header_value{$it->[0]});
		die "gen_xlat: $in: #sorted: no literal value for '$it->[0]'\n" unless defined $v;
		$it->[3] = $v;
	}
	@items = sort { $a->[3] <=> $b->[3] } @items;
}

my $guard = 'RENACER_XLAT_' . uc($name) . '_H';
print "/* Generated by scripts/gen_xlat.pl from $in: do not edit. */\n";
print "#ifndef $guard\n#define $guard\n\n";
print "#include <stddef.h>\n#include <stdint.h>\n";
print "$_\n" for @includes;
print "#include \"event.h\"\n\n";
print "static const struct xlat_data ${name}_data[] = {\n";
for my $it (@items) {
	my ($c, $v, $text) = @$it;
	if ($text) {
		print "\t{ (uint64_t)($v), \"$c\" },\n";
	} elsif (defined $v) {
		print "#ifdef $c\n\t{ (uint64_t)($c), \"$c\" },\n#else\n",
			"\t{ (uint64_t)($v), \"$c\" },\n#endif\n";
	} else {
		print "\t{ (uint64_t)($c), \"$c\" },\n";
	}
}
print "};\n\n";
my $unk = defined $unknown ? "\"$unknown\"" : 'NULL';
printf "static const struct xlat %s[1] __attribute__((unused)) = { { %s_data, %d, %s, %s } };\n",
	$name, $name, scalar(@items), $type, $unk;
print "\n#endif\n";
