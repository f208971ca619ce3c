#!/bin/sh
# tools/suites/divergence.sh -- 000's Tables 1 and 2 on a suite's own programs: runs
# applications of an applications file (docs/apps.md; tools/suites/rodinia.sh writes one, its
# --size table1 with 000's TB counts) on the model under LRR, as 000 measured them, with the
# per-launch statistics (gpusim exec --launches), and prints per kernel, summed over its
# launches: its TBs; the TBs whose instruction and whose cycle divergence (max minus min over
# the TB's warps, relative to the min) exceeds 50, 25, 10 and 5 %; DWR and DWS, each launch's
# over its first N - R finishing TBs (the statistics dwr and dws), weighted by those TBs, and
# how many TBs they cover (0: no launch of the kernel had more TBs than the GPU holds at once,
# so DWR and DWS are not defined).
#
#   tools/suites/divergence.sh --apps FILE [--only A,B,...] [--out DIR] [--gpusim PATH]
#                              [--set KEY=VALUE]...
#
# --apps    the applications file; --only: these applications (default: every one)
# --out     where each application's CSV and log go (default build/divergence)
# --gpusim  the simulator (default build/gpusim); --set: more settings (after
#           sched_policy=lrr, so one may replace it)
# Prints a Markdown table on stdout; kernel names demangled with c++filt where it exists
# (binutils), their arguments dropped. Exit status 0, 1 when an application failed (its row
# says so), 2 on a usage error.
set -u

NAME=divergence.sh OUT=$(cd "$(dirname "$0")/../.." && pwd)/build/divergence SETS=
EXTRA_OPT=--set EXTRA_WHAT=KEY=VALUE
extra() { SETS="$SETS --set $1"; }
. "$(dirname "$0")/common.sh"

rc=0
printf '| application | kernel | launches | TBs | inst div >50/25/10/5 %% | cycle div >50/25/10/5 %% | DWR | DWS | TBs in DWR |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for a in $(echo "$ONLY" | tr ',' ' '); do
    csv=$OUT/$a.csv
    # shellcheck disable=SC2086
    if ! "$GPUSIM" exec --set sched_policy=lrr $SETS --launches "$csv" --summary off \
            --apps "$APPS" --app "$a" > "$OUT/$a.log" 2>&1; then
        printf '| %s | (failed: %s/%s.log) | | | | | | | |\n' "$a" "$OUT" "$a"
        rc=1
        continue
    fi
    awk -F, -v app="$a" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
            k = $col["kernel"]
            if (!(k in n)) order[++nk] = k
            n[k]++; tbs[k] += $col["ctas"]
            for (j = 0; j < 4; j++) {
                id[k, j] += $col["tb_inst_div_over_50_25_10_5_" j]
                cd[k, j] += $col["tb_cycle_div_over_50_25_10_5_" j]
            }
            w = $col["dwr_tbs"]; dt[k] += w
            dwr[k] += w * $col["dwr"]; dws[k] += w * $col["dws"]
        }
        END {
            for (i = 1; i <= nk; i++) {
                k = order[i]
                printf "%s\t%s\t%d\t%d\t%d/%d/%d/%d\t%d/%d/%d/%d\t%s\t%s\t%d\n", app, k, n[k], tbs[k],
                       id[k,0], id[k,1], id[k,2], id[k,3], cd[k,0], cd[k,1], cd[k,2], cd[k,3],
                       dt[k] ? sprintf("%.2f", dwr[k] / dt[k]) : "--",
                       dt[k] ? sprintf("%.2f", dws[k] / dt[k]) : "--", dt[k]
            }
        }' "$csv" > "$OUT/$a.rows"
    cut -f2 "$OUT/$a.rows" | $DEMANGLE | sed 's/(.*//' > "$OUT/$a.names"
    paste "$OUT/$a.names" "$OUT/$a.rows" |
        awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                      $2, $1, $4, $5, $6, $7, $8, $9, $10 }'
done
exit $rc
