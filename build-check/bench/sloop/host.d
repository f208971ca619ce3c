build-check/bench/sloop/host.o: bench/sloop/host.c bench/bench.h \
 model/gpu/gpusim.h model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
