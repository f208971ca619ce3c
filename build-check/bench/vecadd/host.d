build-check/bench/vecadd/host.o: bench/vecadd/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
