# agent-nook - build, test and install.
#
#   make [VARIANT=debug|release|san]      build the programs into build/$(VARIANT)/
#   make VARIANT=release LINK=static      ... statically linked, into build/release-static/
#   make check                            unit, golden and integration tests
#   make install PREFIX=/usr/local [DESTDIR=...]

VARIANT ?= debug
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
INSTALL ?= install
PKG_CONFIG ?= pkg-config
CC ?= cc
Q ?= @

ifeq ($(VARIANT),debug)
  VARIANT_CFLAGS := -O0 -g
else ifeq ($(VARIANT),release)
  VARIANT_CFLAGS := -O2 -DNDEBUG
else ifeq ($(VARIANT),san)
  VARIANT_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
                    -fno-omit-frame-pointer
  VARIANT_LDFLAGS := -fsanitize=address,undefined
else
  $(error VARIANT must be debug, release or san, not '$(VARIANT)')
endif

# LINK=static links the three programs as static PIEs: no dynamic loader at start-up,
# about 30 fewer page faults per start (README, "Performance"). Security fixes in glibc,
# jansson, libcyaml or libyaml then need a rebuild, which is why it is not the default.
LINK ?= dynamic
ifeq ($(LINK),static)
  ifeq ($(VARIANT),san)
    $(error LINK=static does not work with the sanitizers (VARIANT=san))
  endif
  PROG_LDFLAGS := -static-pie
  PKG_STATIC := --static
else ifneq ($(LINK),dynamic)
  $(error LINK must be dynamic or static, not '$(LINK)')
endif

WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith \
            -Wwrite-strings -Wformat=2 -Wswitch-enum -Werror=implicit-function-declaration \
            -Werror=return-type -Wno-missing-field-initializers
ifeq ($(CI),true)
  WARNINGS += -Werror
endif

CFLAGS ?=
CFLAGS += -std=gnu11 $(WARNINGS) $(VARIANT_CFLAGS)
CPPFLAGS += -MMD -MP -D_GNU_SOURCE
LDFLAGS += $(VARIANT_LDFLAGS)

RT_LIBS := $(shell $(PKG_CONFIG) $(PKG_STATIC) --libs jansson)
CC_LIBS := $(shell $(PKG_CONFIG) $(PKG_STATIC) --libs libcyaml yaml-0.1 jansson)
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags libcyaml yaml-0.1 jansson)
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka)
CPPFLAGS += $(PKG_CFLAGS)

B := build/$(VARIANT)$(if $(PROG_LDFLAGS),-static)

RUNTIME_SRC := runtime/util.c runtime/names.c runtime/plan.c runtime/plan-json.c runtime/plan-read.c runtime/log.c runtime/probe.c runtime/run.c runtime/launch.c
COMPILER_SRC := compiler/diag.c compiler/yamltree.c compiler/profile.c compiler/parse.c \
                compiler/lower.c compiler/passes.c compiler/compile.c compiler/emit.c \
                compiler/logconf.c compiler/view.c compiler/report.c compiler/lint.c \
                compiler/lint-output.c compiler/explain.c compiler/diff.c

RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(B)/%.o)
COMPILER_OBJ := $(COMPILER_SRC:%.c=$(B)/%.o)

UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test-*.c))

PROGRAMS := $(B)/nookc $(B)/nook-exec $(B)/agent-nook

.PHONY: bench fuzz fuzz-run all nookc nook-exec agent-nook check test unit golden integration golden-update valgrind lint format \
        install uninstall clean
all: $(PROGRAMS)
nookc: $(B)/nookc

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libnookrt.a: $(RUNTIME_OBJ)
	$(Q)$(AR) rcs $@ $^

$(B)/libnookc.a: $(COMPILER_OBJ)
	$(Q)$(AR) rcs $@ $^

$(B)/nookc: $(B)/compiler/nookc.o $(B)/compiler/nookc-review.o $(B)/libnookc.a $(B)/libnookrt.a
	$(Q)$(CC) $(LDFLAGS) $(PROG_LDFLAGS) $^ $(CC_LIBS) -o $@

$(B)/nook-exec: $(B)/runtime/nook-exec.o $(B)/libnookrt.a
	$(Q)$(CC) $(LDFLAGS) $(PROG_LDFLAGS) $^ $(RT_LIBS) -o $@
nook-exec: $(B)/nook-exec

# The default profile is built into agent-nook (written to the user's config on first use).
$(B)/compiler/default-profile.c: profiles/default.yaml
	@mkdir -p $(dir $@)
	$(Q){ printf '/* generated from profiles/default.yaml */\nextern const char nook_default_profile[];\nconst char nook_default_profile[] =\n'; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/\\n"/' $<; printf '    "";\n'; } >$@

$(B)/compiler/agent-nook.o: CPPFLAGS += -DNOOK_PROFILE_DIR='"$(DATADIR)/agent-nook/profiles"'

$(B)/agent-nook: $(B)/compiler/agent-nook.o $(B)/compiler/default-profile.o $(B)/libnookc.a \
                 $(B)/libnookrt.a
	$(Q)$(CC) $(LDFLAGS) $(PROG_LDFLAGS) $^ $(CC_LIBS) -o $@
agent-nook: $(B)/agent-nook

$(B)/compiler/default-profile.o: $(B)/compiler/default-profile.c
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/tests/%: tests/unit/%.c tests/unit/unit-util.h $(B)/libnookc.a $(B)/libnookrt.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $< $(B)/libnookc.a $(B)/libnookrt.a $(LDFLAGS) \
	    $(CC_LIBS) $(CMOCKA_LIBS) -o $@

# The whole suite; its last line is "N passed, N failed".
check: all $(UNIT_TESTS)
	$(Q)BUILD=$(B) tests/run.sh
test: check

unit: $(UNIT_TESTS)
	$(Q)BUILD=$(B) tests/run.sh unit
golden: all
	$(Q)BUILD=$(B) tests/run.sh golden
integration: all
	$(Q)BUILD=$(B) tests/run.sh integration

# Fuzzing (libFuzzer, clang): every target links the whole compiler and runtime with
# ASan and UBSan.
FUZZ_CC ?= clang
FUZZ_TARGETS := profile plan shell parsers
FUZZ_SECONDS ?= 30
FUZZ_FLAGS := -std=gnu11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
              -fno-sanitize-recover=all -fno-omit-frame-pointer

build/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(RUNTIME_SRC) $(COMPILER_SRC) $(wildcard */*.h)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(PKG_CFLAGS) $(FUZZ_FLAGS) $< $(RUNTIME_SRC) $(COMPILER_SRC) $(CC_LIBS) -o $@

fuzz: $(FUZZ_TARGETS:%=build/fuzz/fuzz-%)
fuzz-run: fuzz
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) tests/run.sh fuzz

# Benchmarks: medians of repeated runs, comparisons measured side by side (release build).
bench:
	$(Q)$(MAKE) -s VARIANT=release all
	$(Q)$(MAKE) -s VARIANT=release LINK=static all
	$(Q)bench/compile-time.sh build/release/nookc
	$(Q)bench/exec-overhead.sh build/release build/release-static
	$(Q)bench/optimizer.sh build/release

golden-update: all
	$(Q)BUILD=$(B) tests/golden/run.sh --update

valgrind: all $(UNIT_TESTS)
	$(Q)BUILD=$(B) VALGRIND=1 tests/run.sh unit golden

lint:
	$(Q)clang-format --dry-run --Werror runtime/*.[ch] compiler/*.[ch] tests/unit/*.[ch]
	$(Q)! grep -nE '\b(sprintf|strcpy|strcat|system|popen)\(' runtime/*.c compiler/*.c

format:
	$(Q)clang-format -i runtime/*.[ch] compiler/*.[ch] tests/unit/*.[ch]

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/agent-nook/profiles
	$(INSTALL) -m 0755 $(PROGRAMS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 0644 profiles/*.yaml $(DESTDIR)$(DATADIR)/agent-nook/profiles/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGRAMS)))
	rm -rf $(DESTDIR)$(DATADIR)/agent-nook

clean:
	rm -rf build

-include $(RUNTIME_OBJ:.o=.d) $(COMPILER_OBJ:.o=.d) $(B)/compiler/nookc.d $(B)/compiler/nookc-review.d $(B)/runtime/nook-exec.d $(B)/compiler/agent-nook.d
