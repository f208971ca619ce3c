# gpusim -- one entry point.
#   make deps    install every dependency from Debian packages (idempotent)
#   make         build build/gpusim and build/libgpusim.a
#   make run     deps + build + the main job: every bench kernel on configs/gtx480.cfg, a table
#   make test    deps + build + every test, the short co-simulation and the cost checks, as
#                stages in parallel with a table of their times (mk/test.mk; .ci/run)
#   make test-full  make test and the checks kept out of it: the sanitizers over the system
#                tests, the reports' tests on every kernel (docs/testing.md; before a release)
#   make cosim   full co-simulation of the RTL blocks (mk/cosim.mk); make cost: cost report (mk/cost.mk)
#   make bench   every bench kernel at the default size; regenerates docs/bench.md
#   make bench-speed  the simulator's speed per kernel; regenerates docs/performance.md
#   make bench-regroup  the thread regrouping algorithms' speed on 262 144 synthetic threads
#   make apps-page RODINIA=DIR  Rodinia's programs built for the model and the architect's page on
#                them, into docs/apps-page/ (tools/suites/apps_page.sh; needs nvcc)
#   make ptx     regenerate bench/*/kernel.ptx with nvcc, then make ptx-res (only where nvcc exists)
#   make ptx-res record ptxas's registers per kernel in bench/*/kernel.res (only where ptxas exists)
#   make check-test  CHECK=1 build (build-check/): every block's commit must leave q == d and
#                every block error stops the run; the whole bench suite at test size on gtx480,
#                kepler, vt = on (one SM), dws = revive (dws.cfg) and vtw = hw (its scheduler)
#   make san-test    SAN=1 build (build-san/): ASan + UBSan + LeakSanitizer, the unit-level
#                tests, one suite per mechanism and the page on two kernels
#   make fuzz    libFuzzer harnesses (clang) on the PTX path and the configuration parser for
#                FUZZ_TIME seconds each (mk/fuzz.mk; not part of make test)
# Options: CHECK=1 or SAN=1 on any target builds into build-check/ or build-san/ instead.

CC      ?= gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror=implicit-function-declaration -Imodel -Ibench
LDLIBS  += -lm
BUILD   := build
ifeq ($(CHECK),1)
BUILD   := build-check
CFLAGS  += -DGPUSIM_CHECK=1
endif
ifeq ($(SAN),1)
BUILD   := build-san
CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror=implicit-function-declaration -Imodel -Ibench
LDLIBS  += -fsanitize=address,undefined
endif
NVCC    ?= nvcc
NVCC_ARCH ?= sm_75

# model/ has one folder per layer (README.md's layout table): ptx and func at the bottom, sm and mem,
# then gpu; the command line (cli/) sits above bench/ and cost/.
MODEL_SRC := $(sort $(wildcard model/*/*.c))
CLI_SRC   := $(sort $(wildcard cli/*.c))
# BENCH_ONLY="a b" builds only those kernels (for working on one kernel in isolation)
ifdef BENCH_ONLY
BENCH_DIRS := $(addprefix bench/,$(BENCH_ONLY))
else
BENCH_DIRS := $(sort $(patsubst %/host.c,%,$(wildcard bench/*/host.c)))
endif
BENCH_NAMES := $(notdir $(BENCH_DIRS))
BENCH_SRC := bench/bench.c $(addsuffix /host.c,$(BENCH_DIRS))
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
TESTS     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))

MODEL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(MODEL_SRC))
BENCH_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(BENCH_SRC)) $(BUILD)/bench/registry.o
LIB       := $(BUILD)/libgpusim.a
BENCHLIB  := $(BUILD)/libbench.a
# the command line's modules but main(): the tests link them (tests/test_cache.c, ...)
CLILIB    := $(BUILD)/libcli.a
CLI_LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(filter-out cli/main.c,$(CLI_SRC)))

.PHONY: all deps run apps-page report bench bench-speed speed-guard speed-guard-update bench-regroup report-vtw report-vt report-dws report-regroup ptx ptx-res clean docs-svg FORCE
all: $(BUILD)/gpusim

deps:
	@sh tools/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# bench/registry.c is generated from the bench/*/host.c present, so adding a kernel is
# adding a folder.
$(BUILD)/bench/registry.c: FORCE
	@mkdir -p $(dir $@)
	@sh tools/gen_registry.sh $(BENCH_NAMES) > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(BUILD)/bench/registry.o: $(BUILD)/bench/registry.c
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(MODEL_OBJ)
	@rm -f $@; ar rcs $@ $^
$(BENCHLIB): $(BENCH_OBJ)
	@rm -f $@; ar rcs $@ $^

$(CLILIB): $(CLI_LIB_OBJ)
	@rm -f $@; ar rcs $@ $^

$(BUILD)/gpusim: $(BUILD)/cli/main.o $(CLILIB) $(BENCHLIB) $(LIB)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c tests/testutil.h $(CLILIB) $(BENCHLIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -Itests -Icli -DBUILD_DIR='"$(BUILD)"' $< $(CLILIB) $(BENCHLIB) $(LIB) -o $@ $(LDLIBS) -lcmocka

# The fuzz regression test runs the harness bodies (fuzz/fuzz_NAME_one.c, every harness of
# mk/fuzz.mk) on tests/data/fuzz/NAME/ and the seeds.
FUZZ_ONE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard fuzz/fuzz_*_one.c)))
$(BUILD)/tests/test_fuzz_regress: tests/test_fuzz_regress.c tests/testutil.h $(FUZZ_ONE_OBJ) \
		$(CLILIB) $(BENCHLIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -Itests -Ifuzz -Icli -DBUILD_DIR='"$(BUILD)"' $< $(FUZZ_ONE_OBJ) \
	  $(CLILIB) $(BENCHLIB) $(LIB) -o $@ $(LDLIBS) -lcmocka

# Reports run this many kernels at once (default: the machine's cores).
REPORT_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# The architect's page (cli/report_page.c) on a representative subset at the default size: one
# or two kernels per divergence category x every mechanism, results checked and cached
# (build/cache), the summary table printed, the page written to build/page/page.html.
RUN_KERNELS ?= vecadd,mandel,reduce,backprop,histogram,mcubes
run: deps all
	$(BUILD)/gpusim report page --size default --config configs/gtx480.cfg --kernels $(RUN_KERNELS) \
	  --jobs $(REPORT_JOBS) --cache $(BUILD)/cache --out $(BUILD)/page

# The page on the whole suite at the default size (hours on 2 cores; cached, so an interrupted
# run resumes): docs/report/page.{md,csv,html} and its plots.
report: deps all
	$(BUILD)/gpusim report page --size default --config configs/gtx480.cfg --jobs $(REPORT_JOBS) \
	  --cache $(BUILD)/cache --out docs/report

# make test, make test-full, check-test, san-test, cosim-test and cost-test: stages run in
# parallel, the table of their times at the end (mk/test.mk, docs/testing.md).

# The whole suite at the default size, results checked, docs/bench.md regenerated.
bench: deps all
	$(BUILD)/gpusim suite --size default --config configs/gtx480.cfg --markdown docs/bench.md

# The model's own speed on the whole suite (timing model, gtx480); writes docs/performance.md.
# Then the host time of an empty launch (cli/launch.c; docs/performance.md "Launch set-up"),
# the rate with each mechanism on against the baseline's (tools/speed_mech.sh; docs/performance.md
# "With a mechanism on") and the callgrind speed guard. Run it on an otherwise idle machine
# (about 25 minutes on one core).
bench-speed: deps all
	$(BUILD)/gpusim suite --size default --config configs/gtx480.cfg --set model=timing --perf docs/performance.md
	$(BUILD)/gpusim launch-bench 500 --config configs/gtx480.cfg
	@sh tools/speed_mech.sh
	@sh tools/speed_guard.sh

# The callgrind speed guard alone (tools/speed_guard.sh, a few minutes): host instructions per
# simulated warp instruction on mandel, kmeans, sloop and bfs at the test size; fails above
# the committed figure (docs/performance.md "Speed guard") + 10 %. speed-guard-update rewrites
# the figures (deliberately, when a change is worth its cost).
speed-guard: deps all
	@sh tools/speed_guard.sh
speed-guard-update: deps all
	@sh tools/speed_guard.sh --update

# The thread regrouping algorithms of 001 Section V (model/gpu/regroup.c) timed on a synthetic
# launch of 262 144 threads, with each one's estimates against the identity (cli/regroup.c).
bench-regroup: all
	$(BUILD)/gpusim regroup-bench 262144

# VTW's evaluation (000 Section 5 forms): 9 variants x every kernel at the default size, every
# result checked; writes docs/vtw.md (hand notes below its marker kept) and docs/vtw.csv. Runs
# are kept in the result cache $(BUILD)/cache, so an interrupted report resumes.
report-vtw: deps all
	$(BUILD)/gpusim report vtw --size default --config configs/gtx480.cfg --jobs $(REPORT_JOBS) \
	  --cache $(BUILD)/cache --markdown docs/vtw.md --csv docs/vtw.csv

# VT's evaluation (004 Section V forms): B_LRR and VT_LRR on every kernel, ten more variants
# (MAX, GTO, two-level, swap bandwidth) on the kernels where VT holds more CTAs; every result
# checked; writes docs/vt.md (the description below its marker kept) and docs/vt.csv. Runs are
# kept in the result cache $(BUILD)/cache, so an interrupted report resumes.
report-vt: deps all
	$(BUILD)/gpusim report vt --size default --config configs/gtx480.cfg --jobs $(REPORT_JOBS) \
	  --cache $(BUILD)/cache --markdown docs/vt.md --csv docs/vt.csv

# DWS's evaluation (002 "Results" forms): the baseline and the five DWS variants on gtx480 and
# configs/dws.cfg, BranchOnly and ReviveSplit without the over-subdivision rule, and a
# dws_wst_factor sweep 2/3/4 on configs/dws.cfg, every result checked; writes docs/dws.md (the
# model below its marker kept), docs/dws.csv and the two charts. At the default size
# (REPORT_DWS_SIZE) the DWS variants run on the kernels the baseline classes as divergent: a
# DWS run takes 2.5 to 4 times a baseline's host time, so this takes hours on 2 cores; every
# run goes through the result cache ($GPUSIM_CACHE or ~/.cache/gpusim), so an interrupted
# report resumes where it stopped. REPORT_DWS_SIZE=test runs all 28 kernels in about a minute.
REPORT_DWS_SIZE ?= default
report-dws: deps all
	$(BUILD)/gpusim report dws --size $(REPORT_DWS_SIZE) --config configs/gtx480.cfg \
	  --jobs $(REPORT_JOBS) --markdown docs/dws.md --csv docs/dws.csv

# Thread regrouping (001 Section VII forms): every kernel profiled for BBVs, regrouped by
# Sorting, Greedy and Greedy-Max, run under reference redirection, estimates against the
# simulated cycles; writes docs/regroup.md (notes below its marker kept), docs/regroup.csv and
# docs/regroup-fig9.svg. At the default size about an hour on one core (soundloc's regrouped
# runs are most of it); REPORT_REGROUP_SIZE=test for a 15 s run.
REPORT_REGROUP_SIZE ?= default
report-regroup: deps all
	$(BUILD)/gpusim report regroup --size $(REPORT_REGROUP_SIZE) --config configs/gtx480.cfg \
	  --markdown docs/regroup.md --csv docs/regroup.csv

# The applications page (issue 40): a Rodinia checkout (RODINIA=DIR, or $GPUSIM_RODINIA) built
# for the model and every mechanism of the page on its programs, into docs/apps-page/ with the
# machine and the time it took (tools/suites/apps_page.sh; needs nvcc; about an hour on 2 cores)
apps-page: deps all
	tools/suites/apps_page.sh $(if $(RODINIA),--rodinia $(RODINIA))

ptx: all
	@command -v $(NVCC) >/dev/null || { echo "make ptx: nvcc not found; the checked-in PTX stays"; exit 0; }; \
	for d in $(BENCH_DIRS); do \
	  echo "nvcc -ptx $$d/kernel.cu"; \
	  $(NVCC) -ptx -arch=$(NVCC_ARCH) -O3 -o $$d/kernel.ptx $$d/kernel.cu || exit 1; \
	done
	@$(MAKE) --no-print-directory ptx-res

# bench/*/kernel.res: what ptxas allocates per kernel (registers, shared memory, spills), read
# by the model to size registers per thread; bench/*/kernel.vtw.res: the same for the VTW
# transforms of each kernel, bench/*/kernel.redir.res for its reference-redirection forms
# (docs/ptx.md "Register counts").
ptx-res: all
	@command -v ptxas >/dev/null || { echo "make ptx-res: ptxas not found; the checked-in records stay"; exit 0; }; \
	for d in $(BENCH_DIRS); do \
	  echo "gpusim res $$d/kernel.ptx"; \
	  $(BUILD)/gpusim res $$d/kernel.ptx || exit 1; \
	done

# docs/sm.svg from docs/sm.dot (Graphviz; not needed to build or test).
docs-svg:
	@command -v dot >/dev/null || { echo "make docs-svg: Graphviz 'dot' not found"; exit 1; }
	dot -Tsvg docs/sm.dot -o docs/sm.svg

clean:
	rm -rf build build-check build-san build-fuzz

# Co-simulation (make cosim, cosim-test), cost (make cost, cost-test) and fuzzing (make fuzz)
# live in mk/.
-include $(wildcard mk/*.mk)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
