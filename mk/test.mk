# mk/test.mk -- `make test` and `make test-full` as stages (docs/testing.md), included by the
# main Makefile.
#
# A stage is one thing that builds or checks: the build, each unit test binary, each CHECK=1
# suite, the sanitizer build and each of its runs, each co-simulated block, each Yosys run, the
# cost checks. Every stage is a make target `stage/NAME` run through tools/stage.sh (its output
# in build/stages/NAME.log, its time and counts in NAME.res, one PASS/FAIL line when it ends,
# a failing stage's tail printed), so that make runs them in parallel, one per core (-j, or
# -j$(nproc) when make test is called without a job server), in the order their dependencies
# allow. The last lines are tools/test_summary.sh's table of every stage (result, wall and CPU
# seconds, what it counted) and "N passed, M failed" over every test the stages ran; the exit
# status is non-zero when anything failed. A build stage that fails skips the stages that
# need it (each shown as NOT RUN, a failure).
#
#   make test        the stages below (TEST_STAGES): about 25 minutes on 2 cores (docs/testing.md)
#   make test-full   those and TEST_FULL_STAGES: the sanitizers over the system tests, the
#                    reports' tests on every kernel, the time-skip equivalence on the whole
#                    suite under every setting (the check before a release)
#   make check-test, san-test, cosim-test, cost-test   one family of stages alone
#   make stage/NAME  one stage (e.g. make stage/unit.test_vt), with the stages it needs
#
# What runs where, and why each check is in the layer it is: docs/testing.md "What make test
# runs".

STAGE_DIR   := build/stages
STAGE        = STAGE_DIR=$(STAGE_DIR) bash tools/stage.sh
TEST_NPROC  := $(shell nproc 2>/dev/null || echo 2)

# ---------------------------------------------------------------- which tests run where
UNIT_NAMES   := $(patsubst tests/%.c,%,$(TEST_SRC))
# The system tests: their cases run bench kernels under every variant of a mechanism or
# configuration (the correctness of every kernel under every variant). make test runs them in
# the normal build; make test-full also under the sanitizers.
# test_cuda_bench: every kernel as a CUDA program against gpusim run, under four mechanisms.
SYSTEM_TESTS := test_bench test_cli test_config_sweep test_cuda_bench test_dws test_fidelity \
                test_mech_plug test_redir test_vt test_vtw
# test_cost runs once, in stage/cost, with the Yosys results it cross-checks.
UNIT_STAGES  := $(addprefix unit.,$(filter-out test_cost,$(UNIT_NAMES)))
# Under the sanitizers, make test runs every unit-level test; of the system tests, their own
# cases without the (kernel, variant) ones -- SAN_SKIP_<test>, cmocka's skip filter
# (tests/testutil.h tu_filters) -- and test_cli as make test runs it; then one suite per
# mechanism and the page on two kernels. So every line of model code the system tests reach
# runs under the sanitizers (docs/testing.md measures it), and the repeated suites do not.
# make test-full runs the system tests whole under the sanitizers (san-full.NAME).
SAN_UNIT     := $(filter-out $(SYSTEM_TESTS),$(UNIT_NAMES))
SAN_PART     := test_cli test_dws test_mech_plug test_redir test_vt test_vtw
SAN_SKIP_test_dws   := */*
SAN_SKIP_test_mech_plug := */*
SAN_SKIP_test_vt    := */*
SAN_SKIP_test_vtw   := */*
SAN_SKIP_test_redir := test_every_kernel
SAN_SUITES   := base vt dws vtw func
SAN_STAGES   := $(addprefix san.,$(SAN_UNIT) $(SAN_PART)) $(addprefix san.suite-,$(SAN_SUITES)) \
                san.report
SAN_FULL_STAGES := $(addprefix san-full.,$(filter-out test_fidelity,$(SYSTEM_TESTS)))
CHECK_SUITES := gtx480 kepler vt dws vtw vtvtw
CHECK_STAGES := $(addprefix check.,$(CHECK_SUITES))
COSIM_STAGES := $(addprefix cosim.,$(COSIM_BLOCKS)) cosim.systemc
COST_STAGES  := $(addprefix yosys.,$(COST_BLOCKS)) cost

TEST_STAGES      := build $(UNIT_STAGES) build-check $(CHECK_STAGES) build-san $(SAN_STAGES) \
                    cosim-common $(COSIM_STAGES) $(COST_STAGES)
TEST_FULL_STAGES := $(TEST_STAGES) $(SAN_FULL_STAGES) unit-full.test_cli

# $(1): stage names. Clears the stage directory, runs them (in parallel, every one even when
# some fail), prints the table; fails if anything failed.
define RUN_STAGES
	@rm -rf $(STAGE_DIR); mkdir -p $(STAGE_DIR); date +%s.%N > $(STAGE_DIR)/.start; \
	  cat /proc/loadavg > $(STAGE_DIR)/.load 2>/dev/null || true
	+@case "$$MAKEFLAGS" in *jobserver*) pj= ;; *) pj=-j$(TEST_NPROC) ;; esac; \
	  $(MAKE) --no-print-directory $$pj -k $(addprefix stage/,$(1)) 2>&1 | \
	    grep --line-buffered -v -e '^make\[[0-9]*\]: \*\*\* \[' -e '^make\[[0-9]*\]: Target .* not remade' \
	            -e '^make: \*\*\* \[' -e '^make: Target .* not remade'; \
	  STAGE_RUN="make $@" sh tools/test_summary.sh $(STAGE_DIR) $(1)
endef

.PHONY: test test-full check-test san-test cosim-test cost-test
test: deps
	$(call RUN_STAGES,$(TEST_STAGES))
test-full: deps
	$(call RUN_STAGES,$(TEST_FULL_STAGES))
check-test: deps
	$(call RUN_STAGES,build-check $(CHECK_STAGES))
san-test: deps
	$(call RUN_STAGES,build-san $(SAN_STAGES))
cosim-test: deps
	$(call RUN_STAGES,build cosim-common $(COSIM_STAGES))
cost-test: deps
	$(call RUN_STAGES,build $(COST_STAGES))

# ---------------------------------------------------------------- the stages
STAGE_TARGETS := $(addprefix stage/,$(TEST_FULL_STAGES))
.PHONY: $(STAGE_TARGETS)

# the normal build: gpusim, the libraries, every test binary, the fuzz harness bodies
stage/build:
	+@$(STAGE) --gate build $(MAKE) --no-print-directory all $(TESTS)

# unit.NAME: one test binary
$(foreach t,$(filter-out test_cost,$(UNIT_NAMES)),$(eval stage/unit.$(t): stage/build ; \
	@$$(STAGE) unit.$(t) $(BUILD)/tests/$(t)))
stage/unit-full.test_cli: stage/build
	@$(STAGE) unit-full.test_cli env TEST_FULL=1 $(BUILD)/tests/test_cli

# CHECK=1: every block's commit must leave q == d, every block error stops the run; the
# suite at the test size on gtx480, kepler, vt = on on one SM (CTAs swap), dws = revive,
# vtw = hw with its scheduler, VT with VTW on one SM (each mechanism's time_skip hooks checked,
# and two mechanisms' together)
stage/build-check:
	+@$(STAGE) --gate build-check $(MAKE) --no-print-directory CHECK=1 build-check/gpusim
CHECK_ARGS_gtx480 := --config configs/gtx480.cfg
CHECK_ARGS_kepler := --config configs/kepler.cfg
CHECK_ARGS_vt     := --set vt=on --set num_sms=1
CHECK_ARGS_dws    := --config configs/dws.cfg --set dws=revive
CHECK_ARGS_vtw    := --set vtw=hw --set sched_policy=vtw
CHECK_ARGS_vtvtw  := --set vt=on --set vtw=hw --set sched_policy=vtw --set num_sms=1
$(foreach c,$(CHECK_SUITES),$(eval stage/check.$(c): stage/build-check ; \
	@$$(STAGE) check.$(c) build-check/gpusim suite --size test $(CHECK_ARGS_$(c))))

# ASan + UBSan + LeakSanitizer (a leak fails the run): every unit-level test (the fuzz
# regression inputs among them), the system tests' own cases (SAN_PART above), one suite per
# mechanism (the baseline; VT on one SM, where CTAs swap; DWS revive; VTW with its scheduler;
# the functional model under VTW), the page on two kernels (every mechanism the page lists:
# VTW's forms, VT, DWS, the regroupings)
SAN_RUN := env ASAN_OPTIONS=detect_leaks=1
stage/build-san:
	+@$(STAGE) --gate build-san $(MAKE) --no-print-directory SAN=1 build-san/gpusim \
	  $(addprefix build-san/tests/,$(UNIT_NAMES))
$(foreach t,$(SAN_UNIT) $(SAN_PART),$(eval stage/san.$(t): stage/build-san ; \
	@$$(STAGE) san.$(t) $(SAN_RUN) $(if $(SAN_SKIP_$(t)),TEST_SKIP='$(SAN_SKIP_$(t))') \
	  build-san/tests/$(t)))
$(foreach t,$(filter-out test_fidelity,$(SYSTEM_TESTS)),$(eval stage/san-full.$(t): \
	stage/build-san ; @$$(STAGE) san-full.$(t) $(SAN_RUN) TEST_FULL=1 build-san/tests/$(t)))
SAN_SUITE_base := --config configs/gtx480.cfg
SAN_SUITE_vt   := --set vt=on --set num_sms=1
SAN_SUITE_dws  := --config configs/dws.cfg --set dws=revive
SAN_SUITE_vtw  := --set vtw=hw --set sched_policy=vtw
SAN_SUITE_func := --set model=functional --set vtw=hw --set vtw_lane=slowest
$(foreach m,$(SAN_SUITES),$(eval stage/san.suite-$(m): stage/build-san ; \
	@$$(STAGE) san.suite-$(m) $(SAN_RUN) build-san/gpusim suite --size test $(SAN_SUITE_$(m))))
SAN_REPORT_KERNELS := reduce,mcubes
stage/san.report: stage/build-san
	@$(STAGE) san.report $(SAN_RUN) build-san/gpusim report page --size test --kernels \
	  $(SAN_REPORT_KERNELS) --jobs 1 --cache none --out build-san/page
