# mk/fuzz.mk -- libFuzzer harnesses (fuzz/), included by the main Makefile. Not part of
# `make test` (which runs their regression inputs: tests/test_fuzz_regress.c);
# docs/verification.md "Fuzzing" has the recorded runs.
#
#   make fuzz        build build-fuzz/ with clang (-fsanitize=fuzzer,address,undefined, every
#                    UBSan finding fatal), seed build-fuzz/corpus-NAME/ and run each harness of
#                    FUZZ_TARGETS in turn, one at a time, for FUZZ_TIME seconds -- or FUZZ_RUNS
#                    executions when that is set -- with its dictionary. A crash, timeout, leak
#                    or out-of-memory input stops that harness and the target (non-zero exit);
#                    the input is in build-fuzz/artifacts-NAME/. The whole output is
#                    build-fuzz/fuzz-NAME.log (tail -f it during a long run); its last lines
#                    are printed.
#   make fuzz-build  only the build (build-fuzz/fuzz_NAME)
#
# The harnesses (fuzz/fuzz_NAME.c, the libFuzzer entry, around fuzz/fuzz_NAME_one.c, the body
# the regression test runs too), their seeds and dictionaries:
#   ptx    the PTX path (parse, link, control flow, a bounded launch on both models); seeds
#          bench/*/kernel.ptx, fuzz/seeds/ptx/, tests/data/ptx/; fuzz/ptx.dict
#   cfg    the configuration parser and the blocks' load-time checks; seeds configs/*.cfg,
#          fuzz/seeds/cfg/; fuzz/cfg.dict plus every key and value (from docs/config.md)
#   spec   the sweep SPEC parser (cli/sweep_spec.c) on the buffer, its points and, for a sweep
#          of at most 16 configurations, the check that each loads; seeds fuzz/seeds/spec/,
#          tests/data/fuzz/spec/; fuzz/spec.dict plus every kernel and mechanism name
#   cache  the result cache's entry parser (cli/cache_entry.c); seeds fuzz/seeds/cache/
#   bbv    the binary BBV reader (model/gpu/bbv.c); seeds fuzz/seeds/bbv/
#   res    the register record reader (model/ptx/ptx_res.c); seeds bench/*/*.res,
#          fuzz/seeds/res/
#   fatbin the CUDA runtime library's fatbinary reader (cuda/fatbin.c: sections, entries, zstd
#          and LZ4 texts); seeds tests/data/cuda/*.fatbin; fuzz/fatbin.dict
# Every harness links the whole model, the command line's modules but main(), bench/, cost/
# and the fatbinary reader (with libzstd and liblz4), built with the fuzzing flags.
#
# Knobs: FUZZ_TIME (60 s per harness), FUZZ_RUNS (executions; unset = time-bound; with
# FUZZ_JOBS > 1 the total over all workers), FUZZ_JOBS (1: worker processes; N > 1 runs
# libFuzzer's fork mode, -fork=N, whose workers share the corpus and whose log lines count every
# worker's executions with the oom/timeout/crash totals; a timeout or out-of-memory input stops
# it as in the one-process run, -ignore_timeouts=0 -ignore_ooms=0), FUZZ_TARGETS (all seven),
# FUZZ_TIMEOUT (10: seconds one input may take before it is a timeout -- an input takes about a
# millisecond, fuzz/fuzz_ptx_one.c bounds every launch), FUZZ_RSS_MB (2048: resident memory
# limit, also the largest single allocation), FUZZ_NICE (10: the harnesses run under nice),
# FUZZ_OPTS (more libFuzzer flags, e.g. -seed=1), FUZZ_CC (clang; make deps installs clang and
# libclang-rt-14-dev, which holds libFuzzer).
# -max_len: 16384 bytes of PTX (the largest bench PTX is 12 KB) and of a BBV file (vecadd's at
# the test size is 12 KB), 8192 of the others (a seed cache entry is 2.5 KB).
# A crash becomes a regression input: copy it to tests/data/fuzz/NAME/ (test_fuzz_regress
# runs every file there through the same fuzz/fuzz_NAME_one.c, in make test and san-test).

FUZZ_CC      ?= clang
FUZZ_BUILD   := build-fuzz
FUZZ_TIME    ?= 60
FUZZ_RUNS    ?=
FUZZ_TIMEOUT ?= 10
FUZZ_RSS_MB  ?= 2048
FUZZ_NICE    ?= 10
FUZZ_ALL     := ptx cfg spec cache bbv res fatbin
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_OPTS    ?=
FUZZ_JOBS    ?= 1
FUZZ_MAXLEN  := ptx=16384 bbv=16384     # -max_len NAME=BYTES; 8192 for the others
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined -std=gnu11 -Wall -Wextra \
                -Werror=implicit-function-declaration -Imodel -Ibench -Icli
FUZZ_OBJ     := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(MODEL_SRC) $(filter-out cli/main.c,$(CLI_SRC)) \
                  $(BENCH_SRC) $(BUILD)/bench/registry.c $(wildcard cost/*.c) cuda/fatbin.c)
FUZZ_BINS    := $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_ALL))
FUZZ_LIMIT    = $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_TIME))
FUZZ_FORK     = $(if $(filter-out 1,$(FUZZ_JOBS)),-fork=$(FUZZ_JOBS) -ignore_timeouts=0 -ignore_ooms=0)

.PHONY: fuzz fuzz-build $(addprefix fuzz-seed-,$(FUZZ_ALL))
fuzz-build: $(FUZZ_BINS) $(patsubst %,$(FUZZ_BUILD)/%.dict,$(FUZZ_ALL))

# Objects get the coverage instrumentation only; libFuzzer's main comes at the link.
FUZZ_COV = -fsanitize=fuzzer-no-link
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_COV) -MMD -MP -c $< -o $@

$(FUZZ_BINS): $(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz/fuzz_%.o $(FUZZ_BUILD)/fuzz/fuzz_%_one.o \
		$(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ -lm -lzstd -llz4

$(patsubst %,$(FUZZ_BUILD)/%.dict,ptx cache bbv res fatbin): $(FUZZ_BUILD)/%.dict: fuzz/%.dict
	@mkdir -p $(dir $@)
	cp $< $@

# The configuration dictionary: fuzz/cfg.dict (syntax) and every key and enumeration value of
# the key table, read from docs/config.md (generated from the table; test_config checks it).
$(FUZZ_BUILD)/cfg.dict: fuzz/cfg.dict docs/config.md
	@mkdir -p $(dir $@)
	{ cat fuzz/cfg.dict; awk -F' [|] ' '/^\| `/ { k = $$1; gsub(/[|` ]/, "", k); \
	    print "\"" k "\""; if ($$4 == "name") { n = split($$3, v, "|"); \
	    for (i = 1; i <= n; i++) print "\"" v[i] "\"" } }' docs/config.md | sort -u; } > $@

# The SPEC dictionary: fuzz/spec.dict (the keys, the syntax), every bench kernel and every
# mechanism name (gpusim list / cli/mech.c, read from their sources).
$(FUZZ_BUILD)/spec.dict: fuzz/spec.dict cli/mech.c $(BENCH_SRC)
	@mkdir -p $(dir $@)
	{ cat fuzz/spec.dict; sed -n 's/^    {"\([a-z_0-9]*\)", "[a-zA-Z]*", .*/"\1"/p' cli/mech.c; \
	  for d in $(BENCH_NAMES); do echo "\"$$d\""; done; } > $@

# Seeds are copied into the corpus each run (the corpus keeps what earlier runs found).
FUZZ_SEEDS_ptx   = $(wildcard bench/*/kernel.ptx fuzz/seeds/ptx/* tests/data/ptx/*.ptx)
FUZZ_SEEDS_cfg   = $(wildcard configs/*.cfg fuzz/seeds/cfg/*)
FUZZ_SEEDS_spec  = $(wildcard fuzz/seeds/spec/* tests/data/fuzz/spec/*)
FUZZ_SEEDS_cache = $(wildcard fuzz/seeds/cache/*)
FUZZ_SEEDS_bbv   = $(wildcard fuzz/seeds/bbv/*)
FUZZ_SEEDS_res   = $(wildcard bench/*/*.res fuzz/seeds/res/*)
FUZZ_SEEDS_fatbin = $(wildcard tests/data/cuda/*.fatbin)
# a seed's corpus name: its path with / as - (bench/vecadd/kernel.ptx: seed-bench-vecadd-kernel.ptx)
$(foreach t,$(FUZZ_ALL),$(eval fuzz-seed-$(t): ; @mkdir -p $(FUZZ_BUILD)/corpus-$(t) && \
	for f in $$(FUZZ_SEEDS_$(t)); do cp $$$$f $(FUZZ_BUILD)/corpus-$(t)/seed-$$$$(echo $$$$f | tr / -); done))

fuzz: deps fuzz-build $(addprefix fuzz-seed-,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/artifacts-$$t; \
	  echo "fuzz $$t: $(FUZZ_LIMIT) $(FUZZ_FORK), log in $(FUZZ_BUILD)/fuzz-$$t.log"; \
	  max=8192; for m in $(FUZZ_MAXLEN); do [ "$${m%%=*}" = $$t ] && max=$${m#*=}; done; \
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

-include $(shell find $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
