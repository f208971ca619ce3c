build-check/model/sm/sm_cta.o: model/sm/sm_cta.c model/sm/sm.h \
 model/sm/bar.h model/base/slotmask.h model/sm/fetch.h \
 model/base/memreq.h model/sm/fu.h model/sm/iss.h model/sm/kgen.h \
 model/sm/l1.h model/base/cachelib.h model/base/memreq.h model/sm/ldst.h \
 model/sm/sb.h model/sm/simt.h model/sm/sm_cfgs.h model/sm/ws.h \
 model/sm/smem.h model/base/block.h model/base/blocks.def \
 model/base/config.h model/func/exec.h model/ptx/ptx.h model/func/gmem.h \
 model/func/gmem.h model/func/probe.h model/func/exec.h \
 model/gpu/gpusim.h model/gpu/stats_list.h model/ptx/flow.h \
 model/ptx/ptx.h
model/sm/sm.h:
model/sm/bar.h:
model/base/slotmask.h:
model/sm/fetch.h:
model/base/memreq.h:
model/sm/fu.h:
model/sm/iss.h:
model/sm/kgen.h:
model/sm/l1.h:
model/base/cachelib.h:
model/base/memreq.h:
model/sm/ldst.h:
model/sm/sb.h:
model/sm/simt.h:
model/sm/sm_cfgs.h:
model/sm/ws.h:
model/sm/smem.h:
model/base/block.h:
model/base/blocks.def:
model/base/config.h:
model/func/exec.h:
model/ptx/ptx.h:
model/func/gmem.h:
model/func/gmem.h:
model/func/probe.h:
model/func/exec.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
model/ptx/flow.h:
model/ptx/ptx.h:
