build-check/model/sm/kgen.o: model/sm/kgen.c model/sm/kgen.h \
 model/base/slotmask.h model/sm/sm_limits.h model/base/config.h \
 model/base/cost.h
model/sm/kgen.h:
model/base/slotmask.h:
model/sm/sm_limits.h:
model/base/config.h:
model/base/cost.h:
