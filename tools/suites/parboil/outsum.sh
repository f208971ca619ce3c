#!/bin/sh
# tools/suites/parboil/outsum.sh FILE PROGRAM ARGS... -- runs PROGRAM ARGS, then prints FILE's
# checksum (cksum: CRC and byte count). parboil.sh copies it beside each program and runs the
# program through it: an applications file compares what a program prints (docs/apps.md), and
# a Parboil program prints little more than its timers -- its result is the file it writes
# with -o, so the checksum line puts that file in the comparison (gpusim exec --check, the
# page, tools/suites/kernels.sh). Exit status: the program's when it fails, 1 when it wrote
# no FILE, else 0.
f=$1
shift
rm -f "$f"
"$@" || exit
sum=$(cksum < "$f") || exit 1
printf 'output %s: %s\n' "$f" "$sum"
