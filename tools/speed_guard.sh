#!/bin/sh
# speed_guard.sh [--update] -- the simulator's speed as a figure noise does not move: host
# instructions (callgrind's I refs, gcc -O2 build) per simulated warp instruction and per
# simulated cycle, on a fixed small set of kernels at the test size (timing model, gtx480).
#
# Without --update: prints the table and fails (exit 1) when a kernel's instructions per warp
# instruction exceed the figure committed in docs/performance.md ("Speed guard" section) by
# more than SPEED_TOL percent (default 10). With --update: writes the measured figures there
# instead -- do that deliberately, when a change is worth what it costs.
#
# Environment: GPUSIM (build/gpusim), DOC (docs/performance.md), SPEED_KERNELS (the set),
# SPEED_TOL (percent). Run by make bench-speed and make speed-guard; not part of make test.
set -eu
GPUSIM=${GPUSIM:-build/gpusim}
DOC=${DOC:-docs/performance.md}
KERNELS=${SPEED_KERNELS:-"mandel kmeans sloop bfs"}
TOL=${SPEED_TOL:-10}
BEGIN='<!-- speed-guard: begin -->'
END='<!-- speed-guard: end -->'
update=0
[ "${1:-}" = --update ] && update=1
command -v valgrind >/dev/null || { echo "speed_guard: valgrind is missing (make deps)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The committed instructions per warp instruction of kernel $1, or nothing.
committed() {
    sed -n "/^$BEGIN\$/,/^$END\$/p" "$DOC" | awk -F'|' -v k="$1" \
        '{ gsub(/ /, "", $2); gsub(/ /, "", $6); if ($2 == k) print $6 }'
}

rows="$tmp/rows"
: > "$rows"
fail=0
for k in $KERNELS; do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" --log-file="$tmp/vg.log" \
        "$GPUSIM" run "$k" --size test --config configs/gtx480.cfg --set model=timing \
        --json "$tmp/$k.json" > "$tmp/run.log" 2>&1 || {
        echo "speed_guard: $k failed:"; cat "$tmp/run.log"; exit 2; }
    ir=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$tmp/vg.log" | tr -d ,)
    wi=$(sed -n 's/^ *"warp_insns": \([0-9]*\),*$/\1/p' "$tmp/$k.json" | head -1)
    cy=$(sed -n 's/^ *"cycles": \([0-9]*\),*$/\1/p' "$tmp/$k.json" | head -1)
    per_wi=$(awk -v a="$ir" -v b="$wi" 'BEGIN { printf "%.0f", a / b }')
    per_cy=$(awk -v a="$ir" -v b="$cy" 'BEGIN { printf "%.0f", a / b }')
    was=$(committed "$k")
    verdict="new"
    if [ -n "$was" ]; then
        verdict=$(awk -v n="$per_wi" -v w="$was" -v t="$TOL" \
            'BEGIN { r = n / w; printf "%.3f of %s", r, w; if (r > 1 + t / 100) printf " REGRESSED" }')
        case "$verdict" in *REGRESSED*) fail=1 ;; esac
    fi
    printf '| %s | %s | %s | %s | %s | %s |\n' "$k" "$ir" "$wi" "$cy" "$per_wi" "$per_cy" >> "$rows"
    printf 'speed_guard: %-8s %6s host instructions per warp instruction, %6s per cycle (%s)\n' \
        "$k" "$per_wi" "$per_cy" "$verdict"
done

if [ "$update" = 1 ]; then
    {
        echo "$BEGIN"
        echo "| kernel (test size, gtx480, timing) | host instructions | warp insns | cycles | per warp insn | per cycle |"
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
    echo "speed_guard: figures written to $DOC"
    exit 0
fi
if [ "$fail" = 1 ]; then
    echo "speed_guard: more than $TOL % above the committed figure (docs/performance.md," \
         "\"Speed guard\"); if the change is worth it, run make speed-guard-update"
    exit 1
fi
echo "speed_guard: every kernel within $TOL % of its committed figure"
