build-check/bench/scanlarge/host.o: bench/scanlarge/host.c bench/bench.h \
 model/gpu/gpusim.h model/gpu/stats_list.h
bench/bench.h:
model/gpu/gpusim.h:
model/gpu/stats_list.h:
