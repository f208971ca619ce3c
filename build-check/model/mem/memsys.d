build-check/model/mem/memsys.o: model/mem/memsys.c model/mem/memsys.h \
 model/base/memreq.h model/mem/icnt.h model/mem/l2.h \
 model/base/cachelib.h model/base/memreq.h model/mem/dram.h
model/mem/memsys.h:
model/base/memreq.h:
model/mem/icnt.h:
model/mem/l2.h:
model/base/cachelib.h:
model/base/memreq.h:
model/mem/dram.h:
