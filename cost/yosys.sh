#!/bin/sh
# cost/yosys.sh -- synthesize one Verilog block with Yosys and write its figures for
# `gpusim cost --yosys DIR` (cost/report.c reads DIR/<block>.txt).
#
#   sh cost/yosys.sh RTL_FILE OUTDIR [LIBERTY]
#
# OUTDIR must hold gpusim_params.vh (`gpusim rtl-params --config FILE`), which the blocks
# `include; a module parameter named like one of its localparams is also set with chparam.
# The module is the file's basename. Two steps:
#   1. generic: synth -flatten -nofsm -noabc -top <block>; stat (-nofsm: no FSM re-encoding,
#      which would turn a binary state register into a one-hot one; -noabc: the combinational
#      logic stays as Yosys's generic gates, step 2 maps it -- ABC on the 1.6 M gates of simt
#      at gtx480 needed more than 18 GB). cells = every generic cell; ff_bits = the flip-flop
#      and latch cells ($_DFF*, $_SDFF*, $_DFFE*, $_ALDFF*, $_DLATCH*, $_SR*: one bit each
#      after synth). The netlist is kept as OUTDIR/<block>.il.
#   2. cell library, from that netlist: dfflibmap + abc -liberty on the osu018 0.18 um library
#      (Debian package qflow-tech-osu018), stat -liberty: lib_cells, lib_ff (its DFF cells),
#      lib_area_um2 (sum of the cells' areas, um^2 at 180 nm, before placement). Large
#      blocks take long here: COST_LIB_TIMEOUT seconds (default 0 = no limit) bounds it,
#      COST_LIB_ABC: options of Yosys's abc (mk/cost.mk passes -fast: ABC's quick mapping
#      script; empty = the full one, much slower on large blocks), COST_LIB=0 skips the step; then
#      the file says lib_timeout / lib_skipped and the report shows no area for the block.
#      COST_LIB_MEM_MB (default 12288) caps the step's virtual memory (ulimit -v for Yosys and
#      its ABC), so that a block too large to map fails with lib_failed instead of taking
#      the machine's memory.
# COST_SYN_TIMEOUT seconds (default 0 = no limit) bounds step 1; a timeout is a failure.
# COST_OFFCHIP (environment): names of storage that is not on chip (`gpusim cost --offchip
# BLOCK`; no block has any today, simt's former memory image "mem" was one): a memory or the
# flip-flops named NAME or NAME_q are deleted before synthesis and what read them becomes an
# input port (setundef -expose), as the data would come from the memory system.
# Writes OUTDIR/<block>.txt ("key value" lines) and the Yosys logs OUTDIR/<block>.log,
# OUTDIR/<block>.lib.log. Exit status: 0, 1 on a Yosys or parse failure of step 1.
set -e
rtl=$1
out=$2
lib=${3:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
YOSYS=${YOSYS:-yosys}
tmo=${COST_LIB_TIMEOUT:-0}
[ -n "$rtl" ] && [ -n "$out" ] || { echo "usage: cost/yosys.sh RTL_FILE OUTDIR [LIBERTY]" >&2; exit 1; }
[ -f "$rtl" ] || { echo "cost/yosys.sh: no file $rtl" >&2; exit 1; }
[ -f "$lib" ] || { echo "cost/yosys.sh: no liberty file $lib (make deps installs qflow-tech-osu018)" >&2; exit 1; }
command -v "$YOSYS" >/dev/null || { echo "cost/yosys.sh: $YOSYS not found (make deps)" >&2; exit 1; }
blk=$(basename "$rtl" .sv)
blk=$(basename "$blk" .v)
vh=$out/gpusim_params.vh
[ -f "$vh" ] || { echo "cost/yosys.sh: no $vh" >&2; exit 1; }

# chparam for module parameters that share a name with a generated localparam
chp=""
for p in $(sed -n 's/^ *localparam *\(\[[^]]*\] *\)\{0,1\}\([A-Z_0-9]*\) *=.*/\2/p' "$vh"); do
    if grep -Eq "parameter +(int +|integer +|logic +(\[[^]]*\] *)?)?$p\b" "$rtl"; then
        v=$(sed -n "s/^ *localparam *\(\[[^]]*\] *\)\{0,1\}$p *= *\([^;]*\);.*/\2/p" "$vh")
        chp="$chp chparam -set $p $v $blk;"
    fi
done

# storage that is not on chip: cut it out, its readers take the data from a new input
cut=""
for n in $COST_OFFCHIP; do
    for w in "$n" "${n}_q"; do
        cut="$cut delete t:\$mem_v2 */$w %i; delete */w:$w %ci1 */t:\$*dff* %i;"
    done
done
[ -n "$cut" ] && cut="proc; memory_collect; $cut setundef -undriven -expose;"

gen=$out/$blk.generic.stat
cel=$out/$blk.lib.stat
il=$out/$blk.il
rm -f "$out/$blk.txt" "$gen" "$cel"

# 1. generic synthesis (bounded by COST_SYN_TIMEOUT seconds when set)
syn=""
[ "${COST_SYN_TIMEOUT:-0}" -gt 0 ] 2>/dev/null && syn="timeout $COST_SYN_TIMEOUT"
$syn "$YOSYS" -q -l "$out/$blk.log" -p "read_verilog -sv -I$out -I$(dirname "$rtl") $rtl; $chp hierarchy -check \
    -top $blk; $cut synth -flatten -nofsm -noabc -top $blk; tee -q -o $gen stat; write_rtlil $il" \
    >/dev/null 2>&1 || {
    rc=$?
    [ $rc -eq 124 ] && echo "cost/yosys.sh: synthesis of $rtl timed out after ${COST_SYN_TIMEOUT}s" >&2 ||
        { echo "cost/yosys.sh: yosys failed on $rtl (log: $out/$blk.log)" >&2; tail -n 20 "$out/$blk.log" >&2; }
    exit 1; }
cells=$(sed -n 's/^ *Number of cells: *\([0-9]*\).*/\1/p' "$gen" | tail -n 1)
ffs=$(awk '$1 ~ /^\$_(DFF|DFFE|SDFF|SDFFE|SDFFCE|ALDFF|ALDFFE|DFFSR|DFFSRE|DLATCH|SR|FF)_/ { n += $2 } END { print n + 0 }' "$gen")
[ -n "$cells" ] || { echo "cost/yosys.sh: no cell count in $gen" >&2; exit 1; }

# 2. the osu018 cell library (bounded by COST_LIB_TIMEOUT seconds when set)
lscript="read_rtlil $il; dfflibmap -liberty $lib; abc $COST_LIB_ABC -liberty $lib; opt_clean; \
    tee -q -o $cel stat -liberty $lib"
libst=ok
tcmd=""
[ "$tmo" -gt 0 ] 2>/dev/null && tcmd="timeout $tmo"
if [ "${COST_LIB:-1}" = 0 ]; then
    libst=skipped
else
    ( ulimit -v $((${COST_LIB_MEM_MB:-12288} * 1024)) 2>/dev/null
      $tcmd "$YOSYS" -q -l "$out/$blk.lib.log" -p "$lscript" >/dev/null 2>&1 ) || {
        [ $? -eq 124 ] && libst=timeout || libst=failed; }
fi
lcells=""; lff=""; area=""
if [ "$libst" = ok ]; then
    lcells=$(sed -n 's/^ *Number of cells: *\([0-9]*\).*/\1/p' "$cel" | tail -n 1)
    lff=$(awk '$1 ~ /^(DFFPOSX1|DFFNEGX1|DFFSR|LATCH)$/ { n += $2 } END { print n + 0 }' "$cel")
    area=$(sed -n 's/^ *Chip area for module.*: *\([0-9.]*\).*/\1/p' "$cel" | tail -n 1)
    [ -n "$lcells" ] && [ -n "$area" ] || libst=failed
fi
rm -f "$il"
{
    echo "cells $cells"
    echo "ff_bits $ffs"
    if [ "$libst" = ok ]; then
        echo "lib_cells $lcells"
        echo "lib_ff $lff"
        echo "lib_area_um2 $area"
    else
        echo "lib_$libst 1"
    fi
} > "$out/$blk.txt.tmp"
mv "$out/$blk.txt.tmp" "$out/$blk.txt"
if [ "$libst" = ok ]; then
    echo "yosys $blk: $cells cells, $ffs flip-flop bits; osu018: $lcells cells, $lff flip-flops, $area um^2"
else
    echo "yosys $blk: $cells cells, $ffs flip-flop bits; osu018 mapping: $libst (log: $out/$blk.lib.log)"
fi
