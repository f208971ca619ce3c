build-check/model/sm/ws.o: model/sm/ws.c model/sm/ws.h model/base/cost.h
model/sm/ws.h:
model/base/cost.h:
