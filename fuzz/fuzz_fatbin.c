/*
 * fuzz_fatbin.c -- libFuzzer harness for the CUDA runtime library's fatbinary reader
 * (cuda/fatbin.c): the input as a program's .nv_fatbin section (fuzz_fatbin_one.c). An input
 * whose calls do not all end in success or in an error with a message traps, so libFuzzer
 * keeps it as a crash; sanitizer reports, leaks and timeouts are libFuzzer's own. Built and
 * run by `make fuzz` (mk/fuzz.mk); docs/verification.md "Fuzzing".
 */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_fatbin_one(data, size))
        __builtin_trap();
    return 0;
}
