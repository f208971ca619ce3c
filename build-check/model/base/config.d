build-check/model/base/config.o: model/base/config.c model/base/config.h
model/base/config.h:
