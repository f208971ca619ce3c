#!/bin/bash
# stage.sh [--gate] NAME COMMAND [ARG]... -- run one stage of `make test` (mk/test.mk): the
# command, its whole output in $STAGE_DIR/NAME.log, its result in $STAGE_DIR/NAME.res, one line
# "status wall_s cpu_s passed failed skipped start end", which tools/test_summary.sh reads:
#   status   0 when COMMAND succeeded
#   wall_s   seconds from start to end; cpu_s: user + system seconds of COMMAND and its children
#   passed, failed, skipped: what the stage counted -- cmocka's "[  PASSED  ] N test(s)."
#            lines (and FAILED, SKIPPED), a last "N passed, M failed" line (tools/cosim_run.sh,
#            cost/cost_test.sh), a suite's "N kernels, C correct, F failed"; otherwise the
#            stage itself is one test. A stage that failed but counted no failure (a crash, a
#            build error) counts one.
# Prints one line when the stage ends (PASS/FAIL, its time and counts), and on failure the
# last 40 lines of its log. Exits 0 (the summary decides), except with --gate (a build the
# later stages need): then with the command's status, so that make does not run its dependents.
# bash for `times`-free CPU accounting: the `time` keyword reports the children's CPU.
set -u
gate=0
[ "${1:-}" = "--gate" ] && { gate=1; shift; }
[ $# -ge 2 ] || { echo "usage: tools/stage.sh [--gate] NAME COMMAND [ARG]..." >&2; exit 2; }
name=$1; shift
dir=${STAGE_DIR:-build/stages}
mkdir -p "$dir" || exit 2
log=$dir/$name.log
start=$(date +%s.%N)
TIMEFORMAT='%R %U %S'
t=$( { time "$@" > "$log" 2>&1; echo "rc $?" >&2; } 2>&1 )
end=$(date +%s.%N)
rc=$(printf '%s\n' "$t" | sed -n 's/^rc //p')
read -r wall user sys <<EOF
$(printf '%s\n' "$t" | grep -v '^rc ' | tail -n 1)
EOF
cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')

# what the stage counted
sum_cm() { grep -E "^\[ *$1 *\] [0-9]+ test" "$log" | awk '{ n += $(NF - 1) } END { print n + 0 }'; }
passed=$(sum_cm PASSED); failed=$(sum_cm FAILED); skipped=$(sum_cm SKIPPED)
if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
    if last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1) && [ -n "$last" ]; then
        passed=${last%% *}; failed=$(echo "$last" | awk '{ print $3 }')
    elif last=$(grep -E '^[0-9]+ kernels, [0-9]+ correct, [0-9]+ failed$' "$log" | tail -n 1) &&
         [ -n "$last" ]; then
        passed=$(echo "$last" | awk '{ print $3 }'); failed=$(echo "$last" | awk '{ print $5 }')
    elif [ "$rc" -eq 0 ]; then
        passed=1
    fi
fi
# cmocka counts a skipped test in PASSED too
passed=$((passed - skipped)); [ "$passed" -ge 0 ] || passed=0
[ "$rc" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "$rc $wall $cpu $passed $failed $skipped $start $end" > "$dir/$name.res"

counts="$passed passed"
[ "$failed" -gt 0 ] && counts="$counts, $failed failed"
[ "$skipped" -gt 0 ] && counts="$counts, $skipped skipped"
if [ "$rc" -eq 0 ]; then
    printf 'PASS %-34s %7.1f s  %s\n' "$name" "$wall" "$counts"
else
    printf 'FAIL %-34s %7.1f s  %s (log: %s)\n' "$name" "$wall" "$counts" "$log"
    tail -n 40 "$log" | sed 's/^/    /'
fi
[ "$gate" -eq 1 ] && exit "$rc"
exit 0
