build-check/cost/area.o: cost/area.c cost/estimate.h model/base/config.h \
 model/base/cost.h
cost/estimate.h:
model/base/config.h:
model/base/cost.h:
