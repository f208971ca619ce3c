build-check/bench/meshgather/host.o: bench/meshgather/host.c \
 bench/bench.h model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
