# mk/cosim.mk -- lockstep co-simulation of the C blocks against their Verilog (Verilator),
# included by the main Makefile.  See docs/verification.md.
#
#   make cosim        every block: COSIM_CYCLES random cycles, replay of COSIM_KERNELS'
#                     (or COSIM_KERNELS_<blk>') recordings, zero mismatches, coverage summary (line / toggle), lint
#                     (Verilator -Wall, Yosys read + elaborate; synthesis is `make cost`'s)
#   make cosim-test   the short version for `make test`: COSIM_TEST_CYCLES random cycles, one
#                     recording, the injected-bug check, the SystemC run, Verilator lint;
#                     last line "N passed, M failed"
#   make cosim-lint   verilator --lint-only -Wall and a Yosys read of every rtl/<blk>.sv
#   make cosim-sc     the SystemC top (tb/sc_top.cpp): Verilated ws beside the C ws
#   make cosim-params the Verilog parameter header of COSIM_CONFIG
#
# ADDING A BLOCK <blk> = its row in model/base/blocks.def with rtl = 1 (COSIM_BLOCKS below is
# read from there; docs/adding-a-block.md).  The rules are generated per name and expect:
#   rtl/<blk>.sv         module <blk>: ports of struct <blk>_in / <blk>_out plus clk and rst
#                        (synchronous, active high = <blk>_reset), registers named as in
#                        struct <blk>_regs, parameters from `include "gpusim_params.vh"`, an
#                        `ifdef INJECT_BUG that changes one behaviour
#   tb/<blk>_top.sv      optional tb-only top (module <blk>_top) around it, e.g. to instantiate
#                        parameter variants; without it the Verilator top is <blk> itself
#   tb/<blk>_cosim.cpp   the harness: copy tb/ws_cosim.cpp (the pattern) and tb/cosim.h (the
#                        shared driver: options, random, recordings, VCD, coverage); headers
#                        tb/<blk>_*.h it includes are dependencies too
#   tb/<blk>_cov.waive   optional: coverage points that cannot be hit, with reasons
#                        (tools/cosim_cov.sh)
# Verilator is run with --prefix Vdut --public-flat-rw, so every harness includes "Vdut.h" and
# reads registers as dut->rootp-><top>__DOT__<signal>.  Per-block knobs (optional):
#   COSIM_VFLAGS_<blk>   extra Verilator flags for that block
#   COSIM_BUG_ARGS_<blk> stimulus for the injected-bug check (default: random cycles)
#   COSIM_YOSYS_PARAMS_<blk>  hierarchy -chparam options for the Yosys read (a block too big
#                        for Yosys at the configuration's size is elaborated smaller)
# Outputs: $(COSIM)/<blk>/cov/<blk>_cosim (coverage + trace), $(COSIM)/<blk>/bug/<blk>_cosim
# (+define+INJECT_BUG), recordings $(COSIM)/KERNEL.<blk>.rec, runs under $(COSIM)/<blk>/.

# The blocks with an RTL twin: the rows of the block registry whose rtl flag is 1; those
# whose record flag is 1 too are also replayed from recorded kernels (a block the SM does not
# drive yet has only random stimulus).
COSIM_BLK_SED     := s/^BLK[(]\([a-z0-9_]*\), *[A-Z]*, *1,.*/\1/p
COSIM_BLOCKS      := $(shell sed -n '$(COSIM_BLK_SED)' model/base/blocks.def)
COSIM_REC_SED     := s/^BLK[(]\([a-z0-9_]*\), *[A-Z]*, *1, *1,.*/\1/p
# Recordable blocks left out of the replays (none)
COSIM_NOREC       ?=
COSIM_REC_BLOCKS  := $(filter-out $(COSIM_NOREC),$(shell sed -n '$(COSIM_REC_SED)' model/base/blocks.def))

COSIM_CONFIG      ?= gtx480
COSIM_CYCLES      ?= 1000000
COSIM_TEST_CYCLES ?= 20000
COSIM_SEED        ?= 1
COSIM_KERNELS     ?= reduce nqueens bfs
COSIM_TEST_KERNEL ?= reduce
COSIM_SC_CYCLES   ?= 5000
# A block may replay its own kernels (COSIM_KERNELS_<blk>, COSIM_TEST_KERNEL_<blk>): VTW's
# blocks are recorded on one SM (COSIM_REC_SET_<blk> below), where the test-size grids of
# invmap (12 TBs on 5 virtual), stereo (9 on 5) and bfs (8 on 5 per launch) run more than one
# iteration per virtual TB; reduce, nqueens and most others fit in one.
# A kernel may carry a variant, KERNEL.VARIANT: recorded with COSIM_REC_VAR_<VARIANT> too. ntb
# is recorded under each lane policy (000 Sec. 4.2.2: SameLane, the configuration's, and
# SlowestLane / LowestToHighestLane), replayed into the unit built for that policy
# (tb/ntb_top.sv u0, u6, u7); make test replays invmap under all three.
COSIM_REC_VAR_slowest  := --set vtw_lane=slowest
COSIM_REC_VAR_lowest   := --set vtw_lane=lowest
COSIM_KERNELS_ntb      ?= $(foreach k,invmap stereo bfs,$(k) $(k).slowest $(k).lowest)
COSIM_KERNELS_pas      ?= invmap stereo bfs
COSIM_TEST_KERNEL_ntb  ?= invmap invmap.slowest invmap.lowest
COSIM_TEST_KERNEL_pas  ?= invmap
# VT's controller: recorded on one SM under vt = on, where the test size's grids of these
# Type-S kernels exceed the scheduling limit and CTAs swap (conv2d: 49 swaps)
COSIM_KERNELS_vtc      ?= conv2d stencil2d bfs
COSIM_TEST_KERNEL_vtc  ?= conv2d
# DWS's warp-split table: recorded under AggressSplit, which splits on branches and on the L1
# hit mask (bstsearch: memory divergence; nqueens: branch divergence; spmv: both)
COSIM_KERNELS_wst      ?= bstsearch nqueens spmv
COSIM_TEST_KERNEL_wst  ?= bstsearch
COSIM_KS = $(or $(COSIM_KERNELS_$(1)),$(COSIM_KERNELS))
COSIM_TK = $(or $(COSIM_TEST_KERNEL_$(1)),$(COSIM_TEST_KERNEL))

COSIM       := $(BUILD)/cosim
COSIM_INC   := $(BUILD)/rtl/$(COSIM_CONFIG)
COSIM_VH    := $(BUILD)/rtl/$(COSIM_CONFIG)_params.vh
VERILATOR   ?= verilator
YOSYS       ?= yosys
VLT_ROOT    := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
COSIM_CXX   ?= g++
# -O1 for the coverage model and the harnesses, -O0 for the injected-bug and SystemC models
# (they run a few thousand cycles): the build is the slow part, not the run. Only the coverage
# model is built with --trace (the waveform of a mismatch): the injected-bug model's mismatch
# is expected, and its trace code would be a third of its build.
COSIM_OPT   ?= -O1
COSIM_CXXFLAGS := -std=gnu++17 $(COSIM_OPT) -g0 -Wall -Wno-unused-parameter -faligned-new \
                  -Itb -Imodel -I$(VLT_ROOT)/include -I$(VLT_ROOT)/include/vltstd -DVM_SC=0
COSIM_VFLAGS := --cc --no-timing --prefix Vdut --public-flat-rw -I$(COSIM_INC) -Irtl
COSIM_LIBS  := $(COSIM)/cosim_cfg.o $(COSIM)/vlt/libvlt.a $(LIB) -lm -lpthread
COSIM_VLT_SRC := verilated verilated_cov verilated_vcd_c verilated_threads verilated_dpi
COSIM_TOOL_VERSIONS := $(shell $(VERILATOR) --version 2>/dev/null) $(shell $(COSIM_CXX) --version 2>/dev/null | head -n 1)

.PHONY: cosim cosim-lint cosim-sc cosim-params cosim-build

# ---------------------------------------------------------------- parameters of a configuration
# Rewritten only when the text changes (gpusim is relinked often; the RTL models need not be).
$(BUILD)/rtl/%_params.vh: configs/%.cfg $(BUILD)/gpusim
	@mkdir -p $(dir $@)
	@$(BUILD)/gpusim rtl-params --config $< > $@.tmp && \
	  { cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp; }
# rtl/<blk>.sv includes "gpusim_params.vh": the chosen configuration's header under that name.
$(COSIM_INC)/gpusim_params.vh: $(COSIM_VH)
	@mkdir -p $(dir $@)
	@cmp -s $< $@ || cp $< $@
cosim-params: $(COSIM_INC)/gpusim_params.vh

# ---------------------------------------------------------------- shared objects
$(COSIM)/vlt/%.o: $(VLT_ROOT)/include/%.cpp
	@mkdir -p $(dir $@)
	$(COSIM_CXX) $(COSIM_CXXFLAGS) -w -DVM_COVERAGE=1 -DVM_TRACE=1 -DVM_TRACE_VCD=1 -c $< -o $@
$(COSIM)/vlt/libvlt.a: $(patsubst %,$(COSIM)/vlt/%.o,$(COSIM_VLT_SRC))
	@rm -f $@; ar rcs $@ $^
# -MMD: the objects follow the model's headers (a stale struct gpu_config in cosim_cfg.o
# overran the harness's stack once the configuration grew); the Makefile includes every
# build/**/*.d, and model/base's headers are named too for trees built before the .d files.
$(COSIM)/cosim_cfg.o: tb/cosim_cfg.c tb/cosim_cfg.h $(wildcard model/base/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# ---------------------------------------------------------------- per-block rules
# $(1) block, $(2) variant dir (cov | bug), $(3) Verilator flags, $(4) C++ defines,
# $(5) C++ optimisation of the Verilated model
# The Verilated model (its archive and headers; the generated C++ and objects are removed
# once archived) is reused from the artefact cache (tools/artcache.sh) when its sources, the
# parameters, the flags and the Verilator and C++ compiler versions are the ones it was made
# with.
define COSIM_VARIANT
$(COSIM)/$(1)/$(2)/obj/Vdut__ALL.a: rtl/$(1).sv $(wildcard rtl/$(1)_*.svh) $(wildcard tb/$(1)_top.sv) $(COSIM_INC)/gpusim_params.vh
	+@sh tools/artcache.sh verilator-$(1)-$(2) $(addprefix --in ,rtl/$(1).sv \
	  $(wildcard rtl/$(1)_*.svh rtl/*_fn.svh) $(wildcard tb/$(1)_top.sv)) \
	  --in $(COSIM_INC)/gpusim_params.vh --key "$(COSIM_TOOL_VERSIONS)" \
	  --key "$(COSIM_VFLAGS) $(3) $$(COSIM_VFLAGS_$(1)) opt $(5)" \
	  --out $(COSIM)/$(1)/$(2)/obj -- \
	  "rm -rf $(COSIM)/$(1)/$(2)/obj && mkdir -p $(COSIM)/$(1)/$(2)/obj && \
	  $(VERILATOR) $(COSIM_VFLAGS) $(3) $$(COSIM_VFLAGS_$(1)) -Mdir $(COSIM)/$(1)/$(2)/obj \
	  --top-module $(if $(wildcard tb/$(1)_top.sv),$(1)_top,$(1)) \
	  $(wildcard tb/$(1)_top.sv) rtl/$(1).sv && \
	  $(MAKE) --no-print-directory -s -C $(COSIM)/$(1)/$(2)/obj -f Vdut.mk Vdut__ALL.a \
	  OPT_FAST='$(5)' OPT_SLOW='$(5)' OPT_GLOBAL='$(5)' CXX='$(COSIM_CXX)' && \
	  test -f $(COSIM)/$(1)/$(2)/obj/Vdut__ALL.a && \
	  rm -f $(COSIM)/$(1)/$(2)/obj/*.o $(COSIM)/$(1)/$(2)/obj/*.cpp $(COSIM)/$(1)/$(2)/obj/*.d"
	@touch $$@
$(COSIM)/$(1)/$(2)/$(1)_cosim: tb/$(1)_cosim.cpp tb/cosim.h tb/cosim_cfg.h model/sm/$(1).h \
		$(wildcard tb/$(1)_*.h) \
		$(COSIM)/$(1)/$(2)/obj/Vdut__ALL.a $(COSIM)/cosim_cfg.o $(COSIM)/vlt/libvlt.a $(LIB)
	$(COSIM_CXX) $(COSIM_CXXFLAGS) $(4) -MMD -MP -I$(COSIM)/$(1)/$(2)/obj $$< \
	  $(COSIM)/$(1)/$(2)/obj/Vdut__ALL.a $(COSIM_LIBS) -o $$@
endef

define COSIM_BLOCK
$(call COSIM_VARIANT,$(1),cov,--trace --coverage-line --coverage-toggle,-DVM_COVERAGE=1 -DVM_TRACE=1,$(COSIM_OPT))
$(call COSIM_VARIANT,$(1),bug,+define+INJECT_BUG,-DVM_COVERAGE=0 -DVM_TRACE=0,-O0)
COSIM_BUG_ARGS_$(1) ?= --cycles $(COSIM_TEST_CYCLES) --seed $(COSIM_SEED)
endef
$(foreach b,$(COSIM_BLOCKS),$(eval $(call COSIM_BLOCK,$(b))))

COSIM_BINS := $(foreach b,$(COSIM_BLOCKS),$(COSIM)/$(b)/cov/$(b)_cosim $(COSIM)/$(b)/bug/$(b)_cosim)
cosim-build: $(COSIM_BINS)

# ---------------------------------------------------------------- recordings
# build/cosim/KERNEL.BLK.rec: `gpusim run KERNEL --size test --record BLK=...` on COSIM_CONFIG,
# with COSIM_REC_SET_<blk> (a mechanism's block exists only with its mechanism on; VTW's on
# one SM, so that its virtual TBs iterate).
COSIM_REC_SET_ntb := --set vtw=hw --set sched_policy=vtw --set num_sms=1
COSIM_REC_SET_pas := $(COSIM_REC_SET_ntb)
COSIM_REC_SET_vtc := --set vt=on --set num_sms=1
COSIM_REC_SET_wst := --set dws=aggress
# KERNEL[.VARIANT].BLK.rec: the kernel, its variant's settings (COSIM_REC_VAR_<VARIANT>), the
# block's (COSIM_REC_SET_<BLK>).
COSIM_RW = $(subst ., ,$(1))
$(COSIM)/%.rec: $(BUILD)/gpusim
	@mkdir -p $(dir $@)
	$(BUILD)/gpusim run $(firstword $(call COSIM_RW,$*)) --size test \
	  --config configs/$(COSIM_CONFIG).cfg $(COSIM_REC_SET_$(lastword $(call COSIM_RW,$*))) \
	  $(foreach v,$(filter-out $(firstword $(call COSIM_RW,$*)) $(lastword $(call COSIM_RW,$*)),$(call COSIM_RW,$*)),$(COSIM_REC_VAR_$(v))) \
	  --record $(lastword $(call COSIM_RW,$*))=$@ > $@.log 2>&1 || { cat $@.log; exit 1; }

# ---------------------------------------------------------------- lint
# Verilator -Wall (cosim-test, cosim, cosim-lint) and a Yosys read + elaboration (cosim,
# cosim-lint: Yosys can take minutes on a large block, too slow for `make test`).
COSIM_VLINT = $(VERILATOR) --lint-only -Wall --no-timing -I$(COSIM_INC) -Irtl rtl/$(1).sv
COSIM_YLINT = $(YOSYS) -q -w 'Replacing memory' -p 'read_verilog -defer -sv -I$(COSIM_INC) -Irtl rtl/$(1).sv; hierarchy -check -top $(1) $(COSIM_YOSYS_PARAMS_$(1)); proc'
# sb: toggle coverage of the vectors up to 512 bits (Verilator's default is 256), so that the
# 128-slot check counts chk_n (512 bits) and gtx480's VWI registers (384) are in it; 1 024
# adds setvwi_vwi, rel_match and u1's VWIs but doubles the build time of the coverage model
COSIM_VFLAGS_sb := --coverage-max-width 512
# simt: at 48 warps Yosys 0.23 needs more than 30 minutes to elaborate the warp loop; the read
# uses 2 warps, depth 4, chunk 2, pop / fill timers and the DWS ports (the same code, smaller)
COSIM_YOSYS_PARAMS_simt := -chparam P_NWARPS 2 -chparam P_DEPTH 4 -chparam P_CHUNK 2 \
  -chparam P_POP_CYCLES 1 -chparam P_FILL_CYCLES 1 -chparam P_DWS 1
# pas: the injected bug (SameIter and higher-iteration DiffIter classes swapped) shows within
# a few cycles; the -O0 bug
# model of its quadratic rank logic (130 contexts in u1) runs a few hundred cycles a second
COSIM_BUG_ARGS_pas := --cycles 2000 --seed $(COSIM_SEED)
COSIM_LINT = $(call COSIM_VLINT,$(1)) && $(call COSIM_YLINT,$(1))
cosim-lint: $(COSIM_INC)/gpusim_params.vh
	@$(foreach b,$(COSIM_BLOCKS),$(call COSIM_LINT,$(b)) && \
	  echo "lint $(b): verilator --lint-only -Wall clean; Yosys reads and elaborates it" &&) true

# ---------------------------------------------------------------- make cosim
COSIM_RECS := $(foreach b,$(COSIM_REC_BLOCKS),$(foreach k,$(call COSIM_KS,$(b)),$(COSIM)/$(k).$(b).rec))
# $(1) block: its random cycles and the replay of its recordings, coverage into full.dat
COSIM_FULL = echo "== $(1): $(COSIM_CYCLES) random cycles (seed $(COSIM_SEED))$(if $(filter \
  $(1),$(COSIM_REC_BLOCKS)), + $(call COSIM_KS,$(1)) replayed)"; rm -f $(COSIM)/$(1)/full.dat; \
  $(COSIM)/$(1)/cov/$(1)_cosim --config configs/$(COSIM_CONFIG).cfg --cycles $(COSIM_CYCLES) \
    --seed $(COSIM_SEED) $(if $(filter $(1),$(COSIM_REC_BLOCKS)),$(foreach k,$(call \
    COSIM_KS,$(1)),--replay $(COSIM)/$(k).$(1).rec)) --vcd $(COSIM)/$(1)/mismatch.vcd \
    --cov $(COSIM)/$(1)/full.dat
cosim: $(COSIM_BINS) $(COSIM_RECS) $(COSIM_INC)/gpusim_params.vh
	@set -e; $(foreach b,$(COSIM_BLOCKS),$(call COSIM_FULL,$(b));) true
	@echo "== coverage (verilator_coverage; annotated sources in $(COSIM)/<blk>/annotate)"
	@for b in $(COSIM_BLOCKS); do \
	  rm -rf $(COSIM)/$$b/annotate; \
	  verilator_coverage --annotate $(COSIM)/$$b/annotate $(COSIM)/$$b/full.dat > /dev/null; \
	  sh tools/cosim_cov.sh $$b rtl/$$b.sv $(COSIM)/$$b/full.dat; \
	done
	@$(MAKE) --no-print-directory cosim-lint

# ---------------------------------------------------------------- make cosim-test
# Each check is a NAME / COMMAND pair for tools/cosim_run.sh (it counts and summarises).
COSIM_T = $(COSIM)/test
define COSIM_TEST_CHECKS
"$(1) build" "$(MAKE) --no-print-directory -s $(COSIM)/$(1)/cov/$(1)_cosim $(COSIM)/$(1)/bug/$(1)_cosim && echo '$(1): coverage and injected-bug harnesses built'" \
"$(1) lint" "$(call COSIM_VLINT,$(1)) && echo '$(1): verilator --lint-only -Wall clean'" \
"$(1) random $(COSIM_TEST_CYCLES)" "$(COSIM)/$(1)/cov/$(1)_cosim --config configs/$(COSIM_CONFIG).cfg --cycles $(COSIM_TEST_CYCLES) --seed $(COSIM_SEED) --vcd $(COSIM_T)/$(1).vcd --cov $(COSIM_T)/$(1).random.dat" \
$(if $(filter $(1),$(COSIM_REC_BLOCKS)),"$(1) replay $(call COSIM_TK,$(1))" "$(MAKE) --no-print-directory -s $(foreach k,$(call COSIM_TK,$(1)),$(COSIM)/$(k).$(1).rec) && $(COSIM)/$(1)/cov/$(1)_cosim --config configs/$(COSIM_CONFIG).cfg $(foreach k,$(call COSIM_TK,$(1)),--replay $(COSIM)/$(k).$(1).rec) --vcd $(COSIM_T)/$(1).vcd --cov $(COSIM_T)/$(1).replay.dat") \
"$(1) injected bug is caught" "sh tools/cosim_expect_mismatch.sh $(COSIM)/$(1)/bug/$(1)_cosim --config configs/$(COSIM_CONFIG).cfg $(COSIM_BUG_ARGS_$(1)) --vcd $(COSIM_T)/$(1).bug.vcd" \
"$(1) coverage" "verilator_coverage --write $(COSIM_T)/$(1).dat $(COSIM_T)/$(1).random.dat $(if $(filter $(1),$(COSIM_REC_BLOCKS)),$(COSIM_T)/$(1).replay.dat) && sh tools/cosim_cov.sh $(1) rtl/$(1).sv $(COSIM_T)/$(1).dat"
endef
# make cosim-test (mk/test.mk) and make test run one stage per block -- its checks above in
# order, through tools/cosim_run.sh, logs in $(COSIM_T)/<blk>/ -- and one for the SystemC top,
# after cosim-common has built what every harness shares.
stage/cosim-common: stage/build
	+@$(STAGE) --gate cosim-common $(MAKE) --no-print-directory -s $(COSIM)/vlt/libvlt.a \
	  $(COSIM)/cosim_cfg.o $(COSIM_INC)/gpusim_params.vh
$(foreach b,$(COSIM_BLOCKS),$(eval stage/cosim.$(b): stage/cosim-common ; \
	+@mkdir -p $(COSIM_T)/$(b) && $$(STAGE) cosim.$(b) env COSIM_LOG_DIR=$(COSIM_T)/$(b) \
	  sh tools/cosim_run.sh $$(call COSIM_TEST_CHECKS,$(b))))
stage/cosim.systemc: stage/cosim-common
	+@$(STAGE) cosim.systemc $(MAKE) --no-print-directory -s cosim-sc

# ---------------------------------------------------------------- SystemC
# Verilator --sc of rtl/ws.sv (module ws, the configuration's parameters) and an SC_MODULE
# around model/sm/ws.c, with a checker process comparing them every clock (tb/sc_top.cpp).
COSIM_SC     := $(COSIM)/sc
SC_CFLAGS    := $(shell pkg-config --cflags systemc 2>/dev/null)
SC_LIBS      := $(or $(shell pkg-config --libs systemc 2>/dev/null),-lsystemc)
$(COSIM_SC)/obj/Vws_sc__ALL.a: rtl/ws.sv $(COSIM_INC)/gpusim_params.vh
	@rm -rf $(COSIM_SC)/obj; mkdir -p $(COSIM_SC)/obj
	$(VERILATOR) --sc --no-timing --prefix Vws_sc --public-flat-rw -I$(COSIM_INC) -Irtl \
	  -Mdir $(COSIM_SC)/obj --top-module ws rtl/ws.sv
	+$(MAKE) --no-print-directory -s -C $(COSIM_SC)/obj -f Vws_sc.mk Vws_sc__ALL.a \
	  OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0 CXX="$(COSIM_CXX)"
$(COSIM_SC)/vlt/%.o: $(VLT_ROOT)/include/%.cpp
	@mkdir -p $(dir $@)
	$(COSIM_CXX) $(filter-out -DVM_SC=0,$(COSIM_CXXFLAGS)) $(SC_CFLAGS) -w -DVM_SC=1 \
	  -DVM_COVERAGE=0 -DVM_TRACE=0 -c $< -o $@
$(COSIM_SC)/sc_top: tb/sc_top.cpp tb/cosim.h tb/cosim_cfg.h model/sm/ws.h \
		$(COSIM_SC)/obj/Vws_sc__ALL.a $(patsubst %,$(COSIM_SC)/vlt/%.o,verilated verilated_threads) \
		$(COSIM)/cosim_cfg.o $(LIB)
	$(COSIM_CXX) $(filter-out -DVM_SC=0,$(COSIM_CXXFLAGS)) $(SC_CFLAGS) -DVM_SC=1 \
	  -DVM_COVERAGE=0 -DVM_TRACE=0 -I$(COSIM_SC)/obj $< $(COSIM_SC)/obj/Vws_sc__ALL.a \
	  $(patsubst %,$(COSIM_SC)/vlt/%.o,verilated verilated_threads) $(COSIM)/cosim_cfg.o \
	  $(LIB) $(SC_LIBS) -lm -lpthread -o $@
cosim-sc: $(COSIM_SC)/sc_top
	$(COSIM_SC)/sc_top --config configs/$(COSIM_CONFIG).cfg --cycles $(COSIM_SC_CYCLES) \
	  --seed $(COSIM_SEED)
