build-check/bench/fftlike/host.o: bench/fftlike/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
