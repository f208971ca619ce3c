build-check/bench/nw/host.o: bench/nw/host.c bench/bench.h \
 model/gpu/gpusim.h model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
