build-check/bench/nqueens/host.o: bench/nqueens/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
