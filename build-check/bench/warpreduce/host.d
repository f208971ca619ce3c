build-check/bench/warpreduce/host.o: bench/warpreduce/host.c \
 bench/bench.h model/gpu/gpusim.h model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
