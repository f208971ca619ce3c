/*
 * fuzz_spec.c -- libFuzzer harness for the sweep SPEC parser (cli/sweep_spec.c): the input as
 * a SPEC parsed from the buffer, its points and, for a small sweep, the check that every
 * configuration loads (fuzz_spec_one.c says what is checked). An input whose calls do not all
 * end in success or in an error with a message, or whose accepted sweep breaks an invariant,
 * traps, so libFuzzer keeps it as a crash; sanitizer reports, leaks and timeouts are
 * libFuzzer's own. Built and run by `make fuzz` (mk/fuzz.mk); docs/verification.md "Fuzzing".
 */
#include <stddef.h>
#include <stdint.h>
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_spec_one(data, size))
        __builtin_trap();
    return 0;
}
