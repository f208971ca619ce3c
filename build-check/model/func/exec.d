build-check/model/func/exec.o: model/func/exec.c model/func/exec_priv.h \
 model/func/exec.h model/ptx/ptx.h model/func/gmem.h
model/func/exec_priv.h:
model/func/exec.h:
model/ptx/ptx.h:
model/func/gmem.h:
