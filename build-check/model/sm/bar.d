build-check/model/sm/bar.o: model/sm/bar.c model/sm/bar.h \
 model/base/slotmask.h model/sm/sm_limits.h model/base/config.h \
 model/base/cost.h
model/sm/bar.h:
model/base/slotmask.h:
model/sm/sm_limits.h:
model/base/config.h:
model/base/cost.h:
