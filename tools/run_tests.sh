#!/bin/sh
# Run every test binary; print one summary line; exit non-zero if any failed.
pass=0; fail=0; failed=""
for t in "$@"; do
    if "$t" > "$t.log" 2>&1; then
        pass=$((pass + 1)); echo "PASS $(basename "$t")"
    else
        fail=$((fail + 1)); failed="$failed $(basename "$t")"
        echo "FAIL $(basename "$t")"; tail -n 40 "$t.log"
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || { echo "failed:$failed"; exit 1; }
