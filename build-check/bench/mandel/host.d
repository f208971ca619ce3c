build-check/bench/mandel/host.o: bench/mandel/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
