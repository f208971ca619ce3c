build-check/model/func/exec_flt.o: model/func/exec_flt.c \
 model/func/exec_priv.h model/func/exec.h model/ptx/ptx.h \
 model/func/gmem.h
model/func/exec_priv.h:
model/func/exec.h:
model/ptx/ptx.h:
model/func/gmem.h:
