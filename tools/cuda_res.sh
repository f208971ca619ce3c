#!/bin/sh
# tools/cuda_res.sh GPUSIM APP -- the register records of a checked-in CUDA program (make
# cuda-apps, mk/cuda.mk): APP runs once under GPUSIM exec on the functional model with
# GPUSIM_DUMP_PTX, which writes the PTX of each of its modules as it is loaded; gpusim res
# records ptxas's counts for module N as APP.N.res beside APP, and those of its kernels' VTW
# transforms as APP.N.vtw.res (for the kernels VTW can transform). The runtime library finds
# a record by the hash of the PTX it carries, and the transforms' record beside it
# (docs/cuda.md "Registers"), so where ptxas is absent (CI) the registers are still ptxas's.
# Needs ptxas (it comes with nvcc). Extra arguments are APP's (e.g. a bench program's size).
set -e
gpusim=$1
app=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f "$app".*.res
GPUSIM_DUMP_PTX=$tmp "$gpusim" exec --set model=functional --summary off -- "$app" "$@" >/dev/null 2>&1 || true
base=${app##*/}
for ptx in "$tmp"/module-*.ptx; do
    [ -e "$ptx" ] || { echo "cuda_res.sh: $app has no PTX: no record"; exit 0; }
    n=${ptx##*/module-}
    n=${n%.ptx}
    mkdir "$tmp/$n"
    cp "$ptx" "$tmp/$n/$base.$n.ptx"
    "$gpusim" res "$tmp/$n/$base.$n.ptx" || { echo "cuda_res.sh: gpusim res failed on module $n of $app"; exit 1; }
    mv "$tmp/$n/$base.$n.res" "$app.$n.res"
    echo "gpusim res: $app.$n.res"
    if [ -e "$tmp/$n/$base.$n.vtw.res" ]; then
        mv "$tmp/$n/$base.$n.vtw.res" "$app.$n.vtw.res"
        echo "gpusim res: $app.$n.vtw.res"
    fi
done
