build-check/bench/scanlarge/host.o: bench/scanlarge/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
