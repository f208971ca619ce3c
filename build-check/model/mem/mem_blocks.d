build-check/model/mem/mem_blocks.o: model/mem/mem_blocks.c \
 model/mem/mem_blocks.h model/mem/dram.h model/base/memreq.h \
 model/base/cachelib.h model/base/memreq.h model/mem/icnt.h \
 model/mem/l2.h model/mem/memsys.h model/base/block.h \
 model/base/blocks.def model/base/config.h
model/mem/mem_blocks.h:
model/mem/dram.h:
model/base/memreq.h:
model/base/cachelib.h:
model/base/memreq.h:
model/mem/icnt.h:
model/mem/l2.h:
model/mem/memsys.h:
model/base/block.h:
model/base/blocks.def:
model/base/config.h:
