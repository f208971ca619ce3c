build-check/bench/bench.o: bench/bench.c bench/bench.h model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
