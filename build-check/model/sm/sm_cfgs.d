build-check/model/sm/sm_cfgs.o: model/sm/sm_cfgs.c model/sm/sm_cfgs.h \
 model/sm/fu.h model/sm/l1.h model/base/memreq.h model/base/cachelib.h \
 model/base/memreq.h model/sm/ldst.h model/sm/sb.h model/sm/simt.h \
 model/base/slotmask.h model/sm/ws.h model/sm/sm_limits.h \
 model/base/config.h
model/sm/sm_cfgs.h:
model/sm/fu.h:
model/sm/l1.h:
model/base/memreq.h:
model/base/cachelib.h:
model/base/memreq.h:
model/sm/ldst.h:
model/sm/sb.h:
model/sm/simt.h:
model/base/slotmask.h:
model/sm/ws.h:
model/sm/sm_limits.h:
model/base/config.h:
