build-check/bench/invmap/host.o: bench/invmap/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
