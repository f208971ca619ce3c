# mk/cost.mk -- the storage and area estimator (cost/) and its Yosys cross-check, included by
# the main Makefile. See docs/cost-model.md.
#
#   make cost        `gpusim cost` for COST_CONFIG (gtx480) with the synthesis figures of every
#                    rtl/*.sv beside the estimator's; JSON in $(BUILD)/cost/$(COST_CONFIG).json
#   make cost-test   tests/test_cost.c: the document checks, the estimator and, for every
#                    rtl/*.sv, estimator bits == Yosys flip-flops; last line "N passed, M failed"
#   make cost-yosys  only the synthesis (cached: a block is synthesized again when its rtl/*.sv,
#                    the configuration's parameters or cost/yosys.sh change)
# COST_YOSYS_SET="KEY=VALUE ..." synthesizes a variant of COST_CONFIG (e.g. fewer warps, for a
# quicker run); the estimator's side of the comparison then uses the same variant.
#
# The estimator's objects go into $(LIB), so `gpusim cost` and the tests link them.

COST_CONFIG  ?= gtx480
COST_LIBERTY ?= /usr/share/qflow/tech/osu018/osu018_stdcells.lib
COST_OBJ     := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard cost/*.c)))
COST_DIR     := $(BUILD)/cost
COST_YDIR    := $(COST_DIR)/yosys/$(COST_CONFIG)
COST_RTL     := $(sort $(wildcard rtl/*.sv))
COST_YRES    := $(patsubst rtl/%.sv,$(COST_YDIR)/%.txt,$(COST_RTL))

$(LIB): $(COST_OBJ)

.PHONY: cost cost-test cost-yosys

# The configuration's Verilog parameters; rewritten only when they change, so that a rebuilt
# gpusim does not trigger a new synthesis. COST_YOSYS_SET="KEY=VALUE ..." synthesizes a
# variant of the configuration (sets.txt tells the report and the test which).
$(COST_YDIR)/gpusim_params.vh: FORCE | $(BUILD)/gpusim
	@mkdir -p $(dir $@)
	@printf '%s\n' $(COST_YOSYS_SET) > $(COST_YDIR)/sets.txt
	@$(BUILD)/gpusim rtl-params --config configs/$(COST_CONFIG).cfg \
	    $(addprefix --set ,$(COST_YOSYS_SET)) > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

# A failed synthesis is recorded (the report and the test show it) instead of stopping make.
$(COST_YDIR)/%.txt: rtl/%.sv $(COST_YDIR)/gpusim_params.vh cost/yosys.sh
	@COST_OFFCHIP="$$($(BUILD)/gpusim cost --config configs/$(COST_CONFIG).cfg --offchip $*)" \
	 sh cost/yosys.sh $< $(COST_YDIR) $(COST_LIBERTY) || \
	 { echo "failed 1" > $@; echo "make cost: synthesis of $< failed (log: $(COST_YDIR)/$*.log)"; }

cost-yosys: deps $(COST_YRES)

cost: deps all $(COST_YRES)
	$(BUILD)/gpusim cost --config configs/$(COST_CONFIG).cfg --yosys $(COST_YDIR) \
	    --json $(COST_DIR)/$(COST_CONFIG).json

cost-test: deps all $(BUILD)/tests/test_cost $(COST_YRES)
	@COST_YOSYS_DIR=$(COST_YDIR) COST_RTL="$(notdir $(basename $(COST_RTL)))" \
	 COST_CONFIG_FILE=configs/$(COST_CONFIG).cfg sh cost/cost_test.sh $(BUILD)/tests/test_cost
