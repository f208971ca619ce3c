build-check/bench/mergepass/host.o: bench/mergepass/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
