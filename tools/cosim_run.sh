#!/bin/sh
# cosim_run.sh NAME COMMAND [NAME COMMAND]... -- run co-simulation checks (make cosim-test):
# each COMMAND in sh, output kept in $COSIM_LOG_DIR (default build/cosim/test)/NN.log; prints
# PASS/FAIL per check with the command's last line (all of it on failure, up to 40 lines),
# the time taken, then "N passed, M failed" as the last line; exits 1 if any failed.
dir=${COSIM_LOG_DIR:-build/cosim/test}
mkdir -p "$dir" || exit 2
[ $(($# % 2)) -eq 0 ] || { echo "cosim_run.sh: NAME COMMAND pairs expected" >&2; exit 2; }
pass=0; fail=0; failed=""; i=0; t0=$(date +%s)
while [ $# -gt 0 ]; do
    name=$1; cmd=$2; shift 2; i=$((i + 1))
    log=$(printf '%s/%02d.log' "$dir" "$i")
    s=$(date +%s)
    if sh -c "$cmd" > "$log" 2>&1; then
        pass=$((pass + 1))
        printf 'PASS %-40s %4ss  %s\n' "$name" $(($(date +%s) - s)) "$(tail -n 1 "$log")"
    else
        fail=$((fail + 1)); failed="$failed; $name"
        printf 'FAIL %-40s %4ss  (%s)\n' "$name" $(($(date +%s) - s)) "$log"
        tail -n 40 "$log" | sed 's/^/    /'
    fi
done
echo "cosim-test: $(($(date +%s) - t0)) s${failed:+; failed:${failed#;}}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
