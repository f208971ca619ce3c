build-check/bench/bstsearch/host.o: bench/bstsearch/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
