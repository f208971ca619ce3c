build-check/model/sm/fetch.o: model/sm/fetch.c model/sm/fetch.h \
 model/base/memreq.h model/base/slotmask.h model/sm/sm_limits.h \
 model/base/config.h model/base/cost.h
model/sm/fetch.h:
model/base/memreq.h:
model/base/slotmask.h:
model/sm/sm_limits.h:
model/base/config.h:
model/base/cost.h:
