/*
 * fuzz_cache.c -- libFuzzer harness for result cache entries (cli/cache_entry.c): the input
 * as an entry, as it is and with its checksum made right, under the harness's key and another
 * one, and as a result made into an entry and read back (fuzz_cache_one.c). An input whose
 * outcome is not allowed traps, so libFuzzer keeps it as a crash; sanitizer reports, leaks
 * and timeouts are libFuzzer's own. Built and run by `make fuzz` (mk/fuzz.mk);
 * docs/verification.md "Fuzzing".
 */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_cache_one(data, size))
        __builtin_trap();
    return 0;
}
