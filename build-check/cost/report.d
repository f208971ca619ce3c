build-check/cost/report.o: cost/report.c cost/cost_main.h cost/estimate.h \
 model/base/config.h model/base/cost.h
cost/cost_main.h:
cost/estimate.h:
model/base/config.h:
model/base/cost.h:
