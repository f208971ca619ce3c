# mk/fuzz.mk -- libFuzzer harnesses (fuzz/), included by the main Makefile. Not part of
# `make test`; docs/verification.md "Fuzzing" has a recorded run.
#
#   make fuzz        build build-fuzz/ with clang (-fsanitize=fuzzer,address,undefined, every
#                    UBSan finding fatal), seed build-fuzz/corpus-ptx/ (bench/*/kernel.ptx,
#                    fuzz/seeds/ptx/, tests/data/ptx/), build-fuzz/corpus-cfg/ (configs/*.cfg and
#                    fuzz/seeds/cfg/), build-fuzz/corpus-bbv/ (fuzz/seeds/bbv/) and
#                    build-fuzz/corpus-res/ (bench/*/*.res, fuzz/seeds/res/), then run each
#                    harness of FUZZ_TARGETS (ptx cfg bbv res: the PTX path, the configuration
#                    parser, the binary BBV reader, the register record reader) in turn, one at a
#                    time, for FUZZ_TIME seconds -- or FUZZ_RUNS executions when that is set --
#                    with its dictionary. A crash, timeout, leak or out-of-memory input stops
#                    that harness and the target (non-zero exit); the input is in
#                    build-fuzz/artifacts-NAME/. The whole output is build-fuzz/fuzz-NAME.log
#                    (tail -f it during a long run); its last lines are printed.
#   make fuzz-build  only the build (build-fuzz/fuzz_ptx, fuzz_cfg, fuzz_bbv, fuzz_res)
#
# Knobs: FUZZ_TIME (60 s per harness), FUZZ_RUNS (executions; unset = time-bound; with
# FUZZ_JOBS > 1 the total over all workers), FUZZ_JOBS (1: worker processes; N > 1 runs
# libFuzzer's fork mode, -fork=N, whose workers share the corpus and whose log lines count every
# worker's executions with the oom/timeout/crash totals; a timeout or out-of-memory input stops
# it as in the one-process run, -ignore_timeouts=0 -ignore_ooms=0), FUZZ_TARGETS (ptx cfg bbv res), FUZZ_TIMEOUT (10: seconds one input may take before it is a
# timeout -- an input takes about a millisecond, fuzz/fuzz_ptx_one.c bounds every launch),
# FUZZ_RSS_MB (2048: resident memory limit, also the largest single allocation), FUZZ_NICE
# (10: the harnesses run under nice), FUZZ_OPTS (more libFuzzer flags, e.g. -seed=1), FUZZ_CC
# (clang; make deps installs clang and libclang-rt-14-dev, which holds libFuzzer).
# -max_len: 16384 bytes of PTX (the largest bench PTX is 12 KB) and of a BBV file (vecadd's at
# the test size is 12 KB), 8192 of configuration and of a register record.
# A crash becomes a regression input: copy it to tests/data/fuzz/NAME/ (test_fuzz_regress
# runs every file there through the same fuzz/fuzz_NAME_one.c, in make test and san-test).

FUZZ_CC      ?= clang
FUZZ_BUILD   := build-fuzz
FUZZ_TIME    ?= 60
FUZZ_RUNS    ?=
FUZZ_TIMEOUT ?= 10
FUZZ_RSS_MB  ?= 2048
FUZZ_NICE    ?= 10
FUZZ_TARGETS ?= ptx cfg bbv res
FUZZ_OPTS    ?=
FUZZ_JOBS    ?= 1
FUZZ_MAXLEN_ptx := 16384
FUZZ_MAXLEN_cfg := 8192
FUZZ_MAXLEN_bbv := 16384
FUZZ_MAXLEN_res := 8192
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=undefined -std=gnu11 -Wall -Wextra \
                -Werror=implicit-function-declaration -Imodel
FUZZ_ONE     := fuzz/fuzz_ptx_one.c fuzz/fuzz_cfg_one.c fuzz/fuzz_bbv_one.c fuzz/fuzz_res_one.c
FUZZ_OBJ     := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(MODEL_SRC) $(FUZZ_ONE))
FUZZ_BINS    := $(FUZZ_BUILD)/fuzz_ptx $(FUZZ_BUILD)/fuzz_cfg $(FUZZ_BUILD)/fuzz_bbv \
                $(FUZZ_BUILD)/fuzz_res
FUZZ_LIMIT    = $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_TIME))
FUZZ_FORK     = $(if $(filter-out 1,$(FUZZ_JOBS)),-fork=$(FUZZ_JOBS) -ignore_timeouts=0 -ignore_ooms=0)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS) $(FUZZ_BUILD)/ptx.dict $(FUZZ_BUILD)/cfg.dict $(FUZZ_BUILD)/bbv.dict \
            $(FUZZ_BUILD)/res.dict

# Model objects get the coverage instrumentation only; libFuzzer's main comes at the link.
FUZZ_COV = -fsanitize=fuzzer-no-link
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_COV) -MMD -MP -c $< -o $@

$(FUZZ_BINS): $(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz/fuzz_%.o $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ -lm

$(FUZZ_BUILD)/ptx.dict $(FUZZ_BUILD)/bbv.dict $(FUZZ_BUILD)/res.dict: $(FUZZ_BUILD)/%.dict: fuzz/%.dict
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
fuzz-seed-bbv:
	@mkdir -p $(FUZZ_BUILD)/corpus-bbv
	@for f in fuzz/seeds/bbv/*; do cp $$f $(FUZZ_BUILD)/corpus-bbv/seed-$$(basename $$f); done
fuzz-seed-res:
	@mkdir -p $(FUZZ_BUILD)/corpus-res
	@for f in bench/*/*.res; do n=$$(basename $$(dirname $$f)); \
	  cp $$f $(FUZZ_BUILD)/corpus-res/seed-$$n-$$(basename $$f); done; \
	  for f in fuzz/seeds/res/*; do cp $$f $(FUZZ_BUILD)/corpus-res/seed-$$(basename $$f); done

fuzz: deps fuzz-build $(addprefix fuzz-seed-,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/artifacts-$$t; \
	  echo "fuzz $$t: $(FUZZ_LIMIT) $(FUZZ_FORK), log in $(FUZZ_BUILD)/fuzz-$$t.log"; \
	  case $$t in ptx) max=$(FUZZ_MAXLEN_ptx);; bbv) max=$(FUZZ_MAXLEN_bbv);; \
	    res) max=$(FUZZ_MAXLEN_res);; *) max=$(FUZZ_MAXLEN_cfg);; esac; \
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

.PHONY: fuzz-seed-ptx fuzz-seed-cfg fuzz-seed-bbv fuzz-seed-res

# The BBV and register-record harness bodies run in test_fuzz_regress too (tests/data/fuzz/bbv/,
# tests/data/fuzz/res/): the Makefile's FUZZ_ONE_OBJ, which its link recipe expands when it
# runs, gets them here.
FUZZ_ONE_OBJ += $(BUILD)/fuzz/fuzz_bbv_one.o $(BUILD)/fuzz/fuzz_res_one.o
$(BUILD)/tests/test_fuzz_regress: $(BUILD)/fuzz/fuzz_bbv_one.o $(BUILD)/fuzz/fuzz_res_one.o
-include $(shell find $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
