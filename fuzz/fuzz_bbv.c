/*
 * fuzz_bbv.c -- libFuzzer harness for the binary BBV reader: the input as a BBV file, every
 * launch read written back (fuzz_bbv_one.c). An input whose calls do not all end in success
 * or in an error with a message, or whose launches do not write back as the bytes they were
 * read from, traps, so libFuzzer keeps it as a crash; sanitizer reports, leaks and timeouts
 * are libFuzzer's own. Built and run by `make fuzz` (mk/fuzz.mk); docs/verification.md
 * "Fuzzing".
 */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_bbv_one(data, size))
        __builtin_trap();
    return 0;
}
