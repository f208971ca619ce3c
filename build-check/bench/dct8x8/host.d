build-check/bench/dct8x8/host.o: bench/dct8x8/host.c bench/bench.h \
 model/gpu/gpusim.h model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
