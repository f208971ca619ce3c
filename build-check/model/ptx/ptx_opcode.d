build-check/model/ptx/ptx_opcode.o: model/ptx/ptx_opcode.c \
 model/ptx/ptx_parse_priv.h model/ptx/ptx.h
model/ptx/ptx_parse_priv.h:
model/ptx/ptx.h:
