#!/usr/bin/env bash
# Multi-pass tiles of 32 columns where they fit (twiddle-b32, an experiment) against the default 16.
set -u
OUT=${1:-/tmp/out}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
C=65536,131072,262144,1048576
i=0
run() {
  local label=$1 bin=$2; shift 2
  i=$((i+1))
  .h200/$bin bench --reps 20 --n $C "$@" > $OUT/run$i.txt 2>&1
  printf "%-22s" "$label"; grep -E "^ +[0-9]+ " $OUT/run$i.txt | awk '{printf "%s %s %s %s; ", $1, $3, $5, $6}'; echo
}
run "r2c b16" twiddle --real
run "r2c b32" twiddle-b32 --real
run "c2c b16" twiddle
run "c2c b32" twiddle-b32
run "r2c b16 again" twiddle --real
run "r2c b32 again" twiddle-b32 --real
for n in 65536 1048576; do .h200/twiddle-b32 info --n $n --real --batch 8 | grep -E "summary|columns_per_workgroup"; done
cd $OUT && tar czf runs.tgz run*.txt && rm run*.txt
