build-check/bench/bench.o: bench/bench.c bench/bench.h model/gpu/gpusim.h \
 model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
