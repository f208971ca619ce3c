#!/bin/sh
# test_summary.sh DIR NAME... -- the end of `make test` (mk/test.mk): the table of every stage
# NAME (in the order given) with its result, wall and CPU seconds and counts, read from
# DIR/NAME.res (tools/stage.sh); a stage without a result did not run because a build it needs
# failed, and counts as one failure. Then the whole run's wall time (from DIR/.start), its CPU
# time, the load average when it started (DIR/.load), and as the last line
# "N passed, M failed" over every test the stages counted. Exits 1 if anything failed.
# STAGE_RUN names the run in its time line (default "make test").
dir=$1; shift
[ -d "$dir" ] || { echo "test_summary.sh: no stage directory $dir" >&2; echo "0 passed, 1 failed"; exit 1; }
now=$(date +%s.%N)
start=$(cat "$dir/.start" 2>/dev/null || echo "$now")
load=$(cut -d' ' -f1-3 "$dir/.load" 2>/dev/null || echo "?")
printf '\n%-34s %-7s %8s %8s  %s\n' "stage" "result" "wall s" "cpu s" "tests"
for n in "$@"; do
    if [ -f "$dir/$n.res" ]; then
        echo "$n $(cat "$dir/$n.res")"
    else
        echo "$n missing"
    fi
done | awk -v now="$now" -v start="$start" -v load="$load" -v run="${STAGE_RUN:-make test}" '
    $2 == "missing" { printf "%-34s %-7s %8s %8s  %s\n", $1, "NOT RUN", "-", "-", "(a build it needs failed)";
                      F++; miss++; next }
    { res = $2 == 0 ? "ok" : "FAILED"; if ($2 != 0) bad++;
      t = $5 " passed"; if ($6 > 0) t = t ", " $6 " failed"; if ($7 > 0) t = t ", " $7 " skipped";
      printf "%-34s %-7s %8.1f %8.1f  %s\n", $1, res, $3, $4, t;
      P += $5; F += $6; S += $7; cpu += $4 }
    END { printf "\n%s: %.0f s wall (%.1f min), %.0f s CPU in the stages, load average at the start %s\n",
                 run, now - start, (now - start) / 60, cpu, load;
          if (S) printf "%d skipped (each says why in its log)\n", S;
          printf "%d passed, %d failed\n", P, F; exit (F > 0 || bad > 0) }'
