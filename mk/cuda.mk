# mk/cuda.mk -- the CUDA runtime library over the model (cuda/, docs/cuda.md) and the CUDA
# programs the tests run through it; included by the main Makefile.
#
#   make (all)       also builds build/cuda/libcudart.so.13 (soname libcudart.so.13): the
#                    library a program compiled with `nvcc -cudart shared` loads under
#                    `gpusim exec` (cli/exec.c). Its objects are position-independent copies
#                    of the model and of cuda/*.c in $(BUILD)/pic/, compiled without the
#                    sanitizers (the programs that load it are not built with them); the
#                    normal build's objects are unchanged. It links libzstd and liblz4 (the
#                    fatbinary's compressed PTX; make deps installs them).
#   make cuda-apps   where nvcc exists: rebuild the checked-in CUDA programs of the tests,
#                    tests/cuda/NAME/app from tests/cuda/NAME/*.cu (nvcc -cudart shared,
#                    default options, and tests/cuda/NAME/nvcc.flags when a program needs
#                    others), and their register records tests/cuda/NAME/app.N.res
#                    (ptxas's counts for module N's PTX, found by its hash where ptxas is
#                    absent: docs/cuda.md "Registers"). Without nvcc the checked-in ones stay.
#                    Also the bench kernels as CUDA programs (make cuda-bench-apps alone):
#                    bench/NAME/app from bench/NAME/main.cu (the kernel and
#                    bench/cuda_host.cuh) with bench/NAME/host.c, bench/bench.c and
#                    model/base/strfmt.c compiled as C beside it, and its records
#                    bench/NAME/app.1.res and app.1.vtw.res (tests/test_cuda_bench.c).
#
# The unit tests that call the library's code directly (CUDA_UNIT_TESTS) link $(CUDALIB), its
# objects in the normal build; tests/test_cuda.c and tests/test_cuda_bench.c run the programs
# through build/gpusim exec, so they depend on the shared library too.

CUDA_SRC    := $(sort $(wildcard cuda/*.c))
CUDA_OBJ    := $(patsubst %.c,$(BUILD)/%.o,$(CUDA_SRC))
CUDALIB     := $(BUILD)/libgscuda.a
CUDART      := $(BUILD)/cuda/libcudart.so.13
CUDA_LDLIBS := -lzstd -llz4 -lpthread -ldl
PIC_CFLAGS  := $(filter-out -fsanitize=% -fno-sanitize%,$(CFLAGS)) -fPIC
PIC_OBJ     := $(patsubst %.c,$(BUILD)/pic/%.o,$(MODEL_SRC) $(CUDA_SRC))
CUDA_UNIT_TESTS := $(addprefix $(BUILD)/tests/,test_fatbin test_cudart)
CUDA_APP_DIRS   := $(sort $(patsubst %/,%,$(dir $(wildcard tests/cuda/*/*.cu))))
BENCH_APP_DIRS  := $(sort $(patsubst %/main.cu,%,$(wildcard bench/*/main.cu)))

.PHONY: cuda-apps cuda-test-apps cuda-bench-apps
all: $(CUDART)

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) -MMD -MP -c $< -o $@

$(CUDART): $(PIC_OBJ) cuda/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=cuda/libcudart.map \
	  -Wl,--no-undefined -o $@ $(PIC_OBJ) $(CUDA_LDLIBS) $(filter-out -fsanitize=%,$(LDLIBS))

$(CUDALIB): $(CUDA_OBJ)
	@rm -f $@; ar rcs $@ $^

$(CUDA_UNIT_TESTS): $(BUILD)/tests/%: tests/%.c tests/testutil.h $(CUDALIB) $(CLILIB) \
		$(BENCHLIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -Itests -Icli -Icuda -DBUILD_DIR='"$(BUILD)"' $< $(CUDALIB) \
	  $(CLILIB) $(BENCHLIB) $(LIB) -o $@ $(LDLIBS) $(CUDA_LDLIBS) -lcmocka

$(BUILD)/tests/test_cuda $(BUILD)/tests/test_apps $(BUILD)/tests/test_sweep \
  $(BUILD)/tests/test_suites: $(CUDART) $(BUILD)/gpusim
$(BUILD)/tests/test_cuda_bench: $(CUDART) $(BUILD)/gpusim

# The fuzz regression test runs fuzz/fuzz_fatbin_one.c too: the reader and its libraries.
$(BUILD)/tests/test_fuzz_regress: $(CUDALIB)
$(BUILD)/tests/test_fuzz_regress: LDLIBS += $(CUDALIB) -lzstd -llz4

cuda-apps: cuda-test-apps cuda-bench-apps

cuda-test-apps: all
	@command -v $(NVCC) >/dev/null || { echo "make cuda-apps: nvcc not found; the checked-in programs stay"; exit 0; }; \
	for d in $(CUDA_APP_DIRS); do \
	  f=$$(cat $$d/nvcc.flags 2>/dev/null); \
	  echo "nvcc -cudart shared $$f -o $$d/app $$d/*.cu"; \
	  $(NVCC) -cudart shared $$f -o $$d/app $$d/*.cu || exit 1; \
	  sh tools/cuda_res.sh $(BUILD)/gpusim $$d/app || exit 1; \
	done

cuda-bench-apps: all
	@command -v $(NVCC) >/dev/null || { echo "make cuda-bench-apps: nvcc not found; the checked-in programs stay"; exit 0; }; \
	for d in $(BENCH_APP_DIRS); do \
	  echo "nvcc -cudart shared -o $$d/app $$d/main.cu $$d/host.c bench/bench.c model/base/strfmt.c"; \
	  $(NVCC) -cudart shared -Ibench -Imodel -o $$d/app $$d/main.cu $$d/host.c bench/bench.c \
	    model/base/strfmt.c || exit 1; \
	  sh tools/cuda_res.sh $(BUILD)/gpusim $$d/app test || exit 1; \
	done
