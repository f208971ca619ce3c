build-check/bench/smithwat/host.o: bench/smithwat/host.c bench/bench.h \
 model/gpu/gpusim.h
bench/bench.h:
model/gpu/gpusim.h:
