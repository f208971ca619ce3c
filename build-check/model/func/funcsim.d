build-check/model/func/funcsim.o: model/func/funcsim.c model/func/exec.h \
 model/ptx/ptx.h model/func/gmem.h model/func/funcsim.h model/ptx/flow.h \
 model/ptx/ptx.h model/base/config.h model/gpu/gpusim.h \
 model/gpu/stats_list.h model/func/probe.h
model/func/exec.h:
model/ptx/ptx.h:
model/func/gmem.h:
model/func/funcsim.h:
model/ptx/flow.h:
model/ptx/ptx.h:
model/base/config.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
model/func/probe.h:
