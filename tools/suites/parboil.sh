#!/bin/sh
# tools/suites/parboil.sh -- builds a user's own checkout of Parboil's CUDA programs for the
# model and writes an applications file (docs/apps.md) that `gpusim report page --apps`,
# `gpusim sweep` (apps: line), `gpusim exec --apps FILE --app NAME` and tools/suites'
# divergence.sh and kernels.sh take.
#
#   tools/suites/parboil.sh [--parboil DIR] [--out DIR] [--size small|tiny|table1]
#                           [--only A,B,...] [--nvcc PATH]
#
# --parboil   the checkout (default $GPUSIM_PARBOIL; tried on yuhc/gpu-parboil): its
#             common/src/parboil_cuda.c and benchmarks/NAME/src/cuda are only read: each
#             program's directory is copied into OUT/NAME, with the timer and argument library
#             (common/include/parboil.h, common/src/parboil_cuda.c) in OUT/NAME/parboil
# --out       where the copies, the inputs and OUT/parboil.apps go (default build/suites/parboil)
# --size      small (default: each program runs in seconds to a minute or two on the model),
#             tiny (smaller still, for a quick check) or table1 (the small sizes, but where 000's
#             Table 1 names a kernel, the input that gives that kernel Table 1's TB count, when it
#             runs in minutes: stencil 128 x 128 x 32 (64 TBs), mri-q 32 768 pixels (128),
#             cutcp a 41 x 41 x 16 A box (121 per launch), tpacf 100 random sets (201), lbm 1
#             step (18 000), mri-gridding 2 656 000 samples (binning_kernel 5 188, splitSort
#             2 594, scan_L1_kernel 41); for tools/suites/divergence.sh and kernels.sh)
# --only      build only these programs (names as in the summary)
# --nvcc      the compiler (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#
# Each program is built as Parboil's makefiles build it (common/mk/cuda.mk), with
# `nvcc -cudart shared`: its host files (.c, .cc) and parboil_cuda.c without -O (the makefiles'
# gcc lines have none), its CUDA files with -O3 and the makefile's APP_CUDACFLAGS (mri-q's
# --use_fast_math), linked; architectures (-arch compute_12/20, which nvcc 13 no longer has) and
# sgemm's host -g3 -ffast-math are left out. Parboil's sources are not changed; the workarounds:
#   -DcudaThreadSynchronize=cudaDeviceSynchronize  mri-q, cutcp, lbm (removed in CUDA 12)
#   sgemm     io.cc's readColMajorMatrixFile has no return: built without -O as its makefile
#             does (at -O3, g++ makes the missing return a throw before any kernel runs); its
#             B file, which it does not read (it reads A and B^T), is given as B^T's
#   stencil   main.cu includes kernels.cu: built from main.cu (and file.cc) alone
#   histo     main.cu sizes its histogram buffers with the image's width: the image is as wide
#             as the histogram (narrower, histo_main_kernel reads past global_histo)
#   tpacf     gen_hists loads its next tile of 256 points with no __syncthreads() at the end of
#             its loop, a race once there are two tiles: -p (points a set) is at most 256, so
#             each run computes the same histograms; table1's -p is 128: at 256, its 45 resident
#             TBs of 8 warps run 24 k warp instructions each with no store (only shared
#             atomics) before any exits, past the runaway watchdog's max_spin_insns (8 M)
#   lbm       its lattice is fixed (120 x 120 x 150 cells: 18 000 TBs a time step, about a
#             minute on the model): every size runs 1 time step (its argument)
#   mri-gridding  table1's 2 656 000 samples give Table 1's TB counts, which depend on the
#             sample count alone; gridding them all on the GPU (gridding_GPU, not in Table 1)
#             would be about a billion warp instructions more, so its grid is 8 x 8 x 8 with
#             at most 2 samples a bin on the GPU (its argument; at 4, gridding_GPU's 2 TBs
#             run 2.4 M cycles without a store, near the runaway watchdog's max_warp_age) and
#             the rest gridded on the host, as the program does with a bin's excess; which
#             samples those are follows the order of binning_kernel's atomics. The run is
#             then the sort's (3 passes over 2 594 TBs: 275 M warp instructions, about 6
#             minutes of CPU). small and tiny keep every sample on the GPU (16^3 bins of 128).
# bfs, sad and spmv are listed "not built": they use texture references, which CUDA 12 removed.
#
# The inputs are written by tools/suites/gen.c from fixed seeds (Parboil's datasets are a
# separate download): sgemm `gen matrix`, stencil `gen floats`, histo `gen histo`, mri-q
# `gen mriq`, cutcp `gen pqr`, tpacf `gen points` (the data set and each random set; the
# random sets' checksums in random.cksum, an input line: an application names at most 16
# files), lbm `gen obstacles`, mri-gridding `gen samples` (FILE.uks.data; FILE.uks, its
# parameters, is written here). Each program runs through tools/suites/parboil/outsum.sh,
# which prints the checksum of the result file it writes with -o, so that the comparison of
# outputs covers it; Parboil's timer lines (IO, Kernel, Copy, Driver, Compute and sub-timers,
# CPU/Kernel Overlap, Timer Wall Time; the Kernel timer is the simulated time, absent under
# the functional model) and sgemm's GFLOPs are ignore lines. Prints a table: each program,
# built or not and why. Exit status: 0 when the table was written (whatever it says), 2 on a
# usage error, a missing tool or a missing checkout.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=parboil NAME=Parboil ARTICLE=a MARKER=common/src/parboil_cuda.c
PROGRAMS="sgemm stencil histo mri-q cutcp tpacf lbm mri-gridding"
. "$HERE/suite_opts.sh"
PB=$SRC
. "$HERE/build_common.sh"

# ---- helpers ---------------------------------------------------------------------------------

# pcopy NAME: a fresh copy of the checkout's benchmarks/NAME/src/cuda in OUT/NAME, the library
# in OUT/NAME/parboil and outsum.sh beside it.
pcopy() {
    [ -d "$PB/benchmarks/$1/src/cuda" ] ||
        { failed "$1" "not in the checkout (no benchmarks/$1/src/cuda)"; return 1; }
    copy "$1" "$PB/benchmarks/$1/src/cuda"
    mkdir -p "$OUT/$1/parboil"
    cp "$PB/common/include/parboil.h" "$PB/common/src/parboil_cuda.c" "$OUT/$1/parboil/"
    cp "$HERE/parboil/outsum.sh" "$OUT/$1/"
}

# pbuild NAME HOST CUDA [FLAGS...]: the program OUT/NAME/NAME: the host files HOST and
# parboil_cuda.c compiled without -O, the CUDA files CUDA with -O3 and FLAGS, linked.
pbuild() {
    pb_n=$1 pb_h=$2 pb_c=$3; shift 3
    build "$pb_n" "nvcc failed" -c -Iparboil $pb_h parboil/parboil_cuda.c || return
    # shellcheck disable=SC2046
    build "$pb_n" "nvcc failed" -O3 -Iparboil "$@" $pb_c $(objs $pb_h) parboil_cuda.o -o "$pb_n"
}
objs() { for f in "$@"; do printf '%s.o ' "${f%.*}"; done; }

# papp NAME FILE ARGS...: NAME's entry, run through outsum.sh (FILE, the result it writes with
# -o, checksummed), the program an input (the run line's program is the wrapper), Parboil's
# timer lines ignored.
papp() {
    pa_n=$1 pa_f=$2; shift 2
    app "$pa_n" "$pa_n" ./outsum.sh "$pa_f" "./$pa_n" "$@"
    line input "$pa_n"
    line ignore '^(IO|Kernel|Copy|Driver|Copy Async|Compute|CPU/Kernel Overlap|Timer Wall Time) *: [0-9.]+$'
    line ignore '^ -[A-Za-z]+ *: [0-9.]+$'
}

T=-DcudaThreadSynchronize=cudaDeviceSynchronize
if [ "$SIZE" = tiny ]; then
    SG_M=128 SG_K=64 SG_N=32 ST_X=64 ST_Y=16 ST_Z=8 ST_T=2 HI_W=64 HI_H=32 HI_B=1024 HI_T=1
    MQ_K=64 MQ_X=256 CP_N=100 CP_L=12 CP_Z=8 TP_N=2 TP_P=64 MG_N=4096 MG_G=16 MG_B=128
else
    SG_M=128 SG_K=64 SG_N=96 ST_X=64 ST_Y=64 ST_Z=16 ST_T=10 HI_W=256 HI_H=64 HI_B=4096 HI_T=2
    MQ_K=256 MQ_X=1024 CP_N=500 CP_L=24 CP_Z=16 TP_N=4 TP_P=256 MG_N=20000 MG_G=16 MG_B=128
fi
if [ "$SIZE" = table1 ]; then      # 000 Table 1's TBs: block2D_hyb_coarsen 64 (128 / 64 x
    # 128 / 4), ComputeQ_GPU 128 (32 768 / 256), cu_cutoff_pot_lat 121 (11 x 11 regions of 8
    # lattice points, 0.5 A apart), gen_hists 201 (2 x 100 + 1), binning_kernel 5 188 and
    # splitSort 2 594 (samples / 512 and / 1 024), scan_L1_kernel 41 (2 594 x 16 / 1 024)
    ST_X=128 ST_Y=128 ST_Z=32 ST_T=20 MQ_K=1024 MQ_X=32768 CP_N=1600 CP_L=41 CP_Z=16
    TP_N=100 TP_P=128 MG_N=2656000 MG_G=8 MG_B=2
fi

# ---- the programs ----------------------------------------------------------------------------

p_sgemm() {
    pcopy sgemm || return
    pbuild sgemm io.cc main.cu || return
    "$GEN" matrix $SG_M $SG_K 1 > "$OUT/sgemm/a.txt"
    "$GEN" matrix $SG_N $SG_K 2 > "$OUT/sgemm/bt.txt"
    papp sgemm c.txt -i a.txt,bt.txt,bt.txt -o c.txt
    line input a.txt
    line input bt.txt
    line ignore '^GFLOPs ='
    built sgemm "A $SG_M x $SG_K, B $SG_K x $SG_N, random; host files without -O (io.cc)"
}

p_stencil() {
    pcopy stencil || return
    pbuild stencil file.cc main.cu || return
    "$GEN" floats $((ST_X * ST_Y * ST_Z)) 3 > "$OUT/stencil/in.bin"
    papp stencil out.bin -i in.bin -o out.bin $ST_X $ST_Y $ST_Z $ST_T
    line input in.bin
    built stencil "a random $ST_X x $ST_Y x $ST_Z grid, $ST_T steps; from main.cu (it includes kernels.cu)"
}

p_histo() {
    pcopy histo || return
    pbuild histo "" "main.cu histo_final.cu histo_intermediates.cu histo_main.cu \
        histo_prescan.cu util.cu" || return
    "$GEN" histo $HI_W $HI_H $HI_W $HI_B 4 > "$OUT/histo/img.bin"
    papp histo hout.bmp -i img.bin -o hout.bmp $HI_T
    line input img.bin
    built histo "a $HI_W x $HI_H image of gaussian bin numbers, $HI_W x $HI_B bins (as wide as the image), $HI_T iterations"
}

p_mri_q() {
    pcopy mri-q || return
    pbuild mri-q file.cc main.cu --use_fast_math $T || return
    "$GEN" mriq $MQ_K $MQ_X 5 > "$OUT/mri-q/in.bin"
    papp mri-q qout.bin -i in.bin -o qout.bin
    line input in.bin
    built mri-q "$MQ_K random k-space samples, $MQ_X pixels; $T"
}

p_cutcp() {
    pcopy cutcp || return
    pbuild cutcp "main.c readatom.c output.c excl.c cutcpu.c" cutoff6overlap.cu $T || return
    "$GEN" pqr $CP_N $CP_L $CP_L $CP_Z 6 > "$OUT/cutcp/atoms.pqr"
    papp cutcp lattice.bin -i atoms.pqr -o lattice.bin
    line input atoms.pqr
    built cutcp "$CP_N random atoms in a $CP_L x $CP_L x $CP_Z A box; $T"
}

p_tpacf() {
    pcopy tpacf || return
    pbuild tpacf "args.cc model_io.cc" main.cu || return
    "$GEN" points $TP_P 7 > "$OUT/tpacf/data.txt"
    tp_l=data.txt tp_i=1
    while [ $tp_i -le $TP_N ]; do
        "$GEN" points $TP_P $((100 + tp_i)) > "$OUT/tpacf/random$tp_i.txt"
        tp_l=$tp_l,random$tp_i.txt tp_i=$((tp_i + 1))
    done
    (cd "$OUT/tpacf" && cksum random*.txt > random.cksum)
    papp tpacf tout.txt -i $tp_l -o tout.txt -- -n $TP_N -p $TP_P
    line input data.txt
    line input random.cksum
    built tpacf "$TP_P random points, $TP_N random sets (-p at most 256: one tile, the race)"
}

p_lbm() {
    pcopy lbm || return
    pbuild lbm main.cc lbm.cu $T || return
    set -- $(sed -n 's/^#define SIZE_[XYZ] *(\([0-9]*\)).*/\1/p' "$OUT/lbm/layout_config.h")
    [ $# = 3 ] || { failed lbm "no SIZE_X, SIZE_Y, SIZE_Z in layout_config.h"; return; }
    "$GEN" obstacles "$1" "$2" "$3" 8 > "$OUT/lbm/obstacles.of"
    papp lbm velocity.bin -i obstacles.of -o velocity.bin 1
    line input obstacles.of
    built lbm "$1 x $2 x $3 cells (fixed), 12 random balls, 1 time step; $T"
}

# uks N G: mri-gridding's parameter file for N samples on a G^3 grid
uks() {
    printf 'aquisition.numsamples=%s\naquisition.kmax=0.5 0.5 0.5\n' "$1"
    for k in aquisition reconstruction gridding; do
        printf '%s.matrixSize=%s %s %s\n' $k $2 $2 $2
    done
    printf 'gridding.oversampling=2\nkernel.width=2\nkernel.useLUT=1\n'
}

p_mri_gridding() {
    pcopy mri-gridding || return
    pbuild mri-gridding CPU_kernels.c "CUDA_interface.cu scanLargeArray.cu sort.cu main.cu" ||
        return
    "$GEN" samples $MG_N 9 > "$OUT/mri-gridding/k.uks.data"
    uks $MG_N $MG_G > "$OUT/mri-gridding/k.uks"
    papp mri-gridding passed.bin -i k.uks -o passed.bin $MG_B
    line input k.uks
    line input k.uks.data
    built mri-gridding "$MG_N random samples, ${MG_G}^3 bins, at most $MG_B a bin on the GPU (the rest on the host)"
}

# The programs that cannot run on the model, with the reason (docs/cuda.md).
not_run() {
    for p in bfs sad spmv; do
        failed $p "texture references (removed in CUDA 12): does not compile with nvcc 13"
    done
}

for p in $PROGRAMS; do
    wanted $p || continue
    echo "parboil.sh: $p" >&2
    p_$(echo $p | tr - _)
done
[ -n "$ONLY" ] || not_run

finish "$PB" "$SIZE"
exit 0
