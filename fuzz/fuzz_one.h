/*
 * fuzz_one.h -- one input through the PTX path, the configuration parser, the sweep SPEC
 * parser, the result cache's entry parser, the binary BBV reader, the register record
 * reader or the CUDA runtime library's fatbinary reader, as the libFuzzer harnesses (fuzz/fuzz_NAME.c) and the regression test
 * (tests/test_fuzz_regress.c) run it. Each returns 0 when every stage either succeeded or
 * returned an error with a message, and otherwise the number of stages that did not (each
 * described on stderr); a crash, an exit() or a sanitizer report is a failure of its own.
 * docs/verification.md "Fuzzing".
 */
#ifndef FUZZ_ONE_H
#define FUZZ_ONE_H
#include <stddef.h>
#include <stdint.h>

/* What the PTX path reached since the process started (the test checks that a bench kernel
   gets through to both models, so that a harness that stops early cannot pass unnoticed). */
struct fuzz_ptx_count {
    uint64_t inputs, loaded, launches, launch_ok;
};

int fuzz_ptx_one(const uint8_t *data, size_t size);
void fuzz_ptx_counts(struct fuzz_ptx_count *out);
int fuzz_cfg_one(const uint8_t *data, size_t size);
/* The input as a sweep SPEC (fuzz_spec_one.c, the parser in cli/sweep_spec.c). */
int fuzz_spec_one(const uint8_t *data, size_t size);

/* The cache harness (fuzz_cache_one.c): what it reached (entries read back, results made into
   entries), and the key its entries are made for (other: the key they must not be read under). */
struct fuzz_cache_count {
    uint64_t inputs, read, made;
};
struct cache_key;
int fuzz_cache_one(const uint8_t *data, size_t size);
void fuzz_cache_counts(struct fuzz_cache_count *out);
void fuzz_cache_key(struct cache_key *k, int other);
int fuzz_bbv_one(const uint8_t *data, size_t size);    /* the binary BBV reader */
int fuzz_res_one(const uint8_t *data, size_t size);    /* the register record reader */
int fuzz_fatbin_one(const uint8_t *data, size_t size); /* the CUDA fatbinary reader */

#endif
