build-check/cost/estimate.o: cost/estimate.c cost/estimate.h \
 model/base/config.h model/base/cost.h model/gpu/blocks.h \
 model/base/block.h model/base/blocks.def
cost/estimate.h:
model/base/config.h:
model/base/cost.h:
model/gpu/blocks.h:
model/base/block.h:
model/base/blocks.def:
