build-check/model/ptx/ptx_decl.o: model/ptx/ptx_decl.c \
 model/ptx/ptx_parse_priv.h model/ptx/ptx.h
model/ptx/ptx_parse_priv.h:
model/ptx/ptx.h:
