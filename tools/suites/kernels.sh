#!/bin/sh
# tools/suites/kernels.sh -- per kernel of a suite's own programs, its cycles under several
# variants against the first: the form of 000's Table 4 (LRR, vGTO, vLRR, VTW over the
# original kernel under GTO, and vInstr) and of 004's Fig. 9 (VT over the baseline per
# scheduler) on the applications of an applications file (docs/apps.md). Each application
# runs once per variant (gpusim exec --launches); a kernel's cycles and warp instructions are
# summed over its launches. Every variant's output must be the first's (a mechanism may not
# change what a program computes; the application's ignore lines, wall times, dropped): a
# variant whose output differs is reported, not counted.
#
#   tools/suites/kernels.sh --apps FILE [--only A,B,...] [--out DIR] [--gpusim PATH]
#                           [--variants 'NAME=K=V,K=V NAME=...']
#
# --variants  the variants, the first the reference (default: 000's Table 4:
#             'GTO=sched_policy=gto LRR=sched_policy=lrr vGTO=vtw=hw,sched_policy=gto
#             vLRR=vtw=hw,sched_policy=lrr VTW=vtw=hw,sched_policy=vtw')
# --out       where the CSVs and outputs go (default build/kernels)
# Prints a Markdown table on stdout: per kernel, the reference's cycles, each other variant's
# speed-up (reference cycles over its cycles: > 1 is faster) and the last variant's warp
# instructions over the reference's (vInstr). Exit status 0, 1 when a run failed or an output
# differed (the row says so), 2 on a usage error.
set -u

NAME=kernels.sh OUT=$(cd "$(dirname "$0")/../.." && pwd)/build/kernels
VARS='GTO=sched_policy=gto LRR=sched_policy=lrr vGTO=vtw=hw,sched_policy=gto vLRR=vtw=hw,sched_policy=lrr VTW=vtw=hw,sched_policy=vtw'
EXTRA_OPT=--variants EXTRA_WHAT='a list'
extra() { VARS=$1; }
. "$(dirname "$0")/common.sh"

names=
for v in $VARS; do names="$names ${v%%=*}"; done
set -- $names
ref=$1; last=$(echo $names | awk '{ print $NF }')
printf '| application | kernel | %s cycles |' "$ref"
shift; for n in "$@"; do printf ' %s |' "$n"; done; printf ' vInstr (%s) |\n|---|---|---|' "$last"
for n in "$@"; do printf -- '---|'; done; printf -- '---|\n'

# run APP NAME SETS: the application under one variant; its per-kernel sums in OUT/APP.NAME.k
run() {
    r_sets=
    for kv in $(echo "$3" | tr ',' ' '); do r_sets="$r_sets --set $kv"; done
    # shellcheck disable=SC2086
    "$GPUSIM" exec $r_sets --launches "$OUT/$1.$2.csv" --summary off --apps "$APPS" \
        --app "$1" > "$OUT/$1.$2.out" 2> "$OUT/$1.$2.err" || return 1
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
             { k = $c["kernel"]; if (!(k in cy)) o[++n] = k
               cy[k] += $c["cycles"]; wi[k] += $c["warp_insns"] }
             END { for (i = 1; i <= n; i++) print o[i], cy[o[i]], wi[o[i]] }' \
        "$OUT/$1.$2.csv" > "$OUT/$1.$2.k"
}

# ignored APP: the application's ignore lines (extended regexes) of the applications file, one a
# line, for grep -Ev -f (a pattern that matches nothing when it has none)
ignored() {
    awk -v a="$1" '$1 == "app" { on = $2 == a; next }
                   on && $1 == "ignore" { sub(/^[ \t]*ignore[ \t]+/, ""); print }' "$APPS"
    echo '^$.^'
}

# same APP A B: the outputs of variants A and B, the ignored lines dropped, are equal
same() {
    ignored "$1" > "$OUT/$1.ignore"
    grep -Ev -f "$OUT/$1.ignore" "$OUT/$1.$2.out" > "$OUT/$1.$2.cmp"
    grep -Ev -f "$OUT/$1.ignore" "$OUT/$1.$3.out" > "$OUT/$1.$3.cmp"
    cmp -s "$OUT/$1.$2.cmp" "$OUT/$1.$3.cmp"
}

rc=0
for a in $(echo "$ONLY" | tr ',' ' '); do
    bad=
    for v in $VARS; do
        n=${v%%=*}
        if ! run "$a" "$n" "${v#*=}"; then bad="$bad $n: failed ($OUT/$a.$n.err);"; continue; fi
        [ "$n" = "$ref" ] || same "$a" "$ref" "$n" || bad="$bad $n: output differs from $ref's;"
    done
    if [ -n "$bad" ]; then
        printf '| %s | (%s) |\n' "$a" "$bad"
        rc=1
        continue
    fi
    while read -r k cyc ins; do
        printf '| %s | %s | %s |' "$a" "$(echo "$k" | $DEMANGLE | sed 's/(.*//')" "$cyc"
        for n in "$@"; do
            awk -v k="$k" -v c="$cyc" '$1 == k { printf " %.2f |", c / $2 }' "$OUT/$a.$n.k"
        done
        awk -v k="$k" -v i="$ins" '$1 == k { printf " %.2f |\n", $3 / i }' "$OUT/$a.$last.k"
    done < "$OUT/$a.$ref.k"
done
exit $rc
