build-check/model/sm/sb.o: model/sm/sb.c model/sm/sb.h model/base/cost.h
model/sm/sb.h:
model/base/cost.h:
