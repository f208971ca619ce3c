build-check/model/ptx/flow.o: model/ptx/flow.c model/ptx/flow.h \
 model/ptx/ptx.h
model/ptx/flow.h:
model/ptx/ptx.h:
