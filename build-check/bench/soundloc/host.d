build-check/bench/soundloc/host.o: bench/soundloc/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
