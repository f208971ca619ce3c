build-check/model/ptx/ptx_parse.o: model/ptx/ptx_parse.c \
 model/ptx/ptx_parse_priv.h model/ptx/ptx.h
model/ptx/ptx_parse_priv.h:
model/ptx/ptx.h:
