# renacer: a syscall tracer for golden-trace regression testing.
# make          build build/renacer
# make demo     install deps, build, trace and validate the examples
# make test     install deps, build, run every test (T=name runs one)
# make asan     build with ASan/UBSan and run the tests
# make fuzz     run the fuzzers (FUZZ_SECONDS each)
# make bench    overhead against strace and the untraced run
# make verdict  the golden verdict as a classifier (VERDICT_ARGS=...)
# make install  PREFIX=/usr/local DESTDIR=

VERSION := 0.9.0
CC ?= gcc
BUILD ?= build
# parallel jobs of the build that demo and test run first (every CPU)
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
PREFIX ?= /usr/local
ARCH := $(shell uname -m)
# Linked: what every run may need.  libcurl (OTLP export), libdw/libelf
# (stacks, source lines) and libbpf (the eBPF back end) are only compiled
# against: renacer dlopen()s them when a run needs them (util/dynlib.h).
PKGS := jansson zlib libzstd libseccomp

OPT ?= -O2
SAN ?=
CFLAGS_BASE := -std=gnu11 -g $(OPT) -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers -D_GNU_SOURCE -DRENACER_VERSION='"$(VERSION)"' \
	-Isrc -Isrc/arch/$(ARCH) -I$(BUILD)/gen $(SAN)

# Every .c under src/ except main.c (and the eBPF program, built by clang
# -target bpf below) goes into one static library.
LIB_SRC := $(filter-out src/cli/main.c %.bpf.c,$(shell find src -name '*.c' -not -path 'src/arch/*' | sort)) \
	$(wildcard src/arch/$(ARCH)/*.c)

# The eBPF back end (src/bpf/): its kernel program is compiled with clang
# -target bpf against a vmlinux.h generated here from the build machine's BTF
# (never committed), and embedded in renacer as a libbpf skeleton.  Without
# bpftool, clang, libbpf or BTF renacer builds without it and says why at
# run time (EBPF=0 forces that).
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || ls /usr/sbin/bpftool 2>/dev/null)
BPF_CLANG ?= clang
BTF_VMLINUX ?= /sys/kernel/btf/vmlinux
BPF_ARCH := $(subst x86_64,x86,$(subst aarch64,arm64,$(ARCH)))
EBPF_WHY := $(strip $(if $(filter 0,$(EBPF)),it was disabled (make EBPF=0),\
	$(if $(wildcard $(BTF_VMLINUX)),,the build machine had no kernel BTF ($(BTF_VMLINUX)))\
	$(if $(wildcard $(BTF_VMLINUX)),$(if $(BPFTOOL),,the build machine had no bpftool))\
	$(if $(wildcard $(BTF_VMLINUX)),$(if $(BPFTOOL),$(if $(shell command -v $(BPF_CLANG) 2>/dev/null),,the build machine had no clang)))\
	$(if $(wildcard $(BTF_VMLINUX)),$(if $(BPFTOOL),$(if $(shell command -v $(BPF_CLANG) 2>/dev/null),$(if $(shell pkg-config --exists libbpf 2>/dev/null && echo y),,the build machine had no libbpf-dev))))))
ifeq ($(EBPF_WHY),)
CFLAGS_BASE_EBPF := -DHAVE_EBPF
else
CFLAGS_BASE_EBPF := -DEBPF_MISSING='"this renacer was built without it: $(EBPF_WHY)"'
endif
GEN_SRC := $(BUILD)/gen/sysent.c $(BUILD)/gen/errnoent.c $(BUILD)/gen/sysent_compat.c \
	$(BUILD)/gen/ioctlent.c
LIB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(GEN_SRC:.c=.o)
XLAT_IN := $(wildcard src/sys/xlat/*.in)
XLAT_H := $(patsubst src/sys/xlat/%.in,$(BUILD)/gen/xlat/%.h,$(XLAT_IN))

CFLAGS += $(CFLAGS_BASE)
LDLIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -ljansson -lz -lzstd -lseccomp) -liberty -lm -lpthread

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
PROG_SRC := $(wildcard tests/progs/*.c)
PROG_BIN := $(patsubst tests/progs/%.c,$(BUILD)/progs/%,$(PROG_SRC))
EXAMPLE_SRC := $(wildcard examples/*.c)
EXAMPLE_BIN := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EXAMPLE_SRC))
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)

.PHONY: all deps demo test check unit t asan fuzz bench verdict install clean progs examples print-ldlibs
all: $(BUILD)/renacer

deps:
	@sh scripts/deps.sh

$(BUILD)/gen/sysent.c: scripts/gen_sysent.pl src/sys/classes.in src/sys/semantics.in $(wildcard src/sys/*.c) \
		$(wildcard src/arch/$(ARCH)/prototypes.in)
	@mkdir -p $(@D)
	perl scripts/gen_sysent.pl --arch $(ARCH) --classes src/sys/classes.in --decoders src/sys > $@.tmp && mv $@.tmp $@

# The argument types of the same table as a list, for tests/progs/junkargs.c.
$(BUILD)/gen/sysargs.h: scripts/gen_sysent.pl $(wildcard src/arch/$(ARCH)/prototypes.in)
	@mkdir -p $(@D)
	perl scripts/gen_sysent.pl --arch $(ARCH) --arg-list > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/sysent_compat.c: scripts/gen_compat.pl
	@mkdir -p $(@D)
	perl scripts/gen_compat.pl --arch $(ARCH) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/errnoent.c: scripts/gen_errnoent.pl
	@mkdir -p $(@D)
	perl scripts/gen_errnoent.pl > $@.tmp && mv $@.tmp $@

# ioctl request names from the kernel's uapi headers (the script compiles
# the table with $(CC) to leave out what this system cannot build).
$(BUILD)/gen/ioctlent.c: scripts/gen_ioctlent.pl
	@mkdir -p $(@D)
	CC="$(CC)" perl scripts/gen_ioctlent.pl > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/xlat/%.h: src/sys/xlat/%.in scripts/gen_xlat.pl
	@mkdir -p $(@D)
	perl scripts/gen_xlat.pl $< > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/%.o: %.c | $(XLAT_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/src/bpf/engine.o: CFLAGS += $(CFLAGS_BASE_EBPF)
ifeq ($(EBPF_WHY),)
$(BUILD)/gen/vmlinux.h:
	@mkdir -p $(@D)
	$(BPFTOOL) btf dump file $(BTF_VMLINUX) format c > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/renacer.bpf.o: src/bpf/renacer.bpf.c src/bpf/abi.h $(BUILD)/gen/vmlinux.h
	$(BPF_CLANG) -O2 -g -target bpf -mcpu=v3 -D__TARGET_ARCH_$(BPF_ARCH) -Wall -I$(BUILD)/gen -Isrc -c $< -o $@.full.o
	$(BPFTOOL) gen object $@ $@.full.o && rm -f $@.full.o

$(BUILD)/gen/renacer.skel.h: $(BUILD)/gen/renacer.bpf.o
	$(BPFTOOL) gen skeleton $< name renacer_bpf > $@.tmp && mv $@.tmp $@

# The kernel types and fields the program reads, cut from this machine's BTF:
# the loader uses them when it runs on this kernel (see renacer.bpf.c).
$(BUILD)/gen/renacer.min.btf: $(BUILD)/gen/renacer.bpf.o
	$(BPFTOOL) gen min_core_btf $(BTF_VMLINUX) $@ $<

$(BUILD)/gen/renacer_minbtf.h: $(BUILD)/gen/renacer.min.btf scripts/gen_minbtf.pl
	perl scripts/gen_minbtf.pl $< $(BTF_VMLINUX) > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/src/bpf/engine.o: $(BUILD)/gen/renacer.skel.h $(BUILD)/gen/renacer_minbtf.h
endif

$(BUILD)/librenacer.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/renacer: $(BUILD)/obj/src/cli/main.o $(BUILD)/librenacer.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/librenacer.a | $(XLAT_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(BUILD)/librenacer.a $(LDLIBS) -lcmocka

# Test programs are built without sanitizers: they run as tracees.
$(BUILD)/progs/%: tests/progs/%.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE -o $@ $< -lpthread

$(BUILD)/examples/%: examples/%.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O1 -g -Wall -Wextra -D_GNU_SOURCE -o $@ $< -lpthread

# junkargs walks the generated table of argument types
$(BUILD)/progs/junkargs: tests/progs/junkargs.c $(BUILD)/gen/sysargs.h src/sys/sysent.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE -Isrc -I$(BUILD)/gen -o $@ $<

progs: $(PROG_BIN)
examples: $(EXAMPLE_BIN)

demo: deps
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) all examples
	@sh scripts/demo.sh $(BUILD)

test: deps
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) all progs examples $(UNIT_BIN)
	@BUILD=$(BUILD) T="$(T)" sh tests/run.sh

check: test

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 \
		SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" test

fuzz: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) sh tests/fuzz/run.sh $(FUZZ_SRC)

# The libraries the binary links with (tests/fuzz/run.sh links the fuzzers so).
print-ldlibs:
	@echo $(LDLIBS)

bench: deps
	@$(MAKE) --no-print-directory all progs examples
	@BUILD=$(BUILD) sh scripts/bench.sh

# The golden verdict measured as a classifier: planted changes caught and
# named, harmless ones passed, unchanged programs never flagged (about 30 min;
# fetches Debian sources once; docs/benchmarks.md, "Verdict benchmark").
verdict: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) sh scripts/verdict.sh $(VERDICT_ARGS)

install: $(BUILD)/renacer
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BUILD)/renacer $(DESTDIR)$(PREFIX)/bin/renacer
	install -m 0644 docs/renacer.1 $(DESTDIR)$(PREFIX)/share/man/man1/renacer.1

clean:
	rm -rf build build-asan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
