build-check/model/func/gmem.o: model/func/gmem.c model/func/gmem.h
model/func/gmem.h:
