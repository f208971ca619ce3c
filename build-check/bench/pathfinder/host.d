build-check/bench/pathfinder/host.o: bench/pathfinder/host.c \
 bench/bench.h model/gpu/gpusim.h model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
