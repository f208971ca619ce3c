build-check/bench/histogram/host.o: bench/histogram/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
