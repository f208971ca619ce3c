build-check/model/sm/smem.o: model/sm/smem.c model/sm/smem.h \
 model/base/config.h model/base/cost.h
model/sm/smem.h:
model/base/config.h:
model/base/cost.h:
