#!/bin/sh
# Remake the fatbinary sections tests/test_fatbin.c reads (needs nvcc 13 and objcopy; the
# outputs are checked in, so make test needs neither): tiny.cu compiled by nvcc in five forms,
# the .nv_fatbin section of each program kept as FORM.fatbin.
#   zstd   nvcc's default (the PTX compressed with zstd)
#   none   --compress-mode=none (plain text)
#   lz4    --compress-mode=speed (LZ4, what older nvcc used by default)
#   multi  PTX for compute_75 and compute_80, SASS for sm_75
#   sass   SASS for sm_75 only, no PTX
set -e
cd "$(dirname "$0")"
t=$(mktemp -d)
nvcc -cudart shared -o "$t/zstd" tiny.cu
nvcc -cudart shared --compress-mode=none -o "$t/none" tiny.cu
nvcc -cudart shared --compress-mode=speed -o "$t/lz4" tiny.cu
nvcc -cudart shared -gencode arch=compute_75,code=[sm_75,compute_75] \
     -gencode arch=compute_80,code=compute_80 -o "$t/multi" tiny.cu
nvcc -cudart shared -gencode arch=compute_75,code=sm_75 -o "$t/sass" tiny.cu
for f in zstd none lz4 multi sass; do
    objcopy -O binary --only-section=.nv_fatbin "$t/$f" "$f.fatbin"
done
rm -rf "$t"
