# npuscope -- build, test, demo, benchmark, install.
#
#   make            build ./npuscope
#   make check      install missing test tools (apt-get, as root), build, run every test
#   make demo       run the main job on the embedded example
#   make bench      benchmarks (ratios against baselines measured in the same run)
#   make bench-report   only the report's benchmarks (page speed in Chromium, a big sweep)
#   make install PREFIX=/usr/local
#   make fixtures   regenerate tests/fixtures from the real compilers
#   make fuzz       libFuzzer targets of every parser (FUZZ_SECONDS=30 each)
#
# Compile-time options: CC (gcc or clang), CFLAGS, SANITIZE=1 (ASan+UBSan).

CC      ?= cc
PREFIX  ?= /usr/local
CSTD    = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN    = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT     ?= -O2 -g
CFLAGS  ?=
LDLIBS  = -ljansson -lm
BUILD   ?= build

ifeq ($(SANITIZE),1)
OPT     = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif

SRCS    = $(filter-out src/main.c,$(wildcard src/*.c))
# the report page's CSS and JS, compiled in as C strings (tools/embed.sh)
WEB     = web/report.css web/report.js
OBJS    = $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/web_assets.o
DEPS    = $(OBJS:.o=.d) $(BUILD)/main.d

.PHONY: all check test demo bench bench-report install clean fixtures units

all: npuscope

npuscope: $(BUILD)/npuscope
	ln -sf $(BUILD)/npuscope npuscope

$(BUILD)/npuscope: $(OBJS) $(BUILD)/main.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: src/%.c | $(BUILD)
	$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/web_assets.c: tools/embed.sh $(WEB) | $(BUILD)
	sh tools/embed.sh $(WEB) >$@.tmp && mv $@.tmp $@

$(BUILD)/web_assets.o: $(BUILD)/web_assets.c
	$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) -c -o $@ $<

# unit test programs: tests/unit*.c, each linked with every module and
# built on tests/check.h (its CHECK and summary line; not given to $(CC))
UNITS   = $(patsubst tests/%.c,$(BUILD)/%,$(wildcard tests/unit*.c))

$(BUILD)/unit%: tests/unit%.c tests/check.h $(OBJS)
	$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) -Isrc $(LDFLAGS) -o $@ $(filter-out %.h,$^) $(LDLIBS)

$(BUILD)/unit: tests/unit.c tests/check.h $(OBJS)
	$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) -Isrc $(LDFLAGS) -o $@ $(filter-out %.h,$^) $(LDLIBS)

# the strict JSON checker the tests hand every JSON export to
$(BUILD)/jsoncheck: tests/jsoncheck.c | $(BUILD)
	$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

units: $(UNITS) $(BUILD)/jsoncheck

$(BUILD):
	mkdir -p $(BUILD)

-include $(DEPS)

# make fuzz, make fuzz-run TARGET=... RUNS=... (libFuzzer; fuzz/README.md)
include fuzz/fuzz.mk

# Each entry point first installs what it needs when it is missing (as
# root, with apt-get; otherwise it says what to install).
check:
	@sh tests/deps.sh test
	@$(MAKE) --no-print-directory all units
	@bash tests/run.sh

test: check

demo:
	@sh tests/deps.sh build
	@$(MAKE) --no-print-directory all >/dev/null
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

clean:
	rm -rf build build-* npuscope
