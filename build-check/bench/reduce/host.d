build-check/bench/reduce/host.o: bench/reduce/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
