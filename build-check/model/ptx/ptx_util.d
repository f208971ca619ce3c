build-check/model/ptx/ptx_util.o: model/ptx/ptx_util.c model/ptx/ptx.h
model/ptx/ptx.h:
