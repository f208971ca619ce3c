/*
 * fuzz_cfg.c -- libFuzzer harness for the configuration parser: the input as a configuration
 * file with the full check and a round trip through conf_write, and as --set lines through
 * gs_init (fuzz_cfg_one.c). An input whose calls do not all end in success or in an error
 * with a message traps, so libFuzzer keeps it as a crash; sanitizer reports, leaks and
 * timeouts are libFuzzer's own. Built and run by `make fuzz` (mk/fuzz.mk);
 * docs/verification.md "Fuzzing".
 */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_cfg_one(data, size))
        __builtin_trap();
    return 0;
}
