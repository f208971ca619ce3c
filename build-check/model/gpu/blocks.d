build-check/model/gpu/blocks.o: model/gpu/blocks.c model/gpu/blocks.h \
 model/base/block.h model/base/blocks.def model/gpu/cta.h \
 model/base/config.h model/mem/mem_blocks.h model/mem/dram.h \
 model/base/memreq.h model/base/cachelib.h model/base/memreq.h \
 model/mem/icnt.h model/mem/l2.h model/mem/memsys.h
model/gpu/blocks.h:
model/base/block.h:
model/base/blocks.def:
model/gpu/cta.h:
model/base/config.h:
model/mem/mem_blocks.h:
model/mem/dram.h:
model/base/memreq.h:
model/base/cachelib.h:
model/base/memreq.h:
model/mem/icnt.h:
model/mem/l2.h:
model/mem/memsys.h:
