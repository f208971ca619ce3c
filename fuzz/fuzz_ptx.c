/*
 * fuzz_ptx.c -- libFuzzer harness for the PTX path: parse, link, control flow and a bounded
 * launch on the functional and the timing model (fuzz_ptx_one.c says what and how bounded).
 * An input whose calls do not all end in success or in an error with a message traps, so
 * libFuzzer keeps it as a crash; sanitizer reports, leaks and timeouts are libFuzzer's own.
 * Built and run by `make fuzz` (mk/fuzz.mk); docs/verification.md "Fuzzing".
 */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_ptx_one(data, size))
        __builtin_trap();
    return 0;
}
