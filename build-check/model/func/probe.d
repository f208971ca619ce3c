build-check/model/func/probe.o: model/func/probe.c model/func/probe.h \
 model/func/exec.h model/ptx/ptx.h model/func/gmem.h model/gpu/gpusim.h \
 model/gpu/stats_list.h
model/func/probe.h:
model/func/exec.h:
model/ptx/ptx.h:
model/func/gmem.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
