#!/bin/sh
# speed_mech.sh -- the simulator's rate with each mechanism on, against the baseline's (issue 17
# item 4: within 20 %), on a few kernels at the default size (timing model, gtx480); writes the
# table between the speed-mech markers of docs/performance.md (appended when they are missing).
#
# A kernel's rate is the one its target is stated in (docs/performance.md): warp instructions
# per host second for compute-bound kernels, simulated cycles per host second for memory-bound
# ones and the single-warp loops sloop and dloop. The mechanisms are cli/mech.c's: vtw (vtw = hw,
# the progress-aware scheduler, SameLane), vt (vt = on) and dws_branch (dws = branch). Host
# seconds are wall-clock time inside launches, so run it on an otherwise idle machine.
#
# Environment: GPUSIM (build/gpusim), DOC (docs/performance.md), MECH_KERNELS (the set),
# MECH_SIZE (default).
# Run by make bench-speed; not part of make test.
set -eu
GPUSIM=${GPUSIM:-build/gpusim}
DOC=${DOC:-docs/performance.md}
KERNELS=${MECH_KERNELS:-"mandel matmul kmeans spmv bfs sloop dloop"}
SIZE=${MECH_SIZE:-default}
BEGIN='<!-- speed-mech: begin -->'
END='<!-- speed-mech: end -->'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A JSON statistic of file $1: the first "name": number line.
stat() {
    sed -n "s/^ *\"$2\": \([0-9.e+-]*\),*\$/\1/p" "$1" | head -1
}

# Which rate counts for kernel $1 (from the baseline's JSON $2): loop, memory or compute.
kind() {
    case "$1" in sloop|dloop) echo loop; return ;; esac
    awk -v u="$(stat "$2" dram_bus_utilization)" 'BEGIN { print (u > 0.3) ? "memory" : "compute" }'
}

# The rate of run $2 (JSON) for kind $1.
rate() {
    awk -v k="$1" -v w="$(stat "$2" warp_insns)" -v c="$(stat "$2" cycles)" \
        -v h="$(stat "$2" host_seconds)" 'BEGIN { printf "%.0f", (k == "compute" ? w : c) / h }'
}

rows="$tmp/rows"
: > "$rows"
for k in $KERNELS; do
    line="| $k"
    base=""
    for m in base vtw vt dws_branch; do
        case $m in
        base) sets="" ;;
        vtw) sets="--set vtw=hw --set sched_policy=vtw --set vtw_lane=same" ;;
        vt) sets="--set vt=on" ;;
        dws_branch) sets="--set dws=branch" ;;
        esac
        # shellcheck disable=SC2086
        "$GPUSIM" run "$k" --size "$SIZE" --config configs/gtx480.cfg --set model=timing $sets \
            --json "$tmp/$m.json" > "$tmp/run.log" 2>&1 || {
            echo "speed_mech: $k under $m failed:"; cat "$tmp/run.log"; exit 2; }
        [ "$m" = base ] && { kd=$(kind "$k" "$tmp/base.json"); line="$line | $kd"; }
        r=$(rate "$kd" "$tmp/$m.json")
        if [ "$m" = base ]; then
            base=$r
            line="$line | $r"
        else
            line="$line | $r ($(awk -v a="$r" -v b="$base" 'BEGIN { printf "%.2f", a / b }'))"
        fi
        echo "speed_mech: $k $m $r"
    done
    echo "$line |" >> "$rows"
done

{
    echo "$BEGIN"
    echo "| kernel ($SIZE size, gtx480) | rate in | base | vtw (of base) | vt (of base) | dws_branch (of base) |"
    echo "|---|---|---|---|---|---|"
    cat "$rows"
    echo "$END"
} > "$tmp/table"
if grep -q "^$BEGIN\$" "$DOC"; then
    awk -v b="$BEGIN" -v e="$END" -v t="$tmp/table" '
        $0 == b { while ((getline l < t) > 0) print l; skip = 1; next }
        $0 == e { skip = 0; next }
        !skip' "$DOC" > "$tmp/doc"
else
    { cat "$DOC"; echo; cat "$tmp/table"; } > "$tmp/doc"
fi
cp "$tmp/doc" "$DOC"
echo "speed_mech: table written to $DOC"
