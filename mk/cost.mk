# mk/cost.mk -- the storage and area estimator (cost/) and its Yosys cross-check, included by
# the main Makefile. See docs/cost-model.md.
#
#   make cost        `gpusim cost` for COST_CONFIG (gtx480) with the synthesis figures of every
#                    rtl/*.sv beside the estimator's; JSON in $(BUILD)/cost/$(COST_CONFIG).json.
#                    Slow the first time (a large block synthesizes for tens of minutes and
#                    maps to the cell library for longer), then cached: a block is synthesized
#                    again only when its rtl/*.sv, the parameters or cost/yosys.sh change.
#   make cost-test   tests/test_cost.c: the document checks, the estimator and, for every
#                    rtl/*.sv, estimator bits == Yosys flip-flops; last line "N passed, M failed".
#                    The flip-flop check synthesizes the variant COST_TEST_SET of COST_CONFIG
#                    (fewer slots and a shallower stack: minutes, not hours; the generic step
#                    only); COST_TEST_SET= checks COST_CONFIG itself.
#   make cost-yosys  only the synthesis for `make cost`
# COST_SYN_TIMEOUT and COST_LIB_TIMEOUT (seconds, 0 = no limit) bound the generic synthesis
# and the cell-library step of one block; COST_LIB_ABC is the option of Yosys's abc for the
# latter: -fast by default (ABC's full script ran for more than an hour on sb's 486K gates
# without finishing; on ws the two differ by 4 %, docs/cost-model.md), empty for the full one
# (cost/yosys.sh).
#
# The estimator's objects go into $(LIB), so `gpusim cost` and the tests link them.

COST_CONFIG      ?= gtx480
COST_TEST_SET    ?= max_warps_per_sm=24 max_threads_per_cta=768 \
                    simt_depth=4 simt_chunk=2
COST_SYN_TIMEOUT ?= 0
COST_LIB_TIMEOUT ?= 0
COST_LIB_ABC     ?= -fast
COST_LIBERTY     ?= /usr/share/qflow/tech/osu018/osu018_stdcells.lib
COST_OBJ     := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard cost/*.c)))
COST_DIR     := $(BUILD)/cost
COST_RTL     := $(sort $(wildcard rtl/*.sv))
COST_BLOCKS  := $(notdir $(basename $(COST_RTL)))
COST_YDIR    := $(COST_DIR)/yosys/$(COST_CONFIG)
COST_TDIR    := $(COST_DIR)/yosys/$(COST_CONFIG)-test

$(LIB): $(COST_OBJ)

.PHONY: cost cost-yosys

# $(1) results directory, $(2) KEY=VALUE overrides of COST_CONFIG, $(3) 1 = map to the cell
# library too. The parameters are rewritten only when they change (a rebuilt gpusim does not
# trigger a new synthesis); sets.txt tells the report and the test which variant DIR holds.
define COST_YOSYS_DIR
# (each stage of make test runs this in a make of its own, in parallel: the temporary files
# are the shell's own, $$$$, and a file is replaced only by a whole one with other bytes)
$(1)/gpusim_params.vh: FORCE | $$(BUILD)/gpusim
	@mkdir -p $(1)
	@printf '%s\n' $(2) > $(1)/sets.txt.$$$$$$$$; cmp -s $(1)/sets.txt.$$$$$$$$ $(1)/sets.txt || \
	  mv $(1)/sets.txt.$$$$$$$$ $(1)/sets.txt; rm -f $(1)/sets.txt.$$$$$$$$
	@$$(BUILD)/gpusim rtl-params --config configs/$$(COST_CONFIG).cfg \
	    $$(addprefix --set ,$(2)) > $$@.$$$$$$$$; \
	  cmp -s $$@.$$$$$$$$ $$@ || mv $$@.$$$$$$$$ $$@; rm -f $$@.$$$$$$$$
# A failed synthesis is recorded (the report and the test show it) instead of stopping make.
# A result is reused from the artefact cache (tools/artcache.sh) when the block's source, the
# headers, the parameters, cost/yosys.sh, the cell library, the options and Yosys's version are
# the ones it was made with; a failure is never cached.
$(1)/%.txt: rtl/%.sv $(wildcard rtl/*.svh) $(1)/gpusim_params.vh cost/yosys.sh
	@off="$$$$($$(BUILD)/gpusim cost --config configs/$$(COST_CONFIG).cfg --offchip $$*)"; \
	 COST_OFFCHIP="$$$$off" COST_LIB=$(3) COST_LIB_TIMEOUT=$$(COST_LIB_TIMEOUT) \
	 COST_LIB_ABC="$$(COST_LIB_ABC)" COST_SYN_TIMEOUT=$$(COST_SYN_TIMEOUT) \
	 sh tools/artcache.sh yosys-$$* $$(addprefix --in ,$$< $(wildcard rtl/*.svh) \
	   $(1)/gpusim_params.vh cost/yosys.sh $$(wildcard $$(COST_LIBERTY))) \
	   --key "$$(COST_YOSYS_VERSION)" --key "offchip $$$$off lib $(3) abc $$(COST_LIB_ABC)" \
	   --key "timeouts $$(COST_SYN_TIMEOUT) $$(COST_LIB_TIMEOUT) $$$${COST_LIB_MEM_MB:-}" \
	   --out $$@ --out $(1)/$$*.log -- "sh cost/yosys.sh $$< $(1) $$(COST_LIBERTY)" || \
	 { echo "failed 1" > $$@; echo "make cost: synthesis of $$< failed (log: $(1)/$$*.log)"; }
endef
COST_YOSYS_VERSION := $(shell $(YOSYS) -V 2>/dev/null)
$(eval $(call COST_YOSYS_DIR,$(COST_YDIR),$(COST_YOSYS_SET),1))
$(eval $(call COST_YOSYS_DIR,$(COST_TDIR),$(COST_TEST_SET),0))

cost-yosys: deps $(COST_BLOCKS:%=$(COST_YDIR)/%.txt)

cost: deps all $(COST_BLOCKS:%=$(COST_YDIR)/%.txt)
	$(BUILD)/gpusim cost --config configs/$(COST_CONFIG).cfg --yosys $(COST_YDIR) \
	    --json $(COST_DIR)/$(COST_CONFIG).json

# make cost-test (mk/test.mk) and make test: one stage per block synthesizes the variant
# COST_TEST_SET (the generic step only), then stage/cost runs the cost tests against them
$(foreach b,$(COST_BLOCKS),$(eval stage/yosys.$(b): stage/build ; \
	+@$$(STAGE) yosys.$(b) $(MAKE) --no-print-directory -s $(COST_TDIR)/$(b).txt))
stage/cost: $(addprefix stage/yosys.,$(COST_BLOCKS))
	@$(STAGE) cost env COST_YOSYS_DIR=$(COST_TDIR) COST_RTL="$(COST_BLOCKS)" \
	  COST_CONFIG_FILE=configs/$(COST_CONFIG).cfg sh cost/cost_test.sh $(BUILD)/tests/test_cost
