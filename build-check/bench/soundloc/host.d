build-check/bench/soundloc/host.o: bench/soundloc/host.c bench/bench.h \
 model/gpu/gpusim.h model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
