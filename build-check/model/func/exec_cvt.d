build-check/model/func/exec_cvt.o: model/func/exec_cvt.c \
 model/func/exec_priv.h model/func/exec.h model/ptx/ptx.h \
 model/func/gmem.h
model/func/exec_priv.h:
model/func/exec.h:
model/ptx/ptx.h:
model/func/gmem.h:
