build-check/model/sm/iss.o: model/sm/iss.c model/sm/iss.h \
 model/base/slotmask.h model/sm/fu.h model/sm/sm_limits.h \
 model/base/config.h model/base/cost.h model/ptx/ptx.h
model/sm/iss.h:
model/base/slotmask.h:
model/sm/fu.h:
model/sm/sm_limits.h:
model/base/config.h:
model/base/cost.h:
model/ptx/ptx.h:
