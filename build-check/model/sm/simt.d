build-check/model/sm/simt.o: model/sm/simt.c model/sm/simt.h \
 model/base/memreq.h model/base/slotmask.h model/sm/sm_limits.h \
 model/base/config.h model/base/cost.h
model/sm/simt.h:
model/base/memreq.h:
model/base/slotmask.h:
model/sm/sm_limits.h:
model/base/config.h:
model/base/cost.h:
