build-check/model/base/cost.o: model/base/cost.c model/base/cost.h
model/base/cost.h:
