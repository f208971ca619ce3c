build-check/bench/meshgather/host.o: bench/meshgather/host.c \
 bench/bench.h model/gpu/gpusim.h model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
