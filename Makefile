# npuscope -- build, test, demo, benchmark, install.
#
#   make            build ./npuscope
#   make check      install missing test tools (apt-get, as root), build, run every test
#   make test       the fast tier: build, unit/golden/exactness/export/bad-input tests,
#                   the self-test and the layer checker (no root, under 2 minutes)
#   make layers     check that includes and calls point down src/LAYERS (tools/layers.sh)
#   make demo       run the main job on the embedded example
#   make bench      benchmarks (ratios against baselines measured in the same run)
#   make bench-report   only the report's benchmarks (page speed in Chromium, a big sweep)
#   make install PREFIX=/usr/local
#   make fixtures   regenerate tests/fixtures from the real compilers
#   make fuzz       libFuzzer targets of every parser (FUZZ_SECONDS=30 each)
#
# Compile-time options: CC (gcc or clang), CFLAGS, SANITIZE=1 (ASan+UBSan),
# SANITIZE=thread (TSan: the threads of parse/split.c), WERROR= (below).
#
# Every entry point builds the program with the same flags, so that going
# from `make demo` to `make test` to `make check` compiles nothing already
# built, and in parallel: -j from the CPU count unless the caller gave -j.

CC      ?= cc
PREFIX  ?= /usr/local
CSTD    = -std=c11 -D_POSIX_C_SOURCE=200809L
# Warnings are errors by default, in every entry point alike (one set of
# flags, one set of objects).  A compiler newer than the ones the suite
# knows may warn about more: `make WERROR=` builds anyway, warning.
WERROR  ?= 1
WARN    = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes $(if $(WERROR),-Werror)
OPT     ?= -O2 -g
CFLAGS  ?=
LDLIBS  = -ljansson -lm -pthread
BUILD   ?= build
# -jN for the sub-makes of all, check, test and demo: the CPU count, unless
# the caller gave -j (GNU make 4.3 shows it in MAKEFLAGS only in recipes)
NPROC  := $(shell nproc 2>/dev/null || echo 1)
JOBS    = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

ifeq ($(SANITIZE),1)
OPT     = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(SANITIZE),thread)
OPT     = -O1 -g -fno-omit-frame-pointer -fsanitize=thread
LDFLAGS += -fsanitize=thread
endif

# The layers are folders (docs/architecture.md); every .c below src/ but
# main.c is a module, built to the same path below $(BUILD)/.
SRCS    = $(filter-out src/main.c,$(wildcard src/*/*.c src/*/*/*.c))
# the report page's CSS and JS, compiled in as C strings (tools/embed.sh)
WEB     = web/report.css web/report.js web/picker.js web/later.js
OBJS    = $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/web_assets.o
UNITS   = $(patsubst tests/%.c,$(BUILD)/%,$(wildcard tests/unit*.c))
DEPS    = $(OBJS:.o=.d) $(BUILD)/main.d $(UNITS:=.d)
COMPILE = $(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(CFLAGS_EXTRA) -pthread -Isrc

.PHONY: all check test demo bench bench-report install uninstall clean fixtures units unit-programs syntax layers FORCE

# (a sub-make, so that a plain `make` builds in parallel too; the
# ./npuscope link is the default build's: the suite's other builds --
# BUILD=build-asan, build-clang... -- leave it where `make` put it)
all:
	@$(MAKE) --no-print-directory $(JOBS) $(if $(filter build,$(BUILD)),npuscope,$(BUILD)/npuscope)

npuscope: $(BUILD)/npuscope FORCE
	@[ "$$(readlink npuscope)" = $(BUILD)/npuscope ] || ln -sf $(BUILD)/npuscope npuscope

$(BUILD)/npuscope: $(OBJS) $(BUILD)/main.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# A change of compiler or flags rebuilds everything: every object depends on
# a stamp file whose content is the command line, rewritten only when the
# command line changes.
$(BUILD)/flags: FORCE | $(BUILD)
	@echo '$(COMPILE) $(LDFLAGS)' | cmp -s - $@ || echo '$(COMPILE) $(LDFLAGS)' >$@

$(BUILD)/%.o: src/%.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(COMPILE) -MMD -MP -c -o $@ $<

$(BUILD)/web_assets.c: tools/embed.sh $(WEB) | $(BUILD)
	sh tools/embed.sh $(WEB) >$@.tmp && mv $@.tmp $@

$(BUILD)/web_assets.o: $(BUILD)/web_assets.c $(BUILD)/flags
	$(COMPILE) -c -o $@ $<

# unit test programs: tests/unit*.c, each linked with every module and
# built on tests/check.h (its CHECK and summary line); like every object
# they track their headers (-MMD) and the flags stamp
$(BUILD)/unit%: tests/unit%.c $(OBJS) $(BUILD)/flags
	$(COMPILE) -Itests -MMD -MP $(LDFLAGS) -o $@ $< $(OBJS) $(LDLIBS)

$(BUILD)/unit: tests/unit.c $(OBJS) $(BUILD)/flags
	$(COMPILE) -Itests -MMD -MP $(LDFLAGS) -o $@ $< $(OBJS) $(LDLIBS)

# the strict JSON checker the tests hand every JSON export to
$(BUILD)/jsoncheck: tests/jsoncheck.c $(BUILD)/flags
	$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

# after `all` and through a sub-make of its own, as `all`: `make all units`
# (or -j given) must never run two makes over the same objects at once
units: all
	@$(MAKE) --no-print-directory $(JOBS) unit-programs
unit-programs: $(UNITS) $(BUILD)/jsoncheck

# The compiler's warnings over every source, the unit tests' too, and no
# object made: the warnings come from the front end (tests/run_builds.sh,
# for Debian's default clang, whose objects nothing ran)
syntax: $(BUILD)/web_assets.c
	$(COMPILE) -fsyntax-only src/main.c $(SRCS) $(BUILD)/web_assets.c
	$(COMPILE) -Itests -fsyntax-only $(wildcard tests/unit*.c) tests/jsoncheck.c

$(BUILD):
	mkdir -p $(BUILD)

-include $(DEPS)

# make fuzz, make fuzz-run TARGET=... RUNS=... (libFuzzer; fuzz/README.md)
include fuzz/fuzz.mk

# Each entry point first installs what it needs when it is missing (as
# root, with apt-get; otherwise it says what to install).
check:
	@sh tests/deps.sh test
	@$(MAKE) --no-print-directory units
	@bash tests/run.sh

# the fast tier (docs/testing.md): no root, no installs, no browser, no
# other builds; what it leaves out it says on "skipped:" lines
test:
	@$(MAKE) --no-print-directory units
	@TIER=fast bash tests/run.sh

# the dependency order of src/LAYERS, checked on the sources and objects
# (tests/run.sh runs the same check in both tiers)
layers: all
	@bash tools/layers.sh $(BUILD)

demo:
	@sh tests/deps.sh demo
	@$(MAKE) --no-print-directory $(JOBS) npuscope >/dev/null
	@bash examples/demo.sh

bench:
	@sh tests/deps.sh bench
	@$(MAKE) --no-print-directory all
	@bash tests/bench.sh; rc=$$?; bash tests/bench_report.sh || rc=1; exit $$rc

# the report's part of the benchmarks alone
bench-report:
	@$(MAKE) --no-print-directory all
	@bash tests/bench_report.sh

fixtures:
	bash tests/fixtures/gen.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/npuscope $(DESTDIR)$(PREFIX)/bin/npuscope
	install -m 644 docs/npuscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/npuscope.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/npuscope $(DESTDIR)$(PREFIX)/share/man/man1/npuscope.1

clean:
	rm -rf build build-* npuscope

# ---------------------------------------------------------------- Windows
# make windows: npuscope.exe cross-built with Debian's mingw-w64, self-
# contained (static jansson and TRE built from Debian's source packages by
# tools/mingw-deps.sh, static libgcc and winpthreads: no DLL but the
# system's), zipped with the README, LICENSE and the man page as text into
# dist/npuscope-VERSION-win64.zip.  The objects and the libraries stay in
# $(WIN), so a second run (and the suite's Windows tier) rebuilds only what
# changed.  Formats are checked by the Linux builds: mingw's gcc checks
# printf formats against Microsoft's runtime, not the C99 one
# (__USE_MINGW_ANSI_STDIO) npuscope is linked with, so -Wformat is off here.
WIN      ?= build-win
WINCC    ?= x86_64-w64-mingw32-gcc
WINRES   ?= x86_64-w64-mingw32-windres
WINDEPS   = $(WIN)/deps
NS_VER    = $(shell sed -n 's/^\#define NS_VERSION "\(.*\)"/\1/p' src/base/common.h)
WINFLAGS  = -std=c11 -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 -D_WIN32_WINNT=0x0A00 \
            -D__USE_MINGW_ANSI_STDIO=1 -Wall -Wextra -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wno-format $(if $(WERROR),-Werror) -O2 \
            -Isrc -I$(WINDEPS)/include -I$(WINDEPS)/include/tre -include platform/plat.h
WINLIBS   = $(WINDEPS)/lib/libjansson.a $(WINDEPS)/lib/libtre.a -lshell32 -lm -lpthread
WINLD     = -static -static-libgcc $(shell $(WINCC) -print-file-name=binmode.o 2>/dev/null)
WINOBJS   = $(SRCS:src/%.c=$(WIN)/%.o) $(WIN)/web_assets.o
WINUNITS  = $(patsubst tests/%.c,$(WIN)/%.exe,$(wildcard tests/unit*.c))
WINZIP    = dist/npuscope-$(NS_VER)-win64.zip

.PHONY: windows windows-units windows-deps
windows:
	@sh tests/deps.sh windows
	@$(MAKE) --no-print-directory $(WINZIP)

# one script makes both libraries (libtre.a with libjansson.a)
windows-deps: $(WINDEPS)/lib/libjansson.a
$(WINDEPS)/lib/libjansson.a:
	sh tools/mingw-deps.sh $(WIN)

# as $(BUILD)/flags: a change of the Windows flags rebuilds every object
$(WIN)/flags: FORCE
	@mkdir -p $(WIN)
	@echo '$(WINCC) $(WINFLAGS) $(WINLD)' | cmp -s - $@ || echo '$(WINCC) $(WINFLAGS) $(WINLD)' >$@

$(WIN)/%.o: src/%.c $(WIN)/flags $(WINDEPS)/lib/libjansson.a
	@mkdir -p $(@D)
	$(WINCC) $(WINFLAGS) -MMD -MP -c -o $@ $<

$(WIN)/web_assets.o: $(BUILD)/web_assets.c $(WIN)/flags
	@mkdir -p $(@D)
	$(WINCC) $(WINFLAGS) -c -o $@ $<

$(WIN)/npuscope.res.o: src/platform/npuscope.rc src/platform/npuscope.manifest
	@mkdir -p $(@D)
	$(WINRES) -I src/platform -O coff -o $@ src/platform/npuscope.rc

$(WIN)/npuscope.exe: $(WINOBJS) $(WIN)/main.o $(WIN)/npuscope.res.o
	$(WINCC) $(WINLD) -o $@ $^ $(WINLIBS)

$(WIN)/unit%.exe: tests/unit%.c $(WINOBJS)
	$(WINCC) $(WINFLAGS) -Itests $(WINLD) -o $@ $< $(WINOBJS) $(WINLIBS)

$(WIN)/unit.exe: tests/unit.c $(WINOBJS)
	$(WINCC) $(WINFLAGS) -Itests $(WINLD) -o $@ $< $(WINOBJS) $(WINLIBS)

windows-units: $(WINUNITS)

$(WINZIP): $(WIN)/npuscope.exe README.md LICENSE docs/npuscope.1
	sh tools/win-zip.sh $(WIN) $@

-include $(WINOBJS:.o=.d) $(WIN)/main.d
