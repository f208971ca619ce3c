build-check/bench/stereo/host.o: bench/stereo/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
