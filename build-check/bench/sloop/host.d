build-check/bench/sloop/host.o: bench/sloop/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
