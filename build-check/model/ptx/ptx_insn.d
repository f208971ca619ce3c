build-check/model/ptx/ptx_insn.o: model/ptx/ptx_insn.c \
 model/ptx/ptx_parse_priv.h model/ptx/ptx.h
model/ptx/ptx_parse_priv.h:
model/ptx/ptx.h:
