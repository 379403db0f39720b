#!/usr/bin/env bash
# r2c 2^19-2^21: the final planner (split fused into the last pass only with tiles of 8 columns or more) against split apart (twiddle-prev).
set -u
OUT=${1:-/tmp/out}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
C=524288,1048576,2097152
for b in twiddle twiddle-prev twiddle twiddle-prev; do
  printf "%-14s" $b; .h200/$b bench --real --reps 20 --n $C 2>&1 | grep -E "^ +[0-9]+ " | awk '{printf "%s %s %s %s; ", $1, $3, $5, $6}'; echo
done
.h200/cufft_bench --r2c --cases $C 2>&1 | grep -E "^ +[0-9]+ " | tail -3
