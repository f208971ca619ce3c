/*
 * fuzz_res.c -- libFuzzer harness for the register record reader (`.res`, model/ptx/ptx_res.c):
 * the input as a record, a record read written back and read again (fuzz_res_one.c). An input
 * whose calls do not all end in success or in an error with a message, or whose record does
 * not read back as itself, traps, so libFuzzer keeps it as a crash; sanitizer reports, leaks
 * and timeouts are libFuzzer's own. Built and run by `make fuzz` (mk/fuzz.mk);
 * docs/verification.md "Fuzzing".
 */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_res_one(data, size))
        __builtin_trap();
    return 0;
}
