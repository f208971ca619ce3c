build-check/model/gpu/cta.o: model/gpu/cta.c model/gpu/cta.h \
 model/base/config.h model/base/cost.h
model/gpu/cta.h:
model/base/config.h:
model/base/cost.h:
