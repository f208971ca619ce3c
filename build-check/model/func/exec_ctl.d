build-check/model/func/exec_ctl.o: model/func/exec_ctl.c \
 model/func/exec_priv.h model/func/exec.h model/ptx/ptx.h \
 model/func/gmem.h
model/func/exec_priv.h:
model/func/exec.h:
model/ptx/ptx.h:
model/func/gmem.h:
