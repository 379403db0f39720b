#!/usr/bin/env bash
# Column tiles of 2D convolutions and transforms: the planner's default against --columns 4 and 2.
set -uo pipefail
out=$1
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export TWIDDLE_CACHE_DIR=/tmp/twiddle-cache
for c in 0 4 2 16; do
  extra=""; [ "$c" != 0 ] && extra="--columns $c"
  echo "== columns $c" | tee -a "$out/summary.txt"
  .h200/twiddle bench --convolve 512x512,1024x1024,2048x2048 $extra 2>&1 | tail -9 | tee "$out/conv-$c.txt" | grep " node\| store" | tee -a "$out/summary.txt"
  .h200/twiddle bench --shapes 512x512,1024x1024,2048x2048 $extra 2>&1 | tail -3 | tee "$out/fft-$c.txt" | tee -a "$out/summary.txt"
done
