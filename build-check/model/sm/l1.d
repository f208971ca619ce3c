build-check/model/sm/l1.o: model/sm/l1.c model/sm/l1.h \
 model/base/memreq.h model/base/cachelib.h model/base/memreq.h \
 model/sm/sm_limits.h model/base/config.h model/base/slotmask.h \
 model/base/cost.h
model/sm/l1.h:
model/base/memreq.h:
model/base/cachelib.h:
model/base/memreq.h:
model/sm/sm_limits.h:
model/base/config.h:
model/base/slotmask.h:
model/base/cost.h:
