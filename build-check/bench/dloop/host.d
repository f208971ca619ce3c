build-check/bench/dloop/host.o: bench/dloop/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
