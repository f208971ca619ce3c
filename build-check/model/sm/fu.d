build-check/model/sm/fu.o: model/sm/fu.c model/sm/fu.h \
 model/sm/sm_limits.h model/base/config.h model/base/slotmask.h \
 model/base/cost.h
model/sm/fu.h:
model/sm/sm_limits.h:
model/base/config.h:
model/base/slotmask.h:
model/base/cost.h:
