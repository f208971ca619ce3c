build-check/bench/spmv/host.o: bench/spmv/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
