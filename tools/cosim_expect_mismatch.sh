#!/bin/sh
# cosim_expect_mismatch.sh HARNESS [ARGS]... -- the injected-bug check: passes only when the
# harness (built with +define+INJECT_BUG) reports a mismatch (exit status 1 and a MISMATCH
# report); a clean run, a crash or a usage error fails.
[ $# -ge 1 ] || { echo "usage: cosim_expect_mismatch.sh HARNESS [ARGS]..." >&2; exit 2; }
out=$("$@" 2>&1); rc=$?
echo "$out"
if [ $rc -eq 1 ] && echo "$out" | grep -q '^MISMATCH'; then
    echo "injected bug caught: $(echo "$out" | sed -n 's/^  field //p' | head -n 1)," \
         "$(echo "$out" | sed -n 's/^MISMATCH at //p' | head -n 1)"
    exit 0
fi
echo "injected bug NOT caught (exit status $rc)"
exit 1
