build-check/model/gpu/gpu.o: model/gpu/gpu.c model/gpu/cta.h \
 model/gpu/gpu.h model/func/funcsim.h model/ptx/flow.h model/ptx/ptx.h \
 model/base/config.h model/func/gmem.h model/gpu/gpusim.h \
 model/gpu/stats_list.h model/ptx/ptx.h model/mem/mem_blocks.h \
 model/mem/dram.h model/base/memreq.h model/base/cachelib.h \
 model/base/memreq.h model/mem/icnt.h model/mem/l2.h model/mem/memsys.h \
 model/base/block.h model/base/blocks.def model/sm/sm.h model/sm/bar.h \
 model/base/slotmask.h model/sm/fetch.h model/sm/fu.h model/sm/iss.h \
 model/sm/kgen.h model/sm/l1.h model/sm/ldst.h model/sm/sb.h \
 model/sm/simt.h model/sm/sm_cfgs.h model/sm/ws.h model/sm/smem.h \
 model/func/exec.h model/func/gmem.h model/func/probe.h model/func/exec.h \
 model/sm/sm_limits.h model/gpu/stats.h model/gpu/gpusim.h
model/gpu/cta.h:
model/gpu/gpu.h:
model/func/funcsim.h:
model/ptx/flow.h:
model/ptx/ptx.h:
model/base/config.h:
model/func/gmem.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
model/ptx/ptx.h:
model/mem/mem_blocks.h:
model/mem/dram.h:
model/base/memreq.h:
model/base/cachelib.h:
model/base/memreq.h:
model/mem/icnt.h:
model/mem/l2.h:
model/mem/memsys.h:
model/base/block.h:
model/base/blocks.def:
model/sm/sm.h:
model/sm/bar.h:
model/base/slotmask.h:
model/sm/fetch.h:
model/sm/fu.h:
model/sm/iss.h:
model/sm/kgen.h:
model/sm/l1.h:
model/sm/ldst.h:
model/sm/sb.h:
model/sm/simt.h:
model/sm/sm_cfgs.h:
model/sm/ws.h:
model/sm/smem.h:
model/func/exec.h:
model/func/gmem.h:
model/func/probe.h:
model/func/exec.h:
model/sm/sm_limits.h:
model/gpu/stats.h:
model/gpu/gpusim.h:
