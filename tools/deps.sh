#!/bin/sh
# Install every build and test dependency from Debian packages. Idempotent and quick when
# everything is present; non-interactive; uses sudo only when not root.
set -e
# clang and libclang-rt-14-dev (libFuzzer and the sanitizer runtimes of Debian 12's clang 14,
# only recommended by clang-14, so named here): make fuzz (mk/fuzz.mk). valgrind: the callgrind
# speed guard of make bench-speed (tools/speed_guard.sh). gnuplot-nox: the plots of gpusim report
# page (make run, make report); chromium: the test that opens that page in a headless browser.
# parallel (GNU parallel): gpusim sweep's local runs; slurm-wlm (slurmctld, slurmd, the sbatch
# client) and munge (Slurm's authentication): gpusim sweep --slurm and the single-node Slurm
# tests/test_sweep.c starts (tools/slurm_local.sh; the packages' own services are not used).
# libzstd-dev and liblz4-dev: the CUDA runtime library (build/cuda/libcudart.so.13, mk/cuda.mk)
# decompresses the PTX nvcc compresses in a program's fatbinary (zstd by default, LZ4 before).
PKGS="gcc g++ make libcmocka-dev verilator libsystemc-dev yosys qflow-tech-osu018 clang libclang-rt-14-dev valgrind gnuplot-nox chromium parallel slurm-wlm munge libzstd-dev liblz4-dev"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "make deps: installing$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
