build-check/bench/backprop/host.o: bench/backprop/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
