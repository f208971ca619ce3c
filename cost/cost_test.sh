#!/bin/sh
# cost/cost_test.sh -- run the cost tests (a cmocka binary, tests/test_cost.c) and print one
# summary line "N passed, M failed" counted per test case; exit non-zero if any failed.
#   sh cost/cost_test.sh BUILD/tests/test_cost
# The environment passes COST_YOSYS_DIR, COST_RTL and COST_CONFIG_FILE through to the binary
# (mk/cost.mk sets them: one Yosys check per rtl/*.sv).
t=$1
[ -x "$t" ] || { echo "cost/cost_test.sh: no test binary $t" >&2; echo "0 passed, 1 failed"; exit 1; }
log=$t.log
"$t" > "$log" 2>&1
rc=$?
grep -E '^\[ *(RUN|OK|FAILED|SKIPPED|PASSED|ERROR) *\]' "$log" | grep -v '^\[ RUN' || true
run=$(grep -c '^\[ RUN' "$log")
ok=$(grep -c '^\[       OK \]' "$log")
fail=$((run - ok))
[ "$rc" -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
[ "$fail" -ne 0 ] && { echo "--- $log"; tail -n 40 "$log"; }
echo "$ok passed, $fail failed"
[ "$fail" -eq 0 ]
