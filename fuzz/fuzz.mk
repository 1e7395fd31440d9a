# fuzz/fuzz.mk -- libFuzzer targets for npuscope's parsers (fuzz/README.md).
# Included from the Makefile:
#
#   make fuzz                          build every target, then run each for
#                                      FUZZ_SECONDS (default 30), one after another
#   make fuzz FUZZ_SECONDS=600         longer
#   make fuzz-run TARGET=fuzz_scan RUNS=1000000
#                                      one target for exactly RUNS executions
#   make fuzz-build                    build only
#
# Each target is built with FUZZ_CC (clang) -fsanitize=fuzzer,address,undefined
# -g -O1 from fuzz/<target>.c and every src/*.c except main.c, in
# $(FUZZ_BUILD)/.  A run reads, besides its own corpus in
# $(FUZZ_BUILD)/corpus/<target>/ (where new inputs are written; kept between
# runs, never committed), the seeds in fuzz/seeds/<target>/ and, per target,
# tests/fixtures (fuzz_scan) or the run.json files of tests/runs
# (fuzz_run_json).  Crashes land in $(FUZZ_BUILD)/artifacts/<target>/ and the
# libFuzzer log in $(FUZZ_BUILD)/logs/<target>.log; the recipe exits 1 when
# any target found something.
#
# The parsers print nothing: what they say about an input goes to the sink
# the caller installs (base/common.h), and the targets install a counter,
# so stderr stays open and holds only what libFuzzer and the sanitizers
# write.  The exceptions are fuzz_sweep_spec and fuzz_metric: capture's
# option parsers (sweep_plan.c, metrics.c) still print their usage errors,
# so those two runs close stderr (-close_fd_mask=2, FUZZ_QUIET_<target>);
# sanitizer reports still reach the log.

NSF_SAVED_GOAL := $(.DEFAULT_GOAL)

FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 30
FUZZ_TARGETS  = fuzz_scan fuzz_trace fuzz_report_json fuzz_run_json fuzz_sweep_spec fuzz_metric fuzz_stages
FUZZ_SAN      = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS   = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
                -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
                $(FUZZ_SAN)
FUZZ_LDLIBS   = -ljansson -lm
FUZZ_OBJS     = $(patsubst src/%.c,$(FUZZ_BUILD)/obj/%.o,$(filter-out src/main.c,$(wildcard src/*/*.c src/*/*/*.c)))

# libFuzzer options for every run; the limits are per input.
FUZZ_OPTS     = -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_QUIET_fuzz_sweep_spec = -close_fd_mask=2
FUZZ_QUIET_fuzz_metric     = -close_fd_mask=2
# ASan options for the runs.  Under ASan most of a target's time goes to
# malloc: recording each allocation's stack (StackDepot) and recycling the
# quarantine.  Without allocation stacks and with a smaller quarantine the
# targets run 1.5-2x faster; every error is still caught and reported with
# the stack where it happened (rerun the input by hand with ASAN_OPTIONS
# unset to see where the memory came from).
FUZZ_ASAN_OPTIONS ?= malloc_context_size=0:quarantine_size_mb=8
# -max_len per target (default 65536).  fuzz_metric ignores inputs over 256
# bytes, so longer ones would only waste executions.
FUZZ_MAXLEN_fuzz_scan   = 262144
FUZZ_MAXLEN_fuzz_metric = 256
fuzz_maxlen   = $(or $(FUZZ_MAXLEN_$(1)),65536)
# Read-only seed folders per target, after fuzz/seeds/<target>.
FUZZ_SEEDS_fuzz_scan     = tests/fixtures
FUZZ_SEEDS_fuzz_run_json = $(FUZZ_BUILD)/seeds/fuzz_run_json
fuzz_dirs     = $(FUZZ_BUILD)/corpus/$(1) fuzz/seeds/$(1) $(FUZZ_SEEDS_$(1))
fuzz_args     = $(FUZZ_OPTS) $(FUZZ_QUIET_$(1)) -max_len=$(call fuzz_maxlen,$(1)) \
                -artifact_prefix=$(FUZZ_BUILD)/artifacts/$(1)/ $(call fuzz_dirs,$(1))

.PHONY: fuzz fuzz-build fuzz-run fuzz-dirs

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/%)

$(FUZZ_BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Isrc -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/obj/fuzz_%.o: fuzz/fuzz_%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Isrc -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/fuzz_%.o $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -o $@ $^ $(FUZZ_LDLIBS)

# the objects are kept between builds (make would delete them as intermediates)
.SECONDARY: $(FUZZ_OBJS) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/obj/%.o)

-include $(wildcard $(FUZZ_BUILD)/obj/*.d $(FUZZ_BUILD)/obj/*/*.d $(FUZZ_BUILD)/obj/*/*/*.d)

# Corpus, artifact and log folders, and the run.json seeds (tests/runs keeps
# every run as DIR/run.json, so each is copied under its folder's name).
fuzz-dirs:
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts/$$t $(FUZZ_BUILD)/logs; \
	done
	@mkdir -p $(FUZZ_BUILD)/seeds/fuzz_run_json
	@for f in tests/runs/*/run.json tests/runs/.[!.]*/run.json; do \
	    [ -f "$$f" ] || continue; \
	    d=$${f%/run.json}; cp "$$f" "$(FUZZ_BUILD)/seeds/fuzz_run_json/$${d##*/}.json"; \
	done

fuzz: fuzz-build fuzz-dirs
	@fail=0; \
	one() { \
	    t=$$1; shift; log=$(FUZZ_BUILD)/logs/$$t.log; \
	    if ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS) ./$(FUZZ_BUILD)/$$t -max_total_time=$(FUZZ_SECONDS) "$$@" >$$log 2>&1; then \
	        runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log); \
	        echo "$$t: $$runs executions in $(FUZZ_SECONDS) s, nothing found"; \
	    else \
	        fail=1; \
	        echo "$$t: FOUND A PROBLEM (log: $$log, input in $(FUZZ_BUILD)/artifacts/$$t/):"; \
	        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|    #[0-9])' $$log | head -n 30; \
	    fi; \
	}; \
	$(foreach t,$(FUZZ_TARGETS),one $(t) $(call fuzz_args,$(t));) \
	exit $$fail

fuzz-run: fuzz-build fuzz-dirs
	@[ -n "$(TARGET)" ] && [ -n "$(RUNS)" ] || \
	    { echo "usage: make fuzz-run TARGET=<one of: $(FUZZ_TARGETS)> RUNS=<n>"; exit 2; }
	ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS) ./$(FUZZ_BUILD)/$(TARGET) -runs=$(RUNS) $(call fuzz_args,$(TARGET))

.DEFAULT_GOAL := $(NSF_SAVED_GOAL)
