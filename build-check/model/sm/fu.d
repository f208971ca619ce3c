build-check/model/sm/fu.o: model/sm/fu.c model/sm/fu.h model/base/cost.h
model/sm/fu.h:
model/base/cost.h:
