# mk/fuzz.mk -- libFuzzer harnesses (fuzz/), included by the main Makefile. Not part of
# `make test`; docs/verification.md "Fuzzing" has a recorded run.
#
#   make fuzz        build build-fuzz/ with clang (-fsanitize=fuzzer,address,undefined, every
#                    UBSan finding fatal), seed build-fuzz/corpus-ptx/ (bench/*/kernel.ptx,
#                    fuzz/seeds/ptx/, tests/data/ptx/), build-fuzz/corpus-cfg/ (configs/*.cfg and
#                    fuzz/seeds/cfg/) and build-fuzz/corpus-cache/ (fuzz/seeds/cache/), then run
#                    each harness of FUZZ_TARGETS in turn, one at a time, for FUZZ_TIME
#                    seconds -- or FUZZ_RUNS executions when that is set -- with its
#                    dictionary. A crash, timeout, leak or out-of-memory input stops
#                    that harness and the target (non-zero exit); the input is in
#                    build-fuzz/artifacts-NAME/. The whole output is build-fuzz/fuzz-NAME.log
#                    (tail -f it during a long run); its last lines are printed.
#   make fuzz-build  only the build (build-fuzz/fuzz_ptx, build-fuzz/fuzz_cfg, build-fuzz/fuzz_cache)
#   make fuzz-build  only the build (build-fuzz/fuzz_ptx, build-fuzz/fuzz_cfg, ...)
#
# fuzz_spec: the sweep SPEC parser (cli/sweep_spec.c) on the buffer, its points and, for a
# sweep of at most 16 configurations, the check that each loads (fuzz/fuzz_spec_one.c); linked
# with the command line's modules but main() and bench/ (the kernel names); corpus
# build-fuzz/corpus-spec/ seeded from fuzz/seeds/spec/ and tests/data/fuzz/spec/.
#
# Knobs: FUZZ_TIME (60 s per harness), FUZZ_RUNS (executions; unset = time-bound; with
# FUZZ_JOBS > 1 the total over all workers), FUZZ_JOBS (1: worker processes; N > 1 runs
# libFuzzer's fork mode, -fork=N, whose workers share the corpus and whose log lines count every
# worker's executions with the oom/timeout/crash totals; a timeout or out-of-memory input stops
# it as in the one-process run, -ignore_timeouts=0 -ignore_ooms=0), FUZZ_TARGETS (ptx cfg cache), FUZZ_TIMEOUT (10: seconds one input may take before it is a
# timeout -- an input takes about a millisecond, fuzz/fuzz_ptx_one.c bounds every launch),
# FUZZ_RSS_MB (2048: resident memory limit, also the largest single allocation), FUZZ_NICE
# (10: the harnesses run under nice), FUZZ_OPTS (more libFuzzer flags, e.g. -seed=1), FUZZ_CC
# (clang; make deps installs clang and libclang-rt-14-dev, which holds libFuzzer).
# -max_len: 16384 bytes of PTX (the largest bench PTX is 12 KB), 8192 of configuration and of
# cache entry (a seed entry is 2.5 KB).
# -max_len: 16384 bytes of PTX (the largest bench PTX is 12 KB), 8192 of configuration or SPEC.
# A crash becomes a regression input: copy it to tests/data/fuzz/NAME/ (test_fuzz_regress
# runs every file there through the same fuzz/fuzz_NAME_one.c, in make test and san-test).

FUZZ_CC      ?= clang
FUZZ_BUILD   := build-fuzz
FUZZ_TIME    ?= 60
FUZZ_RUNS    ?=
FUZZ_TIMEOUT ?= 10
FUZZ_RSS_MB  ?= 2048
FUZZ_NICE    ?= 10
FUZZ_TARGETS ?= ptx cfg cache
FUZZ_TARGETS ?= ptx cfg spec
FUZZ_OPTS    ?=
FUZZ_JOBS    ?= 1
FUZZ_MAXLEN_ptx := 16384
FUZZ_MAXLEN_cfg := 8192
FUZZ_MAXLEN_cache := 8192
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined -std=gnu11 -Wall -Wextra \
                -Werror=implicit-function-declaration -Imodel
FUZZ_ONE     := fuzz/fuzz_ptx_one.c fuzz/fuzz_cfg_one.c
FUZZ_OBJ     := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(MODEL_SRC) $(FUZZ_ONE))
FUZZ_BINS    := $(FUZZ_BUILD)/fuzz_ptx $(FUZZ_BUILD)/fuzz_cfg
FUZZ_LIMIT    = $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_TIME))
FUZZ_FORK     = $(if $(filter-out 1,$(FUZZ_JOBS)),-fork=$(FUZZ_JOBS) -ignore_timeouts=0 -ignore_ooms=0)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS) $(FUZZ_BUILD)/ptx.dict $(FUZZ_BUILD)/cfg.dict
fuzz-build: $(FUZZ_BUILD)/fuzz_spec $(FUZZ_BUILD)/spec.dict

# Model objects get the coverage instrumentation only; libFuzzer's main comes at the link.
FUZZ_COV = -fsanitize=fuzzer-no-link
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_COV) -MMD -MP -c $< -o $@

$(FUZZ_BINS): $(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz/fuzz_%.o $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ -lm

# The cache harness: cli/cache_entry.c (entries, no I/O), built and linked on its own; the
# regression test links the same body into build/tests/test_fuzz_regress.
FUZZ_CACHE_OBJ := $(FUZZ_BUILD)/fuzz/fuzz_cache.o $(FUZZ_BUILD)/fuzz/fuzz_cache_one.o \
                  $(FUZZ_BUILD)/cli/cache_entry.o
$(FUZZ_CACHE_OBJ): FUZZ_CFLAGS += -Ibench -Icli
$(FUZZ_BUILD)/fuzz_cache: $(FUZZ_CACHE_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ -lm
fuzz-build: $(FUZZ_BUILD)/fuzz_cache $(FUZZ_BUILD)/cache.dict
$(FUZZ_BUILD)/cache.dict: fuzz/cache.dict
	@mkdir -p $(dir $@)
	cp $< $@
fuzz-seed-cache:
	@mkdir -p $(FUZZ_BUILD)/corpus-cache
	@for f in fuzz/seeds/cache/*; do cp $$f $(FUZZ_BUILD)/corpus-cache/seed-$$(basename $$f); done
FUZZ_ONE_OBJ += $(BUILD)/fuzz/fuzz_cache_one.o $(BUILD)/cli/cache_entry.o
$(BUILD)/tests/test_fuzz_regress: $(BUILD)/fuzz/fuzz_cache_one.o $(BUILD)/cli/cache_entry.o
# The SPEC harness: the parser is in cli/ (whose modules need cost/'s estimator), the kernel
# names in bench/ (its generated registry).
FUZZ_SPEC_OBJ := $(patsubst %.c,$(FUZZ_BUILD)/%.o,fuzz/fuzz_spec.c fuzz/fuzz_spec_one.c \
                   $(filter-out cli/main.c,$(CLI_SRC)) $(BENCH_SRC) $(BUILD)/bench/registry.c \
                   $(wildcard cost/*.c))
$(FUZZ_SPEC_OBJ): FUZZ_CFLAGS += -Ibench
$(FUZZ_BUILD)/fuzz_spec: $(FUZZ_SPEC_OBJ) $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(MODEL_SRC))
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ -lm

# make test's regression run (tests/test_fuzz_regress.c) links the SPEC harness's body too,
# with the command line's and the bench's libraries ahead of libgpusim.a.
FUZZ_ONE_OBJ += $(BUILD)/fuzz/fuzz_spec_one.o $(CLILIB) $(BENCHLIB)
$(BUILD)/tests/test_fuzz_regress: $(BUILD)/fuzz/fuzz_spec_one.o $(CLILIB) $(BENCHLIB)

$(FUZZ_BUILD)/ptx.dict: fuzz/ptx.dict
	@mkdir -p $(dir $@)
	cp $< $@

# The configuration dictionary: fuzz/cfg.dict (syntax) and every key and enumeration value of
# the key table, read from docs/config.md (generated from the table; test_config checks it).
$(FUZZ_BUILD)/cfg.dict: fuzz/cfg.dict docs/config.md
	@mkdir -p $(dir $@)
	{ cat fuzz/cfg.dict; awk -F' [|] ' '/^\| `/ { k = $$1; gsub(/[|` ]/, "", k); \
	    print "\"" k "\""; if ($$4 == "name") { n = split($$3, v, "|"); \
	    for (i = 1; i <= n; i++) print "\"" v[i] "\"" } }' docs/config.md | sort -u; } > $@

# Seeds are copied into the corpus each run (the corpus keeps what earlier runs found).
fuzz-seed-ptx:
	@mkdir -p $(FUZZ_BUILD)/corpus-ptx
	@for d in bench/*/; do n=$$(basename $$d); \
	  [ -f $$d/kernel.ptx ] && cp $$d/kernel.ptx $(FUZZ_BUILD)/corpus-ptx/seed-$$n.ptx; done; \
	  for f in fuzz/seeds/ptx/* tests/data/ptx/*.ptx; do cp $$f $(FUZZ_BUILD)/corpus-ptx/seed-$$(basename $$f); done
fuzz-seed-cfg:
	@mkdir -p $(FUZZ_BUILD)/corpus-cfg
	@for f in configs/*.cfg fuzz/seeds/cfg/*; do cp $$f $(FUZZ_BUILD)/corpus-cfg/seed-$$(basename $$f); done
fuzz-seed-spec:
	@mkdir -p $(FUZZ_BUILD)/corpus-spec
	@for f in fuzz/seeds/spec/* tests/data/fuzz/spec/*; do cp $$f $(FUZZ_BUILD)/corpus-spec/seed-$$(basename $$f); done

# The SPEC dictionary: fuzz/spec.dict (the keys, the syntax), every bench kernel and every
# mechanism name (gpusim list / cli/mech.c, read from their sources).
$(FUZZ_BUILD)/spec.dict: fuzz/spec.dict cli/mech.c $(BENCH_SRC)
	@mkdir -p $(dir $@)
	{ cat fuzz/spec.dict; sed -n 's/^    {"\([a-z_0-9]*\)", "[a-zA-Z]*", .*/"\1"/p' cli/mech.c; \
	  for d in $(BENCH_NAMES); do echo "\"$$d\""; done; } > $@

fuzz: deps fuzz-build $(addprefix fuzz-seed-,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/artifacts-$$t; \
	  echo "fuzz $$t: $(FUZZ_LIMIT) $(FUZZ_FORK), log in $(FUZZ_BUILD)/fuzz-$$t.log"; \
	  case $$t in ptx) max=$(FUZZ_MAXLEN_ptx);; cache) max=$(FUZZ_MAXLEN_cache);; \
	    *) max=$(FUZZ_MAXLEN_cfg);; esac; \
	  nice -n $(FUZZ_NICE) $(FUZZ_BUILD)/fuzz_$$t -dict=$(FUZZ_BUILD)/$$t.dict -max_len=$$max \
	    -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=$(FUZZ_RSS_MB) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts-$$t/ $(FUZZ_LIMIT) $(FUZZ_FORK) $(FUZZ_OPTS) \
	    $(FUZZ_BUILD)/corpus-$$t > $(FUZZ_BUILD)/fuzz-$$t.log 2>&1; rc=$$?; \
	  grep -E '^(#[0-9]+.*(DONE|pulse)|#[0-9]+: cov:|Done|INFO: (exiting|fuzzed for)|stat::)' \
	    $(FUZZ_BUILD)/fuzz-$$t.log | tail -n 12; \
	  [ $$rc -eq 0 ] || { tail -n 40 $(FUZZ_BUILD)/fuzz-$$t.log; \
	    echo "fuzz $$t: FAILED (exit $$rc); the input is in $(FUZZ_BUILD)/artifacts-$$t/"; exit 1; }; \
	  echo "fuzz $$t: $$(ls $(FUZZ_BUILD)/corpus-$$t | wc -l) corpus files, no crash"; \
	done

.PHONY: fuzz-seed-ptx fuzz-seed-cfg fuzz-seed-cache
.PHONY: fuzz-seed-ptx fuzz-seed-cfg fuzz-seed-spec
-include $(shell find $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
