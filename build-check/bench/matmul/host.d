build-check/bench/matmul/host.o: bench/matmul/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
