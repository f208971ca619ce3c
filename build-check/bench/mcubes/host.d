build-check/bench/mcubes/host.o: bench/mcubes/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
