build-check/model/mem/l2.o: model/mem/l2.c model/mem/l2.h \
 model/base/memreq.h model/base/cachelib.h model/base/memreq.h \
 model/base/cost.h
model/mem/l2.h:
model/base/memreq.h:
model/base/cachelib.h:
model/base/memreq.h:
model/base/cost.h:
