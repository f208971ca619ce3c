build-check/cli/main.o: cli/main.c cli/../cost/cost_main.h bench/bench.h \
 model/gpu/gpusim.h model/gpu/stats_list.h model/base/config.h \
 model/gpu/cta.h model/gpu/blocks.h model/base/block.h \
 model/base/blocks.def
cli/../cost/cost_main.h:
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
model/base/config.h:
model/gpu/cta.h:
model/gpu/blocks.h:
model/base/block.h:
model/base/blocks.def:
