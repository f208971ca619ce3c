build-check/model/mem/icnt.o: model/mem/icnt.c model/mem/icnt.h \
 model/base/memreq.h model/base/cost.h
model/mem/icnt.h:
model/base/memreq.h:
model/base/cost.h:
