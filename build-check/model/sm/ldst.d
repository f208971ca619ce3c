build-check/model/sm/ldst.o: model/sm/ldst.c model/sm/ldst.h \
 model/base/memreq.h model/sm/sm_limits.h model/base/config.h \
 model/base/slotmask.h model/base/cost.h
model/sm/ldst.h:
model/base/memreq.h:
model/sm/sm_limits.h:
model/base/config.h:
model/base/slotmask.h:
model/base/cost.h:
