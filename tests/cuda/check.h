// check.h -- what the test programs of tests/cuda/ share: a call's result checked, the
// program stopped with exit status 1 and the call's line when it is not cudaSuccess.
#ifndef TESTS_CUDA_CHECK_H
#define TESTS_CUDA_CHECK_H
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            std::printf("FAILED %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,      \
                        cudaGetErrorName(e_), cudaGetErrorString(e_));                 \
            std::exit(1);                                                              \
        }                                                                              \
    } while (0)

// The call must return `want`.
#define EXPECT(call, want)                                                             \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != (want)) {                                                            \
            std::printf("FAILED %s:%d: %s returned %s, expected %s\n", __FILE__,       \
                        __LINE__, #call, cudaGetErrorName(e_), cudaGetErrorName(want)); \
            std::exit(1);                                                              \
        }                                                                              \
    } while (0)

#endif
