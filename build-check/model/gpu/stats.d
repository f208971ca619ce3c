build-check/model/gpu/stats.o: model/gpu/stats.c model/gpu/cta.h \
 model/gpu/gpusim.h
model/gpu/cta.h:
model/gpu/gpusim.h:
