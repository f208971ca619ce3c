#!/bin/sh
# tools/cuda_res.sh GPUSIM APP -- the register records of a CUDA program of the tests
# (make cuda-apps, mk/cuda.mk): APP runs once under GPUSIM exec on the functional model with
# GPUSIM_DUMP_PTX, which writes the PTX of each of its modules as it is loaded; gpusim res
# records ptxas's counts for module N as APP.N.res beside APP. The runtime library finds a
# record by the hash of the PTX it carries (docs/cuda.md "Registers"), so where ptxas is
# absent (CI) the registers are still ptxas's. Needs ptxas (it comes with nvcc).
set -e
gpusim=$1
app=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f "$app".*.res
GPUSIM_DUMP_PTX=$tmp "$gpusim" exec --set model=functional --summary off -- "$app" >/dev/null 2>&1 || true
for ptx in "$tmp"/module-*.ptx; do
    [ -e "$ptx" ] || { echo "cuda_res.sh: $app has no PTX: no record"; exit 0; }
    n=${ptx##*/module-}
    n=${n%.ptx}
    "$gpusim" res "$ptx" -o "$app.$n.res"
    echo "gpusim res: $app.$n.res"
done
