build-check/bench/bfs/host.o: bench/bfs/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
