build-check/cost/docs.o: cost/docs.c cost/estimate.h model/base/config.h \
 model/base/cost.h model/gpu/blocks.h model/base/block.h \
 model/base/blocks.def model/sm/ldst.h model/base/memreq.h model/sm/sb.h \
 model/sm/simt.h model/base/slotmask.h
cost/estimate.h:
model/base/config.h:
model/base/cost.h:
model/gpu/blocks.h:
model/base/block.h:
model/base/blocks.def:
model/sm/ldst.h:
model/base/memreq.h:
model/sm/sb.h:
model/sm/simt.h:
model/base/slotmask.h:
