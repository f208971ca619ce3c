build-check/model/ptx/ptx_lex.o: model/ptx/ptx_lex.c \
 model/ptx/ptx_parse_priv.h model/ptx/ptx.h
model/ptx/ptx_parse_priv.h:
model/ptx/ptx.h:
