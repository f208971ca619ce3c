build-check/model/mem/dram.o: model/mem/dram.c model/mem/dram.h \
 model/base/memreq.h model/base/cachelib.h model/base/memreq.h \
 model/base/cost.h
model/mem/dram.h:
model/base/memreq.h:
model/base/cachelib.h:
model/base/memreq.h:
model/base/cost.h:
