build-check/model/ptx/ptx_link.o: model/ptx/ptx_link.c model/ptx/ptx.h
model/ptx/ptx.h:
