#!/usr/bin/env bash
set -u
OUT=$1
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
C=1024x2048x1023,4096x8192x4095
run() { name=$1; shift; .h200/twiddle bench --sht $C --fields 8 --reps 30 "$@" > $OUT/$name.txt 2>&1; echo "== $name $*"; grep -E "synthesis|analysis|rror" $OUT/$name.txt | awk '{print $1, $3, $4, $6, $7, $9}' | tr '\n' ';'; echo; }
run default
export TWIDDLE_COLUMN_HALVES=1
run halves-b2
run halves-b4 --workgroup 1024 --shared 49152
run halves-b4-24k --workgroup 1024 --shared 34000
unset TWIDDLE_COLUMN_HALVES
.h200/cufft_bench --sht --sht-cases $C --fields 8 --reps 30 | tail -8
